/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN inside a timeout scope (Python's `await task` inside asyncio.timeout()): when the
 * deadline passes, the joined task is cancelled (its cleanup runs), the join ends PT_ETIMEDOUT once
 * it has finished, and PT_TIMEOUT_END gives PT_ETIMEDOUT (timeout_scope_cuts_join_cancels_task.py).
 */
#include "parity.h"

static struct pt_task slow_task;
static struct {
    struct pt_task task;
    struct pt_timeout scope;
} m;

static PT_THREAD(slow(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("slow starts\n");
    PT_SLEEP(100 * UNIT);
    printf("slow not reached\n");
    PT_TASK_CLEANUP();
    printf("slow finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &slow_task, slow);
    PT_TIMEOUT_BEGIN(&m.scope, 2 * UNIT);
    PT_JOIN(&slow_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("join not reached\n");
    if (PT_TIMEOUT_END(&m.scope) == PT_ETIMEDOUT)
        printf("timed out\n");
    else
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("slow cancelled: %s\n", pt_task_status(&slow_task) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
