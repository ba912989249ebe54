# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Where things are written: file locations, and the tokens of a file.

A cursor that a macro produced has, in the Python binding, the location
of the macro's use; clang_getFileLocation gives where its tokens were
written instead: in the user's file for a macro argument (the `x` of
PT_WAIT_UNTIL(pt, x > 3)), at the macro's use for the macro's own body.
That is where a finding is reported. The tokens of a file are used only
to tell apart operators that the syntax tree of libclang 14 does not name
(&& and || from other binary operators) and the three parts of a `for`.
"""

import ctypes
import os


class Loc:
    __slots__ = ('file', 'line', 'col', 'offset')

    def __init__(self, file, line, col, offset):
        self.file, self.line, self.col, self.offset = file, line, col, offset

    def __repr__(self):
        return '%s:%d:%d' % (self.file, self.line, self.col)


class Source:
    """Location and token queries on one translation unit."""

    def __init__(self, cindex, tu):
        self.ci = cindex
        self.tu = tu
        lib = cindex.conf.lib
        self._file_location = lib.clang_getFileLocation
        self._file_location.argtypes = [
            cindex.SourceLocation,
            ctypes.POINTER(cindex.c_object_p),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
        ]
        self._file_location.restype = None
        self._tokens = {}  # file name: ([offsets], [spellings])

    def loc(self, source_location):
        """The file location (see the module's comment) of a SourceLocation."""
        f = self.ci.c_object_p()
        line, col, offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        self._file_location(source_location, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                            ctypes.byref(offset))
        name = self.ci.File(f).name if f else None
        return Loc(os.path.normpath(name) if name else None, line.value, col.value, offset.value)

    def start(self, cursor):
        return self.loc(cursor.extent.start)

    def end(self, cursor):
        return self.loc(cursor.extent.end)

    def tokens(self, name):
        """([offsets], [spellings]) of every token of file `name`, in order."""
        if name not in self._tokens:
            offsets, spellings = [], []
            f = self.tu.get_file(name)
            size = os.path.getsize(name)
            extent = self.ci.SourceRange.from_locations(self.ci.SourceLocation.from_offset(self.tu, f, 0),
                                                        self.ci.SourceLocation.from_offset(self.tu, f, size))
            for t in self.tu.get_tokens(extent=extent):
                offsets.append(t.extent.start.offset)
                spellings.append(t.spelling)
            self._tokens[name] = (offsets, spellings)
        return self._tokens[name]

    def tokens_between(self, a, b):
        """Spellings of the tokens starting in [a, b) (two Locs of one file)."""
        if a.file is None or a.file != b.file or a.offset > b.offset:
            return None
        offsets, spellings = self.tokens(a.file)
        return [s for o, s in zip(offsets, spellings) if a.offset <= o < b.offset]

    def token_index(self, loc):
        """Index of the token starting at loc in its file's token list, or None."""
        if loc.file is None:
            return None
        offsets, _ = self.tokens(loc.file)
        lo, hi = 0, len(offsets)
        while lo < hi:
            mid = (lo + hi) // 2
            if offsets[mid] < loc.offset:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(offsets) and offsets[lo] == loc.offset else None
