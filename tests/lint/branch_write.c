/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: after an `if` of which one branch writes the local after the
 * wait, the read in a nested block still sees the other path's stale value;
 * the branch that writes is fine. */
#include <stdio.h>

#include "pt/pt.h"

extern int ready(void);

PT_THREAD(poll_once(struct pt *pt)) {
    int code;
    PT_BEGIN(pt);
    code = 1;
    PT_YIELD(pt);
    if (ready())
        code = 2;
    {
        if (code > 0)                  /* pt-lint: expect code */
            printf("code %d\n", code); /* pt-lint: expect code */
    }
    PT_YIELD(pt);
    if (ready()) {
        code = 3;
        printf("code %d\n", code);
    }
    PT_END(pt);
}
