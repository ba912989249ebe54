# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Semaphore(1): main releases the unit to W1, the longest waiter, and
# cancels W1 before W1 has run: W1 never gets it (its finally runs), and
# the unit goes on to W2, the next waiter (Python 3.11.7).
import asyncio


async def waiter(sem, name):
    try:
        print(f"{name} waits")
        await sem.acquire()
        print(f"{name} acquired")
        sem.release()
    finally:
        print(f"{name} finally")


async def main():
    sem = asyncio.Semaphore(1)
    await sem.acquire()
    w1 = asyncio.create_task(waiter(sem, "W1"))
    w2 = asyncio.create_task(waiter(sem, "W2"))
    await asyncio.sleep(0)
    print("main releases, then cancels W1")
    sem.release()
    w1.cancel()
    await asyncio.gather(w1, w2, return_exceptions=True)
    print(f"W1 cancelled: {w1.cancelled()}, locked: {sem.locked()}")


asyncio.run(main())
