#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/asyncio_loop.py - workloads W1-W5 of bench/WORKLOADS.md on
Python asyncio (anchor=asyncio) or on uvloop (anchor=uvloop).

    /usr/bin/python3 bench/asyncio_loop.py [--uvloop] <W1a|W1b|W2|W3|W4a|W4b|W5>

runs one workload once in this process and prints its RESULT lines. Use
Debian's /usr/bin/python3 (it has python3-uvloop); exits 3 if --uvloop is
asked for and `import uvloop` fails.

Mapping (idiomatic asyncio; everything is allocated inside the timed region,
as asyncio users do):
  W1a/W1b  a task is a coroutine in an asyncio.Task; a yield is
           `await asyncio.sleep(0)`; main creates the tasks and gathers them.
  W2       per batch: 10,000 loop.create_task(trivial()) then
           `await asyncio.gather(*tasks)` (the reap: results collected).
  W3       loop.call_later(i % 1000 / 1000, cb); the callback counts.
  W4a/W4b  start = loop.call_later(10, cb) (a new TimerHandle per start),
           cancel = handle.cancel(); the loop turn is `await asyncio.sleep(0)`
           of the benchmarking coroutine. Timer entries = len(loop._scheduled)
           (asyncio's heap, which keeps cancelled handles until it purges
           them); uvloop's timers cannot be counted, so for uvloop those two
           metrics are left out.
  W5       await asyncio.sleep(0.5); await asyncio.sleep(0.7); then two tasks
           sleeping 0.5 and 0.7 s, gathered.
