/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a task cancelled before it ever ran finishes without running any of its body (nor its
 * cleanup); pt_task_done is 0 until its turn in the ready queue comes
 * (cancel_before_start_never_runs.py). */
#include "parity.h"

static struct pt_task job_task, m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("job body runs\n");
    PT_TASK_CLEANUP();
    printf("job finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &job_task, job);
    (void)pt_task_cancel(loop, &job_task);
    printf("done after cancel: %s\n", pt_task_done(&job_task) ? "True" : "False");
    PT_JOIN(&job_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("join: cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("done: %s\n", pt_task_done(&job_task) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
