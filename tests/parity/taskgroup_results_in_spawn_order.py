# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A TaskGroup waits for all of its tasks; their results are read in the
# order the tasks were created, whatever order they finished in.
import asyncio


async def job(name, units):
    await asyncio.sleep(units * 0.01)
    print(f"{name} finishes")
    return name.lower()


async def main():
    async with asyncio.TaskGroup() as tg:
        tasks = [tg.create_task(job(n, u)) for n, u in (("A", 3), ("B", 1), ("C", 2))]
        print("group spawned")
    print("group done")
    print("results " + " ".join(t.result() for t in tasks))


asyncio.run(main())
