/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_GROUP_NEXT inside a timeout scope (Python's as_completed inside asyncio.timeout()):
 * the members that finish in time are taken; when the scope's deadline passes, the wait for the
 * next one ends PT_ETIMEDOUT, PT_TIMEOUT_END gives PT_ETIMEDOUT, and no member is cancelled: the
 * slow one finishes later (as_completed_in_timeout_scope_cancels_nothing.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[2] = {{.name = "A", .units = 20}, {.name = "B", .units = 1}};
static struct pt_task *members[2];
static struct pt_group group;
static struct {
    struct pt_task task;
    struct pt_task *t;
    struct pt_timeout scope;
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
    PT_TIMEOUT_BEGIN(&m.scope, 10 * UNIT);
    for (;;) {
        PT_GROUP_NEXT(&group, &m.t, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        printf("got %s\n", m.t->gen.value.s);
    }
    if (PT_WAIT_RESULT() == PT_EINVAL)
        printf("all in time\n");
    if (PT_TIMEOUT_END(&m.scope) == PT_ETIMEDOUT)
        printf("timed out\n");
    else if (PT_WAIT_RESULT() != PT_OK)
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("A cancelled: %s\n", pt_task_status(&jobs[0].task) == PT_CLOSED ? "True" : "False");
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
