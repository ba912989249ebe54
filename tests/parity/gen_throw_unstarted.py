# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# g.throw(E) into a generator that has not started: nothing of it runs
# (not even its finally), E comes straight back out, and g is closed.
import inspect


def gen():
    try:
        print("body runs")
        yield 1
    finally:
        print("finally runs")


g = gen()
try:
    g.throw(ValueError(7))
    print("throw returned")
except ValueError as e:
    print(f"throw raised {e.args[0]}")
print(f"state {inspect.getgeneratorstate(g)}")
try:
    next(g)
    print("next ran")
except StopIteration:
    print("next: finished")
