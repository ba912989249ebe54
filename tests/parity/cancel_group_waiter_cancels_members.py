# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Cancelling a task that waits at the end of `async with TaskGroup()`
# cancels the group's members that are still running (their finally runs),
# then the task's own finally runs, once they have all finished. (One
# member is left running: asyncio cancels the members in the order of a
# set.)
import asyncio


async def quick():
    try:
        await asyncio.sleep(0.01)
        print("M1 returns")
    finally:
        print("M1 finally")


async def slow():
    try:
        print("M2 sleeps")
        await asyncio.sleep(1)
        print("M2 not reached")
    finally:
        print("M2 finally")


async def runner():
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(quick())
            tg.create_task(slow())
        print("runner not reached")
    finally:
        print("runner finally")


async def main():
    r = asyncio.create_task(runner())
    await asyncio.sleep(0.1)
    print("main cancels runner")
    r.cancel()
    try:
        await r
    except asyncio.CancelledError:
        print("runner cancelled")


asyncio.run(main())
