# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# gather(..., return_exceptions=True): a failure cancels nothing; every
# task runs to its end and each outcome is collected, in spawn order.
import asyncio


async def job(name, units, fail):
    await asyncio.sleep(units * 0.01)
    if fail:
        print(f"{name} fails")
        raise RuntimeError(f"{name.lower()}-error")
    print(f"{name} returns")
    return name.lower()


async def main():
    results = await asyncio.gather(
        job("A", 1, True), job("B", 3, False), job("C", 2, True), return_exceptions=True
    )
    print("any failed: " + ("yes" if any(isinstance(r, Exception) for r in results) else "no"))
    for name, r in zip("ABC", results):
        if isinstance(r, Exception):
            print(f"{name} failed {r}")
        else:
            print(f"{name} returned {r}")


asyncio.run(main())
