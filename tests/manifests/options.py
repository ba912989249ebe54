#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/manifests/options.py - loop/config.h's table of options is complete
(meson test suite 'docs').

    options.py [ROOT]          check ROOT/loop/config.h against the headers
                               under ROOT/pt and ROOT/loop
    options.py --list [ROOT]   print the settable macros found, one per line
    options.py --self-test     check the checker on small fixtures

The headers are every *.h under pt/ and loop/ (subfolders too), read with
their comments blanked and continued lines joined. A macro is SETTABLE,
that is a program may define it before including a header, when:
  1. a header opens `#ifndef M` (or `#if !defined(M)`) and defines M before
     the matching #endif: the default pattern (PT_CONFIG_DEBUG; also hooks
     and port macros, PT_CONFIG_ON_RUN(loop, task), PT_CONFIG_PORT_NOW(),
     whose default may be defined deeper inside). An include guard (M ends
     in _H and the next directive is a bare `#define M`) and private names
     (PT__...) do not count;
  2. or a header reads M in an #if, #elif, #ifdef or #ifndef condition (or
     defined()) and no header defines it: only a program can
     (PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION, PT_CONFIG_LC_NO_COUNTER, 1.4's
     LC_INCLUDE). The platform's own macros are not options: names that
     begin with an underscore (reserved to the implementation) and those in
     PLATFORM below.
