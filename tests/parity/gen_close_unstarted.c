/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_close on a generator that never ran runs nothing (not even its PT_CLEANUP) and
 * closes it (gen_close_unstarted.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(worker(struct pt_gen *g)) {
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
    printf("close\n");
    st = pt_gen_close(&g, worker(&g));
    printf("state %s\n", st == PT_CLOSED && pt_gen_done(&g) ? "GEN_CLOSED" : "?");
    st = pt_gen_next(&g, worker(&g));
    printf("next -> %s\n", st == PT_YIELDED ? "yielded" : st == PT_CLOSED ? "StopIteration" : "?");
    return 0;
}
