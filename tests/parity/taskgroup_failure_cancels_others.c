/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: in a PT_GROUP_CANCEL_ON_FAIL group (Python's TaskGroup) the first member that fails
 * cancels the others (their cleanup runs); the group's wait ends PT_EFAILED once all have finished
 * (taskgroup_failure_cancels_others.py). */
#include "parity.h"

static struct pt_task a, b, c, m;
static struct pt_task *members[3];
static struct pt_group group;

static PT_THREAD(fails(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(2 * UNIT);
    printf("A fails\n");
    PT_TASK_FAIL(pt_value_str("boom"));
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

static PT_THREAD(quick(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    printf("C returns\n");
    PT_TASK_RETURN(pt_value_str("c"));
    PT_TASK_END();
}

static void outcome(const char *name, const struct pt_task *t) {
    switch (pt_task_status(t)) {
    case PT_CLOSED:
        printf("%s cancelled\n", name);
        break;
    case PT_EXITED:
        printf("%s failed %s\n", name, t->gen.value.s);
        break;
    case PT_ENDED:
        printf("%s returned %s\n", name, t->gen.value.s);
        break;
    default:
        printf("%s not finished\n", name);
    }
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_CANCEL_ON_FAIL);
    (void)pt_group_spawn(loop, &group, &a, fails);
    (void)pt_group_spawn(loop, &group, &b, slow);
    (void)pt_group_spawn(loop, &group, &c, quick);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("group ok\n");
    else if (PT_WAIT_RESULT() == PT_EFAILED)
        printf("group failed\n");
    else
        printf("group: %s\n", pt_err_name(PT_WAIT_RESULT()));
    outcome("A", &a);
    outcome("B", &b);
    outcome("C", &c);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
