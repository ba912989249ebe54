# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `await task` inside asyncio.timeout(): when the deadline passes, the
# awaited task is cancelled (its finally runs) and the block ends with
# TimeoutError once it has finished.
import asyncio


async def slow():
    try:
        print("slow starts")
        await asyncio.sleep(1)
        print("slow not reached")
    finally:
        print("slow finally")


async def main():
    t = asyncio.create_task(slow())
    try:
        async with asyncio.timeout(0.02):
            await t
            print("join not reached")
    except TimeoutError:
        print("timed out")
    print(f"slow cancelled: {t.cancelled()}")


asyncio.run(main())
