/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN_RAISE (Python's `await task` letting the exception go up) of a task that is
 * cancelled: the joiner does not handle it, so it should end cancelled, as an asyncio task whose
 * coroutine lets CancelledError out does, and a task joining it should see PT_ECANCELLED
 * (join_raise_of_cancelled_task.py). */
#include "parity.h"

static struct pt_task slow_task, mid, m;

static PT_THREAD(slow(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(100 * UNIT);
    PT_TASK_CLEANUP();
    printf("slow finally\n");
    PT_TASK_END();
}

static PT_THREAD(middle(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_JOIN_RAISE(&slow_task, PT_FOREVER);
    printf("middle not reached\n");
    PT_TASK_CLEANUP();
    printf("middle finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &slow_task, slow);
    parity_spawn(loop, &mid, middle);
    PT_SLEEP(UNIT);
    printf("main cancels slow\n");
    (void)pt_task_cancel(loop, &slow_task);
    PT_JOIN(&mid, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("middle returned\n");
    else if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("middle cancelled\n");
    else
        printf("middle failed with %s\n", pt_err_name(pt_task_error(&mid)));
    printf("middle cancelled: %s\n", pt_task_status(&mid) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
