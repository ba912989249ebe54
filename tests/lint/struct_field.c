/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a struct local's fields: the field written after the wait
 * is fine, the one written only before it is not. */
#include <stdio.h>

#include "pt/pt.h"

struct span {
    int from, to;
};

PT_THREAD(measure(struct pt *pt)) {
    struct span sp;
    PT_BEGIN(pt);
    sp.from = 1;
    PT_YIELD(pt);
    sp.to = 2;
    printf("%d\n", sp.to - sp.from); /* pt-lint: expect sp */
    PT_END(pt);
}
