/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: nested timeout scopes, the inner one shorter: the inner deadline cuts the first sleep and
 * the inner PT_TIMEOUT_END gives PT_ETIMEDOUT; the outer scope goes on, and its own deadline then
 * cuts the next sleep and its PT_TIMEOUT_END gives PT_ETIMEDOUT (timeout_nested_inner_shorter.py).
 */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_timeout outer, inner;
} m;

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&m.outer, 20 * UNIT);
    PT_TIMEOUT_BEGIN(&m.inner, UNIT);
    printf("inner sleeps\n");
    PT_SLEEP(100 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("inner not reached\n");
    if (PT_TIMEOUT_END(&m.inner) == PT_ETIMEDOUT)
        printf("inner timed out\n");
    else
        printf("inner scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("outer goes on and sleeps\n");
    PT_SLEEP(100 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("outer not reached\n");
    if (PT_TIMEOUT_END(&m.outer) == PT_ETIMEDOUT)
        printf("outer timed out\n");
    else
        printf("outer scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
