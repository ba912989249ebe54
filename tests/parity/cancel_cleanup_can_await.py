# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A cancelled task's finally may itself wait on the loop; the task
# finishes (cancelled) only when its finally is done.
import asyncio


async def worker():
    try:
        print("worker sleeps")
        await asyncio.sleep(1)
    finally:
        print("worker cleanup starts")
        await asyncio.sleep(0.01)
        print("worker cleanup ends")


async def main():
    t = asyncio.create_task(worker())
    await asyncio.sleep(0)
    print("main cancels")
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        print("join: cancelled")


asyncio.run(main())
