# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Semaphore(1): H holds it while W1, W2, W3 queue up; H releases it and at
# once asks for it again. The unit goes to the waiters in the order they
# asked, W1, W2, W3, and H gets it back only after them: no barging
# (Python 3.11.7, where a task that acquires while others wait queues
# behind them).
import asyncio


async def holder(sem):
    await sem.acquire()
    print("H acquired")
    await asyncio.sleep(0.01)
    print("H releases and acquires again")
    sem.release()
    await sem.acquire()
    print("H acquired again")
    sem.release()


async def waiter(sem, name):
    print(f"{name} waits")
    await sem.acquire()
    print(f"{name} acquired")
    await asyncio.sleep(0)
    print(f"{name} releases")
    sem.release()


async def main():
    sem = asyncio.Semaphore(1)
    tasks = [asyncio.create_task(holder(sem))]
    tasks += [asyncio.create_task(waiter(sem, n)) for n in ("W1", "W2", "W3")]
    for t in tasks:
        await t


asyncio.run(main())
