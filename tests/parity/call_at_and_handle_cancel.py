# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# call_at runs a callback when the loop's clock reaches a time (at the next
# iteration if that time has passed, after the callbacks already ready);
# handle.cancel() of a pending callback, a timer or a call_soon, means it is
# never called; handle.when() is the time it was set for.
import asyncio

U = 0.01


def say(what):
    print(what)


def cancel_c(hc):
    print("B at 1 cancels C")
    hc.cancel()


async def main():
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    ha = loop.call_at(t0 + 3 * U, say, "A at 3")
    hc = loop.call_later(2 * U, say, "C at 2: not reached")
    loop.call_later(U, cancel_c, hc)
    loop.call_soon(say, "X soon")
    loop.call_at(t0 - U, say, "Y at a time already passed")
    hd = loop.call_soon(say, "D soon: not reached")
    loop.call_soon(say, "Z soon")
    hd.cancel()
    print(f"A set for {round((ha.when() - t0) / U)}, D cancelled: {hd.cancelled()}")
    await asyncio.sleep(5 * U)
    print(f"C cancelled: {hc.cancelled()}")


asyncio.run(main())
