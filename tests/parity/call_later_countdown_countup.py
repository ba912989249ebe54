# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# The callback scheduler of the "build your own async" articles, on
# asyncio's loop: countdown(n) prints "Down n" and calls itself 4 ticks
# later with n-1, until 0; countup(stop, x) prints "Up x" and calls itself
# 1 tick later, until stop. Both start with call_soon; where they are due
# at the same time, the timer set first (countdown's) runs first. A tick is
# 0.1 s here, not the usual 0.01 s: each countup is set when the one before
# ran, so lateness adds up between two countdowns, and a late timer under
# load must not reorder the chains.
import asyncio

U = 0.1
loop = asyncio.new_event_loop()
left = 2


def finished():
    global left
    left -= 1
    if left == 0:
        loop.stop()


def countdown(n):
    if n > 0:
        print(f"Down {n}")
        loop.call_later(4 * U, countdown, n - 1)
    else:
        finished()


def countup(stop, x=0):
    if x < stop:
        print(f"Up {x}")
        loop.call_later(U, countup, stop, x + 1)
    else:
        finished()


loop.call_soon(countdown, 3)
loop.call_soon(countup, 12)
loop.run_forever()
loop.close()
print("loop done")
