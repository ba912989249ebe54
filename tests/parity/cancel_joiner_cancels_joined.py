# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Cancelling a task that awaits another task cancels the awaited one: its
# finally runs first, then the awaiter's; another task awaiting the same
# task sees it cancelled (and catches that), in the order they awaited it.
import asyncio


async def inner():
    try:
        print("inner sleeps")
        await asyncio.sleep(1)
        print("inner not reached")
    finally:
        print("inner finally")


async def outer(t):
    try:
        print("outer awaits inner")
        await t
        print("outer not reached")
    finally:
        print("outer finally")


async def watcher(t):
    print("W awaits inner")
    try:
        await t
        print("W: inner returned")
    except asyncio.CancelledError:
        print("W: inner cancelled")


async def main():
    i = asyncio.create_task(inner())
    o = asyncio.create_task(outer(i))
    w = asyncio.create_task(watcher(i))
    await asyncio.sleep(0.01)
    print("main cancels outer")
    o.cancel()
    try:
        await o
        print("outer returned")
    except asyncio.CancelledError:
        print("outer cancelled")
    await w
    print(f"inner cancelled: {i.cancelled()}")


asyncio.run(main())
