/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel on a task while it awaits a sub-coroutine (PT_AWAIT): the sub-coroutine's
 * cleanup runs first, then the task's own, innermost first
 * (cancel_in_subcoroutine_innermost_first.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_gen helper;
} w;
static struct pt_task m;

static PT_THREAD(helper(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    PT_SUB_BEGIN(loop, task, g);
    printf("helper sleeps\n");
    PT_SLEEP(100 * UNIT);
    PT_TASK_CLEANUP();
    printf("helper finally\n");
    PT_SUB_END();
}

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &w.helper, helper(loop, task, &w.helper));
    printf("worker not reached\n");
    PT_TASK_CLEANUP();
    printf("worker finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &w.task, worker);
    PT_SLEEP(UNIT);
    printf("main cancels\n");
    (void)pt_task_cancel(loop, &w.task);
    PT_JOIN(&w.task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("join: cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
