/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: PT_RETURN in a body begun with PT_BEGIN on a struct pt_gen (a
 * generator written as a plain protothread has no way out with a result):
 * must not compile. Correct form: PT_GEN_BEGIN ... PT_GEN_END.
 *
 * misuse-expect: pt__leave
 */
#include "pt/pt.h"

#ifdef PT_MISUSE
static PT_THREAD(answer(struct pt_gen *g)) {
    PT_BEGIN(g);
    PT_RETURN(g, pt_value_int(42));
    PT_END(g);
}
#else
static PT_THREAD(answer(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_RETURN(g, pt_value_int(42));
    PT_GEN_END(g);
}
#endif

int main(void) {
    struct pt_gen g;
    pt_gen_init(&g);
    return pt_gen_next(&g, answer(&g)) == PT_ENDED && g.value.i == 42 ? 0 : 1;
}
