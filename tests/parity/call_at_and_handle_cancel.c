/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_call_at (Python's loop.call_at) runs a callback when the loop's clock reaches a time
 * (at the next iteration if it has passed, after the callbacks already ready); pt_handle_cancel of
 * a pending callback, a timer or a call_soon, means it is never called; pt_handle_when is the time
 * it was set for (call_at_and_handle_cancel.py). */
#include "parity.h"

static struct pt_handle ha, hb, hc, hd, hx, hy, hz;
static struct {
    struct pt_task task;
    pt_time_t t0;
} m;

static void say(struct pt_loop *loop, void *arg) {
    (void)loop;
    printf("%s\n", (const char *)arg);
}

static void cancel_c(struct pt_loop *loop, void *arg) {
    printf("B at 1 cancels C\n");
    if (pt_handle_cancel(loop, (struct pt_handle *)arg) != PT_OK)
        printf("cancel C failed\n");
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    m.t0 = pt_loop_now(loop);
    (void)pt_call_at(loop, &ha, m.t0 + 3 * UNIT, say, "A at 3");
    (void)pt_call_later(loop, &hc, 2 * UNIT, say, "C at 2: not reached");
    (void)pt_call_later(loop, &hb, UNIT, cancel_c, &hc);
    (void)pt_call_soon(loop, &hx, say, "X soon");
    (void)pt_call_at(loop, &hy, m.t0 - UNIT, say, "Y at a time already passed");
    (void)pt_call_soon(loop, &hd, say, "D soon: not reached");
    (void)pt_call_soon(loop, &hz, say, "Z soon");
    (void)pt_handle_cancel(loop, &hd);
    printf("A set for %ld, D cancelled: %s\n", (long)((pt_handle_when(&ha) - m.t0) / UNIT),
           pt_handle_pending(&hd) ? "False" : "True");
    PT_SLEEP(5 * UNIT);
    printf("C cancelled: %s\n", pt_handle_pending(&hc) ? "False" : "True");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
