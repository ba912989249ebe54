# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# asyncio.sleep(0) is a bare yield whatever task does it: A (which "sleeps
# 0") and B (which yields) resume in the order they stopped, A first.
import asyncio


async def a():
    print("A sleeps 0")
    await asyncio.sleep(0)
    print("A resumes")


async def b():
    print("B yields")
    await asyncio.sleep(0)
    print("B resumes")


async def main():
    await asyncio.gather(a(), b())


asyncio.run(main())
