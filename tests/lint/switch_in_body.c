/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local in a switch of the body (a switch that encloses no
 * wait, as the switch back end requires): the selector is stale, and so is
 * the local that only one case writes. */
#include <stdio.h>

#include "pt/pt.h"

extern int next_mode(void);

PT_THREAD(modes(struct pt *pt)) {
    int mode, out;
    PT_BEGIN(pt);
    mode = next_mode();
    out = 0;
    PT_YIELD(pt);
    switch (mode) { /* pt-lint: expect mode */
    case 1:
        out = 10;
        break;
    case 2:
        printf("two\n");
        break;
    default:
        break;
    }
    printf("%d\n", out); /* pt-lint: expect out */
    PT_END(pt);
}
