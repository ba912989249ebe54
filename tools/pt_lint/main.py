# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""The command line: parse each C file with libclang, check every function
of the given files (and of the headers under the given folders that they
include) that has resume points, print the findings: the locals read after
a wait, and, for the switch back end (--back-end switch, the default), each
switch of a body around a resume point (that back end loses the point).

Exit status: 0 nothing found, 1 findings, 2 libclang unavailable (or a
usage error), 3 a file could not be parsed (its errors are printed).
"""

import argparse
import os
import shlex
import sys

from . import libclang

# The build's flags (meson.build: c_std, _POSIX_C_SOURCE); GNU C so that
# the compilers' own extensions in system headers parse. The labels-as-values
# back end is parsed whatever the program uses: its resume points are labels
# that the graph sees wherever they are (a `case` of the switch back end
# inside a switch of the body would belong to that switch, and could repeat
# one of its values). --back-end says which one the program is built with.
BASE_ARGS = ['-x', 'c', '-std=gnu99', '-D_POSIX_C_SOURCE=200809L']
FORCED_ARGS = ['-UPT_LC_ADDRLABELS', '-DPT_CONFIG_LC_ADDRLABELS=1']
# Private names of pt/ and loop/ (their macros' own locals).
PRIVATE_PREFIXES = ('pt__', 'PT__')

EXIT_FOUND, EXIT_NO_LIBCLANG, EXIT_PARSE = 1, 2, 3


def _parser():
    p = argparse.ArgumentParser(
        prog='pt-lint',
        description='Report the locals of protothread, generator and task bodies that are read '
        'after a resume point (PT_YIELD, PT_WAIT_UNTIL, PT_SLEEP, PT_AWAIT, ...) without '
        'being written since: locals do not survive a wait. With the switch back end (the '
        'default), also report as an error each switch of a body that encloses a resume point: '
        'that back end loses the point (the body ends at its resume); build with '
        'PT_CONFIG_LC_ADDRLABELS=1, or move the wait out of the switch.',
        epilog='Exit status: 0 nothing found, 1 findings, 2 libclang unavailable or a usage '
        'error, 3 a file does not parse.')
    p.add_argument('paths', nargs='*', metavar='PATH',
                   help='C files, or folders (their *.c files, recursively); the headers under '
                   'a folder are checked as the C files there include them')
    p.add_argument('--root', default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   help='the ptloop tree, put on the include path (default: %(default)s)')
    p.add_argument('-I', dest='includes', action='append', default=[], metavar='DIR', help='include folder')
    p.add_argument('-D', dest='defines', action='append', default=[], metavar='NAME[=VALUE]',
                   help='macro definition')
    p.add_argument('--clang-arg', action='append', default=[], metavar='ARG',
                   help='one more argument for the parser, for every file')
    p.add_argument('--file-args', nargs=2, action='append', default=[], metavar=('FILE', 'ARGS'),
                   help='more parser arguments (one string, split as a shell does) for one file, '
                   'e.g. the target of a board-only program')
    p.add_argument('--exclude', action='append', default=[], metavar='PATH', help='a file not to check')
    p.add_argument('--back-end', choices=('switch', 'addrlabels'),
                   help='the local continuations the program is built with: switch (PT_CONFIG_LC_ADDRLABELS '
                   'undefined or 0: a switch around a wait is reported) or addrlabels '
                   '(PT_CONFIG_LC_ADDRLABELS=1: it is allowed); locals are checked the same with either. '
                   'Default: addrlabels if -D PT_CONFIG_LC_ADDRLABELS or -D PT_CONFIG_LC_ADDRLABELS=1 is given, '
                   'else switch')
    p.add_argument('--private', action='store_true',
                   help='also report the private locals of pt/ and loop/ macros (pt__*)')
    p.add_argument('-v', '--verbose', action='store_true',
                   help='say on stderr what was checked: files, functions, resume points')
    p.add_argument('--check-libclang', action='store_true',
                   help='only say whether libclang can be used (exit 0, or 2)')
    return p


def _collect(paths, excluded):
    files, folders = [], []
    for path in paths:
        path = os.path.abspath(path)
        if os.path.isdir(path):
            folders.append(path)
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                for name in sorted(filenames):
                    if name.endswith('.c'):
                        files.append(os.path.join(dirpath, name))
        else:
            files.append(path)
    seen, out = set(), []
    for f in files:
        f = os.path.normpath(f)
        if f not in seen and f not in excluded:
            seen.add(f)
            out.append(f)
    return out, folders


def _shown(path):
    rel = os.path.relpath(path)
    return path if rel.startswith('..') else rel


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        cindex = libclang.load()
    except libclang.Unavailable as e:
        print('pt-lint: cannot run: %s' % e, file=sys.stderr)
        return EXIT_NO_LIBCLANG
    if args.check_libclang:
        print('pt-lint: libclang %s' % cindex.conf.get_filename())
        return 0
    if not args.paths:
        _parser().error('no file or folder to check')
    if args.back_end is None:  # as the build's own -D says, the last one winning
        given = [d for d in args.defines if d.split('=')[0] == 'PT_CONFIG_LC_ADDRLABELS']
        args.back_end = 'addrlabels' if given and given[-1] in ('PT_CONFIG_LC_ADDRLABELS', 'PT_CONFIG_LC_ADDRLABELS=1') \
            else 'switch'
    from .cfg import Builder  # (after libclang is known to load)
    from .flow import analyse
    from .source import Source

    excluded = {os.path.normpath(os.path.abspath(p)) for p in args.exclude}
    files, folders = _collect(args.paths, excluded)
    per_file = {os.path.normpath(os.path.abspath(f)): shlex.split(a) for f, a in args.file_args}
    resources = libclang.resource_dir()
    common = BASE_ARGS + (['-resource-dir=' + resources] if resources else []) + \
        ['-I' + os.path.abspath(args.root)] + ['-I' + i for i in args.includes] + \
        ['-D' + d for d in args.defines] + args.clang_arg

    def checked(name):
        name = os.path.normpath(name)
        return name in files or any(name.startswith(d + os.sep) for d in folders)

    index = cindex.Index.create()
    status = 0
    done_functions = set()
    findings = []
    lost = []  # (switch Loc, [ResumePoint])
    bodies = resume_points = 0
    for path in files:
        tu = index.parse(path, args=common + per_file.get(path, []) + FORCED_ARGS)
        errors = [d for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Error]
        if errors:
            for d in errors:
                loc = d.location
                where = '%s:%d:%d' % (_shown(loc.file.name), loc.line, loc.column) if loc.file else _shown(path)
                print('%s: error: %s' % (where, d.spelling), file=sys.stderr)
            print('pt-lint: %s: not checked: it does not parse' % _shown(path), file=sys.stderr)
            status = EXIT_PARSE
            continue
        src = Source(cindex, tu)
        for fn in tu.cursor.get_children():
            if fn.kind != cindex.CursorKind.FUNCTION_DECL or not fn.is_definition():
                continue
            where = src.loc(fn.location)
            if where.file is None or not checked(where.file):
                continue
            ident = (where.file, where.offset)
            if ident in done_functions:  # a header's function, seen from another file
                continue
            done_functions.add(ident)
            graph = Builder(cindex, src, fn).build()
            if graph is None:
                continue
            bodies += 1
            resume_points += len(graph.resume_points)
            if args.verbose:
                print('pt-lint: %s:%d: %s: %d resume points' %
                      (_shown(where.file), where.line, fn.spelling, len(graph.resume_points)), file=sys.stderr)
            if args.back_end == 'switch':
                lost += graph.lost_switches
            for f in analyse(graph):
                if f.name.startswith(PRIVATE_PREFIXES) and not args.private:
                    continue
                findings.append(f)
    for where, points in sorted(lost, key=lambda e: (e[0].file, e[0].offset)):
        more = ' (and %d more)' % (len(points) - 1) if len(points) > 1 else ''
        print('%s:%d:%d: error: this switch encloses the resume point at %s:%d%s: the switch back end '
              'loses it (the body ends when it resumes there); build with PT_CONFIG_LC_ADDRLABELS=1 '
              '(pt-lint --back-end addrlabels), or move the wait out of the switch' %
              (_shown(where.file), where.line, where.col, _shown(points[0].loc.file), points[0].loc.line, more))
    for f in findings:
        print("%s:%d:%d: variable '%s' is read after the resume point at %s:%d "
              "(locals do not survive a wait)" %
              (_shown(f.loc.file), f.loc.line, f.loc.col, f.name, _shown(f.resume.loc.file), f.resume.loc.line))
    if args.verbose:
        print('pt-lint: %d files, %d functions with %d resume points, %d findings, %d switches '
              'around a resume point' % (len(files), bodies, resume_points, len(findings), len(lost)),
              file=sys.stderr)
    if (findings or lost) and status == 0:
        status = EXIT_FOUND
    return status
