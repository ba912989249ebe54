# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Lock: main releases it to W1, the longest waiter, and cancels W1 before
# W1 has run: W1 never holds it (its finally runs), and the lock goes on to
# W2, the next waiter.
import asyncio


async def waiter(lock, name):
    try:
        print(f"{name} waits")
        await lock.acquire()
        print(f"{name} acquired")
        lock.release()
    finally:
        print(f"{name} finally")


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    w1 = asyncio.create_task(waiter(lock, "W1"))
    w2 = asyncio.create_task(waiter(lock, "W2"))
    await asyncio.sleep(0)
    print("main releases, then cancels W1")
    lock.release()
    w1.cancel()
    await asyncio.gather(w1, w2, return_exceptions=True)
    print(f"W1 cancelled: {w1.cancelled()}, locked: {lock.locked()}")


asyncio.run(main())
