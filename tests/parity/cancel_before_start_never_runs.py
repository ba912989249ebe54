# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A task cancelled before it ever ran finishes without running any of its
# body; it is not done until its turn in the ready queue comes.
import asyncio


async def job():
    try:
        print("job body runs")
    finally:
        print("job finally")


async def main():
    t = asyncio.create_task(job())
    t.cancel()
    print(f"done after cancel: {t.done()}")
    try:
        await t
    except asyncio.CancelledError:
        print("join: cancelled")
    print(f"done: {t.done()}")


asyncio.run(main())
