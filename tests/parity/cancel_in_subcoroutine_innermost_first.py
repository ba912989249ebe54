# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Cancelling a task while it awaits a coroutine: the coroutine's finally
# runs first, then the task's own (innermost first).
import asyncio


async def helper():
    try:
        print("helper sleeps")
        await asyncio.sleep(1)
    finally:
        print("helper finally")


async def worker():
    try:
        await helper()
        print("worker not reached")
    finally:
        print("worker finally")


async def main():
    t = asyncio.create_task(worker())
    await asyncio.sleep(0.01)
    print("main cancels")
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        print("join: cancelled")


asyncio.run(main())
