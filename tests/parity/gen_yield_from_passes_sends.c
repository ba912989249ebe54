/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_AWAIT (Python's `r = yield from child()`): the child's yields go straight to the
 * driver, the driver's sends straight to the child, and r is the child's result
 * (gen_yield_from_passes_sends.py). */
#include <stdio.h>

#include "pt/pt.h"

struct child {
    struct pt_gen gen;
    long x;
};

struct parent {
    struct pt_gen gen;
    struct child child;
};

static PT_THREAD(child(struct child *c)) {
    struct pt_gen *g = &c->gen;
    PT_GEN_BEGIN(g);
    printf("child starts\n");
    PT_YIELD_VALUE(g, pt_value_int(1));
    c->x = (long)g->value.i;
    printf("child got %ld\n", c->x);
    PT_YIELD_VALUE(g, pt_value_int(c->x * 10));
    printf("child got %ld\n", (long)g->value.i);
    PT_RETURN(g, pt_value_int(c->x + g->value.i));
    PT_GEN_END(g);
}

static PT_THREAD(parent(struct parent *p)) {
    struct pt_gen *g = &p->gen;
    PT_GEN_BEGIN(g);
    printf("parent starts\n");
    PT_AWAIT(g, &p->child.gen, child(&p->child));
    printf("parent got %ld\n", (long)p->child.gen.value.i);
    PT_YIELD_VALUE(g, pt_value_int(p->child.gen.value.i * 100));
    PT_GEN_END(g);
}

int main(void) {
    struct parent p;
    pt_gen_init(&p.gen);
    if (pt_gen_next(&p.gen, parent(&p)) == PT_YIELDED)
        printf("next -> %ld\n", (long)p.gen.value.i);
    if (pt_gen_send(&p.gen, pt_value_int(3), parent(&p)) == PT_YIELDED)
        printf("send 3 -> %ld\n", (long)p.gen.value.i);
    if (pt_gen_send(&p.gen, pt_value_int(4), parent(&p)) == PT_YIELDED)
        printf("send 4 -> %ld\n", (long)p.gen.value.i);
    /* the generator ends without a PT_RETURN: its value is PT_NONE (Python's None) */
    if (pt_gen_next(&p.gen, parent(&p)) == PT_ENDED && p.gen.value.i == 0)
        printf("StopIteration value None\n");
    return 0;
}
