/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_GROUP_NEXT takes a group's members in the order they finish: the first call after the
 * spawns is asyncio.wait(FIRST_COMPLETED), the next ones as_completed, whatever the order they were
 * spawned in; PT_EINVAL once all are taken (wait_first_completed_then_as_completed.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[3] = {
    {.name = "A", .units = 20}, {.name = "B", .units = 1}, {.name = "C", .units = 10}};
static struct pt_task *members[3];
static struct pt_group group;
static struct {
    struct pt_task task;
    struct pt_task *t;
} m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)j->units * UNIT);
    printf("%s finishes\n", j->name);
    PT_TASK_RETURN(pt_value_str(j->name));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_COLLECT);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    PT_GROUP_NEXT(&group, &m.t, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("first: %s\n", m.t->gen.value.s);
    else
        printf("first: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("pending: %d\n", (int)pt_group_left(&group));
    for (;;) {
        PT_GROUP_NEXT(&group, &m.t, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        printf("next: %s\n", m.t->gen.value.s);
    }
    if (PT_WAIT_RESULT() == PT_EINVAL)
        printf("all taken\n");
    else
        printf("next: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
