# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Condition: W1, W2, W3 wait on it in turn. notify(1) wakes the one that
# has waited longest, W1, which must then take the lock back, after main
# (which holds it, and asks again at once) has released it; notify_all
# wakes the others in the order they waited, each holding the lock in turn
# when its wait() returns.
import asyncio


async def waiter(cond, name):
    async with cond:
        print(f"{name} waits")
        await cond.wait()
        print(f"{name} woken, holds the lock: {cond.locked()}")
        await asyncio.sleep(0)
        print(f"{name} releases")


async def main():
    cond = asyncio.Condition()
    ws = [asyncio.create_task(waiter(cond, n)) for n in ("W1", "W2", "W3")]
    await asyncio.sleep(0)
    async with cond:
        print("main notifies 1")
        cond.notify(1)
        await asyncio.sleep(0)
        print("main releases")
    async with cond:
        print("main notifies all")
        cond.notify_all()
        print("main releases")
    for w in ws:
        await w


asyncio.run(main())
