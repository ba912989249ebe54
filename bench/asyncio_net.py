#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/asyncio_net.py - the network workloads W6 and W7 of
bench/WORKLOADS.md on Python asyncio (anchor=asyncio) or on uvloop
(anchor=uvloop).

    /usr/bin/python3 bench/asyncio_net.py [--uvloop] echo-server <port> <max seconds>
    /usr/bin/python3 bench/asyncio_net.py [--uvloop] delay-client <port>

echo-server: the W6 server, driven by bench/echo_client. Listens on
127.0.0.1:<port> (backlog 4096), prints a READY line, echoes every byte as
soon as it is read, and exits at the end of its lifetime or on SIGTERM /
SIGINT. Written the fast idiomatic way: an asyncio.Protocol whose
data_received calls transport.write (no streams, no task per connection),
TCP_NODELAY set on every accepted socket (asyncio and uvloop set it too).

delay-client: the W7 client, run against a fresh bench/delay_server. A
request is a coroutine: asyncio.open_connection, write `request`,
readexactly(8) == `response`, close and wait_closed. Phases W7.serial10
(awaited one after another), W7.conc10 and W7.conc1000 (one task each,
asyncio.gather). Everything is allocated inside the timed regions, as
asyncio users do. A wrong or short response prints INVALID and exits 1; a
phase that takes over 60 s, or a failed connect, exits 1.

Use Debian's /usr/bin/python3 (it has python3-uvloop); exits 3 if --uvloop
is asked for and `import uvloop` fails.
"""
import asyncio
import resource
import signal
import socket
import sys
import time

from asyncio_loop import new_loop

ANCHOR = "asyncio"
REQUEST, RESPONSE = b"request", b"response"
PHASE_LIMIT_S = 60.0
# (id, first k, count, concurrent) - as in bench/net_common.h
PHASES = [("W7.serial10", 0, 10, False), ("W7.conc10", 10, 10, True),
          ("W7.conc1000", 20, 1000, True)]


def result(workload, metric, value, unit):
    print(f"RESULT anchor={ANCHOR} workload={workload} metric={metric} "
          f"value={value:.3f} unit={unit}")


def note(workload, text):
    print(f"NOTE anchor={ANCHOR} workload={workload} {text}")


def delay_ms(k):
    """The delay server's delay for request k (splitmix64's finaliser)."""
    m = (1 << 64) - 1
    z = ((k + 1) * 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    z ^= z >> 31
    return 500 + z % 1501


def raise_nofile():
    # 1,000 connections need more than the usual soft limit of 1,024.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- W6: echo server --------------------------------------------------------

class Echo(asyncio.Protocol):
    def connection_made(self, transport):
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.transport = transport

    def data_received(self, data):
        self.transport.write(data)


async def echo_server(port, lifetime):
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.call_later(lifetime, stop.set)
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    server = await loop.create_server(Echo, "127.0.0.1", port, backlog=4096,
                                      reuse_address=True)
    note("W6", "server = asyncio.Protocol, data_received -> transport.write(data)")
    print(f"READY asyncio_net echo-server 127.0.0.1:{port} anchor={ANCHOR}", flush=True)
    await stop.wait()
    server.close()


# ---- W7: delay client -------------------------------------------------------

class Invalid(Exception):
    """A wrong or short response: the run has no figures."""


async def request(port):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(REQUEST)
    try:
        data = await reader.readexactly(len(RESPONSE))
    except asyncio.IncompleteReadError as e:
        raise Invalid(f"connection closed after {len(e.partial)} of the 8 response bytes")
    if data != RESPONSE:
        raise Invalid(f"response {data!r} differs from {RESPONSE!r}")
    writer.close()
    await writer.wait_closed()


async def phase(port, wid, count, concurrent):
    if concurrent:
        await asyncio.gather(*[request(port) for _ in range(count)])
    else:
        for _ in range(count):
            await request(port)


async def delay_client(port):
    for wid, first, count, concurrent in PHASES:
        delays = [delay_ms(k) for k in range(first, first + count)]
        t0 = time.monotonic_ns()  # CLOCK_MONOTONIC
        try:
            await asyncio.wait_for(phase(port, wid, count, concurrent), PHASE_LIMIT_S)
        except Invalid as e:
            print(f"INVALID anchor={ANCHOR} workload={wid} {e}", flush=True)
            return 1
        except asyncio.TimeoutError:
            print(f"asyncio_net: {wid} not done after {PHASE_LIMIT_S:.0f} s; giving up",
                  file=sys.stderr)
            return 1
        except OSError as e:
            print(f"asyncio_net: {wid}: {e}", file=sys.stderr)
            return 1
        total_s = (time.monotonic_ns() - t0) / 1e9
        result(wid, "total_s", total_s, "s")
        result(wid, "overhead_ms",
               total_s * 1000.0 - (max(delays) if concurrent else sum(delays)), "ms")
    note("W7", "request = coroutine: open_connection, write, readexactly(8), close + "
         "wait_closed; concurrency = asyncio.gather")
    return 0


def main(argv):
    global ANCHOR
    args = argv[1:]
    use_uvloop = "--uvloop" in args
    args = [a for a in args if a != "--uvloop"]
    try:
        if len(args) == 3 and args[0] == "echo-server":
            port, lifetime = int(args[1]), float(args[2])
            coro = echo_server
            cargs = (port, lifetime)
        elif len(args) == 2 and args[0] == "delay-client":
            coro, cargs = delay_client, (int(args[1]),)
        else:
            raise ValueError
    except ValueError:
        print(f"usage: {argv[0]} [--uvloop] echo-server <port> <max seconds>\n"
              f"       {argv[0]} [--uvloop] delay-client <port>", file=sys.stderr)
        return 2
    made = new_loop(use_uvloop)
    if made is None:
        return 3
    ANCHOR, loop, version = made
    raise_nofile()
    asyncio.set_event_loop(loop)
    rc = 1
    try:
        rc = loop.run_until_complete(coro(*cargs)) or 0
    finally:
        asyncio.set_event_loop(None)
        if rc == 0:  # (on a failure, tasks may still be pending: just exit)
            loop.close()
    if rc == 0:
        wid = "W6" if args[0] == "echo-server" else "W7"
        note(wid, f"python={sys.version.split()[0]} {version} executable={sys.executable}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
