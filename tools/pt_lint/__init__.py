# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""pt-lint: finds locals of a protothread, generator or task body that are
read after a resume point (a wait) before being written again. Locals do
not survive a wait: their value there is whatever the stack held.

Modules, one idea each:
  libclang  find and load clang.cindex and libclang (Debian python3-clang-14)
  source    file locations and the tokens of the checked files
  cfg       the control-flow graph of a function, with the reads and writes
            of its locals and its resume points
  flow      the data flow over that graph, and the findings
  main      the command line
"""
