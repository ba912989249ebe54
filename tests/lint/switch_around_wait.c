/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a switch of the body around a wait. With the switch back
 * end the wait's resume point is a case of this switch, not of the
 * dispatch: the resume finds no case there and the body ends. The switch
 * is reported (and nothing else: no local is read after the wait). Under
 * the labels-as-values back end (--back-end addrlabels) it is correct. */
#include <stdio.h>

#include "pt/pt.h"

struct modes {
    struct pt pt;
    int mode;
};

extern int next_mode(void);

PT_THREAD(modes(struct modes *m)) {
    PT_BEGIN(&m->pt);
    m->mode = next_mode();
    switch (m->mode) { /* pt-lint: expect switch */
    case 1:
        printf("one\n");
        PT_YIELD(&m->pt);
        printf("one, resumed\n");
        break;
    default:
        break;
    }
    PT_END(&m->pt);
}
