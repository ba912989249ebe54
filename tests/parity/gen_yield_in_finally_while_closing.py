# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# close() on a generator whose finally yields: Python's close() raises
# RuntimeError (the generator ignored GeneratorExit) and leaves it
# suspended in its finally; the next next() finishes the finally and
# raises the GeneratorExit again.
import inspect


def worker():
    try:
        yield 1
    finally:
        print("finally starts")
        yield "cleanup"
        print("finally ends")


g = worker()
print(f"next -> {next(g)}")
print("close")
try:
    g.close()
    print("close -> closed")
except RuntimeError as e:
    print(f"close -> RuntimeError: {e}")
print("next")
try:
    v = next(g)
    print(f"next -> yielded {v}")
except GeneratorExit:
    print("next -> GeneratorExit")
except StopIteration:
    print("next -> StopIteration")
print(f"state {inspect.getgeneratorstate(g)}")
