# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task awaits a coroutine (not a task) that waits on the loop itself; the
# await gives the coroutine's return value.
import asyncio


async def fetch(n):
    print(f"fetch {n} starts")
    await asyncio.sleep(0.01)
    print(f"fetch {n} returns {n * 2}")
    return n * 2


async def main():
    total = 0
    for n in (1, 2, 3):
        r = await fetch(n)
        print(f"main got {r}")
        total += r
    print(f"total {total}")


asyncio.run(main())
