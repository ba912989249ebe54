# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# as_completed inside `async with asyncio.timeout()`: the results that
# come in time are taken; when the deadline passes, the wait for the next
# one is cut (TimeoutError at the end of the block) and no task is
# cancelled: the slow one finishes later and gives its result.
import asyncio


async def job(name, units):
    try:
        await asyncio.sleep(units * 0.01)
        print(f"{name} finishes")
        return name
    finally:
        print(f"{name} finally")


async def main():
    tasks = [asyncio.create_task(job(n, u)) for n, u in (("A", 20), ("B", 1))]
    try:
        async with asyncio.timeout(0.1):
            for f in asyncio.as_completed(tasks):
                print(f"got {await f}")
            print("all in time")
    except TimeoutError:
        print("timed out")
    print(f"A cancelled: {tasks[0].cancelled()}")
    print(f"main got {await tasks[0]}")


asyncio.run(main())
