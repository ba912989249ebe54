# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# await asyncio.sleep(0) goes to the back of the ready queue: tasks that
# keep yielding take turns, round robin, in the order they started.
import asyncio


async def job(name):
    for i in range(3):
        print(f"{name} {i}")
        await asyncio.sleep(0)
    print(f"{name} done")


async def main():
    await asyncio.gather(*(job(n) for n in "ABC"))


asyncio.run(main())
