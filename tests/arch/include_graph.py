#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/arch/include_graph.py - the headers of pt/ and loop/ include each
other without a cycle, and only inside the library.

    include_graph.py <source root>

Reads every #include "..." (quoted: the library's own) of pt/**/*.h and
loop/**/*.h, resolved from the including file's folder as the compiler
does, and fails if any include leads back to the file it came from, or if
a quoted include names a file that is not in the tree. Prints the graph's
size and, on failure, each cycle found.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def headers(root):
    for top in ("pt", "loop"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(".h"):
                    yield os.path.relpath(os.path.join(d, f), root)


def edges(root, h):
    text = open(os.path.join(root, h), encoding="utf-8").read()
    # Comments may show #include lines as examples: drop them first.
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for name in INCLUDE.findall(text):
        yield os.path.normpath(os.path.join(os.path.dirname(h), name))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    graph = {h: sorted(set(edges(root, h))) for h in headers(root)}
    bad = 0
    for h, deps in graph.items():
        for d in deps:
            if d not in graph:
                print(f"FAIL: {h} includes {d}, which is not a header of pt/ or loop/")
                bad += 1
    # Depth-first search; a grey node met again closes a cycle.
    colour, stack, cycles = {}, [], []

    def visit(h):
        colour[h] = "grey"
        stack.append(h)
        for d in graph.get(h, []):
            if colour.get(d) == "grey":
                cycles.append(stack[stack.index(d):] + [d])
            elif d in graph and d not in colour:
                visit(d)
        stack.pop()
        colour[h] = "black"

    for h in graph:
        if h not in colour:
            visit(h)
    for c in cycles:
        print("FAIL: include cycle: " + " -> ".join(c))
    n_edges = sum(len(v) for v in graph.values())
    print(f"{len(graph)} headers, {n_edges} includes, {len(cycles)} cycles")
    return 1 if bad or cycles else 0


if __name__ == "__main__":
    sys.exit(main())
