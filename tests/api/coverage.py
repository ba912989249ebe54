#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Check that docs/API.md documents every public name of pt/ and loop/.

usage: coverage.py [ROOT]            check ROOT/docs/API.md against the
                                     headers under ROOT/pt and ROOT/loop
       coverage.py --list [ROOT]     print the public names, one per line,
                                     with the header that defines each
       coverage.py --self-test       check the checker on small fixtures

A name extractor, not a C parser. Every *.h under pt/ and loop/ (their
subfolders too) is read with its comments and string literals blanked and
its continued lines joined; then these count as public names, when they
start with pt_ or PT_ but not with pt__ or PT__ (private), and the tag of
struct pt:
  - a macro: `#define NAME`;
  - a configuration macro the headers read without defining it: a name in
    an #if, #elif, #ifdef or #ifndef condition (PT_CONFIG_LC_ADDRLABELS,
    PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION);
  - a function defined or declared at file scope (`static inline int
    pt_loop_spawn(...)`, a `PT_THREAD(pt_name(...))` too);
  - a variable declared `extern` (pt_port_ticks);
  - a struct, union or enum tag (`struct pt_task {`);
  - an enum constant (`PT_OK = 0,` inside an enum's braces);
  - a typedef's name (`typedef uint32_t pt_time_t;`, `(*pt_task_fn)(...)`).
A header's include guard (the #ifndef X / #define X that opens it) does not
count. Nothing is evaluated: a name defined in any branch of an #if counts.

docs/API.md documents a name when one of its entries does. An entry is a
list item that opens with a code span, a prototype as the headers write
them (- `int pt_loop_spawn(struct pt_loop *l, ...) -> PT_OK | PT_EBUSY`), and
each code span on its first line documents one name: the name in
`(*NAME)` (a pointer typedef), else the first public name followed by `(`,
else the tag after struct, union or enum, else its last public name. A
name only mentioned (in prose, in another entry's prototype or contract)
is not documented. The check fails, listing the names, when a public name
is not documented, and when API.md names (as a whole word anywhere) a
pt_/PT_ name that no header defines any more: a stale entry. A word
written as a prefix (`PT_E*`, a word ending in `_`) is stale only if no
public name starts with it. It also fails on a stale link: a link of
API.md to a file of the repository (`](../path)`) that does not exist, or
an entry whose "*Shown in*" links a file that uses none of the names the
entry documents.
"""
import os
import re
import sys
import tempfile

PUBLIC = re.compile(r"pt|(?:pt|PT)_(?!_)[A-Za-z0-9_]*")  # (pt: struct pt)
WORD = re.compile(r"(?<![A-Za-z0-9_])((?:pt|PT)_[A-Za-z0-9_]*)(\*?)")


def is_public(name: str) -> bool:
    return PUBLIC.fullmatch(name) is not None


def strip_comments(text: str) -> str:
    """Blank comments and the insides of string and character literals,
    keeping every newline (so line structure stays), and join lines
    continued with a backslash."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return re.sub(r"\\\n", " ", "".join(out))


def matching_brace(text: str, i: int) -> int:
    """The index just past the brace that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def top_level(text: str) -> str:
    """text with the inside of every brace block blanked."""
    out, depth = [], 0
    for c in text:
        if c == "}":
            depth -= 1
        out.append(c if depth == 0 or c == "\n" else " ")
        if c == "{":
            depth += 1
    return "".join(out)


def include_guard(directives):
    """The name of the include guard a header opens with, or None."""
    if (
        len(directives) >= 2
        and directives[0][0] == "ifndef"
        and directives[1][0] == "define"
        and directives[0][1].split() == directives[1][1].split()
    ):
        return directives[0][1].strip()
    return None


def extract(text: str) -> dict:
    """The names a header's text defines: {name: kind}, private ones too."""
    text = strip_comments(text)
    names = {}

    def add(name, kind):
        names.setdefault(name, kind)

    directives = re.findall(r"^[ \t]*#[ \t]*(\w+)(.*)$", text, re.M)
    guard = include_guard(directives)
    for kind, rest in directives:
        if kind == "define":
            m = re.match(r"\s*(\w+)", rest)
            if m and m.group(1) != guard:
                add(m.group(1), "macro")
    for kind, rest in directives:
        if kind in ("if", "elif", "ifdef", "ifndef"):
            for name in re.findall(r"[A-Za-z_]\w*", rest):
                if name != guard and name != "defined":
                    add(name, "option")
    if guard:
        names[guard] = "guard"

    code = re.sub(r"^[ \t]*#.*$", "", text, flags=re.M)  # C without the preprocessor
    top = top_level(code)
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", top):
        before = top[: m.start()].rstrip()
        # a declarator: after a type (a word, a `*`) or PT_THREAD's `(`,
        # not a keyword such as `sizeof` or a cast's parenthesis
        if re.search(r"(\w|\*|PT_THREAD\s*\()$", before) and m.group(1) not in ("PT_THREAD",):
            head = re.split(r"[;}]", before)[-1]
            if not re.match(r"\s*typedef\b", head):
                add(m.group(1), "function")
    for m in re.finditer(r"\bextern\b[^;(]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)?;", top):
        add(m.group(1), "variable")
    for m in re.finditer(r"\b(?:struct|union|enum)\s+(\w+)\s*\{", code):
        add(m.group(1), "tag")
    for m in re.finditer(r"\benum\b\s*\w*\s*\{", code):
        body = code[m.end() : matching_brace(code, m.end() - 1) - 1]
        for item in body.split(","):
            e = re.match(r"\s*([A-Za-z_]\w*)", item)
            if e:
                add(e.group(1), "constant")
    for m in re.finditer(r"\btypedef\b", top):
        j, depth = m.end(), 0
        while j < len(code) and not (code[j] == ";" and depth == 0):
            depth += code[j] == "{"
            depth -= code[j] == "}"
            j += 1
        decl = top_level(code[m.end() : j])
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
        last = re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", decl)
        if fp or last:
            add((fp or last).group(1), "typedef")
    return names


def headers(root: str):
    for top in ("pt", "loop"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".h"):
                    yield os.path.join(folder, f)


def public_names(root: str) -> dict:
    """{name: header (relative to root)} of every public name: the first
    header that defines it, else the first that reads it (an option).
    Every header's guard is left out, also where another header tests it
    (loop/port/cortex_m.h tests PT_LOOP_PORT_H)."""
    found, guards = {}, set()
    for path in headers(root):
        with open(path, encoding="utf-8") as f:
            names = extract(f.read())
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        for name, kind in names.items():
            if kind == "guard":
                guards.add(name)
            elif is_public(name) and (
                name not in found or (found[name][1] == "option" and kind != "option")
            ):
                found[name] = (rel, kind)
    return {name: rel for name, (rel, kind) in found.items() if name not in guards}


def entries(doc: str) -> list:
    """The entries of a Markdown text: (first line, whole entry) of each
    list item that opens with a code span. A blank line, or the next item,
    ends an entry."""
    found = []
    for part in re.split(r"\n(?=- `)", doc):
        part = part.split("\n\n", 1)[0]
        if part.startswith("- `"):
            found.append((part.split("\n", 1)[0], part))
    return found


def defined_by(span: str):
    """The name a prototype in a code span documents: the name in `(*NAME)`
    (a pointer typedef), else the first public name followed by `(` (a
    function or a macro), else the tag after struct, union or enum, else
    its last public name (`PT_OK`, `pt_time_t`, `volatile pt_time_t
    pt_port_ticks`). None if it has no public name."""
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", span)
    if m and is_public(m.group(1)):
        return m.group(1)
    for m in re.finditer(r"(?<![A-Za-z0-9_])(\w+)\s*\(", span):
        if is_public(m.group(1)):
            return m.group(1)
    m = re.search(r"\b(?:struct|union|enum)\s+(\w+)", span)
    if m and is_public(m.group(1)):
        return m.group(1)
    words = [w for w in re.findall(r"\w+", span) if is_public(w)]
    return words[-1] if words else None


def documented(doc: str) -> dict:
    """{name: [entry]} of the names the entries document: those their
    first line's code spans define."""
    found = {}
    for first, entry in entries(doc):
        for span in re.findall(r"`([^`]+)`", first):
            name = defined_by(span)
            if name:
                found.setdefault(name, []).append(entry)
    return found


def mentioned(doc: str) -> set:
    """Every pt_/PT_ word of a Markdown text, as (word, is_prefix)."""
    return {(m.group(1), bool(m.group(2)) or m.group(1).endswith("_")) for m in WORD.finditer(doc)}


def stale_links(root: str, doc: str) -> list:
    """[(what, linked path)] of the links to a file that is missing, and of
    the entries' "Shown in" links to a file that uses none of the names the
    entry documents."""
    stale = [
        ("a link", link)
        for link in re.findall(r"\]\(\.\./([^)#]+)\)", doc)
        if not os.path.exists(os.path.join(root, link))
    ]
    for first, entry in entries(doc):
        if "*Shown in*" not in entry:
            continue
        own = [n for n in map(defined_by, re.findall(r"`([^`]+)`", first)) if n]
        shown = entry.split("*Shown in*", 1)[1]
        for link in re.findall(r"\]\(\.\./([^)#]+)\)", shown):
            path = os.path.join(root, link)
            text = ""
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            if text and not any(
                re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % n, text) for n in own
            ):
                stale.append((", ".join(own) or first, link))
    return stale


def check(root: str, doc_path: str) -> int:
    names = public_names(root)
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    done = documented(text)
    links = stale_links(root, text)
    missing = sorted(n for n in names if n not in done)
    stale = sorted(
        w
        for w, prefix in mentioned(text)
        if is_public(w)
        and w not in names
        and not (prefix and any(n.startswith(w) for n in names))
    )
    doc = os.path.relpath(doc_path, root)
    for n in missing:
        print(f"undocumented: {n} ({names[n]}) is not in {doc}")
    for w in stale:
        print(f"stale: {doc} names {w}, which no header of pt/ or loop/ defines")
    for what, link in links:
        if what == "a link":
            print(f"stale link: {doc} links {link}, which does not exist")
        else:
            print(f"stale link: {doc} shows {what} in {link}, which does not use it")
    if missing or stale or links:
        print(
            f"FAILED: {len(missing)} undocumented, {len(stale)} stale, {len(links)} stale links,"
            f" of {len(names)} public names"
        )
        return 1
    print(f"ok: {len(names)} public names of pt/ and loop/, each in {doc}")
    return 0


# ---- the checker's own test: fixtures with known answers ----------------

FIXTURE_H = r"""/*
 * pt/fix.h - PT_IN_A_COMMENT is no definition.
 */
#ifndef PT_FIX_H
#define PT_FIX_H
#if defined(PT_FIX_OPTION) && PT_FIX_OPTION
#define PT_FIX_MACRO(x) \
    ((x) + pt_fix_called(1))
#endif
#define PT__FIX_PRIVATE 1
typedef unsigned short pt_fix_t;
typedef char (*pt_fix_fn)(int a);
typedef union pt_fix_value { int i; } pt_fix_value;
struct pt_fix { int pt_fix_member; };
enum { PT_FIX_A = 0, PT_FIX_B = -1 /* , PT_FIX_NOT */ };
enum pt_fix_kind { PT_FIX_C };
extern volatile pt_fix_t pt_fix_ticks;
static const char *s = "struct pt_fix_in_a_string {";
struct pt { int lc; };
static inline int pt_fix_func(struct pt_fix *f) {
    return pt_fix_called(f->pt_fix_member) + sizeof(pt_fix_t);
}
static inline void pt__fix_private(void) {
}
static PT_THREAD(pt_fix_thread(struct pt_fix *f)) {
    return 0;
}
#endif /* PT_FIX_H */
"""

# Tests the first header's guard (not a name) and reads one of its macros
# (defined there: it stays that header's).
FIXTURE_OTHER_H = r"""#ifndef PT_ANOTHER_H
#define PT_ANOTHER_H
#if defined(PT_FIX_H) || PT_FIX_MACRO
#endif
#endif
"""

FIXTURE_NAMES = {
    "PT_FIX_OPTION": "option",
    "PT_FIX_MACRO": "macro",
    "pt_fix_t": "typedef",
    "pt_fix_fn": "typedef",
    "pt_fix_value": "tag",
    "pt_fix": "tag",
    "PT_FIX_A": "constant",
    "PT_FIX_B": "constant",
    "pt_fix_kind": "tag",
    "PT_FIX_C": "constant",
    "pt_fix_ticks": "variable",
    "pt_fix_func": "function",
    "pt_fix_thread": "function",
    "pt": "tag",
}


def self_test() -> int:
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    names = {n: k for n, k in extract(FIXTURE_H).items() if is_public(n) and k != "guard"}
    expect("public names of the fixture", names, FIXTURE_NAMES)
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "pt"))
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "pt", "fix.h"), "w", encoding="utf-8") as f:
            f.write(FIXTURE_H)
        with open(os.path.join(root, "pt", "another.h"), "w", encoding="utf-8") as f:
            f.write(FIXTURE_OTHER_H)
        expect("names of two headers", public_names(root), dict.fromkeys(FIXTURE_NAMES, "pt/fix.h"))
        doc_path = os.path.join(root, "docs", "API.md")
        complete = "\n".join(f"- `{n}`" for n in FIXTURE_NAMES) + "\nAll `PT_FIX_*` names.\n"

        def run(doc):
            with open(doc_path, "w", encoding="utf-8") as f:
                f.write(doc)
            saved = sys.stdout
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
            try:
                return check(root, doc_path)
            finally:
                sys.stdout.close()
                sys.stdout = saved

        expect("a complete page", run(complete), 0)
        expect("a name missing", run(complete.replace("- `pt_fix_ticks`\n", "")), 1)
        expect("a name in prose only", run(complete.replace("`pt_fix_ticks`", "pt_fix_ticks")), 1)
        only_in_a_prototype = complete.replace("- `pt_fix_t`\n", "").replace(
            "`pt_fix_func`", "`int pt_fix_func(pt_fix_t x)`"
        )
        expect("a name in another entry's prototype only", run(only_in_a_prototype), 1)
        prototypes = complete
        for name, prototype in (
            ("pt_fix_func", "static inline int pt_fix_func(struct pt_fix *f)"),
            ("pt_fix_fn", "typedef char (*pt_fix_fn)(int a)"),
            ("pt_fix", "struct pt_fix { int member; }"),
            ("pt_fix_ticks", "volatile pt_fix_t pt_fix_ticks"),
            ("pt_fix_value", "typedef union pt_fix_value { int i; } pt_fix_value"),
        ):
            prototypes = prototypes.replace(f"`{name}`", f"`{prototype}`")
        expect("prototypes document their names", run(prototypes), 0)
        expect("a stale name in code", run(complete + "- `pt_fix_gone`\n"), 1)
        expect("a stale name in prose", run(complete + "PT_FIX_GONE is gone.\n"), 1)
        expect("a stale prefix", run(complete + "All `PT_GONE_*` names.\n"), 1)
        expect("a private name is neither", run(complete + "`pt__fix_private`\n"), 0)
        with open(os.path.join(root, "user.c"), "w", encoding="utf-8") as f:
            f.write("int main(void) { return pt_fix_func(0); }\n")
        shown = "- `%s` again\n  *Shown in* [user.c](../%s).\n"
        expect("a link to a file using it", run(complete + shown % ("pt_fix_func", "user.c")), 0)
        expect("a link to one that does not", run(complete + shown % ("pt_fix_t", "user.c")), 1)
        expect("a link to no file", run(complete + shown % ("pt_fix_func", "gone.c")), 1)
        expect("any link to no file", run(complete + "See [gone.c](../gone.c).\n"), 1)
    for f in failures:
        print("FAILED: " + f)
    if not failures:
        print("ok: the extractor and the check give the fixtures' answers")
    return 1 if failures else 0


def main(argv) -> int:
    if argv[1:2] == ["--self-test"]:
        return self_test()
    if argv[1:2] == ["--list"]:
        root = argv[2] if len(argv) > 2 else "."
        for name, header in sorted(public_names(root).items(), key=lambda x: (x[1], x[0])):
            print(f"{header}\t{name}")
        return 0
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    return check(root, os.path.join(root, "docs", "API.md"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
