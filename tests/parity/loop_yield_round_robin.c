/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_TASK_YIELD (asyncio.sleep(0)) goes to the back of the ready queue: tasks that keep
 * yielding take turns, round robin, in the order they started (loop_yield_round_robin.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int i;
};

static struct job jobs[3] = {{.name = "A"}, {.name = "B"}, {.name = "C"}};
static struct pt_task *members[3];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    for (j->i = 0; j->i < 3; j->i++) {
        printf("%s %d\n", j->name, j->i);
        PT_TASK_YIELD();
    }
    printf("%s done\n", j->name);
    PT_TASK_END();
}

/* await asyncio.gather(job("A"), job("B"), job("C")) */
static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_CANCEL_ON_FAIL);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    if (PT_WAIT_RESULT() != PT_OK)
        printf("gather: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
