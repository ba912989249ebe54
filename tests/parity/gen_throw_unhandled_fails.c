/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_throw into a generator that does not handle the error: it finishes with it
 * (PT_FAIL), after its cleanup, and pt_gen_throw returns PT_EXITED with the error in g.value, as
 * g.throw(E) raises E out of a generator that does not catch it; then it is finished for good
 * (gen_throw_unhandled_fails.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("first"));
    if (pt_gen_thrown(g)) /* not handled: it goes on up */
        PT_FAIL(g, pt_value_int(pt_gen_thrown(g)));
    printf("resumed without an error\n");
    PT_YIELD_VALUE(g, pt_value_str("second"));
    PT_CLEANUP(g);
    printf("finally runs\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %s\n", g.value.s);
    st = pt_gen_throw(&g, 7, gen(&g));
    if (st == PT_EXITED)
        printf("failed with %ld\n", (long)g.value.i);
    else if (st == PT_YIELDED)
        printf("throw -> %s\n", g.value.s);
    else
        printf("throw: status %d\n", st);
    printf("state %s\n", pt_gen_done(&g) ? "GEN_CLOSED" : "?");
    st = pt_gen_next(&g, gen(&g));
    printf("%s\n", pt_gen_done(&g) && st == PT_EXITED ? "next: finished" : "next ran");
    return 0;
}
