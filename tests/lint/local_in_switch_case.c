/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: locals across a wait inside a switch's case: one written
 * before the switch, one written in the case before the wait; both read
 * after it. Reported under either back end; under the switch back end the
 * switch itself is reported too. */
#include <stdio.h>

#include "pt/pt.h"

extern int next_mode(void);
extern int next_value(void);

PT_THREAD(modes(struct pt *pt, int *mode)) {
    int base, value;
    PT_BEGIN(pt);
    base = 100;
    *mode = next_mode();
    switch (*mode) { /* pt-lint: expect switch */
    case 1:
        value = next_value();
        PT_YIELD(pt);
        printf("%d\n", base + value); /* pt-lint: expect base, value */
        break;
    case 2:
        printf("two\n");
        break;
    default:
        break;
    }
    PT_END(pt);
}
