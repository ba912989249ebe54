/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (e): PT_AWAIT in a plain protothread (a struct pt can neither pass
 * values on nor be closed): must not compile. Correct form: the awaiting
 * function is a generator on a struct pt_gen.
 *
 * misuse-expect: no member named .(state|value)
 */
#include "pt/pt.h"

static PT_THREAD(child(struct pt_gen *c)) {
    PT_GEN_BEGIN(c);
    PT_YIELD_VALUE(c, pt_value_int(1));
    PT_RETURN(c, pt_value_int(42));
    PT_GEN_END(c);
}

static struct pt_gen kid;

#ifdef PT_MISUSE
static PT_THREAD(parent(struct pt *g)) {
    PT_BEGIN(g);
    PT_AWAIT(g, &kid, child(&kid));
    PT_END(g);
}
#else
static PT_THREAD(parent(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_AWAIT(g, &kid, child(&kid));
    PT_RETURN(g, kid.value);
    PT_GEN_END(g);
}
#endif

int main(void) {
#ifdef PT_MISUSE
    struct pt g;
    PT_INIT(&g);
    while (PT_SCHEDULE(parent(&g))) {
    }
    return 0;
#else
    struct pt_gen g;
    pt_gen_init(&g);
    while (PT_SCHEDULE(pt_gen_next(&g, parent(&g)))) {
    }
    return g.value.i == 42 ? 0 : 1;
#endif
}
