/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (d): a generator begun with PT_GEN_BEGIN but ended with PT_END
 * (which would skip the generator's bookkeeping): must not compile.
 * Correct form: PT_GEN_BEGIN ... PT_GEN_END.
 *
 * misuse-expect: pt__kind_plain
 */
#include "pt/pt.h"

static PT_THREAD(counter(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_YIELD_VALUE(g, pt_value_int(2));
#ifdef PT_MISUSE
    PT_END(g);
#else
    PT_GEN_END(g);
#endif
}

int main(void) {
    struct pt_gen g;
    intptr_t sum = 0;
    pt_gen_init(&g);
    while (pt_gen_next(&g, counter(&g)) == PT_YIELDED)
        sum += g.value.i;
    return sum == 3 ? 0 : 1;
}
