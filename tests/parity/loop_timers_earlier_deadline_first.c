/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: timers fire earliest deadline first, whatever the order they were set in
 * (loop_timers_earlier_deadline_first.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[3] = {
    {.name = "A", .units = 3}, {.name = "B", .units = 1}, {.name = "C", .units = 2}};
static struct pt_task *members[3];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s sleeps %d\n", j->name, j->units);
    PT_SLEEP((pt_time_t)j->units * UNIT);
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
