# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Throwing into a generator suspended in `yield from` goes to the innermost
# generator first: the child may catch it and go on (throw() returns the
# child's next yield); if it does not, its finally runs and the error comes
# out of the `yield from` in the parent, which may catch it and go on.


def child():
    try:
        try:
            yield "c1"
        except ValueError as e:
            print(f"child caught {e.args[0]}")
        yield "c2"
        print("child resumed without an error")
    finally:
        print("child finally")


def parent():
    try:
        yield from child()
        print("parent: child returned")
    except ValueError as e:
        print(f"parent caught {e.args[0]}")
    yield "p1"
    return "parent done"


g = parent()
print(f"next -> {next(g)}")
print(f"throw 1 -> {g.throw(ValueError(1))}")
print(f"throw 2 -> {g.throw(ValueError(2))}")
try:
    next(g)
except StopIteration as e:
    print(f"returned {e.value}")
