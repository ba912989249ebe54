# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `return r` in a generator ends it; the driver gets r as StopIteration.value.
def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


g = countdown(3)
while True:
    try:
        v = next(g)
    except StopIteration as stop:
        print(f"result {stop.value}")
        break
    print(f"yield {v}")
