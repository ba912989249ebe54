/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (b): PT_WAIT_UNTIL outside PT_BEGIN/PT_END: must not compile.
 * Correct form: the wait stands between PT_BEGIN and PT_END.
 *
 * misuse-expect: pt__\w+|case.*(not|outside).*switch
 */
#include "pt/pt.h"

static int ready;

static PT_THREAD(waiter(struct pt *pt)) {
#ifdef PT_MISUSE
    PT_WAIT_UNTIL(pt, ready);
    return PT_ENDED;
#else
    PT_BEGIN(pt);
    PT_WAIT_UNTIL(pt, ready);
    PT_END(pt);
#endif
}

int main(void) {
    struct pt pt;
    PT_INIT(&pt);
    (void)waiter(&pt);
    ready = 1;
    return waiter(&pt) == PT_ENDED ? 0 : 1;
}
