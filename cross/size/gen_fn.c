/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/size/gen_fn.c - a small generator on its own in an object, whose
 * text size cross/size_report.py reports: a running sum that yields the
 * total so far, adds each value sent in, and returns the total when sent 0.
 */
#include "pt/pt.h"

struct summer {
    struct pt_gen g;
    intptr_t total;
};

PT_THREAD(summer_run(struct summer *s)) {
    PT_GEN_BEGIN(&s->g);
    s->total = 0;
    for (;;) {
        PT_YIELD_VALUE(&s->g, pt_value_int(s->total));
        if (s->g.value.i == 0)
            break;
        s->total += s->g.value.i;
    }
    PT_RETURN(&s->g, pt_value_int(s->total));
    PT_GEN_END(&s->g);
}
