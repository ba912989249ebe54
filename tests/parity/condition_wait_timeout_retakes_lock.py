# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# wait_for(cond.wait(), timeout) with nobody notifying: the wait times out,
# and the lock has been taken back before it returns, after the task that
# holds it meanwhile has released it.
import asyncio


async def waiter(cond):
    async with cond:
        print("W waits 10 units")
        try:
            await asyncio.wait_for(cond.wait(), 0.1)
            print("W notified")
        except TimeoutError:
            print(f"W timed out, holds the lock: {cond.locked()}")
        print("W releases")


async def holder(cond):
    await asyncio.sleep(0.01)
    async with cond:
        print("H holds the lock")
        await asyncio.sleep(0.2)
        print("H releases")


async def main():
    cond = asyncio.Condition()
    w = asyncio.create_task(waiter(cond))
    h = asyncio.create_task(holder(cond))
    await w
    await h
    print(f"locked: {cond.locked()}")


asyncio.run(main())
