# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Queue: G1 waits for a value inside asyncio.timeout(0), G2 without one;
# main puts a value in the same iteration, waking G1, before the timeout's
# callback has run. The timeout then cancels G1 before G1 has run: G1
# times out without the value, and G2 gets it. Nothing is lost.
import asyncio


async def getter(q, name, scoped):
    try:
        if scoped:
            async with asyncio.timeout(0):
                v = await q.get()
        else:
            v = await q.get()
        print(f"{name} got {v}")
    except TimeoutError:
        print(f"{name} timed out")


async def main():
    q = asyncio.Queue()
    g1 = asyncio.create_task(getter(q, "G1", True))
    g2 = asyncio.create_task(getter(q, "G2", False))
    await asyncio.sleep(0)
    print("main puts 1")
    q.put_nowait(1)
    await asyncio.gather(g1, g2)
    print(f"left: {q.qsize()}")


asyncio.run(main())
