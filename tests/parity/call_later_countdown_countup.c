/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: callbacks (loop/call.h, Python's loop.call_soon / call_later), the scheduler of the
 * "build your own async" articles: countdown(n) prints "Down n" and calls itself 4 units later
 * with n-1, until 0; countup prints "Up x" and calls itself 1 unit later, until stop. Each reuses
 * its handle (free again once its callback has started); where both are due at the same time, the
 * timer set first (countdown's) runs first; pt_loop_run returns once no callback is pending
 * (call_later_countdown_countup.py). */
#include "parity.h"

static struct pt_handle down_h, up_h;
static int down_n = 3, up_x = 0;
static const int up_stop = 12;

static void countdown(struct pt_loop *loop, void *arg) {
    (void)arg;
    if (down_n > 0) {
        printf("Down %d\n", down_n);
        down_n--;
        if (pt_call_later(loop, &down_h, 4 * UNIT, countdown, NULL) != PT_OK)
            printf("countdown: call_later failed\n");
    }
}

static void countup(struct pt_loop *loop, void *arg) {
    (void)arg;
    if (up_x < up_stop) {
        printf("Up %d\n", up_x);
        up_x++;
        if (pt_call_later(loop, &up_h, UNIT, countup, NULL) != PT_OK)
            printf("countup: call_later failed\n");
    }
}

int main(void) {
    int rc;
    pt_loop_init(&parity_loop, parity_heap, sizeof parity_heap / sizeof parity_heap[0]);
    pt_loop_use_virtual_clock(&parity_loop, 0);
    (void)pt_call_soon(&parity_loop, &down_h, countdown, NULL);
    (void)pt_call_soon(&parity_loop, &up_h, countup, NULL);
    rc = pt_loop_run(&parity_loop);
    pt_loop_close(&parity_loop);
    if (rc != PT_OK) {
        printf("loop: %s\n", pt_err_name(rc));
        return 1;
    }
    printf("loop done\n");
    return 0;
}
