/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: timers with equal deadlines fire in the order they were set, not the order the tasks
 * started: A, B, C start in that order but set their timers in the order C, B, A
 * (loop_timers_equal_delay_fire_in_set_order.py). On the virtual clock the three deadlines are
 * exactly equal; in asyncio they are the same delay set one after the other. */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int yields, i;
};

static struct job jobs[3] = {{.name = "A", .yields = 2}, {.name = "B", .yields = 1}, {.name = "C"}};
static struct pt_task *members[3];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    for (j->i = 0; j->i < j->yields; j->i++)
        PT_TASK_YIELD();
    printf("%s sets its timer\n", j->name);
    PT_SLEEP(UNIT);
    printf("%s wakes\n", j->name);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_CANCEL_ON_FAIL);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
