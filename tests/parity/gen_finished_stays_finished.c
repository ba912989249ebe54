/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a generator that has finished never runs again: pt_gen_next returns its final status at
 * once (Python: StopIteration) without running any of its code (gen_finished_stays_finished.py). */
#include <stdio.h>

#include "pt/pt.h"

/* def once(): print("body runs"); yield 1; print("body ends") */
static PT_THREAD(once(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    printf("body runs\n");
    PT_YIELD_VALUE(g, pt_value_int(1));
    printf("body ends\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    int i;
    pt_gen_init(&g);
    if (pt_gen_next(&g, once(&g)) == PT_YIELDED)
        printf("next -> %ld\n", (long)g.value.i);
    for (i = 0; i < 3; i++) {
        char st = pt_gen_next(&g, once(&g));
        printf("next -> %s\n", st == PT_YIELDED ? "yielded"
                               : st == PT_ENDED ? "StopIteration"
                                                : "?");
    }
    return 0;
}
