/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_throw into a generator suspended in PT_AWAIT goes to the innermost child first:
 * the child may handle it and go on (pt_gen_throw returns its next yield); if it does not
 * (PT_FAIL), its cleanup runs, it finishes PT_EXITED, and the parent continues after PT_AWAIT,
 * where it sees the child's status and error, as the error comes out of `yield from`
 * (gen_throw_inside_yield_from.py).
 */
#include <stdio.h>

#include "pt/pt.h"

struct parent {
    struct pt_gen gen;
    struct pt_gen child;
};

static PT_THREAD(child(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("c1"));
    if (pt_gen_thrown(g))
        printf("child caught %ld\n", (long)pt_gen_thrown(g));
    PT_YIELD_VALUE(g, pt_value_str("c2"));
    if (pt_gen_thrown(g))
        PT_FAIL(g, pt_value_int(pt_gen_thrown(g)));
    printf("child resumed without an error\n");
    PT_CLEANUP(g);
    printf("child finally\n");
    PT_GEN_END(g);
}

static PT_THREAD(parent(struct parent *p)) {
    struct pt_gen *g = &p->gen;
    PT_GEN_BEGIN(g);
    PT_AWAIT(g, &p->child, child(&p->child));
    if (pt_gen_status(&p->child) == PT_EXITED)
        printf("parent caught %ld\n", (long)p->child.value.i);
    else
        printf("parent: child returned\n");
    PT_YIELD_VALUE(g, pt_value_str("p1"));
    PT_RETURN(g, pt_value_str("parent done"));
    PT_GEN_END(g);
}

static void show(const char *what, char st, const struct pt_gen *g) {
    if (st == PT_YIELDED)
        printf("%s -> %s\n", what, g->value.s);
    else
        printf("%s: status %d\n", what, st);
}

int main(void) {
    struct parent p;
    char st;
    pt_gen_init(&p.gen);
    show("next", pt_gen_next(&p.gen, parent(&p)), &p.gen);
    show("throw 1", pt_gen_throw(&p.gen, 1, parent(&p)), &p.gen);
    show("throw 2", pt_gen_throw(&p.gen, 2, parent(&p)), &p.gen);
    st = pt_gen_next(&p.gen, parent(&p));
    if (st == PT_ENDED)
        printf("returned %s\n", p.gen.value.s);
    else
        printf("next: status %d\n", st);
    return 0;
}
