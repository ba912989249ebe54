/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN_SHIELD with a timeout (Python's wait_for(shield(t), timeout)): the timeout passes
 * first, the wait ends PT_ETIMEDOUT at once and the task is not cancelled: it finishes later, and a
 * PT_JOIN then gives its result (wait_for_shield_times_out_task_goes_on.py). */
#include "parity.h"

static struct pt_task job_task, m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("job starts\n");
    PT_SLEEP(15 * UNIT);
    printf("job returns 7\n");
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_CLEANUP();
    printf("job finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &job_task, job);
    PT_JOIN_SHIELD(&job_task, 2 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("wait_for ok\n");
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("wait_for timed out\n");
    else
        printf("wait_for: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("job cancelled: %s, done: %s\n",
           pt_task_status(&job_task) == PT_CLOSED ? "True" : "False",
           pt_task_done(&job_task) ? "True" : "False");
    PT_JOIN(&job_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("job result %ld\n", (long)job_task.gen.value.i);
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
