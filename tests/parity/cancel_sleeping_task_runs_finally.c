/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel on a sleeping task ends its sleep at once; its cleanup runs, and whoever
 * joins it sees PT_ECANCELLED (cancel_sleeping_task_runs_finally.py). */
#include "parity.h"

static struct pt_task sleeper_task, m;

static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("sleeper sleeps\n");
    PT_SLEEP(100 * UNIT);
    printf("sleeper not reached\n");
    PT_TASK_CLEANUP();
    printf("sleeper finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &sleeper_task, sleeper);
    PT_SLEEP(UNIT);
    printf("main cancels\n");
    (void)pt_task_cancel(loop, &sleeper_task);
    PT_JOIN(&sleeper_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("join: cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
