# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A TaskGroup inside asyncio.timeout(): when the deadline passes while the
# group waits for its members, the members still running are cancelled
# (their finally runs), and once they have finished the block ends with
# TimeoutError; a member that had finished keeps its result.
import asyncio


async def job(name, units):
    try:
        await asyncio.sleep(units * 0.01)
        print(f"{name} finishes")
        return name
    finally:
        print(f"{name} finally")


async def main():
    try:
        async with asyncio.timeout(0.1):
            async with asyncio.TaskGroup() as tg:
                a = tg.create_task(job("A", 1))
                b = tg.create_task(job("B", 100))
            print("group done: not reached")
    except TimeoutError:
        print("timed out")
    print(f"A: {a.result()}, B cancelled: {b.cancelled()}")


asyncio.run(main())
