/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a task group (PT_GROUP_WAIT, Python's TaskGroup) waits for all of its members; their
 * results are read in the order they were spawned, whatever order they finished in
 * (taskgroup_results_in_spawn_order.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name, *result;
    int units;
};

static struct job jobs[3] = {{.name = "A", .result = "a", .units = 3},
                             {.name = "B", .result = "b", .units = 1},
                             {.name = "C", .result = "c", .units = 2}};
static struct pt_task *members[3];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)j->units * UNIT);
    printf("%s finishes\n", j->name);
    PT_TASK_RETURN(pt_value_str(j->result));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_CANCEL_ON_FAIL);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    printf("group spawned\n");
    PT_GROUP_WAIT(&group, PT_FOREVER);
    if (PT_WAIT_RESULT() != PT_OK)
        printf("group: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("group done\n");
    printf("results");
    for (i = 0; i < 3; i++) /* read from the tasks, as [t.result() for t in tasks] */
        printf(" %s", jobs[i].task.gen.value.s);
    printf("\n");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
