# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# asyncio.wait(tasks, timeout): when the timeout passes, the wait gives the
# tasks done so far and those still pending, and cancels nothing: the
# pending task goes on, and awaiting it later gives its result.
import asyncio


async def job(name, units):
    try:
        await asyncio.sleep(units * 0.01)
        print(f"{name} finishes")
        return name
    finally:
        print(f"{name} finally")


async def main():
    a = asyncio.create_task(job("A", 1))
    b = asyncio.create_task(job("B", 15))
    done, pending = await asyncio.wait([a, b], timeout=0.05)
    for t in done:
        print(f"done: {t.result()}")
    print(f"pending: {len(pending)}")
    print(f"B cancelled: {b.cancelled()}")
    print(f"main got {await b}")


asyncio.run(main())
