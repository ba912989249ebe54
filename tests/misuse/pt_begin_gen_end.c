/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (d, the other way round): a function begun with PT_BEGIN but ended
 * with PT_GEN_END: must not compile. Correct form: PT_GEN_BEGIN ...
 * PT_GEN_END for a generator.
 *
 * misuse-expect: pt__kind_gen
 */
#include "pt/pt.h"

static PT_THREAD(counter(struct pt_gen *g)) {
#ifdef PT_MISUSE
    PT_BEGIN(g);
#else
    PT_GEN_BEGIN(g);
#endif
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    intptr_t sum = 0;
    pt_gen_init(&g);
    while (pt_gen_next(&g, counter(&g)) == PT_YIELDED)
        sum += g.value.i;
    return sum == 1 ? 0 : 1;
}
