# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A awaits task B, which awaits task C. Cancelling A cancels B, which
# cancels C: the finally blocks run from the bottom up, C, B, then A.
import asyncio


async def c():
    try:
        print("C sleeps")
        await asyncio.sleep(1)
    finally:
        print("C finally")


async def b(tc):
    try:
        print("B awaits C")
        await tc
    finally:
        print("B finally")


async def a(tb):
    try:
        print("A awaits B")
        await tb
    finally:
        print("A finally")


async def main():
    tc = asyncio.create_task(c())
    tb = asyncio.create_task(b(tc))
    ta = asyncio.create_task(a(tb))
    await asyncio.sleep(0.01)
    print("main cancels A")
    ta.cancel()
    try:
        await ta
    except asyncio.CancelledError:
        print("A cancelled")
    print(f"B cancelled: {tb.cancelled()}, C cancelled: {tc.cancelled()}")


asyncio.run(main())
