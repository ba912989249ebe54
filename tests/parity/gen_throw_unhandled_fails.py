# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# g.throw(E) where g does not handle E: g's finally runs and g finishes
# with E, which throw() raises to the driver; g is closed for good after.
import inspect


def gen():
    try:
        yield "first"
        print("resumed without an error")
        yield "second"
    finally:
        print("finally runs")


g = gen()
print(f"next -> {next(g)}")
try:
    v = g.throw(ValueError(7))
    print(f"throw -> {v}")
except ValueError as e:
    print(f"failed with {e.args[0]}")
print(f"state {inspect.getgeneratorstate(g)}")
try:
    next(g)
    print("next ran")
except StopIteration:
    print("next: finished")
