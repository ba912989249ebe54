/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_CLOSE on a generator that never ran runs nothing (not even its PT_CLEANUP) and closes
 * it (gen_close_unstarted.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(worker(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    printf("body runs\n");
    PT_YIELD_VALUE(g, pt_int(1));
    PT_CLEANUP(g);
    printf("finally runs\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    printf("close\n");
    st = PT_CLOSE(&g, worker(&g));
    printf("state %s\n", st == PT_CLOSED && pt_gen_done(&g) ? "GEN_CLOSED" : "?");
    st = PT_NEXT(&g, worker(&g));
    printf("next -> %s\n", st == PT_YIELDED ? "yielded" : st == PT_CLOSED ? "StopIteration" : "?");
    return 0;
}
