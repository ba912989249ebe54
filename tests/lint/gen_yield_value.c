/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a generator's running sum in a local across PT_YIELD_VALUE
 * (the guide's example keeps its counter in the struct instead). */
#include "pt/pt.h"

struct summer {
    struct pt_gen gen;
    int n;
};

PT_THREAD(sums(struct summer *s)) {
    struct pt_gen *g = &s->gen;
    long sum;
    PT_GEN_BEGIN(g);
    sum = 0;
    for (s->n = 0; s->n < 4; s->n++) {
        sum += s->n;                          /* pt-lint: expect sum */
        PT_YIELD_VALUE(g, pt_value_int(sum)); /* (read before the yield: fine) */
    }
    PT_RETURN(g, pt_value_int(sum)); /* pt-lint: expect sum */
    PT_GEN_END(g);
}
