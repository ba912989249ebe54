/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_GROUP_WAIT inside a timeout scope (Python's TaskGroup inside asyncio.timeout()): when
 * the deadline passes, the members still running are cancelled (their cleanup runs), the wait ends
 * PT_ETIMEDOUT once they have finished, and PT_TIMEOUT_END gives PT_ETIMEDOUT; a member that had
 * finished keeps its result (timeout_scope_cuts_group_wait.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[2] = {{.name = "A", .units = 1}, {.name = "B", .units = 100}};
static struct pt_task *members[2];
static struct pt_group group;
static struct {
    struct pt_task task;
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
    PT_TIMEOUT_BEGIN(&m.scope, 10 * UNIT);
    pt_group_init(&group, members, 2, PT_GROUP_CANCEL_ON_FAIL);
    for (i = 0; i < 2; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("group done: not reached\n");
    if (PT_TIMEOUT_END(&m.scope) == PT_ETIMEDOUT)
        printf("timed out\n");
    else
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("A: %s, B cancelled: %s\n", jobs[0].task.gen.value.s,
           pt_task_status(&jobs[1].task) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
