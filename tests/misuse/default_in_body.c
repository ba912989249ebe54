/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: a `default:` at the top level of a body, with the switch back
 * end: the dispatch has its own (a resume point it does not hold exits,
 * pt/lc_switch.h), so a second one must not compile. Correct form: the
 * `default:` inside a switch of the body's own that encloses no wait (one
 * that encloses a wait is caught at the resume: tests/test_misuse_run.c).
 *
 * misuse-expect: multiple default labels
 */
#include "pt/pt.h"

static int mode;

#ifdef PT_MISUSE
static PT_THREAD(pick(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_YIELD(pt);
default:
    mode++;
    PT_END(pt);
}
#else
static PT_THREAD(pick(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_YIELD(pt);
    switch (mode) {
    default:
        mode++;
    }
    PT_END(pt);
}
#endif

int main(void) {
    struct pt pt;
    PT_INIT(&pt);
    while (PT_SCHEDULE(pick(&pt)))
        ;
    return mode == 1 ? 0 : 1;
}
