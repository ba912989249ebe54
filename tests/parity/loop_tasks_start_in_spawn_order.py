# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Tasks created one after the other first run in that order, after the
# task that created them stops.
import asyncio


async def job(name):
    print(f"{name} runs")
    return name


async def main():
    tasks = [asyncio.create_task(job(n)) for n in "ABC"]
    print("spawned A B C")
    for t in tasks:
        print(f"joined {await t}")


asyncio.run(main())
