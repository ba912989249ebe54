/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/size/thread_fn.c - a small protothread on its own in an object,
 * whose text size cross/size_report.py reports: wait for a tick ten times,
 * toggling an output and yielding in between.
 */
#include "pt/pt.h"

extern volatile unsigned char ticks, led;

struct blink {
    struct pt pt;
    unsigned char n;
};

PT_THREAD(blink_run(struct blink *b)) {
    PT_BEGIN(&b->pt);
    for (b->n = 0; b->n < 10; b->n++) {
        PT_WAIT_UNTIL(&b->pt, ticks != 0);
        ticks = 0;
        led ^= 1;
        PT_YIELD(&b->pt);
    }
    PT_END(&b->pt);
}
