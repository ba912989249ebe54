/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local in a wait's condition. PT_WAIT_UNTIL evaluates its
 * condition again each time it resumes: by then the local is gone. */
#include "pt/pt.h"

extern volatile int level;

PT_THREAD(threshold(struct pt *pt)) {
    PT_BEGIN(pt);
    int limit = 5;
    PT_WAIT_UNTIL(pt, level > limit); /* pt-lint: expect limit */
    PT_END(pt);
}
