/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: tasks spawned one after the other first run in that order, after the task that spawned
 * them stops (loop_tasks_start_in_spawn_order.py). */
#include "parity.h"

struct job {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
};

static struct job jobs[3] = {{.name = "A"}, {.name = "B"}, {.name = "C"}};

static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s runs\n", j->name);
    PT_TASK_RETURN(pt_value_str(j->name));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &jobs[i].task, job);
    printf("spawned A B C\n");
    for (m.i = 0; m.i < 3; m.i++) {
        PT_JOIN(&jobs[m.i].task, PT_FOREVER);
        if (PT_WAIT_RESULT() == PT_OK)
            printf("joined %s\n", jobs[m.i].task.gen.value.s);
        else
            printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    }
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
