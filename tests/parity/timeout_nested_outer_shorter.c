/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: nested timeout scopes, the outer one shorter: an inner deadline never extends an outer
 * one. The outer deadline cuts the sleep (PT_ETIMEDOUT); the inner PT_TIMEOUT_END gives
 * PT_ECANCELLED (only an enclosing scope's deadline passed), so the program skips on to the outer
 * end, as CancelledError goes through the inner block, and the outer PT_TIMEOUT_END gives
 * PT_ETIMEDOUT (timeout_nested_outer_shorter.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_timeout outer, inner;
    int inner_rc;
} m;

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&m.outer, 2 * UNIT);
    PT_TIMEOUT_BEGIN(&m.inner, 20 * UNIT);
    printf("inner sleeps\n");
    PT_SLEEP(100 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("inner not reached\n");
    m.inner_rc = PT_TIMEOUT_END(&m.inner);
    if (m.inner_rc == PT_OK)
        printf("inner block done: not reached\n");
    else if (m.inner_rc == PT_ETIMEDOUT)
        printf("inner timed out\n");
    if (m.inner_rc != PT_ECANCELLED) /* an enclosing scope expired: on to its end */
        printf("after the inner block: not reached\n");
    if (PT_TIMEOUT_END(&m.outer) == PT_OK)
        printf("outer block done\n");
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("outer timed out\n");
    else
        printf("outer scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
