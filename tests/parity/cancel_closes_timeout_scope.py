# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task cancelled inside `async with asyncio.timeout()`: the scope is
# closed on the way out, so its finally may wait past the old deadline
# without being cut.
import asyncio


async def worker():
    try:
        async with asyncio.timeout(0.1):
            print("worker sleeps")
            await asyncio.sleep(1)
            print("worker not reached")
    finally:
        print("worker finally sleeps past the deadline")
        await asyncio.sleep(0.15)
        print("worker finally done")


async def main():
    w = asyncio.create_task(worker())
    await asyncio.sleep(0.01)
    print("main cancels worker")
    w.cancel()
    try:
        await w
    except asyncio.CancelledError:
        print("worker cancelled")


asyncio.run(main())
