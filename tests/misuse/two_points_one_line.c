/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (c): two resume points on one source line while resume points are
 * named by __LINE__ (PT_CONFIG_LC_NO_COUNTER=1, or a compiler without __COUNTER__).
 * Both would get the same name, so this must not compile (duplicate case
 * value, or duplicate label with PT_CONFIG_LC_ADDRLABELS=1) rather than misbehave.
 * Correct form: the very same code with __COUNTER__ naming compiles.
 *
 * misuse-expect: duplicate case value|duplicate label|redefinition of label
 */
#undef PT_CONFIG_LC_NO_COUNTER
#ifdef PT_MISUSE
#define PT_CONFIG_LC_NO_COUNTER 1
#endif
#include "pt/pt.h"

static PT_THREAD(twice(struct pt *pt)) {
    PT_BEGIN(pt);
    // clang-format off
    PT_YIELD(pt); PT_YIELD(pt);
    // clang-format on
    PT_END(pt);
}

int main(void) {
    struct pt pt;
    int calls = 0;
    PT_INIT(&pt);
    while (PT_SCHEDULE(twice(&pt)))
        calls++;
    return calls == 2 ? 0 : 1;
}
