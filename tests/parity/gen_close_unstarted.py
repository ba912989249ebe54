# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# close() on a generator that never ran runs nothing (not even its
# finally) and closes it.
import inspect


def worker():
    print("body runs")
    try:
        yield 1
    finally:
        print("finally runs")


g = worker()
print("close")
g.close()
print(f"state {inspect.getgeneratorstate(g)}")
try:
    next(g)
    print("next -> yielded")
except StopIteration:
    print("next -> StopIteration")
