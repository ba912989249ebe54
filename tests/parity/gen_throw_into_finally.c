/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: an error thrown into a generator stopped inside its cleanup section does
 * not cut the cleanup short: the cleanup goes on to its end, then the generator fails with the
 * error (pt/gen.h, pt_gen_throw: "In its cleanup section: the cleanup goes on, and g then fails
 * with err"); there is no unwinding in C, and a cleanup runs exactly once and whole. Python raises
 * E at the yield inside the finally, so the rest of the finally is skipped ("finally goes on" is
 * not printed); both then fail with 7 (gen_throw_into_finally.py). */
#include <stdio.h>

#include "pt/pt.h"

static PT_THREAD(gen(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("body"));
    PT_CLEANUP(g);
    printf("finally starts\n");
    PT_YIELD_VALUE(g, pt_value_str("in finally"));
    printf("finally goes on\n");
    PT_GEN_END(g);
}

static void show(const char *what, char st, const struct pt_gen *g) {
    if (st == PT_YIELDED)
        printf("%s -> %s\n", what, g->value.s);
    else if (st == PT_EXITED)
        printf("failed with %ld\n", (long)g->value.i);
    else
        printf("%s: status %d\n", what, st);
}

int main(void) {
    struct pt_gen g;
    pt_gen_init(&g);
    show("next", pt_gen_next(&g, gen(&g)), &g);
    show("next", pt_gen_next(&g, gen(&g)), &g);
    show("throw", pt_gen_throw(&g, 7, gen(&g)), &g);
    printf("state %s\n", pt_gen_done(&g) ? "GEN_CLOSED" : "?");
    return 0;
}
