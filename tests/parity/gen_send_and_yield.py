# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Each send() resumes the generator at its yield with the value sent, and
# returns the next value it yields.
def accumulator():
    total = 0
    while True:
        x = yield total
        print(f"got {x}")
        total += x


g = accumulator()
print(f"next -> {next(g)}")
for v in (5, 10, 20):
    print(f"send {v} -> {g.send(v)}")
