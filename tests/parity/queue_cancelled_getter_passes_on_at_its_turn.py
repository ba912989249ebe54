# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Queue: G1 and G2 wait for a value; main puts one (G1, the longest
# waiter, is woken for it), cancels G1, then starts L, which gets a value.
# G1 passes its wake-up on when its own turn comes: L, started in between,
# runs first and takes the value; G2, woken after, finds the queue empty
# and waits for the next one.
import asyncio


async def getter(q, name):
    try:
        v = await q.get()
        print(f"{name} got {v}")
    except asyncio.CancelledError:
        print(f"{name} cancelled")
        raise


async def main():
    q = asyncio.Queue()
    g1 = asyncio.create_task(getter(q, "G1"))
    g2 = asyncio.create_task(getter(q, "G2"))
    await asyncio.sleep(0)
    print("main puts 1, cancels G1, starts L")
    q.put_nowait(1)
    g1.cancel()
    l = asyncio.create_task(getter(q, "L"))
    await asyncio.gather(g1, l, return_exceptions=True)
    print("main puts 2")
    q.put_nowait(2)
    await g2


asyncio.run(main())
