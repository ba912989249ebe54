# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Timers for the same time fire in the order they were set, not the order
# the tasks started: A, B, C start in that order, but set their timers in
# the order C, B, A (A yields twice first, B once).
import asyncio


async def job(name, yields):
    for _ in range(yields):
        await asyncio.sleep(0)
    print(f"{name} sets its timer")
    await asyncio.sleep(0.01)
    print(f"{name} wakes")


async def main():
    await asyncio.gather(job("A", 2), job("B", 1), job("C", 0))


asyncio.run(main())
