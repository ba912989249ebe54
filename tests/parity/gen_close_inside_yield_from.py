# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Closing a generator suspended in `yield from` closes the child first:
# the child's finally runs, then the parent's (innermost first).
import inspect


def child():
    try:
        yield "from child"
        print("child not resumed")
    finally:
        print("child finally")


def parent():
    try:
        yield from child()
        print("parent not resumed")
    finally:
        print("parent finally")


g = parent()
print(f"next -> {next(g)}")
print("close")
g.close()
print(f"state {inspect.getgeneratorstate(g)}")
