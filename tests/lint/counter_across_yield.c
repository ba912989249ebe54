/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a loop counter in a local across PT_YIELD: the test and the
 * increment after the yield read it. */
#include <stdio.h>

#include "pt/pt.h"

PT_THREAD(count(struct pt *pt)) {
    int i;
    PT_BEGIN(pt);
    for (i = 0; i < 3; i++) { /* pt-lint: expect i */
        printf("tick\n");
        PT_YIELD(pt);
    }
    PT_END(pt);
}
