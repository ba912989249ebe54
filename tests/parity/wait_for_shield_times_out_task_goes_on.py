# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# wait_for(shield(t), timeout): the timeout passes first, the wait ends
# with TimeoutError at once and t is not cancelled: it finishes later, and
# awaiting it then gives its result.
import asyncio


async def job():
    try:
        print("job starts")
        await asyncio.sleep(0.15)
        print("job returns 7")
        return 7
    finally:
        print("job finally")


async def main():
    t = asyncio.create_task(job())
    try:
        await asyncio.wait_for(asyncio.shield(t), 0.02)
        print("wait_for ok")
    except TimeoutError:
        print("wait_for timed out")
    print(f"job cancelled: {t.cancelled()}, done: {t.done()}")
    r = await t
    print(f"job result {r}")


asyncio.run(main())
