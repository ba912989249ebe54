# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Several tasks await one task: each gets its result, and they wake in the
# order they started awaiting it (W1 yields once first, so it awaits last),
# not the order they were created; a task awaiting it once it has finished
# gets the result at once.
import asyncio


async def job():
    print("job starts")
    await asyncio.sleep(0.1)
    print("job returns 42")
    return 42


async def awaiter(name, t, late):
    if late:
        await asyncio.sleep(0)
    print(f"{name} awaits job")
    r = await t
    print(f"{name} got {r}")


async def main():
    t = asyncio.create_task(job())
    ws = [asyncio.create_task(awaiter(n, t, n == "W1")) for n in ("W1", "W2", "W3")]
    for w in ws:
        await w
    print(f"main got {await t}")


asyncio.run(main())
