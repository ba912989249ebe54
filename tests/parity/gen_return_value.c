/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_RETURN ends the generator; the driver sees PT_ENDED with the result in g.value, as
 * Python's StopIteration.value (gen_return_value.py). */
#include <stdio.h>

#include "pt/pt.h"

struct countdown {
    struct pt_gen gen;
    long n;
};

/* def countdown(n): while n > 0: yield n; n -= 1; return "liftoff" */
static PT_THREAD(countdown(struct countdown *c)) {
    struct pt_gen *g = &c->gen;
    PT_GEN_BEGIN(g);
    while (c->n > 0) {
        PT_YIELD_VALUE(g, pt_value_int(c->n));
        c->n--;
    }
    PT_RETURN(g, pt_value_str("liftoff"));
    PT_GEN_END(g);
}

int main(void) {
    struct countdown c;
    c.n = 3;
    pt_gen_init(&c.gen);
    for (;;) {
        char st = pt_gen_next(&c.gen, countdown(&c));
        if (st == PT_ENDED) {
            printf("result %s\n", c.gen.value.s);
            break;
        }
        if (st != PT_YIELDED) {
            printf("unexpected status %d\n", st);
            return 1;
        }
        printf("yield %ld\n", (long)c.gen.value.i);
    }
    return 0;
}
