# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Cancelling a sleeping task ends its sleep at once; its finally runs, and
# whoever awaits it sees it cancelled.
import asyncio


async def sleeper():
    try:
        print("sleeper sleeps")
        await asyncio.sleep(1)
        print("sleeper not reached")
    finally:
        print("sleeper finally")


async def main():
    t = asyncio.create_task(sleeper())
    await asyncio.sleep(0.01)
    print("main cancels")
    t.cancel()
    try:
        await t
        print("join ok")
    except asyncio.CancelledError:
        print("join: cancelled")


asyncio.run(main())
