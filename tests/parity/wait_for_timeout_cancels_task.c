/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN with a timeout (Python's wait_for(task, timeout)): when the timeout passes first,
 * the task is cancelled (its cleanup runs) and the wait ends PT_ETIMEDOUT once it has finished
 * (wait_for_timeout_cancels_task.py). */
#include "parity.h"

static struct pt_task slow_task, m;

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
    PT_JOIN(&slow_task, 2 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("wait_for ok\n");
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("wait_for timed out\n");
    else
        printf("wait_for: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("slow cancelled: %s\n", pt_task_status(&slow_task) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
