# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `await task` waits for the task to finish and gives its return value.
import asyncio


async def job():
    print("job starts")
    await asyncio.sleep(0.01)
    print("job returns 42")
    return 42


async def main():
    t = asyncio.create_task(job())
    print("main awaits job")
    r = await t
    print(f"result {r}")


asyncio.run(main())
