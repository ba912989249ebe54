# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# wait_for(task, timeout) on a task that finishes first: its result, no
# cancellation.
import asyncio


async def quick():
    try:
        await asyncio.sleep(0.01)
        print("quick returns 7")
        return 7
    finally:
        print("quick finally")


async def main():
    t = asyncio.create_task(quick())
    try:
        r = await asyncio.wait_for(t, 1)
        print(f"wait_for ok: {r}")
    except TimeoutError:
        print("wait_for timed out")
    print(f"quick cancelled: {t.cancelled()}")


asyncio.run(main())
