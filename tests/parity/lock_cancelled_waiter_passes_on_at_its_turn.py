# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Lock: main releases it to W1, the longest waiter, cancels W1, then
# starts L before W1 has run. W1 passes the lock on when its own turn
# comes, not at the cancel: L, started in between, runs before W2 gets it.
import asyncio


async def waiter(lock, name):
    try:
        await lock.acquire()
        print(f"{name} acquired")
        lock.release()
    except asyncio.CancelledError:
        print(f"{name} cancelled")
        raise


async def late():
    print("L runs")


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    w1 = asyncio.create_task(waiter(lock, "W1"))
    w2 = asyncio.create_task(waiter(lock, "W2"))
    await asyncio.sleep(0)
    print("main releases, cancels W1, starts L")
    lock.release()
    w1.cancel()
    l = asyncio.create_task(late())
    await asyncio.gather(w1, w2, l, return_exceptions=True)
    print(f"locked: {lock.locked()}")


asyncio.run(main())
