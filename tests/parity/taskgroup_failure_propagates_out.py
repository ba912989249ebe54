# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A failure in a TaskGroup goes out of the `async with`: the other member
# is cancelled (its finally runs), the task running the group fails with the
# member's error (its own finally runs after the members'), and whoever
# awaits that task sees the error.
import asyncio


async def fails():
    await asyncio.sleep(0.01)
    print("A raises 3")
    raise ValueError(3)


async def slow():
    try:
        await asyncio.sleep(1)
        print("B not reached")
    finally:
        print("B finally")


async def runner():
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(fails())
            tg.create_task(slow())
        print("runner not reached")
    finally:
        print("runner finally")


async def main():
    t = asyncio.create_task(runner())
    try:
        await t
        print("main: runner returned")
    except* ValueError as eg:
        print(f"main caught {eg.exceptions[0].args[0]}")


asyncio.run(main())
