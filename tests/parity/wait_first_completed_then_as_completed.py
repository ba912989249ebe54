# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# asyncio.wait(FIRST_COMPLETED) gives the task that finished first; then
# as_completed gives the others in the order they finish (not the order
# they were created).
import asyncio


async def job(name, units):
    await asyncio.sleep(units * 0.01)
    print(f"{name} finishes")
    return name


async def main():
    tasks = [asyncio.create_task(job(n, u)) for n, u in (("A", 20), ("B", 1), ("C", 10))]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for t in done:
        print(f"first: {t.result()}")
    print(f"pending: {len(pending)}")
    for f in asyncio.as_completed(pending):
        print(f"next: {await f}")
    print("all taken")


asyncio.run(main())
