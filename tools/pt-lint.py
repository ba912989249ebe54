#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""pt-lint: report locals read after a wait in protothread, generator and
task bodies (locals do not survive a wait), and, for the switch back end,
each switch of a body around a wait (that back end loses it). See tools/pt_lint/ and
`tools/pt-lint.py --help`. Needs libclang's Python bindings (Debian:
python3-clang-14); any python3 can run it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pt_lint.main import main  # noqa: E402

if __name__ == '__main__':
    sys.exit(main())
