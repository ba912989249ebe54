# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A timeout scope whose body finishes before the deadline: nothing is cut,
# the block ends normally and expired() is False; a sleep after the block
# that goes past the old deadline is not cut either.
import asyncio


async def main():
    async with asyncio.timeout(0.2) as cm:
        await asyncio.sleep(0.01)
        print("work done in time")
    print(f"expired: {cm.expired()}")
    await asyncio.sleep(0.25)
    print("a later sleep past the deadline is not cut")


asyncio.run(main())
