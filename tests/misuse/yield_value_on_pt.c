/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (e): PT_YIELD_VALUE in a plain protothread (a struct pt has no
 * value slot): must not compile. Correct form: the same body as a generator
 * on a struct pt_gen.
 *
 * misuse-expect: no member named .value
 */
#include "pt/pt.h"

#ifdef PT_MISUSE
static PT_THREAD(counter(struct pt *g)) {
    PT_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_END(g);
}
#else
static PT_THREAD(counter(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_GEN_END(g);
}
#endif

int main(void) {
#ifdef PT_MISUSE
    struct pt g;
    PT_INIT(&g);
    return counter(&g) == PT_YIELDED ? 0 : 1;
#else
    struct pt_gen g;
    pt_gen_init(&g);
    return pt_gen_next(&g, counter(&g)) == PT_YIELDED && g.value.i == 1 ? 0 : 1;
#endif
}
