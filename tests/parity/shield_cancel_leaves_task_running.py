# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `await asyncio.shield(t)`: cancelling the awaiter ends its wait at once
# (its finally runs) and leaves t running; t finishes later, and awaiting
# it then gives its result.
import asyncio


async def job():
    print("job starts")
    await asyncio.sleep(0.15)
    print("job returns 7")
    return 7


async def guard(t):
    try:
        print("guard awaits shield(job)")
        await asyncio.shield(t)
        print("guard not reached")
    finally:
        print("guard finally")


async def main():
    t = asyncio.create_task(job())
    g = asyncio.create_task(guard(t))
    await asyncio.sleep(0.01)
    print("main cancels guard")
    g.cancel()
    try:
        await g
        print("guard returned")
    except asyncio.CancelledError:
        print("guard is cancelled")
    print(f"job done: {t.done()}")
    r = await t
    print(f"job result {r}")


asyncio.run(main())
