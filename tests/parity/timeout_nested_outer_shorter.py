# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Nested timeout scopes, the outer one shorter: an inner deadline never
# extends an outer one. The outer deadline cuts the sleep; the inner block
# does not time out (CancelledError goes through it), the rest of the outer
# block is skipped, and the outer block ends with TimeoutError.
import asyncio


async def main():
    try:
        async with asyncio.timeout(0.02):
            try:
                async with asyncio.timeout(0.2):
                    print("inner sleeps")
                    await asyncio.sleep(1)
                    print("inner not reached")
                print("inner block done: not reached")
            except TimeoutError:
                print("inner timed out")
            print("after the inner block: not reached")
        print("outer block done")
    except TimeoutError:
        print("outer timed out")


asyncio.run(main())
