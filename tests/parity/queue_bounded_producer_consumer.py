# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Queue(maxsize=2): put waits while the queue is full, get while it is
# empty; values come out in the order they went in.
import asyncio


async def producer(q):
    for i in range(5):
        if q.full():
            print(f"producer waits to put {i}")
        await q.put(i)
        print(f"put {i}")
    print("producer done")


async def consumer(q):
    await asyncio.sleep(0.01)
    for _ in range(5):
        if q.empty():
            print("consumer waits")
        v = await q.get()
        print(f"got {v}")
    print("consumer done")


async def main():
    q = asyncio.Queue(maxsize=2)
    await asyncio.gather(producer(q), consumer(q))


asyncio.run(main())
