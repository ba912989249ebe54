# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task cancelled again while its finally waits: asyncio's cancel()
# returns True and raises CancelledError at the finally's await, which
# skips the rest of it.
import asyncio


async def worker():
    try:
        await asyncio.sleep(1)
    finally:
        print("W cleanup waits")
        try:
            await asyncio.sleep(0.01)
            print("W cleanup done")
        except asyncio.CancelledError:
            print("W cleanup cancelled")
            raise


async def main():
    w = asyncio.create_task(worker())
    await asyncio.sleep(0)
    w.cancel()
    await asyncio.sleep(0)
    print(f"second cancel: {w.cancel()}")
    try:
        await w
    except asyncio.CancelledError:
        print("W cancelled")


asyncio.run(main())
