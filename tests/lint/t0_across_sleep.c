/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: the commonest mistake, a start time kept in a local across
 * PT_SLEEP. (The programs here are only parsed, never built: check.py
 * requires each line whose comment says "expect" and a name to be reported
 * for that name, and no other line.) */
#include <stdio.h>

#include "loop/loop.h"

PT_THREAD(timed(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_time_t t0 = pt_loop_now(loop);
    PT_SLEEP(PT_MS(100));
    printf("slept %u ticks\n", (unsigned)(pt_loop_now(loop) - t0)); /* pt-lint: expect t0 */
    PT_TASK_END();
}
