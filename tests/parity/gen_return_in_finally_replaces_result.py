# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# A `return` in the finally replaces the result the body returned.
def gen():
    try:
        yield 1
        print("body returns 1")
        return 1
    finally:
        print("finally returns 2")
        return 2


g = gen()
print(f"next -> {next(g)}")
try:
    next(g)
except StopIteration as stop:
    print(f"result {stop.value}")
