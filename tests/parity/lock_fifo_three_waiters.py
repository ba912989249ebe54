# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Lock: W1, W2, W3 queue up while main holds the lock; main releases it
# and at once asks for it again. The lock goes to the waiters in the order
# they asked, W1, W2, W3, and main gets it back only after them: no barging
# (Python 3.11.7: an acquire while others wait queues behind them).
import asyncio


async def waiter(lock, name):
    print(f"{name} waits")
    await lock.acquire()
    print(f"{name} acquired")
    await asyncio.sleep(0)
    print(f"{name} releases")
    lock.release()


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    print("main holds the lock")
    ws = [asyncio.create_task(waiter(lock, n)) for n in ("W1", "W2", "W3")]
    await asyncio.sleep(0)
    print("main releases and acquires again")
    lock.release()
    await lock.acquire()
    print("main acquired again")
    lock.release()
    for w in ws:
        await w
    print(f"locked: {lock.locked()}")


asyncio.run(main())
