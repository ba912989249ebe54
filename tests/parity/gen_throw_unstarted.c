/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_throw into a generator that has not started: nothing of it runs (not even its
 * cleanup); it finishes PT_EXITED with the error in g.value at once, and is finished for good, as
 * g.throw(E) on a fresh generator (gen_throw_unstarted.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    printf("body runs\n");
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_CLEANUP(g);
    printf("finally runs\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    st = pt_gen_throw(&g, 7, gen(&g));
    if (st == PT_EXITED)
        printf("throw raised %ld\n", (long)g.value.i);
    else
        printf("throw returned\n");
    printf("state %s\n", pt_gen_done(&g) ? "GEN_CLOSED" : "?");
    st = pt_gen_next(&g, gen(&g));
    printf("%s\n", pt_gen_done(&g) && st == PT_EXITED ? "next: finished" : "next ran");
    return 0;
}
