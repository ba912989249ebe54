# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# g.throw(E) raises E at the yield where g is suspended; g catches it there
# and goes on: throw() returns the next value g yields, and later sends
# reach g as usual.


def gen():
    x = yield "first"
    print(f"got {x}")
    try:
        yield "second"
        print("resumed without an error")
    except ValueError as e:
        print(f"caught {e.args[0]} at the yield")
    y = yield "third"
    print(f"got {y}")
    return "done"


g = gen()
print(f"next -> {next(g)}")
print(f"send 1 -> {g.send(1)}")
print(f"throw 7 -> {g.throw(ValueError(7))}")
try:
    g.send(2)
except StopIteration as e:
    print(f"returned {e.value}")
