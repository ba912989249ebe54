# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A finally may yield (and take sends) after the body returned; the value
# the body returned is still the result when the generator ends.
def gen():
    try:
        yield 1
        print("body returns 42")
        return 42
    finally:
        print("finally yields")
        x = yield 2
        print(f"finally got {x}")


g = gen()
print(f"next -> {next(g)}")
print(f"next -> {next(g)}")
try:
    g.send(7)
except StopIteration as stop:
    print(f"result {stop.value}")
