# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# wait_for(task, timeout): when the timeout passes first, the task is
# cancelled (its finally runs) and the wait ends with a timeout once the
# task has finished.
import asyncio


async def slow():
    try:
        print("slow starts")
        await asyncio.sleep(1)
        print("slow not reached")
    finally:
        print("slow finally")


async def main():
    t = asyncio.create_task(slow())
    try:
        await asyncio.wait_for(t, 0.02)
        print("wait_for ok")
    except TimeoutError:
        print("wait_for timed out")
    print(f"slow cancelled: {t.cancelled()}")


asyncio.run(main())
