/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (a): PT_YIELD outside PT_BEGIN/PT_END. A helper that is not itself
 * a protothread cannot yield on behalf of its caller; it must not compile.
 * Correct form: the helper is a protothread of its own.
 *
 * misuse-expect: pt__yf
 */
#include "pt/pt.h"

static PT_THREAD(helper(struct pt *pt)) {
#ifdef PT_MISUSE
    PT_YIELD(pt);
    return PT_ENDED;
#else
    PT_BEGIN(pt);
    PT_YIELD(pt);
    PT_END(pt);
#endif
}

int main(void) {
    struct pt pt;
    PT_INIT(&pt);
    while (PT_SCHEDULE(helper(&pt))) {
    }
    return 0;
}
