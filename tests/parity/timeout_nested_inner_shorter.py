# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Nested timeout scopes, the inner one shorter: the inner deadline cuts the
# first sleep and the inner block ends with TimeoutError, caught inside the
# outer block, which goes on; the outer deadline, still the one it was
# given, then cuts the next sleep and the outer block ends with
# TimeoutError.
import asyncio


async def main():
    try:
        async with asyncio.timeout(0.2):
            try:
                async with asyncio.timeout(0.01):
                    print("inner sleeps")
                    await asyncio.sleep(1)
                    print("inner not reached")
            except TimeoutError:
                print("inner timed out")
            print("outer goes on and sleeps")
            await asyncio.sleep(1)
            print("outer not reached")
    except TimeoutError:
        print("outer timed out")


asyncio.run(main())
