# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# g.throw(E) while g is stopped at a yield inside its finally: E is raised
# at that yield, so the rest of the finally is skipped, and g finishes with
# E, which throw() raises to the driver.
import inspect


def gen():
    try:
        yield "body"
    finally:
        print("finally starts")
        yield "in finally"
        print("finally goes on")


g = gen()
print(f"next -> {next(g)}")
print(f"next -> {next(g)}")
try:
    v = g.throw(ValueError(7))
    print(f"throw -> {v}")
except ValueError as e:
    print(f"failed with {e.args[0]}")
print(f"state {inspect.getgeneratorstate(g)}")
