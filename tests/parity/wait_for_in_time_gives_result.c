/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN with a timeout (Python's wait_for(task, timeout)) on a task that finishes first:
 * PT_OK and its result, no cancellation (wait_for_in_time_gives_result.py). */
#include "parity.h"

static struct pt_task quick_task, m;

static PT_THREAD(quick(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    printf("quick returns 7\n");
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_CLEANUP();
    printf("quick finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &quick_task, quick);
    PT_JOIN(&quick_task, 100 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("wait_for ok: %ld\n", (long)quick_task.gen.value.i);
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("wait_for timed out\n");
    else
        printf("wait_for: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("quick cancelled: %s\n", pt_task_status(&quick_task) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
