# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Barrier(3), two rounds: wait() returns the order of arrival (0, 1, 2);
# the last to arrive goes on at once, the others then pass in the order
# they arrived; the barrier is ready for the next round, where the order of
# arrival may differ. (Each party pauses before it arrives again, so the
# round before has emptied by then.)
import asyncio


async def party(b, name, pauses):
    for rnd, pause in enumerate(pauses, 1):
        await asyncio.sleep(pause * 0.01)
        print(f"{name} arrives (round {rnd})")
        i = await b.wait()
        print(f"{name} passes (round {rnd}), index {i}")


async def main():
    b = asyncio.Barrier(3)
    tasks = [
        asyncio.create_task(party(b, "A", (1, 20))),
        asyncio.create_task(party(b, "B", (2, 1))),
        asyncio.create_task(party(b, "C", (3, 10))),
    ]
    for t in tasks:
        await t
    print(f"waiting: {b.n_waiting}, broken: {b.broken}")


asyncio.run(main())
