# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# send(v) with a value other than None to a generator that has not
# started raises TypeError and runs nothing; send(None) starts it.
def gen():
    print("gen starts")
    x = yield 1
    print(f"gen got {x}")


g = gen()
try:
    r = g.send(5)
    print(f"send 5: yielded {r}")
except TypeError:
    print("send 5: TypeError")
