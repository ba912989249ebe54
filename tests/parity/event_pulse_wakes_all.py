# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# ev.set(); ev.clear() at once (a pulse) still wakes every task that was
# waiting when it was set: set() wakes the waiters, clear() only stops
# later waits from passing.
import asyncio


async def waiter(ev, name):
    print(f"{name} waits")
    await ev.wait()
    print(f"{name} woke")


async def main():
    ev = asyncio.Event()
    tasks = [asyncio.create_task(waiter(ev, n)) for n in ("W1", "W2")]
    await asyncio.sleep(0.01)
    print("main pulses")
    ev.set()
    ev.clear()
    for t in tasks:
        await t
    print(f"is_set {ev.is_set()}")


asyncio.run(main())
