/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_GROUP_NEXT with a timeout (Python's asyncio.wait(tasks, timeout)): the members that
 * finish in time are taken, then the wait ends PT_ETIMEDOUT and cancels nothing: the pending
 * member goes on, and a later PT_GROUP_NEXT gives it (wait_timeout_cancels_nothing.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[2] = {{.name = "A", .units = 1}, {.name = "B", .units = 15}};
static struct pt_task *members[2];
static struct pt_group group;
static struct {
    struct pt_task task;
    struct pt_task *t;
    pt_time_t deadline;
} m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)j->units * UNIT);
    printf("%s finishes\n", j->name);
    PT_TASK_RETURN(pt_value_str(j->name));
    PT_TASK_CLEANUP();
    printf("%s finally\n", j->name);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 2, PT_GROUP_COLLECT);
    for (i = 0; i < 2; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    m.deadline = pt_time_after(pt_loop_now(loop), 5 * UNIT);
    for (;;) { /* every member that finishes before the deadline */
        PT_GROUP_NEXT(&group, &m.t, pt_time_until(pt_loop_now(loop), m.deadline));
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        printf("done: %s\n", m.t->gen.value.s);
    }
    if (PT_WAIT_RESULT() != PT_ETIMEDOUT)
        printf("wait: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("pending: %d\n", (int)pt_group_left(&group));
    printf("B cancelled: %s\n", pt_task_status(&jobs[1].task) == PT_CLOSED ? "True" : "False");
    PT_GROUP_NEXT(&group, &m.t, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main got %s\n", m.t->gen.value.s);
    else
        printf("next: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
