/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: a PT_CLEANUP section may yield while the generator is being closed;
 * pt_gen_close then returns PT_YIELDED with the value, and the next resume (pt_gen_next,
 * pt_gen_send or pt_gen_close) finishes the cleanup and returns PT_CLOSED (pt/gen.h, pt_gen_close).
 * C has no exception to raise: Python's close() raises RuntimeError ("generator ignored
 * GeneratorExit") instead, and the next next() raises the GeneratorExit again. */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(worker(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_CLEANUP(g);
    printf("finally starts\n");
    PT_YIELD_VALUE(g, pt_value_str("cleanup"));
    printf("finally ends\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    if (pt_gen_next(&g, worker(&g)) == PT_YIELDED)
        printf("next -> %ld\n", (long)g.value.i);
    printf("close\n");
    st = pt_gen_close(&g, worker(&g));
    if (st == PT_YIELDED)
        printf("close -> yielded %s\n", g.value.s);
    else
        printf("close -> %s\n", st == PT_CLOSED ? "closed" : "?");
    printf("next\n");
    st = pt_gen_next(&g, worker(&g));
    if (st == PT_YIELDED)
        printf("next -> yielded %s\n", g.value.s);
    else
        printf("next -> %s\n", st == PT_CLOSED ? "closed" : "?");
    printf("state %s\n", pt_gen_done(&g) ? "GEN_CLOSED" : "GEN_SUSPENDED");
    return 0;
}
