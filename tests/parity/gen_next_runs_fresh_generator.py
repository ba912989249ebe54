# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
# Creating a generator runs nothing; the first next() runs its body from
# the top to the first yield, each later next() to the following one.
def gen():
    print("body starts")
    yield "first"
    print("body resumes")
    yield "second"
    print("not reached")


print("create")
g = gen()
print("created")
print(f"next -> {next(g)}")
print(f"next -> {next(g)}")
