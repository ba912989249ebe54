# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task cancelled while it sleeps returns from its finally: the return
# suppresses the CancelledError, so the task ends with that result and is
# not cancelled; its awaiter gets the result.
import asyncio


async def worker():
    try:
        print("W sleeps")
        await asyncio.sleep(1)
        print("W woke")
    finally:
        print("W finally returns 7")
        return 7


async def main():
    w = asyncio.create_task(worker())
    await asyncio.sleep(0)
    print("main cancels W")
    w.cancel()
    r = await w
    print(f"result {r}, cancelled: {w.cancelled()}")


asyncio.run(main())
