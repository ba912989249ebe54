# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `await t` where t is cancelled: CancelledError goes up through the await;
# the awaiting task does not catch it, so it ends cancelled (not failed),
# and whoever awaits that task sees it cancelled too.
import asyncio


async def slow():
    try:
        await asyncio.sleep(1)
    finally:
        print("slow finally")


async def middle(t):
    try:
        await t
        print("middle not reached")
    finally:
        print("middle finally")


async def main():
    t = asyncio.create_task(slow())
    m = asyncio.create_task(middle(t))
    await asyncio.sleep(0.01)
    print("main cancels slow")
    t.cancel()
    try:
        await m
        print("middle returned")
    except asyncio.CancelledError:
        print("middle cancelled")
    except Exception as e:
        print(f"middle failed with {e!r}")
    print(f"middle cancelled: {m.cancelled()}")


asyncio.run(main())
