#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/docs/check_docs.py - the pages of the repository say what is true.

    check_docs.py links ROOT
        Every relative link of every Markdown file ([text](path#anchor),
        images too) names a file that exists, and an anchor into a
        Markdown file names one of its headings (GitHub's rule); README.md
        is a landing page of at most 250 lines.

    check_docs.py code ROOT WORKDIR CC... -- CFLAGS...
        Every C block (```c) of README.md and docs/*.md but docs/API.md
        is compiled code: either a whole program (it has a main), which is
        compiled with CC and CFLAGS and run, or a copy of part of a file
        that the build compiles, named on the line before the block as
        <!-- from PATH -->, whose text must appear in PATH as it is (a line
        /* ... */ in the block stands for lines left out; a block of any
        kind may say where it is from). A program that
        must not be run (a server) is marked <!-- compile only -->. A text
        block (```text) marked <!-- output --> is the exact output of the
        program before it.

A block that is neither fails the check: a page shows only code that a
test compiles. PT_TEST_WRAPPER (meson test --setup valgrindscripts) runs
the programs under a wrapper such as valgrind.
"""
import os
import re
import subprocess
import sys

README_MAX_LINES = 250
ELISION = "/* ... */"
WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()


def markdown_files(root):
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not (x.startswith("build") or x.startswith(".")
                                                  or x in ("subprojects", "__pycache__")))
        found += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    return found


def blocks(text):
    """(info string, body, marker, line number) of each fenced block; the
    marker is the HTML comment on the last non-blank line before it."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)", lines[i])
        if not m:
            i += 1
            continue
        indent, info, start = m.group(1), m.group(2), i
        j = start - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marker = ""
        if j >= 0:
            c = re.match(r"^\s*<!--\s*(.*?)\s*-->\s*$", lines[j])
            marker = c.group(1) if c else ""
        i += 1
        body = []
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        out.append((info, "\n".join(body) + "\n", marker, start + 1))
        i += 1
    return out


def strip_code(text):
    """text without its fenced blocks and inline code spans (no links there)."""
    text = re.sub(r"(?ms)^\s*```.*?^\s*```", "", text)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """The anchor GitHub gives a heading."""
    s = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"(?ms)^\s*```.*?^\s*```", "", f.read())
    for m in re.finditer(r"(?m)^#{1,6}\s+(.*?)\s*#*\s*$", text):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def check_links(root):
    errors = []
    for md in markdown_files(root):
        rel = os.path.relpath(md, root)
        with open(md, encoding="utf-8") as f:
            text = strip_code(f.read())
        targets = re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text)
        targets += re.findall(r"(?m)^\s*\[[^\]]+\]:\s*(\S+)", text)
        for t in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", t):
                continue  # http:, https:, mailto:
            path, _, anchor = t.partition("#")
            dest = md if not path else os.path.normpath(os.path.join(os.path.dirname(md), path))
            if not os.path.exists(dest):
                errors.append(f"{rel}: link to {t}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                errors.append(f"{rel}: link to {t}: no heading with that anchor")
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        n = len(f.read().splitlines())
    if n > README_MAX_LINES:
        errors.append(f"README.md: {n} lines, more than {README_MAX_LINES}: move the rest to docs/")
    return errors


def in_file(block, path):
    """Whether block's text, its elided lines apart, appears in order in path."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pos = 0
    parts, cur = [], []
    for line in block.rstrip("\n").split("\n"):
        if line.strip() == ELISION:
            parts.append(cur)
            cur = []
        else:
            cur.append(line)
    parts.append(cur)
    for part in parts:
        if not part:
            continue
        chunk = "\n".join(part) + "\n"
        at = text.find(chunk, pos)
        if at < 0:
            return False
        pos = at + len(chunk)
    return True


def check_code(root, workdir, cc, cflags):
    pages = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    pages += [os.path.join(docs, f) for f in sorted(os.listdir(docs))
              if f.endswith(".md") and f != "API.md"]
    os.makedirs(workdir, exist_ok=True)
    errors, programs = [], 0
    for page in pages:
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        last = None  # (where, output) of the last program run
        for info, body, marker, line in blocks(text):
            where = f"{rel}:{line}"
            if info == "text" and marker == "output":
                if last is None:
                    errors.append(f"{where}: an output block with no program run before it")
                elif last[1] != body:
                    errors.append(f"{where}: the program at {last[0]} prints otherwise:\n{last[1]}")
                continue
            if info != "c" and not marker.startswith("from "):
                continue
            if marker.startswith("from "):
                src = os.path.join(root, marker[5:].strip())
                if not os.path.isfile(src):
                    errors.append(f"{where}: from {marker[5:]}: no such file")
                elif not in_file(body, src):
                    errors.append(f"{where}: the block is not in {marker[5:]} as it stands there")
                continue
            if not re.search(r"\bint\s+main\s*\(", body):
                errors.append(f"{where}: a C block must be a whole program or say which file it "
                              "is from (<!-- from PATH -->)")
                continue
            programs += 1
            name = re.sub(r"\W", "_", rel) + f"_{line}"
            src = os.path.join(workdir, name + ".c")
            exe = os.path.join(workdir, name)
            with open(src, "w", encoding="utf-8") as f:
                f.write(body)
            cmd = cc + cflags + ["-I", root, src, "-o", exe]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                errors.append(f"{where}: does not compile:\n{' '.join(cmd)}\n{r.stdout}{r.stderr}")
                continue
            if marker == "compile only":
                last = None
                continue
            run = subprocess.run(WRAPPER + [exe], capture_output=True, text=True,
                                 timeout=60 * (1 + 9 * bool(WRAPPER)))
            if run.returncode != 0:
                errors.append(f"{where}: exits with status {run.returncode}\n{run.stderr}")
            last = (where, run.stdout)
        print(f"{rel}: checked")
    print(f"{programs} programs compiled")
    return errors


def main(argv):
    if len(argv) >= 2 and argv[0] == "links":
        errors = check_links(os.path.abspath(argv[1]))
    elif len(argv) >= 4 and argv[0] == "code" and "--" in argv:
        sep = argv.index("--")
        errors = check_code(os.path.abspath(argv[1]), argv[2], argv[3:sep], argv[sep + 1:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for e in errors:
        print("FAILED: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
