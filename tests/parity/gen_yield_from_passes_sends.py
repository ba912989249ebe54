# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# `r = yield from child()`: the child's yields go straight to the driver,
# the driver's sends straight to the child, and r is the child's return
# value.
def child():
    print("child starts")
    x = yield 1
    print(f"child got {x}")
    y = yield x * 10
    print(f"child got {y}")
    return x + y


def parent():
    print("parent starts")
    r = yield from child()
    print(f"parent got {r}")
    yield r * 100


g = parent()
print(f"next -> {next(g)}")
print(f"send 3 -> {g.send(3)}")
print(f"send 4 -> {g.send(4)}")
try:
    next(g)
except StopIteration as stop:
    print(f"StopIteration value {stop.value}")
