# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Barrier(3) with two parties waiting: abort() breaks it; both waits end
# with BrokenBarrierError, in the order they arrived, and so does every
# later wait, until reset() makes it whole again.
import asyncio


async def party(b, name):
    print(f"{name} waits")
    try:
        await b.wait()
        print(f"{name} passes")
    except asyncio.BrokenBarrierError:
        print(f"{name}: broken")


async def main():
    b = asyncio.Barrier(3)
    tasks = [asyncio.create_task(party(b, n)) for n in ("A", "B")]
    await asyncio.sleep(0)
    print(f"waiting: {b.n_waiting}")
    print("main aborts")
    await b.abort()
    for t in tasks:
        await t
    try:
        await b.wait()
        print("main passes")
    except asyncio.BrokenBarrierError:
        print("main: broken")
    print(f"broken: {b.broken}")
    await b.reset()
    print(f"after reset, broken: {b.broken}, waiting: {b.n_waiting}")


asyncio.run(main())
