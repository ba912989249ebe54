# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Cancelling a task inside asyncio.wait(FIRST_COMPLETED): its wait ends at
# once (its finally runs) and the tasks it waited for are not cancelled;
# they finish later.
import asyncio


async def job(name, units):
    await asyncio.sleep(units * 0.01)
    print(f"{name} finishes")
    return name


async def watcher(tasks):
    try:
        print("watcher waits for the first")
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        print("watcher not reached")
    finally:
        print("watcher finally")


async def main():
    tasks = [asyncio.create_task(job(n, u)) for n, u in (("A", 10), ("B", 20))]
    w = asyncio.create_task(watcher(tasks))
    await asyncio.sleep(0.01)
    print("main cancels watcher")
    w.cancel()
    try:
        await w
    except asyncio.CancelledError:
        print("watcher cancelled")
    print(f"cancelled: {[t.cancelled() for t in tasks]}")
    for t in tasks:
        print(f"main got {await t}")


asyncio.run(main())
