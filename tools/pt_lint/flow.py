# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""The data flow: which reads can see a value from before a wait.

A fact (var, origin) with a set of written parts means: on some path to
here, var has not been (wholly) written since origin, except for those
parts (field paths). origin is cfg.START on the way from the function's
entry (so far only an uninitialised local, which the compiler warns
about, not this tool), or a resume point: the dispatch turns every START
fact into one of the resume point it jumps to. Facts are joined by union
(a may-analysis) and their written parts by intersection. A read of a part
is reported when a fact of a resume point reaches it and neither that
part, nor a part containing it or inside it, was written since (a read of
a whole struct after some of its fields were written is not reported:
the tool cannot know whether all were).
"""

from .cfg import START, ResumePoint

BODY = 'body'  # origin of a fact: written inside the dispatch, this call


class Finding:
    __slots__ = ('loc', 'name', 'resume')

    def __init__(self, loc, name, resume):
        self.loc, self.name, self.resume = loc, name, resume


def _overlaps(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def _transfer(node, state, on_read=None):
    s = dict(state)
    for ev in node.events:
        kind = ev[0]
        if kind == 'read':
            if on_read is not None:
                _, var, path, loc = ev
                for (v, origin), written in s.items():
                    if v == var and isinstance(origin, ResumePoint) and \
                            not any(_overlaps(w, path) for w in written):
                        on_read(var, loc, origin)
        elif kind == 'write':
            _, var, path, in_body = ev
            for fact in [f for f in s if f[0] == var and f[1] is not BODY]:
                if path:
                    s[fact] = s[fact] | {path}
                else:
                    del s[fact]
            if in_body:
                s[(var, BODY)] = frozenset()
        elif kind == 'resume':
            rp = ev[1]
            moved = {}
            for (v, origin), written in s.items():
                if origin is BODY:
                    continue
                fact = (v, rp if origin is START else origin)
                moved[fact] = moved[fact] & written if fact in moved else written
            s = moved
        elif kind == 'carry':
            s = {(v, ev[1]): frozenset() for (v, origin) in s if origin is BODY}
    return s


def _join(a, b):
    """a joined with b; None if that is a itself."""
    out = None
    for fact, written in b.items():
        mine = a.get(fact)
        if mine is None:
            new = written
        else:
            new = mine & written
            if new == mine:
                continue
        if out is None:
            out = dict(a)
        out[fact] = new
    return out


def analyse(graph):
    """Findings of one function's graph, one per read, in source order."""
    initial = {(var, START): frozenset() for var in graph.locals}
    ins = {id(graph.entry): initial}
    work = [graph.entry]
    while work:
        node = work.pop()
        out = _transfer(node, ins[id(node)])
        for succ in node.succ:
            old = ins.get(id(succ))
            if old is None:
                ins[id(succ)] = out
                work.append(succ)
            else:
                new = _join(old, out)
                if new is not None:
                    ins[id(succ)] = new
                    work.append(succ)
    found = {}  # (loc, var): [resume points]

    def on_read(var, loc, rp):
        found.setdefault(((loc.file, loc.line, loc.col), var), (loc, []))[1].append(rp)

    for node in graph.nodes:
        if id(node) in ins:
            _transfer(node, ins[id(node)], on_read)
    findings = []
    for (_, var), (loc, rps) in found.items():
        # Name the nearest resume point above the read (the one a reader
        # looks for), else the first.
        above = [rp for rp in rps if rp.loc.file == loc.file and rp.loc.line <= loc.line]
        rp = max(above, key=lambda r: r.loc.line) if above else min(rps, key=lambda r: r.loc.line)
        findings.append(Finding(loc, graph.locals[var][0], rp))
    findings.sort(key=lambda f: (f.loc.file, f.loc.line, f.loc.col))
    return findings
