/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: a first pt_gen_send with a value starts the generator from the top, the
 * value in g->value there (pt/gen.h, pt_gen_send: there is no exception to raise, and the value
 * does no harm); Python's send() of a value other than None to a just-started generator raises
 * TypeError.
 */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    printf("gen starts\n");
    PT_YIELD_VALUE(g, pt_value_int(1));
    printf("gen got %ld\n", (long)g->value.i);
    PT_GEN_END(g);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    st = pt_gen_send(&g, pt_value_int(5), gen(&g));
    if (st == PT_YIELDED)
        printf("send 5: yielded %ld\n", (long)g.value.i);
    else
        printf("send 5: status %d\n", st);
    return 0;
}
