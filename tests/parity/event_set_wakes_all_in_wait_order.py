# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Event.set() wakes every waiter, in the order they started waiting (here
# B, C, A: not the order the tasks started); the event stays set.
import asyncio


async def waiter(ev, name, yields):
    for _ in range(yields):
        await asyncio.sleep(0)
    print(f"{name} waits")
    await ev.wait()
    print(f"{name} woke")


async def main():
    ev = asyncio.Event()
    tasks = [asyncio.create_task(waiter(ev, n, y)) for n, y in (("A", 2), ("B", 0), ("C", 1))]
    for _ in range(5):  # lets them all start waiting
        await asyncio.sleep(0)
    print("main sets")
    ev.set()
    for t in tasks:
        await t
    print(f"is_set {ev.is_set()}")


asyncio.run(main())
