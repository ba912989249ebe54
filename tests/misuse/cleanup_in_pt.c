/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: PT_CLEANUP in a plain protothread (a cleanup section is a
 * generator's "finally"; a struct pt has nowhere to record how the body
 * finished): must not compile. Correct form: the same function as a
 * generator.
 *
 * misuse-expect: pt__kind_gen|pt__gen_cleanup|struct pt_gen
 */
#include "pt/pt.h"

static int cleaned;

#ifdef PT_MISUSE
static PT_THREAD(worker(struct pt *g)) {
    PT_BEGIN(g);
    PT_YIELD(g);
    PT_CLEANUP(g);
    cleaned = 1;
    PT_END(g);
}
#else
static PT_THREAD(worker(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD(g);
    PT_CLEANUP(g);
    cleaned = 1;
    PT_GEN_END(g);
}
#endif

int main(void) {
#ifdef PT_MISUSE
    struct pt g;
    PT_INIT(&g);
    while (PT_SCHEDULE(worker(&g))) {
    }
#else
    struct pt_gen g;
    pt_gen_init(&g);
    while (PT_SCHEDULE(pt_gen_next(&g, worker(&g)))) {
    }
#endif
    return cleaned ? 0 : 1;
}
