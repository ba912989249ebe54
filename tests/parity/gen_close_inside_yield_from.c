/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_close on a generator suspended in PT_AWAIT closes the child first: the child's
 * PT_CLEANUP runs, then the parent's, innermost first (gen_close_inside_yield_from.py). */
#include <stdio.h>

#include "pt/pt.h"

struct parent {
    struct pt_gen gen;
    struct pt_gen child;
};

static PT_THREAD(child(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("from child"));
    printf("child not resumed\n");
    PT_CLEANUP(g);
    printf("child finally\n");
    PT_GEN_END(g);
}

static PT_THREAD(parent(struct parent *p)) {
    struct pt_gen *g = &p->gen;
    PT_GEN_BEGIN(g);
    PT_AWAIT(g, &p->child, child(&p->child));
    printf("parent not resumed\n");
    PT_CLEANUP(g);
    printf("parent finally\n");
    PT_GEN_END(g);
}

int main(void) {
    struct parent p;
    char st;
    pt_gen_init(&p.gen);
    if (pt_gen_next(&p.gen, parent(&p)) == PT_YIELDED)
        printf("next -> %s\n", p.gen.value.s);
    printf("close\n");
    st = pt_gen_close(&p.gen, parent(&p));
    printf("state %s\n", st == PT_CLOSED && pt_gen_done(&p.gen) ? "GEN_CLOSED" : "?");
    return 0;
}
