/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a timeout scope whose body finishes before its deadline: nothing is cut,
 * PT_TIMEOUT_END gives PT_OK (Python: the block ends normally, expired() is False), and a sleep
 * after the scope that goes past the old deadline is not cut either (timeout_scope_no_expiry.py).
 */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_timeout scope;
} m;

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&m.scope, 20 * UNIT);
    PT_SLEEP(UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("work done in time\n");
    else
        printf("sleep: %s\n", pt_err_name(PT_WAIT_RESULT()));
    (void)PT_TIMEOUT_END(&m.scope);
    if (PT_WAIT_RESULT() == PT_OK || PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("expired: %s\n", PT_WAIT_RESULT() == PT_ETIMEDOUT ? "True" : "False");
    else
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_SLEEP(25 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("a later sleep past the deadline is not cut\n");
    else
        printf("sleep: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
