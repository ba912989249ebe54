/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_gen_throw (Python's g.throw(E)) resumes the generator at its yield with
 * pt_gen_thrown(g) == the error; the generator handles it there and goes on: pt_gen_throw returns
 * PT_YIELDED with the next value it yields, and later sends reach it as usual
 * (gen_throw_caught_at_yield.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("first"));
    printf("got %ld\n", (long)g->value.i);
    PT_YIELD_VALUE(g, pt_value_str("second"));
    if (pt_gen_thrown(g))
        printf("caught %ld at the yield\n", (long)pt_gen_thrown(g));
    else
        printf("resumed without an error\n");
    PT_YIELD_VALUE(g, pt_value_str("third"));
    printf("got %ld\n", (long)g->value.i);
    PT_RETURN(g, pt_value_str("done"));
    PT_GEN_END(g);
}

static void show(const char *what, char st, const struct pt_gen *g) {
    if (st == PT_YIELDED)
        printf("%s -> %s\n", what, g->value.s);
    else
        printf("%s: status %d\n", what, st);
}

int main(void) {
    struct pt_gen g;
    char st;
    pt_gen_init(&g);
    show("next", pt_gen_next(&g, gen(&g)), &g);
    show("send 1", pt_gen_send(&g, pt_value_int(1), gen(&g)), &g);
    show("throw 7", pt_gen_throw(&g, 7, gen(&g)), &g);
    st = pt_gen_send(&g, pt_value_int(2), gen(&g));
    if (st == PT_ENDED)
        printf("returned %s\n", g.value.s);
    else
        printf("send 2: status %d\n", st);
    return 0;
}
