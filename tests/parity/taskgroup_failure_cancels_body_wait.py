# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A member of a TaskGroup fails while the body of the `async with` still
# waits on something else: the group cancels the body's wait at once (not
# only once the body reaches the end of the block), then fails.
import asyncio


async def fails():
    await asyncio.sleep(0.01)
    print("M fails")
    raise ValueError(5)


async def main():
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(fails())
            try:
                await asyncio.sleep(1)
                print("body woke")
            except asyncio.CancelledError:
                print("body wait cancelled")
                raise
    except* ValueError:
        print("group failed")


asyncio.run(main())
