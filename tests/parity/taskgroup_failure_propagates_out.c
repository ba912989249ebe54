/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_GROUP_WAIT_RAISE (Python's `async with TaskGroup()` letting a member's exception out):
 * the first member's failure cancels the other (its cleanup runs), then the task waiting for the
 * group fails with that member's error (pt_group_error; its own cleanup after the members'), and
 * a task joining it sees PT_EFAILED and the error (taskgroup_failure_propagates_out.py). */
#include "parity.h"

static struct pt_task a, b, runner_task, m;
static struct pt_task *members[2];
static struct pt_group group;

static PT_THREAD(fails(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    printf("A raises 3\n");
    PT_TASK_FAIL(pt_value_int(3));
    PT_TASK_END();
}

static PT_THREAD(slow(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(100 * UNIT);
    printf("B not reached\n");
    PT_TASK_CLEANUP();
    printf("B finally\n");
    PT_TASK_END();
}

static PT_THREAD(runner(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 2, PT_GROUP_CANCEL_ON_FAIL);
    (void)pt_group_spawn(loop, &group, &a, fails);
    (void)pt_group_spawn(loop, &group, &b, slow);
    PT_GROUP_WAIT_RAISE(&group, PT_FOREVER);
    printf("runner not reached\n");
    PT_TASK_CLEANUP();
    printf("runner finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &runner_task, runner);
    PT_JOIN(&runner_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main: runner returned\n");
    else if (PT_WAIT_RESULT() == PT_EFAILED)
        printf("main caught %d\n", pt_task_error(&runner_task));
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
