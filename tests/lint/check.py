#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run pt-lint on C files or folders and compare its findings with the
lines the files mark: a comment "pt-lint: expect NAME" (or "NAME, NAME")
on a line means that line must be reported for each NAME, and nothing
else may be reported. The name `switch` (a keyword: no local has it) marks
a switch reported for enclosing a resume point, which only the switch back
end loses: with --addrlabels (pt-lint's --back-end addrlabels) those marks
are not expected. Files without a mark (the demos, the examples, the
correct programs) must come out clean.

  check.py --tool tools/pt-lint.py --root . [--addrlabels] PATH... [-- MORE PT-LINT ARGS]

When libclang cannot be used (python3-clang-14 missing) this fails,
unless PT_LINT_OPTIONAL=1, when it skips (status 77).
"""

import argparse
import os
import re
import subprocess
import sys

EXPECT = re.compile(r'pt-lint: expect ([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)')
FINDING = re.compile(r"^(.+?):(\d+):(\d+): variable '([A-Za-z_][A-Za-z0-9_]*)' is read after the resume point "
                     r"at (.+?):(\d+) \(locals do not survive a wait\)$")
SWITCH = re.compile(r"^(.+?):(\d+):(\d+): error: this switch encloses the resume point at (.+?):(\d+): "
                    r"the switch back end loses it .*$")
SKIP = 77


def expectations(paths):
    """{(absolute path, line, name)} marked in the files under paths."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, _, names in os.walk(p):
                files += [os.path.join(dirpath, n) for n in names if n.endswith(('.c', '.h'))]
        else:
            files.append(p)
    out = set()
    for f in files:
        with open(f, encoding='utf-8') as src:
            for number, line in enumerate(src, 1):
                m = EXPECT.search(line)
                if m:
                    for name in m.group(1).split(','):
                        out.add((os.path.realpath(f), number, name.strip()))
    return out


def main():
    argv = sys.argv[1:]
    extra = []
    if '--' in argv:
        extra = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--tool', required=True)
    p.add_argument('--root', required=True)
    p.add_argument('--addrlabels', action='store_true',
                   help='check for the labels-as-values back end (switch marks are not expected)')
    p.add_argument('paths', nargs='+')
    args = p.parse_args(argv)
    if args.addrlabels:
        extra = ['--back-end', 'addrlabels'] + extra

    probe = subprocess.run([sys.executable, args.tool, '--check-libclang'], capture_output=True, text=True)
    if probe.returncode != 0:
        sys.stderr.write(probe.stdout + probe.stderr)
        if os.environ.get('PT_LINT_OPTIONAL') == '1':
            print('SKIP: libclang unavailable and PT_LINT_OPTIONAL=1')
            return SKIP
        print('FAIL: pt-lint cannot run (set PT_LINT_OPTIONAL=1 to skip where python3-clang-14 is missing)')
        return 1

    expected = expectations(args.paths)
    if args.addrlabels:
        expected = {e for e in expected if e[2] != 'switch'}
    run = subprocess.run([sys.executable, args.tool, '--root', args.root] + extra + args.paths,
                         capture_output=True, text=True, cwd=args.root)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    found, ok = set(), True
    for line in run.stdout.splitlines():
        m = FINDING.match(line)
        name = m.group(4) if m else 'switch'
        m = m or SWITCH.match(line)
        if not m:
            print('FAIL: not a finding: %r' % line)
            ok = False
            continue
        path = m.group(1) if os.path.isabs(m.group(1)) else os.path.join(args.root, m.group(1))
        found.add((os.path.realpath(path), int(m.group(2)), name))
    want_status = 1 if expected else 0
    if run.returncode != want_status:
        print('FAIL: pt-lint exited %d, expected %d' % (run.returncode, want_status))
        ok = False
    for f, line, name in sorted(expected - found):
        print('FAIL: not reported: %s:%d: %s' % (f, line, name))
        ok = False
    for f, line, name in sorted(found - expected):
        print('FAIL: reported but not expected: %s:%d: %s' % (f, line, name))
        ok = False
    if ok:
        print('ok: %d finding(s), as marked' % len(found))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
