/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN_SHIELD (Python's `await asyncio.shield(t)`): a cancel of the joiner ends its
 * wait at once (its cleanup runs) and leaves the joined task running; it finishes later, and a
 * PT_JOIN then gives its result (shield_cancel_leaves_task_running.py). */
#include "parity.h"

static struct pt_task job_task, g, m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("job starts\n");
    PT_SLEEP(15 * UNIT);
    printf("job returns 7\n");
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_END();
}

static PT_THREAD(guard(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("guard awaits shield(job)\n");
    PT_JOIN_SHIELD(&job_task, PT_FOREVER);
    printf("guard not reached\n");
    PT_TASK_CLEANUP();
    printf("guard finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &job_task, job);
    parity_spawn(loop, &g, guard);
    PT_SLEEP(UNIT);
    printf("main cancels guard\n");
    (void)pt_task_cancel(loop, &g);
    PT_JOIN(&g, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("guard returned\n");
    else if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("guard is cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("job done: %s\n", pt_task_done(&job_task) ? "True" : "False");
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
