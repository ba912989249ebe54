/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a generator's local across PT_AWAIT of a child generator. */
#include <stdio.h>

#include "pt/pt.h"

struct parent {
    struct pt_gen gen;
    struct pt_gen child;
};

PT_THREAD(child_body(struct pt_gen *g));

PT_THREAD(parent_body(struct parent *p)) {
    struct pt_gen *g = &p->gen; /* before PT_GEN_BEGIN: fresh on every call */
    PT_GEN_BEGIN(g);
    long base = g->value.i;
    PT_AWAIT(g, &p->child, child_body(&p->child));
    printf("%ld\n", base + p->child.value.i); /* pt-lint: expect base */
    PT_GEN_END(g);
}
