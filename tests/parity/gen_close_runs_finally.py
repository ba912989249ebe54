# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# close() on a suspended generator runs its finally exactly once; after
# that it is closed: next() is StopIteration, another close() runs nothing.
import inspect


def worker():
    try:
        yield 1
        yield 2
        print("not reached")
    finally:
        print("finally runs")


g = worker()
print(f"next -> {next(g)}")
print("close")
g.close()
print(f"state {inspect.getgeneratorstate(g)}")
try:
    next(g)
    print("next -> yielded")
except StopIteration:
    print("next -> StopIteration")
print("close again")
g.close()
print(f"state {inspect.getgeneratorstate(g)}")
