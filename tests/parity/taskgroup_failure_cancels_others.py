# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# In a TaskGroup the first task that fails cancels the others (their
# finally runs); the group's wait ends failed once all have finished.
import asyncio


async def fails():
    await asyncio.sleep(0.02)
    print("A fails")
    raise RuntimeError("boom")


async def slow():
    try:
        await asyncio.sleep(1)
        print("B not reached")
    finally:
        print("B finally")


async def quick():
    await asyncio.sleep(0.01)
    print("C returns")
    return "c"


async def main():
    tasks = []
    try:
        async with asyncio.TaskGroup() as tg:
            tasks = [tg.create_task(f()) for f in (fails, slow, quick)]
        print("group ok")
    except* RuntimeError:
        print("group failed")
    for name, t in zip("ABC", tasks):
        if t.cancelled():
            print(f"{name} cancelled")
        elif t.exception() is not None:
            print(f"{name} failed {t.exception()}")
        else:
            print(f"{name} returned {t.result()}")


asyncio.run(main())
