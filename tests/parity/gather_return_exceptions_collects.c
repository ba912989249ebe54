/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: in a PT_GROUP_COLLECT group (Python's gather(..., return_exceptions=True)) a failure
 * cancels nothing; every member runs to its end and each outcome is kept, in spawn order; the wait
 * ends PT_EFAILED if any failed (gather_return_exceptions_collects.py). */
#include "parity.h"

struct job {
    struct pt_task task;
    const char *name, *result, *error;
    int units, fail;
};

static struct job jobs[3] = {{.name = "A", .error = "a-error", .units = 1, .fail = 1},
                             {.name = "B", .result = "b", .units = 3},
                             {.name = "C", .error = "c-error", .units = 2, .fail = 1}};
static struct pt_task *members[3];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)j->units * UNIT);
    if (j->fail) {
        printf("%s fails\n", j->name);
        PT_TASK_FAIL(pt_value_str(j->error));
    }
    printf("%s returns\n", j->name);
    PT_TASK_RETURN(pt_value_str(j->result));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 3, PT_GROUP_COLLECT);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &jobs[i].task, job);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    printf("any failed: %s\n", PT_WAIT_RESULT() == PT_EFAILED ? "yes"
                               : PT_WAIT_RESULT() == PT_OK    ? "no"
                                                              : pt_err_name(PT_WAIT_RESULT()));
    for (i = 0; i < 3; i++) { /* the outcomes, read from the tasks in spawn order */
        struct pt_task *t = &jobs[i].task;
        if (pt_task_status(t) == PT_EXITED)
            printf("%s failed %s\n", jobs[i].name, t->gen.value.s);
        else if (pt_task_status(t) == PT_ENDED)
            printf("%s returned %s\n", jobs[i].name, t->gen.value.s);
        else
            printf("%s status %d\n", jobs[i].name, pt_task_status(t));
    }
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
