/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a PT_CLEANUP section may yield (and take sends) after the body returned; the body's
 * PT_RETURN value is still the result when the generator ends
 * (gen_finally_yields_keeps_result.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    printf("body returns 42\n");
    PT_RETURN(g, pt_value_int(42));
    PT_CLEANUP(g);
    printf("finally yields\n");
    PT_YIELD_VALUE(g, pt_value_int(2));
    printf("finally got %ld\n", (long)g->value.i);
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    pt_gen_init(&g);
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %ld\n", (long)g.value.i);
    if (pt_gen_next(&g, gen(&g)) == PT_YIELDED)
        printf("next -> %ld\n", (long)g.value.i);
    if (pt_gen_send(&g, pt_value_int(7), gen(&g)) == PT_ENDED)
        printf("result %ld\n", (long)g.value.i);
    return 0;
}