"""
import asyncio
import os
import resource
import sys
import time

ANCHOR = "asyncio"


def result(workload, metric, value, unit):
    print(f"RESULT anchor={ANCHOR} workload={workload} metric={metric} "
          f"value={value:.3f} unit={unit}")


def note(workload, text):
    print(f"NOTE anchor={ANCHOR} workload={workload} {text}")


def invalid(workload, what, got, want):
    print(f"INVALID anchor={ANCHOR} workload={workload} {what}: got {got}, expected {want}")
    sys.stdout.flush()
    sys.exit(1)


def check(workload, what, got, want):
    if got != want:
        invalid(workload, what, got, want)


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def rss_mib():
    with open("/proc/self/statm") as f:
        resident = int(f.read().split()[1])
    return resident * os.sysconf("SC_PAGESIZE") / (1024.0 * 1024.0)


now_ns = time.monotonic_ns  # CLOCK_MONOTONIC
cpu_ns = time.process_time_ns  # CLOCK_PROCESS_CPUTIME_ID


# ---- W1 ---------------------------------------------------------------------

async def w1(wid, ntasks, yields):
    count = [0]

    async def yielder():
        for _ in range(yields):
            await asyncio.sleep(0)
            count[0] += 1

    loop = asyncio.get_running_loop()
    t0 = now_ns()
    tasks = [loop.create_task(yielder()) for _ in range(ntasks)]
    await asyncio.gather(*tasks)
    t1 = now_ns()
    check(wid, "resumes", count[0], 1000000)
    check(wid, "finished", sum(1 for t in tasks if t.done()), ntasks)
    note(wid, "task = asyncio.Task, yield = await asyncio.sleep(0)")
    result(wid, "ns_per_resume", (t1 - t0) / 1e6, "ns")


# ---- W2 ---------------------------------------------------------------------

async def w2():
    bodies = [0]
    reaped = 0

    async def trivial():
        bodies[0] += 1
        return 1

    loop = asyncio.get_running_loop()
    t0 = now_ns()
    for _ in range(100):
        tasks = [loop.create_task(trivial()) for _ in range(10000)]
        reaped += sum(await asyncio.gather(*tasks))
    t1 = now_ns()
    check("W2", "bodies", bodies[0], 1000000)
    check("W2", "reaped", reaped, 1000000)
    note("W2", "spawn = loop.create_task, reap = await asyncio.gather (results summed)")
    result("W2", "ns_per_task", (t1 - t0) / 1e6, "ns")


# ---- W3 ---------------------------------------------------------------------

async def w3():
    n = 1000000
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    state = {"fired": 0, "wall": 0, "cpu": 0}

    def cb():
        state["fired"] += 1
        if state["fired"] == n:
            state["wall"] = now_ns()
            state["cpu"] = cpu_ns()
            done.set_result(None)

    base = rss_mib()
    t0 = now_ns()
    c0 = cpu_ns()
    call_later = loop.call_later
    for i in range(n):
        call_later((i % 1000) / 1000.0, cb)
    t1 = now_ns()
    c1 = cpu_ns()
    await done
    check("W3", "firings", state["fired"], n)
    note("W3", "timer = loop.call_later handle, allocated in the schedule phase")
    result("W3", "schedule_ns_per_timer", (t1 - t0) / n, "ns")
    result("W3", "schedule_cpu_ns_per_timer", (c1 - c0) / n, "ns")
    result("W3", "fire_cpu_ns_per_timer", (state["cpu"] - c1) / n, "ns")
    result("W3", "fire_wall_s", (state["wall"] - t1) / 1e9, "s")
    result("W3", "total_s", (state["wall"] - t0) / 1e9, "s")
    result("W3", "peak_rss_mib", peak_rss_mib(), "MiB")
    result("W3", "base_rss_mib", base, "MiB")


# ---- W4 ---------------------------------------------------------------------

async def w4(wid):
    loop = asyncio.get_running_loop()
    fired = [0]
    countable = hasattr(loop, "_scheduled")  # asyncio's heap; uvloop has none
    peak = -1

    def cb():
        fired[0] += 1

    call_later = loop.call_later
    t0 = now_ns()
    if wid == "W4a":
        for _ in range(1000):
            for _ in range(1000):
                call_later(10.0, cb).cancel()
            if countable:
                peak = max(peak, len(loop._scheduled))
        await asyncio.sleep(0)  # the loop's one turn
    else:
        for _ in range(1000):
            handles = [call_later(10.0, cb) for _ in range(1000)]
            for h in handles:
                h.cancel()
            if countable:
                peak = max(peak, len(loop._scheduled))
            await asyncio.sleep(0)  # the round's turn
    t1 = now_ns()
    after = len(loop._scheduled) if countable else -1
    check(wid, "cancelled timers that fired", fired[0], 0)
    note(wid, "start = loop.call_later(10, cb) (new handle per start), cancel = handle.cancel()"
         + ("; entries = len(loop._scheduled)" if countable
            else "; timer entries not observable (left out)"))
    result(wid, "ns_per_start_cancel", (t1 - t0) / 1e6, "ns")
    if countable:
        result(wid, "peak_timer_entries", peak, "entries")
        result(wid, "timer_entries_after_turn", after, "entries")
    result(wid, "peak_rss_mib", peak_rss_mib(), "MiB")


# ---- W5 ---------------------------------------------------------------------

async def w5():
    s0 = now_ns()
    await asyncio.sleep(0.5)
    await asyncio.sleep(0.7)
    s1 = now_ns()
    loop = asyncio.get_running_loop()
    c0 = now_ns()
    cpu0 = cpu_ns()
    a = loop.create_task(asyncio.sleep(0.5))
    b = loop.create_task(asyncio.sleep(0.7))
    await asyncio.gather(a, b)
    c1 = now_ns()
    cpu1 = cpu_ns()
    conc = (c1 - c0) / 1e6
    note("W5", "asyncio.sleep")
    result("W5", "serial_ms", (s1 - s0) / 1e6, "ms")
    result("W5", "concurrent_ms", conc, "ms")
    result("W5", "lateness_ms", conc - 700.0, "ms")
    result("W5", "concurrent_cpu_s", (cpu1 - cpu0) / 1e9, "s")


WORKLOADS = {
    "W1a": lambda: w1("W1a", 1, 1000000),
    "W1b": lambda: w1("W1b", 10000, 100),
    "W2": w2,
    "W3": w3,
    "W4a": lambda: w4("W4a"),
    "W4b": lambda: w4("W4b"),
    "W5": w5,
}


def new_loop(use_uvloop):
    """(anchor name, a new event loop, version text): uvloop's or asyncio's.
    None, after a message, if uvloop is asked for and cannot be imported."""
    if not use_uvloop:
        return "asyncio", asyncio.new_event_loop(), "asyncio"
    try:
        import uvloop
    except ImportError as e:
        print(f"uvloop unavailable: {e}", file=sys.stderr)
        return None
    return "uvloop", uvloop.new_event_loop(), f"uvloop={uvloop.__version__}"


def main(argv):
    global ANCHOR
    args = argv[1:]
    use_uvloop = "--uvloop" in args
    args = [a for a in args if a != "--uvloop"]
    if len(args) != 1 or args[0] not in WORKLOADS:
        print(f"usage: {argv[0]} [--uvloop] <{'|'.join(WORKLOADS)}>", file=sys.stderr)
        return 2
    wid = args[0]
    made = new_loop(use_uvloop)
    if made is None:
        return 3
    ANCHOR, loop, version = made
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(WORKLOADS[wid]())
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    note(wid, f"python={sys.version.split()[0]} {version} executable={sys.executable}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
