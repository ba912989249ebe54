# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `async with asyncio.timeout(d)`: the waits in the block that end in time
# go on as usual; the one in progress when the deadline passes is cut (a
# get from an empty queue here), the rest of the block is skipped, and the
# block ends with TimeoutError. A wait after the block is not cut.
import asyncio


async def main():
    q = asyncio.Queue()
    try:
        async with asyncio.timeout(0.2):
            print("sleep 1 unit")
            await asyncio.sleep(0.01)
            print("get from an empty queue")
            v = await q.get()
            print(f"got {v}: not reached")
            await asyncio.sleep(0.01)
        print("block done")
    except TimeoutError:
        print("timed out")
    await asyncio.sleep(0.03)
    print("a sleep after the block is not cut")


asyncio.run(main())