A macro that a header defines unconditionally is derived, not settable
(PT_CONFIG_IO; setting it is an #error).

The table is the entries of config.h's first comment: an entry opens with
lines indented three spaces that name one or more macros (upper case,
arguments allowed); its next lines, indented seven, open with where it is
set (agreed, alike, per-file, one-file, port), then "; default ...; range
...". The check
fails, naming them, when a settable macro has no entry, when an entry names
a macro that no header reads or defines outside the table, when an entry
lacks its place, its default or its range, and when an option is not
named PT_CONFIG_* (protothreads 1.4's LC_INCLUDE and LC_CONF_INCLUDE
excepted). Build files (meson.build, CMakeLists.txt, cross/*.ini) set only
macros the headers read, so they add nothing to the list.
"""
import os
import re
import sys
import tempfile

PLATFORM = {"ARDUINO", "CLOCK_MONOTONIC", "MSG_NOSIGNAL", "SO_NOSIGPIPE", "UINTPTR_MAX"}
# Options are PT_CONFIG_* (CONTRIBUTING.md, "Names"), but for protothreads
# 1.4's own, which 1.4 programs set by these names (pt/compat/lc.h).
PREFIX = "PT_CONFIG_"
KEPT_1_4 = {"LC_INCLUDE", "LC_CONF_INCLUDE"}
WHERE = ("agreed", "alike", "per-file", "one-file", "port")
IDENT = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*")  # (not 0xFFu's xFFu)
DIRECTIVE = re.compile(r"^\s*#\s*([a-z]+)\b(.*)$")


def strip_comments(text):
    """Blank comments and string literals, keep newlines, join lines
    continued with a backslash."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(q + q)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return re.sub(r"\\\n", " ", "".join(out))


def headers(root):
    for top in ("pt", "loop"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(".h"):
                    p = os.path.join(d, f)
                    with open(p, encoding="utf-8") as fh:
                        yield os.path.relpath(p, root), fh.read()


def directives(code):
    """[(kind, rest)] of a comment-stripped header, in order."""
    out = []
    for line in code.split("\n"):
        m = DIRECTIVE.match(line)
        if m:
            out.append((m.group(1), m.group(2).strip()))
    return out


def defined_name(rest):
    m = IDENT.match(rest)
    return m.group(0) if m else None


def ifndef_name(kind, rest):
    """M of `#ifndef M` or `#if !defined(M)` / `#if !defined M`, else None."""
    if kind == "ifndef":
        return defined_name(rest)
    if kind == "if":
        m = re.fullmatch(r"!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))", rest)
        if m:
            return m.group(1) or m.group(2)
    return None


def scan(root):
    """(settable {name: header}, every identifier of the code, by header)."""
    settable, reads, defines, words = {}, {}, set(), {}
    for path, text in headers(root):
        code = strip_comments(text)
        words[path] = set(IDENT.findall(code))
        ds = directives(code)
        for i, (kind, rest) in enumerate(ds):
            if kind == "define":
                defines.add(defined_name(rest))
            if kind in ("if", "elif", "ifdef", "ifndef"):
                # (__has_include(<unistd.h>), __has_attribute(fallthrough):
                # their operands are not macros)
                cond = re.sub(r"__has_\w+\s*\([^)]*\)", " ", rest)
                for w in IDENT.findall(cond):
                    if w != "defined":
                        reads.setdefault(w, path)
            m = ifndef_name(kind, rest)
            if not m or m.startswith(("PT__", "pt__")):
                continue
            nxt = ds[i + 1] if i + 1 < len(ds) else None
            if m.endswith("_H") and nxt and nxt[0] == "define" and nxt[1] == m:
                continue  # the include guard
            depth = 0
            for kind2, rest2 in ds[i + 1 :]:
                if kind2 in ("if", "ifdef", "ifndef"):
                    depth += 1
                elif kind2 == "endif":
                    if depth == 0:
                        break
                    depth -= 1
                elif kind2 == "define" and defined_name(rest2) == m:
                    settable.setdefault(m, path)
                    break
    for name, path in reads.items():
        if name in defines or name in PLATFORM or name.startswith("_"):
            continue
        if name.startswith(("PT__", "pt__")):
            continue
        settable.setdefault(name, path)
    return settable, words


def table(root):
    """({name: where}, [problems]) from config.h's first comment."""
    with open(os.path.join(root, "loop", "config.h"), encoding="utf-8") as fh:
        text = fh.read()
    start = text.find("/*", text.find("*/") + 2)  # past the licence lines
    while start >= 0 and "COMPILE-TIME OPTIONS" not in text[start : text.find("*/", start)]:
        start = text.find("/*", start + 2)
    if start < 0:
        return {}, ["loop/config.h: no comment says COMPILE-TIME OPTIONS"]
    body = text[start : text.find("*/", start)].split("\n")
    entries, problems, cur = {}, [], None

    def close(e):
        names = [w for w in IDENT.findall(" ".join(e["head"])) if w[0].isupper()]
        m = re.match(r"(" + "|".join(WHERE) + r"); default .+?; range .+", " ".join(e["detail"]))
        if not m:
            problems.append(
                f"loop/config.h: {names[0]}'s entry does not open with "
                f"'WHERE; default ...; range ...' (WHERE: {', '.join(WHERE)})"
            )
        for n in names:
            entries[n] = m.group(1) if m else None

    for line in body:
        s = re.sub(r"^ ?\*", "", line, count=1)
        if re.match(r"   [A-Z]", s):  # a name line (several for a long list)
            if cur and cur["detail"]:
                close(cur)
                cur = None
            cur = cur or {"head": [], "detail": []}
            cur["head"].append(s.strip())
        elif cur and re.match(r"       \S", s):
            cur["detail"].append(s.strip())
        elif cur:
            close(cur)
            cur = None
    if cur:
        close(cur)
    return entries, problems


def check(root):
    settable, words = scan(root)
    entries, problems = table(root)
    for name in sorted(set(settable) - set(entries)):
        problems.append(f"{settable[name]}: {name} is settable but not in loop/config.h's table")
    for name in sorted(set(settable) | set(entries)):
        if not name.startswith(PREFIX) and name not in KEPT_1_4:
            problems.append(f"{settable.get(name, 'loop/config.h')}: the option {name} is not named {PREFIX}*")
    read_anywhere = set().union(*words.values()) if words else set()
    for name in sorted(entries):
        if name not in read_anywhere:
            problems.append(f"loop/config.h: the table names {name}, which no header of pt/ or loop/ reads")
    return problems


def self_test():
    def tree(files):
        d = tempfile.mkdtemp()
        for p, t in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, p)), exist_ok=True)
            with open(os.path.join(d, p), "w", encoding="utf-8") as fh:
                fh.write(t)
        return d

    cfg = (
        "/* SPDX */\n/*\n * loop/config.h - COMPILE-TIME OPTIONS\n *\n"
        " *   PT_CONFIG_A\n"
        " *       agreed; default 1; range 0 or 1\n *       A.\n"
        " *   PT_CONFIG_HOOK(x),\n *   PT_CONFIG_USER\n"
        " *       per-file; default nothing; range any\n *\n */\n"
        "#ifndef PT_LOOP_CONFIG_H\n#define PT_LOOP_CONFIG_H\n"
        "#ifndef PT_CONFIG_A\n#if 1\n#define PT_CONFIG_A 1\n#endif\n#endif\n#endif\n"
    )
    hook = (
        "#ifndef PT_X_H\n#define PT_X_H\n#ifndef PT_CONFIG_HOOK\n#define PT_CONFIG_HOOK(x)\n#endif\n"
        "#ifdef PT_CONFIG_USER\n#endif\n#if defined(__GNUC__) || ARDUINO\n#endif\n"
        "#ifndef PT__PRIVATE\n#define PT__PRIVATE 1\n#endif\n#endif\n"
    )
    ok = tree({"loop/config.h": cfg, "pt/x.h": hook})
    assert check(ok) == [], check(ok)
    missing = tree({"loop/config.h": cfg, "pt/x.h": hook + "#ifndef PT_CONFIG_NEW\n#define PT_CONFIG_NEW 2\n#endif\n"})
    assert any("PT_CONFIG_NEW is settable" in p for p in check(missing)), check(missing)
    unread = tree({"loop/config.h": cfg, "pt/x.h": hook.replace("PT_CONFIG_USER", "PT_CONFIG_OTHER")})
    probs = check(unread)
    assert any("PT_CONFIG_OTHER is settable" in p for p in probs), probs
    assert any("names PT_CONFIG_USER, which no header" in p for p in probs), probs
    named = tree(
        {
            "loop/config.h": cfg.replace("PT_CONFIG_USER", "PT_USER"),
            "pt/x.h": hook.replace("PT_CONFIG_USER", "PT_USER"),
        }
    )
    assert any("PT_USER is not named PT_CONFIG_" in p for p in check(named)), check(named)
    bad = tree({"loop/config.h": cfg.replace("; range 0 or 1", ""), "pt/x.h": hook})
    assert any("does not open with" in p for p in check(bad)), check(bad)
    print("options.py self-test: ok")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if "--list" in argv:
        for name, path in sorted(scan(root)[0].items()):
            print(f"{path}\t{name}")
        return 0
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"options.py: {len(problems)} problem(s); loop/config.h opens with the table of options")
        return 1
    print(f"options.py: {len(table(root)[0])} options, every settable macro in the table")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
