/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel of a task parked in PT_GROUP_WAIT (Python's task cancelled at the end of
 * `async with TaskGroup()`) cancels the group's members that are still running (their cleanup
 * runs), then the task's own cleanup runs, once they have all finished
 * (cancel_group_waiter_cancels_members.py). */
#include "parity.h"

static struct pt_task m1, m2, run, m;
static struct pt_task *members[2];
static struct pt_group group;

static PT_THREAD(quick(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    printf("M1 returns\n");
    PT_TASK_CLEANUP();
    printf("M1 finally\n");
    PT_TASK_END();
}

static PT_THREAD(slow(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("M2 sleeps\n");
    PT_SLEEP(100 * UNIT);
    printf("M2 not reached\n");
    PT_TASK_CLEANUP();
    printf("M2 finally\n");
    PT_TASK_END();
}

static PT_THREAD(runner(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 2, PT_GROUP_CANCEL_ON_FAIL);
    (void)pt_group_spawn(loop, &group, &m1, quick);
    (void)pt_group_spawn(loop, &group, &m2, slow);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    printf("runner not reached\n");
    PT_TASK_CLEANUP();
    printf("runner finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &run, runner);
    PT_SLEEP(10 * UNIT);
    printf("main cancels runner\n");
    (void)pt_task_cancel(loop, &run);
    PT_JOIN(&run, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("runner cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
