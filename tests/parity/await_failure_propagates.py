# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# An exception goes up through every await: parse() raises, the worker task
# awaiting it fails with it (parse's finally first, then the worker's), the
# middle task awaiting the worker task fails with it too, and main, awaiting
# the middle task, catches it.
import asyncio


async def parse():
    try:
        print("parse starts")
        await asyncio.sleep(0.01)
        print("parse raises 5")
        raise ValueError(5)
    finally:
        print("parse finally")


async def worker():
    try:
        await parse()
        print("worker not reached")
    finally:
        print("worker finally")


async def middle(t):
    try:
        await t
        print("middle not reached")
    finally:
        print("middle finally")


async def main():
    w = asyncio.create_task(worker())
    m = asyncio.create_task(middle(w))
    try:
        await m
        print("main: middle returned")
    except ValueError as e:
        print(f"main caught {e.args[0]}")
    print(f"worker failed with {w.exception().args[0]}")


asyncio.run(main())
