# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Lock: W1 waits for it inside asyncio.timeout(0), W2 without one; main
# releases it to W1 in the same iteration, before the timeout's callback
# has run. The timeout then cancels W1 before W1 has run: W1 times out
# without the lock, which goes on to W2. Nothing is lost.
import asyncio


async def waiter(lock, name, scoped):
    try:
        if scoped:
            async with asyncio.timeout(0):
                await lock.acquire()
        else:
            await lock.acquire()
        print(f"{name} acquired")
        lock.release()
    except TimeoutError:
        print(f"{name} timed out")


async def main():
    lock = asyncio.Lock()
    await lock.acquire()
    w1 = asyncio.create_task(waiter(lock, "W1", True))
    w2 = asyncio.create_task(waiter(lock, "W2", False))
    await asyncio.sleep(0)
    print("main releases")
    lock.release()
    await asyncio.gather(w1, w2)
    print(f"locked: {lock.locked()}")


asyncio.run(main())
