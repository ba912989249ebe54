/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a cancelled task's cleanup may itself wait on the loop; the task finishes (cancelled)
 * only when its cleanup is done (cancel_cleanup_can_await.py). */
#include "parity.h"

static struct pt_task worker_task, m;

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("worker sleeps\n");
    PT_SLEEP(100 * UNIT);
    PT_TASK_CLEANUP();
    printf("worker cleanup starts\n");
    PT_SLEEP(UNIT);
    printf("worker cleanup ends\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &worker_task, worker);
    PT_TASK_YIELD();
    printf("main cancels\n");
    (void)pt_task_cancel(loop, &worker_task);
    PT_JOIN(&worker_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("join: cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
