/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_close on a suspended generator runs its PT_CLEANUP exactly once; then it is
 * closed: pt_gen_next returns PT_CLOSED (Python: StopIteration), another pt_gen_close runs nothing
 * (gen_close_runs_finally.py). */
#include <stdio.h>

#include "pt/pt.h"

/* inspect.getgeneratorstate, for the states this case goes through */
static const char *state(const struct pt_gen *g) {
    return pt_gen_done(g) ? "GEN_CLOSED" : "GEN_SUSPENDED";
}

static PT_THREAD(worker(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_YIELD_VALUE(g, pt_value_int(2));
    printf("not reached\n");
    PT_CLEANUP(g);
    printf("finally runs\n");
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
    if (st != PT_CLOSED)
        printf("close -> status %d\n", st);
    printf("state %s\n", state(&g));
    st = pt_gen_next(&g, worker(&g));
    printf("next -> %s\n", st == PT_YIELDED ? "yielded" : st == PT_CLOSED ? "StopIteration" : "?");
    printf("close again\n");
    st = pt_gen_close(&g, worker(&g));
    if (st != PT_CLOSED)
        printf("close -> status %d\n", st);
    printf("state %s\n", state(&g));
    return 0;
}
