# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task cancelled while it waits on a Condition: asyncio's wait() takes
# the lock back before CancelledError goes on, so the finally inside the
# `async with` runs holding the lock (and `async with` then releases it).
import asyncio


async def waiter(cond):
    async with cond:
        try:
            print("W waits")
            await cond.wait()
            print("W not reached")
        finally:
            print(f"W finally, lock held: {cond.locked()}")


async def main():
    cond = asyncio.Condition()
    w = asyncio.create_task(waiter(cond))
    await asyncio.sleep(0.01)
    print("main cancels W")
    w.cancel()
    try:
        await w
    except asyncio.CancelledError:
        print("W cancelled")
    print(f"locked: {cond.locked()}")


asyncio.run(main())
