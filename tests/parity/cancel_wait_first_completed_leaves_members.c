/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel of a task in PT_GROUP_NEXT (Python's task cancelled inside
 * asyncio.wait(FIRST_COMPLETED)): its wait ends at once (its cleanup runs) and the group's members
 * are not cancelled: they finish later, and the group still gives them
 * (cancel_wait_first_completed_leaves_members.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name;
    int units;
};

static struct job jobs[2] = {{.name = "A", .units = 10}, {.name = "B", .units = 20}};
static struct pt_task *members[2];
static struct pt_group group;
static struct {
    struct pt_task task;
    struct pt_task *t;
} w;
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

static PT_THREAD(watcher(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("watcher waits for the first\n");
    PT_GROUP_NEXT(&group, &w.t, PT_FOREVER);
    printf("watcher not reached\n");
    PT_TASK_CLEANUP();
    printf("watcher finally\n");
    PT_TASK_END();
}

static const char *cancelled(const struct job *j) {
    return pt_task_status(&j->task) == PT_CLOSED ? "True" : "False";
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 2, PT_GROUP_COLLECT);
    for (i = 0; i < 2; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    parity_spawn(loop, &w.task, watcher);
    PT_SLEEP(UNIT);
    printf("main cancels watcher\n");
    (void)pt_task_cancel(loop, &w.task);
    PT_JOIN(&w.task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("watcher cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("cancelled: [%s, %s]\n", cancelled(&jobs[0]), cancelled(&jobs[1]));
    for (;;) {
        PT_GROUP_NEXT(&group, &m.t, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        printf("main got %s\n", m.t->gen.value.s);
    }
    if (PT_WAIT_RESULT() != PT_EINVAL)
        printf("next: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
