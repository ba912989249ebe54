# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# wait_for(sem.acquire(), timeout) on a Semaphore(1) that main holds: the
# impatient task times out and leaves the queue; the patient one gets the
# unit when main releases it.
import asyncio


async def impatient(sem):
    print("I waits 2 units")
    try:
        await asyncio.wait_for(sem.acquire(), 0.02)
        print("I acquired")
        sem.release()
    except TimeoutError:
        print("I timed out")


async def patient(sem):
    print("P waits")
    await sem.acquire()
    print("P acquired")
    sem.release()


async def main():
    sem = asyncio.Semaphore(1)
    await sem.acquire()
    print("main holds the unit")
    i = asyncio.create_task(impatient(sem))
    p = asyncio.create_task(patient(sem))
    await asyncio.sleep(0.1)
    print("main releases")
    sem.release()
    await i
    await p
    print(f"locked: {sem.locked()}")


asyncio.run(main())
