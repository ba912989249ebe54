# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Barrier(2): A's wait (wait_for(b.wait(), timeout)) times out and A
# leaves the round; B and C, arriving later, make up the round between
# them: B gets index 0, C (the last) index 1 and goes on first.
import asyncio


async def party(b, name, pause, timeout=None):
    await asyncio.sleep(pause * 0.01)
    print(f"{name} arrives")
    try:
        i = await asyncio.wait_for(b.wait(), timeout)
        print(f"{name} passes, index {i}")
    except TimeoutError:
        print(f"{name} timed out, waiting: {b.n_waiting}")


async def main():
    b = asyncio.Barrier(2)
    tasks = [
        asyncio.create_task(party(b, "A", 0, 0.02)),
        asyncio.create_task(party(b, "B", 10)),
        asyncio.create_task(party(b, "C", 11)),
    ]
    for t in tasks:
        await t
    print(f"waiting: {b.n_waiting}, broken: {b.broken}")


asyncio.run(main())
