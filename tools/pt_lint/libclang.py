# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Find clang.cindex and libclang, whichever python3 runs the tool.

Debian's python3-clang-14 installs the module under
/usr/lib/python3/dist-packages, which a python3 of its own (pyenv, a venv)
does not search; the module is pure Python (ctypes), so adding that folder
works from any Python 3. The module looks for "libclang-14.so", which only
the package's symbolic link provides: failing that, any libclang-14 found
on disk is tried.
"""

import glob
import os
import sys

DIST_PACKAGES = '/usr/lib/python3/dist-packages'
LIBRARY_GLOBS = (
    '/usr/lib/x86_64-linux-gnu/libclang-14.so*',
    '/usr/lib/*-linux-gnu*/libclang-14.so*',
    '/usr/lib/llvm-14/lib/libclang.so.1',
    '/usr/lib/llvm-14/lib/libclang-14.so*',
)


class Unavailable(Exception):
    """libclang cannot be used: the message says what to install."""


def _import_cindex():
    try:
        import clang.cindex as cindex
        return cindex
    except ImportError:
        pass
    if DIST_PACKAGES not in sys.path:
        sys.path.append(DIST_PACKAGES)
    try:
        import clang.cindex as cindex
        return cindex
    except ImportError as e:
        raise Unavailable('the Python module clang.cindex is missing (%s); on Debian: '
                          'apt-get install python3-clang-14' % e)


def _library_works(cindex):
    try:
        cindex.conf.lib  # loads the library (cached on success only)
        return True
    except cindex.LibclangError:
        return False


def load():
    """Return the clang.cindex module with libclang loaded, or raise Unavailable."""
    cindex = _import_cindex()
    if _library_works(cindex):
        return cindex
    tried = []
    for pattern in LIBRARY_GLOBS:
        for path in sorted(glob.glob(pattern)):
            tried.append(path)
            cindex.Config.set_library_file(path)
            if _library_works(cindex):
                return cindex
    raise Unavailable('libclang was not found (tried libclang-14.so%s); on Debian: '
                      'apt-get install libclang1-14 python3-clang-14' %
                      (', ' + ', '.join(tried) if tried else ''))


def resource_dir():
    """Clang's own headers (stddef.h, ...) for the loaded libclang, or None.

    libclang finds them itself for the host; for another target (a board's
    program, --target=arm-none-eabi) it does not, so they are passed.
    """
    lib = None
    try:
        with open('/proc/self/maps') as maps:
            for line in maps:
                if 'libclang' in line and '.so' in line and 'libclang-cpp' not in line:
                    lib = line.split()[-1]
                    break
    except OSError:
        pass
    candidates = []
    if lib:
        candidates += glob.glob(os.path.join(os.path.dirname(os.path.realpath(lib)), 'clang', '*'))
    candidates += glob.glob('/usr/lib/llvm-14/lib/clang/*')
    for d in sorted(candidates):
        if os.path.isfile(os.path.join(d, 'include', 'stddef.h')):
            return d
    return None
