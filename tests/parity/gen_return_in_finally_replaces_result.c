/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a PT_RETURN in the PT_CLEANUP section replaces the result the body returned, as a
 * `return` in Python's finally does (gen_return_in_finally_replaces_result.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    printf("body returns 1\n");
    PT_RETURN(g, pt_value_int(1));
    PT_CLEANUP(g);
    printf("finally returns 2\n");
    PT_RETURN(g, pt_value_int(2));
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    pt_gen_init(&g);
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %ld\n", (long)g.value.i);
    if (pt_gen_next(&g, gen(&g)) == PT_ENDED)
        printf("result %ld\n", (long)g.value.i);
    return 0;
}
