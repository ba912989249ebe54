# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Timers fire earliest deadline first, whatever the order they were set in.
import asyncio


async def job(name, units):
    print(f"{name} sleeps {units}")
    await asyncio.sleep(units * 0.01)
    print(f"{name} wakes")


async def main():
    await asyncio.gather(job("A", 3), job("B", 1), job("C", 2))


asyncio.run(main())
