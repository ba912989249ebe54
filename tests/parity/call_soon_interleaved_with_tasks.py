# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Tasks and call_soon callbacks share one FIFO ready queue: a new task's
# first step and a callback run in the order they were scheduled; a task
# that yields (sleep(0)) and a callback scheduled while the queue runs go
# to the back, for the next iteration.
import asyncio


async def worker(name):
    for step in (1, 2, 3):
        print(f"{name} step {step}")
        await asyncio.sleep(0)


def cb(loop, name):
    print(f"callback {name}")
    if name == "c1":
        loop.call_soon(cb, loop, "c1 again")


async def main():
    loop = asyncio.get_running_loop()
    print("main schedules")
    t = asyncio.create_task(worker("T"))
    loop.call_soon(cb, loop, "c1")
    u = asyncio.create_task(worker("U"))
    loop.call_soon(cb, loop, "c2")
    print("main yields")
    await asyncio.sleep(0)
    print("main resumes")
    await t
    await u
    print("main done")


asyncio.run(main())
