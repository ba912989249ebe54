/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: each send resumes the generator at its yield with the value sent, and returns the next
 * value it yields (gen_send_and_yield.py). */
#include <stdio.h>

#include "pt/pt.h"

struct acc {
    struct pt_gen gen;
    long total; /* survives the yields */
};

/* def accumulator(): total = 0; while True: x = yield total; total += x */
static PT_THREAD(accumulator(struct acc *a)) {
    struct pt_gen *g = &a->gen;
    PT_GEN_BEGIN(g);
    a->total = 0;
    for (;;) {
        PT_YIELD_VALUE(g, pt_value_int(a->total));
        printf("got %ld\n", (long)g->value.i);
        a->total += (long)g->value.i;
    }
    PT_GEN_END(g);
}

int main(void) {
    static const int sends[] = {5, 10, 20};
    struct acc a;
    unsigned i;
    pt_gen_init(&a.gen);
    if (pt_gen_next(&a.gen, accumulator(&a)) == PT_YIELDED)
        printf("next -> %ld\n", (long)a.gen.value.i);
    for (i = 0; i < sizeof sends / sizeof sends[0]; i++)
        if (pt_gen_send(&a.gen, pt_value_int(sends[i]), accumulator(&a)) == PT_YIELDED)
            printf("send %d -> %ld\n", sends[i], (long)a.gen.value.i);
    return 0;
}
