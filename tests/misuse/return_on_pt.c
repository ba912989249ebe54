/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse (e): PT_RETURN in a plain protothread (a struct pt has no slot
 * for a result): must not compile. Correct form: PT_EXIT, or make the
 * function a generator.
 *
 * misuse-expect: no member named .ret
 */
#include "pt/pt.h"

static PT_THREAD(finish(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_YIELD(pt);
#ifdef PT_MISUSE
    PT_RETURN(pt, pt_value_int(1));
#else
    PT_EXIT(pt);
#endif
    PT_END(pt);
}

int main(void) {
    struct pt pt;
    PT_INIT(&pt);
    (void)finish(&pt);
    return finish(&pt) == PT_EXITED ? 0 : 1;
}
