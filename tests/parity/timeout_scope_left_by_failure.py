# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# An exception that goes out of `async with asyncio.timeout()` closes the
# scope on its way: the task's finally, after the block, may then wait past
# the scope's deadline without being cut.
import asyncio


async def parse():
    await asyncio.sleep(0.01)
    print("parse raises 5")
    raise ValueError(5)


async def worker():
    try:
        async with asyncio.timeout(0.1):
            await parse()
            print("worker not reached")
    finally:
        print("worker finally sleeps past the deadline")
        await asyncio.sleep(0.15)
        print("worker finally done")


async def main():
    w = asyncio.create_task(worker())
    try:
        await w
    except ValueError as e:
        print(f"worker failed with {e.args[0]}")


asyncio.run(main())
