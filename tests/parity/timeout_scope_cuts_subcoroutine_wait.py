# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A timeout scope around `await fetch()`: the deadline cuts the wait inside
# the awaited coroutine; the coroutine's finally runs first, then the block
# ends with TimeoutError in the caller.
import asyncio


async def fetch():
    try:
        print("fetch sleeps")
        await asyncio.sleep(1)
        print("fetch not reached")
        return 1
    finally:
        print("fetch finally")


async def main():
    try:
        async with asyncio.timeout(0.02):
            r = await fetch()
            print(f"got {r}: not reached")
    except TimeoutError:
        print("timed out")


asyncio.run(main())
