/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_init runs nothing; the first pt_gen_next runs the body from the top to the first
 * yield, each later one to the following yield (gen_next_runs_fresh_generator.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    printf("body starts\n");
    PT_YIELD_VALUE(g, pt_value_str("first"));
    printf("body resumes\n");
    PT_YIELD_VALUE(g, pt_value_str("second"));
    printf("not reached\n");
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    printf("create\n");
    pt_gen_init(&g);
    printf("created\n");
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %s\n", g.value.s);
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %s\n", g.value.s);
    return 0;
}
