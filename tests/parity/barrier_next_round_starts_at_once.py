# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Barrier(3): the last to arrive goes on at once and arrives again for the
# next round before the two it released have left the barrier. asyncio's
# Barrier is "draining" until they have left: C's second wait is held back
# until then, and B, the last to leave, arrives first in round 2.
import asyncio


async def party(b, name, pause):
    await asyncio.sleep(pause * 0.01)
    for rnd in (1, 2):
        print(f"{name} arrives (round {rnd})")
        i = await b.wait()
        print(f"{name} passes (round {rnd}), index {i}")


async def main():
    b = asyncio.Barrier(3)
    tasks = [asyncio.create_task(party(b, n, p)) for n, p in (("A", 1), ("B", 2), ("C", 3))]
    for t in tasks:
        await t
    print(f"waiting: {b.n_waiting}, broken: {b.broken}")


asyncio.run(main())
