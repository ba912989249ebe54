# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A generator that has returned never runs again: every later next() or
# send() is StopIteration at once, without running any of its code.
def once():
    print("body runs")
    yield 1
    print("body ends")


g = once()
print(f"next -> {next(g)}")
for i in range(3):
    try:
        next(g)
        print("next -> yielded")
    except StopIteration:
        print("next -> StopIteration")
