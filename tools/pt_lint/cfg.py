# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""The control-flow graph of one function, from libclang's syntax tree.

Each node holds events, in the order they happen:
  ('read', var, path, loc)   the value of a local (or of a part: path is
                             the field names, '[]' for an element) is used
  ('write', var, path)       a local (or a part of it) is given a value
  ('resume', rp)             control arrives at resume point rp from the
                             dispatch: every local not written since the
                             call began now holds a stale value
  ('carry', rp)              on the edge from where resume point rp was
                             saved (an earlier call) to rp: a local that
                             the code before the dispatch wrote (fresh in
                             every call) but that the body wrote again
                             before the wait holds the first value, not
                             the body's: stale too
A variable is the key of its declaration (see Builder.local_key). A write
inside the dispatch (the body) is ('write', var, path, True).

The graph follows the macros' expansion exactly, with the labels-as-values
back end (pt/lc_addrlabels.h; the tool forces PT_CONFIG_LC_ADDRLABELS=1, whose
resume points are labels that no `switch` of the body can take, and whose
names cannot collide with a `case` of the user's): PT_BEGIN's dispatch is
a `switch` on the saved local continuation (an expression of type
pt_lc_t), whose `goto *lc` jumps to every resume point (a label
pt__lc_label_N of PT_LC_SET), and whose `case` after the first is the
exit point (PT_LC_EXIT_POINT, a resume point too). A switch of the body
around a resume point is recorded (Graph.lost_switches): the switch back
end, where a resume point is a `case` of the dispatch, loses it. Code
before the dispatch runs on every call, so what it writes is fresh at
every resume point. Operators are told apart by the shape of the tree,
which libclang 14's bindings do not name: an assignment's left operand is an
lvalue used as such (no implicit conversion around it), any other
operator's operands are converted to values first; `&x` has the type
"pointer to x's type", `x++` has x's type. Only && and || need the
tokens (source.py), and only where the user wrote them: inside a macro's
own body they are taken as plain operators (both sides may run), which
can only hide a finding, never make one.

The address of a local (`&x`, or an array passed as a pointer) given to a
function whose parameter is a pointer to const is a read of the local
(the function reads it: after a wait, that reads garbage). Anywhere else
it is taken as a write (the callee may fill it, as `read(fd, buf, n)` or
PT_QUEUE_GET(q, &item, t) do after the wait, which is correct) and the
local is not reported after it. Where such an address was stored before
a wait and used after it, the storage itself is gone: that bug is not
seen, it goes through a pointer.
"""

import ctypes

K = None  # clang.cindex.CursorKind, set by Builder
TK = None  # clang.cindex.TypeKind

START = 'start'  # the pseudo resume point of a call's beginning


class Node:
    __slots__ = ('events', 'succ')

    def __init__(self):
        self.events = []
        self.succ = []


class ResumePoint:
    __slots__ = ('index', 'loc')

    def __init__(self, index, loc):
        self.index, self.loc = index, loc


class _Switch:
    __slots__ = ('node', 'dispatch', 'cases', 'has_default', 'loc')

    def __init__(self, node, dispatch, loc):
        self.node, self.dispatch, self.cases, self.has_default = node, dispatch, 0, False
        self.loc = loc


RESUME_LABEL = 'pt__lc_label_'  # PT_LC_SET's labels (pt/lc_addrlabels.h)


class Graph:
    """entry: the first node; nodes; locals {key: (name, decl Loc)};
    resume_points [ResumePoint]; lost_switches [(Loc of a switch of the
    body, [the ResumePoints inside it])], in source order."""

    def __init__(self):
        self.nodes = []
        self.locals = {}
        self.resume_points = []
        self.lost_switches = []
        self.entry = self.new()

    def new(self):
        n = Node()
        self.nodes.append(n)
        return n


def _children(c):
    return list(c.get_children())


def _exprs(c):
    return [x for x in c.get_children() if x.kind.is_expression()]


def _strip_parens(c):
    while c.kind == K.PAREN_EXPR:
        ch = _exprs(c)
        if len(ch) != 1:
            break
        c = ch[0]
    return c


def _strip_implicit(c):
    """Below parentheses and implicit conversions."""
    while c.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR):
        ch = _exprs(c)
        if len(ch) != 1:
            break
        c = ch[0]
    return c


def _canon(t):
    return t.get_canonical()


def _is_array(t):
    return _canon(t).kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)


def _is_pointer(t):
    return _canon(t).kind == TK.POINTER


def _same_type(a, b):
    return _canon(a).spelling == _canon(b).spelling


def _pointer_to_const(t):
    t = _canon(t)
    return t.kind == TK.POINTER and t.get_pointee().is_const_qualified()


_LVALUE_KINDS = None


class Builder:
    """Builds the Graph of one function definition (build())."""

    def __init__(self, cindex, source, fn):
        global K, TK, _LVALUE_KINDS
        K, TK = cindex.CursorKind, cindex.TypeKind
        _LVALUE_KINDS = (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR)
        self.ci = cindex
        self.src = source
        self.fn = fn
        self.g = Graph()
        self.exit = self.g.new()
        self.labels = {}
        self.gotos = []
        self.breaks = []
        self.continues = []
        self.switches = []
        self.lost = {}  # a switch of the body around resume points: [ResumePoint]
        self.resumes = []  # the resume node of each resume point (PT_LC_SET's labels)
        self.dispatch_gotos = []  # the nodes of the dispatch's `goto *lc`
        self.has_dispatch = False
        self.in_body = 0  # > 0 inside the dispatch switch
        lib = cindex.conf.lib
        self._init = lib.clang_Cursor_getVarDeclInitializer
        self._init.argtypes = [cindex.Cursor]
        self._init.restype = cindex.Cursor
        self._is_null = lib.clang_Cursor_isNull
        self._is_null.argtypes = [cindex.Cursor]
        self._is_null.restype = int
        self._eval = lib.clang_Cursor_Evaluate
        self._eval.argtypes = [cindex.Cursor]
        self._eval.restype = cindex.c_object_p
        self._eval_kind = lib.clang_EvalResult_getKind
        self._eval_kind.argtypes = [cindex.c_object_p]
        self._eval_kind.restype = int
        self._eval_int = lib.clang_EvalResult_getAsLongLong
        self._eval_int.argtypes = [cindex.c_object_p]
        self._eval_int.restype = ctypes.c_longlong
        self._eval_free = lib.clang_EvalResult_dispose
        self._eval_free.argtypes = [cindex.c_object_p]
        self._eval_free.restype = None

    # ---- locals ----------------------------------------------------------

    def local_key(self, decl):
        """Key of a local with automatic storage, or None (parameters,
        statics, globals, functions, enum constants are not locals)."""
        if decl is None or decl.kind != K.VAR_DECL:
            return None
        if decl.storage_class not in (self.ci.StorageClass.NONE, self.ci.StorageClass.AUTO,
                                      self.ci.StorageClass.REGISTER):
            return None
        if decl.semantic_parent is None or decl.semantic_parent.kind != K.FUNCTION_DECL:
            return None
        key = (decl.hash, decl.spelling)
        if key not in self.g.locals:
            self.g.locals[key] = (decl.spelling, self.src.loc(decl.location))
        return key

    def lvalue(self, c):
        """(key, path, the DECL_REF_EXPR, [index expressions]) if c names a
        local or a part of it (x, x.f, x[i], x.a[i].b), else None."""
        c = _strip_parens(c)
        if c.kind == K.DECL_REF_EXPR:
            key = self.local_key(c.referenced)
            return (key, (), c, []) if key else None
        if c.kind == K.MEMBER_REF_EXPR:
            ch = _exprs(c)
            if len(ch) != 1 or _is_pointer(ch[0].type):  # p->f: a read of p
                return None
            lv = self.lvalue(ch[0])
            return (lv[0], lv[1] + (c.spelling, ), lv[2], lv[3]) if lv else None
        if c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            ch = _exprs(c)
            if len(ch) != 2:
                return None
            base = _strip_implicit(ch[0])
            if not _is_array(base.type):  # p[i]: a read of p
                return None
            lv = self.lvalue(base)
            return (lv[0], lv[1] + ('[]', ), lv[2], lv[3] + [ch[1]]) if lv else None
        return None

    # ---- events ----------------------------------------------------------

    def read(self, node, lv):
        key, path, ref, _ = lv
        node.events.append(('read', key, path, self.src.loc(ref.location)))

    def write(self, node, lv):
        node.events.append(('write', lv[0], lv[1], self.in_body > 0))

    def const_value(self, e):
        """The value of a constant condition (the 0 of do/while (0), the 1
        of while (1)), or None. Only literal expressions are evaluated."""
        stack = [e]
        while stack:
            c = stack.pop()
            if c.kind == K.DECL_REF_EXPR and c.referenced is not None \
                    and c.referenced.kind != K.ENUM_CONSTANT_DECL:
                return None
            if c.kind in (K.CALL_EXPR, K.StmtExpr):
                return None
            stack.extend(c.get_children())
        r = self._eval(e)
        if not r:
            return None
        try:
            return self._eval_int(r) if self._eval_kind(r) == 1 else None  # CXEval_Int
        finally:
            self._eval_free(r)

    # ---- expressions -----------------------------------------------------

    def expr(self, e, cur, const_arg=False):
        """Add e's evaluation after node cur; return the node it ends in.
        const_arg: e is a function's argument for a pointer-to-const
        parameter (an address given there is read)."""
        k = e.kind
        if k == K.PAREN_EXPR or k == K.UNEXPOSED_EXPR or k == K.CSTYLE_CAST_EXPR:
            ch = _exprs(e)
            if len(ch) != 1:
                for c in ch:
                    cur = self.expr(c, cur)
                return cur
            inner = ch[0]
            if k == K.CSTYLE_CAST_EXPR and _canon(e.type).kind == TK.VOID:
                lv = self.lvalue(_strip_implicit(inner))
                if lv:  # (void)x: not a use of x's value
                    for s in lv[3]:
                        cur = self.expr(s, cur)
                    return cur
            lv = self.lvalue(inner) if k == K.UNEXPOSED_EXPR else None
            if lv:  # an implicit conversion of a local: its value is used
                for s in lv[3]:
                    cur = self.expr(s, cur)
                if _is_array(inner.type) and not const_arg:
                    self.write(cur, lv)  # an array given as a pointer: may be filled
                else:
                    self.read(cur, lv)
                return cur
            return self.expr(inner, cur, const_arg)
        if k in _LVALUE_KINDS:
            lv = self.lvalue(e)
            if lv:
                for s in lv[3]:
                    cur = self.expr(s, cur)
                self.read(cur, lv)
                return cur
            for c in _exprs(e):
                cur = self.expr(c, cur)
            return cur
        if k == K.UNARY_OPERATOR:
            ch = _exprs(e)
            if len(ch) != 1:
                return cur
            operand = _strip_parens(ch[0])
            lv = self.lvalue(operand) if operand.kind in _LVALUE_KINDS else None
            if lv:
                for s in lv[3]:
                    cur = self.expr(s, cur)
                t = _canon(e.type)
                if t.kind == TK.POINTER and t.get_pointee().spelling == _canon(operand.type).spelling:
                    # &x
                    if const_arg:
                        self.read(cur, lv)
                    else:
                        self.write(cur, lv)
                else:  # ++x, x--: read, then write
                    self.read(cur, lv)
                    self.write(cur, lv)
                return cur
            return self.expr(ch[0], cur)
        if k == K.BINARY_OPERATOR:
            ch = _exprs(e)
            if len(ch) != 2:
                for c in ch:
                    cur = self.expr(c, cur)
                return cur
            lhs, rhs = ch
            target = _strip_parens(lhs)
            if target.kind in _LVALUE_KINDS + (K.UNARY_OPERATOR, ) and _same_type(e.type, lhs.type):
                # an assignment: its left side is an lvalue, not converted
                lv = self.lvalue(target)
                if lv:
                    for s in lv[3]:
                        cur = self.expr(s, cur)
                    cur = self.expr(rhs, cur)
                    self.write(cur, lv)
                    return cur
                # *p = v, p->f = v: p is read
                cur = self.expr(target, cur) if target.kind != K.UNARY_OPERATOR else \
                    self.expr(_exprs(target)[0], cur)
                return self.expr(rhs, cur)
            if self._logical(e):
                t, f = self.branch(e, cur)
                after = self.g.new()
                t.succ.append(after)
                f.succ.append(after)
                return after
            return self.expr(rhs, self.expr(lhs, cur))
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            ch = _exprs(e)
            if len(ch) == 2:
                lv = self.lvalue(ch[0])
                if lv:
                    for s in lv[3]:
                        cur = self.expr(s, cur)
                    self.read(cur, lv)
                    cur = self.expr(ch[1], cur)
                    self.write(cur, lv)
                    return cur
            for c in ch:
                cur = self.expr(c, cur)
            return cur
        if k == K.CONDITIONAL_OPERATOR:
            ch = _exprs(e)
            if len(ch) != 3:
                for c in ch:
                    cur = self.expr(c, cur)
                return cur
            after = self.g.new()
            for start, value in zip(self.branch(ch[0], cur), ch[1:]):
                n = self.g.new()
                start.succ.append(n)
                self.expr(value, n).succ.append(after)
            return after
        if k == K.CALL_EXPR:
            ch = _exprs(e)
            if not ch:
                return cur
            callee, args = ch[0], ch[1:]
            params = []
            ft = _canon(callee.type)
            if ft.kind == TK.POINTER:
                ft = ft.get_pointee()
            if ft.kind == TK.FUNCTIONPROTO:
                params = list(ft.argument_types())
            cur = self.expr(callee, cur)
            for i, a in enumerate(args):
                cur = self.expr(a, cur, i < len(params) and _pointer_to_const(params[i]))
            return cur
        if k == K.CXX_UNARY_EXPR:  # sizeof, _Alignof: not evaluated
            return cur
        if k == K.StmtExpr:  # ({ ... }): a GNU statement expression
            for c in _children(e):
                cur = self.stmt(c, cur)
            return cur
        for c in _exprs(e):
            cur = self.expr(c, cur)
        return cur

    def _logical(self, e):
        """'&&' or '||' if e is one of those, as the user wrote it (the
        tokens between its operands), else None."""
        if e.kind != K.BINARY_OPERATOR:
            return None
        ch = _exprs(e)
        if len(ch) != 2:
            return None
        op = self.src.tokens_between(self.src.end(ch[0]), self.src.start(ch[1]))
        return op[0] if op in (['&&'], ['||']) else None

    def branch(self, e, cur):
        """Add the evaluation of condition e after cur; return the nodes
        where it is true and where it is false (so that `if (a && (x =
        f())) use(x);` writes x on every path to the use)."""
        s = _strip_parens(e)
        op = self._logical(s)
        if op:
            lhs, rhs = _exprs(s)
            lt, lf = self.branch(lhs, cur)
            right = self.g.new()  # (lt and lf may be one node: no event may follow it)
            if op == '&&':
                lt.succ.append(right)
                rt, rf = self.branch(rhs, right)
                f = self.g.new()
                lf.succ.append(f)
                rf.succ.append(f)
                return rt, f
            lf.succ.append(right)
            rt, rf = self.branch(rhs, right)
            t = self.g.new()
            lt.succ.append(t)
            rt.succ.append(t)
            return t, rf
        if s.kind == K.UNARY_OPERATOR:
            i = self.src.token_index(self.src.start(s))
            ch = _exprs(s)
            if i is not None and len(ch) == 1 and self.src.tokens(self.src.start(s).file)[1][i] == '!' \
                    and self.src.start(ch[0]).offset > self.src.start(s).offset:
                t, f = self.branch(ch[0], cur)
                return f, t
        n = self.expr(e, cur)
        return n, n

    # ---- statements ------------------------------------------------------

    def _dead(self):
        return self.g.new()  # where code after a jump goes: nothing reaches it

    def _is_dispatch(self, cond):
        """An expression that reads a local continuation (type pt_lc_t):
        the selector of PT_LC_RESUME's switch, the target of its goto."""
        stack = [cond]
        while stack:
            c = stack.pop()
            if c.kind in (K.MEMBER_REF_EXPR, K.DECL_REF_EXPR) and self._is_lc_type(c.type):
                return True
            stack.extend(_exprs(c))
        return False

    def _is_lc_type(self, t):
        for _ in range(16):
            if t.kind != TK.TYPEDEF:
                return False
            if t.get_typedef_name() == 'pt_lc_t' or t.spelling == 'pt_lc_t':
                return True
            t = t.get_declaration().underlying_typedef_type
        return False

    def _resume_point(self, s, cur, n):
        """Resume point s (a label or a case at node n, which the body
        reaches from cur when it goes on without a wait): a resume node to
        n for the dispatch, and a carry from cur. The switches of the body
        around it are recorded."""
        g = self.g
        rp = ResumePoint(len(g.resume_points), self.src.start(s))
        g.resume_points.append(rp)
        r = g.new()
        r.events.append(('resume', rp))
        r.succ.append(n)
        carry = g.new()  # cur is where the earlier call saved rp
        carry.events.append(('carry', rp))
        cur.succ.append(carry)
        carry.succ.append(n)
        inside = []
        for sw in reversed(self.switches):
            if sw.dispatch:
                break
            inside.append(sw)
        for sw in inside:
            if id(sw) not in self.lost:
                self.lost[id(sw)] = (sw.loc, [])
                g.lost_switches.append(self.lost[id(sw)])
            self.lost[id(sw)][1].append(rp)
        return r

    def _for_parts(self, s):
        """{'init', 'cond', 'inc', 'body'} -> cursor, from where the `;`
        of the header are. None if the tokens do not show them (a `for`
        of a macro's own body)."""
        ch = _children(s)
        start = self.src.start(s)
        i = self.src.token_index(start)
        if i is None:
            return None
        offsets, spellings = self.src.tokens(start.file)
        if spellings[i] != 'for' or i + 1 >= len(spellings) or spellings[i + 1] != '(':
            return None
        depth, marks = 0, []
        for j in range(i + 1, len(spellings)):
            t = spellings[j]
            if t in ('(', '[', '{'):
                depth += 1
            elif t in (')', ']', '}'):
                depth -= 1
                if depth == 0:
                    marks.append(offsets[j])
                    break
            elif t == ';' and depth == 1:
                marks.append(offsets[j])
        if len(marks) != 3:
            return None
        parts = {}
        for c in ch:
            loc = self.src.start(c)
            if loc.file != start.file:
                return None
            slot = sum(1 for m in marks if loc.offset > m)
            name = ('init', 'cond', 'inc', 'body')[slot]
            if name in parts:
                return None
            parts[name] = c
        return parts if 'body' in parts else None

    def stmt(self, s, cur):
        """Add statement s after node cur; return the node it ends in."""
        k = s.kind
        g = self.g
        if k == K.COMPOUND_STMT:
            for c in _children(s):
                cur = self.stmt(c, cur)
            return cur
        if k == K.DECL_STMT:
            for d in _children(s):
                if d.kind != K.VAR_DECL:
                    continue
                key = self.local_key(d)
                if key is None:
                    continue  # a static's initialiser runs once, before any call
                init = self._init(d)
                if not self._is_null(init):
                    init._tu = d._tu  # (what the bindings' own cursors carry)
                    cur = self.expr(init, cur)
                    cur.events.append(('write', key, (), self.in_body > 0))
            return cur
        if k == K.IF_STMT:
            ch = _children(s)
            cond = ch[0]
            t, f = self.branch(cond, cur)
            value = self.const_value(cond)
            after = g.new()
            branches = [(ch[1], t, value is None or value != 0)]
            if len(ch) > 2:
                branches.append((ch[2], f, value is None or value == 0))
            elif value is None or value == 0:
                f.succ.append(after)
            for body, start, live in branches:
                n = g.new()
                if live:
                    start.succ.append(n)
                self.stmt(body, n).succ.append(after)
            return after
        if k == K.WHILE_STMT:
            cond, body = _children(s)
            head = g.new()
            cur.succ.append(head)
            t, f = self.branch(cond, head)
            value = self.const_value(cond)
            after, first = g.new(), g.new()
            if value is None or value != 0:
                t.succ.append(first)
            if value is None or value == 0:
                f.succ.append(after)
            self.breaks.append(after)
            self.continues.append(head)
            self.stmt(body, first).succ.append(head)
            self.breaks.pop()
            self.continues.pop()
            return after
        if k == K.DO_STMT:
            body, cond = _children(s)
            first, check, after = g.new(), g.new(), g.new()
            cur.succ.append(first)
            self.breaks.append(after)
            self.continues.append(check)
            self.stmt(body, first).succ.append(check)
            self.breaks.pop()
            self.continues.pop()
            t, f = self.branch(cond, check)
            value = self.const_value(cond)
            if value is None or value != 0:
                t.succ.append(first)
            if value is None or value == 0:
                f.succ.append(after)
            return after
        if k == K.FOR_STMT:
            parts = self._for_parts(s)
            if parts is None:  # unknown layout: every header part runs at the head
                ch = _children(s)
                parts = {'body': ch[-1]}
                head_parts = ch[:-1]
            else:
                head_parts = [parts['cond']] if 'cond' in parts else []
                if 'init' in parts:
                    cur = self.stmt(parts['init'], cur)
            head = g.new()
            cur.succ.append(head)
            t = f = head
            for p in head_parts:
                t = f = self.stmt(p, t)
            if 'cond' in parts and head_parts == [parts['cond']]:
                t, f = self.branch(parts['cond'], head)
            value = self.const_value(parts['cond']) if 'cond' in parts and len(head_parts) == 1 else None
            first, step, after = g.new(), g.new(), g.new()
            if value is None or value != 0:
                t.succ.append(first)
            if head_parts and (value is None or value == 0):
                f.succ.append(after)
            self.breaks.append(after)
            self.continues.append(step)
            self.stmt(parts['body'], first).succ.append(step)
            self.breaks.pop()
            self.continues.pop()
            step_end = self.stmt(parts['inc'], step) if 'inc' in parts else step
            step_end.succ.append(head)
            return after
        if k == K.SWITCH_STMT:
            ch = _children(s)
            cond, body = ch[0], ch[-1]
            cur = self.expr(cond, cur)
            sw = _Switch(cur, self._is_dispatch(cond), self.src.start(s))
            self.has_dispatch |= sw.dispatch
            after = g.new()
            self.switches.append(sw)
            self.breaks.append(after)
            self.in_body += sw.dispatch
            self.stmt(body, g.new()).succ.append(after)
            self.in_body -= sw.dispatch
            self.breaks.pop()
            self.switches.pop()
            if not sw.has_default:
                cur.succ.append(after)
            return after
        if k in (K.CASE_STMT, K.DEFAULT_STMT):
            n = g.new()
            cur.succ.append(n)
            if self.switches:
                sw = self.switches[-1]
                if sw.dispatch and sw.cases > 0:  # the exit point
                    sw.node.succ.append(self._resume_point(s, cur, n))
                else:
                    sw.node.succ.append(n)
                sw.cases += 1
                sw.has_default |= k == K.DEFAULT_STMT
            return self.stmt(_children(s)[-1], n)
        if k == K.LABEL_STMT:
            n = self.labels.setdefault(s.spelling, g.new())
            cur.succ.append(n)
            if s.spelling.startswith(RESUME_LABEL) and self.in_body:
                self.resumes.append(self._resume_point(s, cur, n))
            ch = _children(s)
            return self.stmt(ch[-1], n) if ch else n
        if k == K.GOTO_STMT:
            for c in _children(s):
                if c.kind == K.LABEL_REF:
                    self.gotos.append((cur, c.spelling))
            return self._dead()
        if k == K.INDIRECT_GOTO_STMT:
            dispatch = self.in_body and any(self._is_dispatch(c) for c in _exprs(s))
            for c in _exprs(s):
                cur = self.expr(c, cur)
            if dispatch:
                self.dispatch_gotos.append(cur)
            else:
                self.gotos.append((cur, None))
            return self._dead()
        if k == K.BREAK_STMT:
            if self.breaks:
                cur.succ.append(self.breaks[-1])
            return self._dead()
        if k == K.CONTINUE_STMT:
            if self.continues:
                cur.succ.append(self.continues[-1])
            return self._dead()
        if k == K.RETURN_STMT:
            for c in _exprs(s):
                cur = self.expr(c, cur)
            cur.succ.append(self.exit)
            return self._dead()
        if k == K.NULL_STMT or k == K.ASM_STMT or k.is_declaration():
            return cur
        if k.is_expression():
            return self.expr(s, cur)
        for c in _children(s):  # attributed statements ([[fallthrough]];) and the like
            cur = self.stmt(c, cur)
        return cur

    def build(self):
        """The Graph of the function, or None if it has no resume point."""
        body = [c for c in self.fn.get_children() if c.kind == K.COMPOUND_STMT]
        if not body:
            return None
        end = self.stmt(body[-1], self.g.entry)
        end.succ.append(self.exit)
        for node, label in self.gotos:
            if label is None:  # (a computed goto of the user's: resume labels are not its targets)
                node.succ.extend(n for name, n in self.labels.items() if not name.startswith(RESUME_LABEL))
            elif label in self.labels:
                node.succ.append(self.labels[label])
        for node in self.dispatch_gotos:
            node.succ.extend(self.resumes)
        if not self.g.resume_points:
            return None
        return self.g
