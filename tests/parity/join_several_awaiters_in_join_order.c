/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: several tasks PT_JOIN one task: each sees PT_OK and reads its result, and they wake in
 * the order they joined (W1 yields once first, so it joins last), not the order they were
 * spawned; a join of a task that has finished ends at once with its outcome
 * (join_several_awaiters_in_join_order.py). */
#include "parity.h"

struct awaiter {
    struct pt_task task;
    const char *name;
    int late;
};

static struct awaiter ws[3] = {{.name = "W1", .late = 1}, {.name = "W2"}, {.name = "W3"}};
static struct pt_task job_task;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("job starts\n");
    PT_SLEEP(10 * UNIT);
    printf("job returns 42\n");
    PT_TASK_RETURN(pt_value_int(42));
    PT_TASK_END();
}

static PT_THREAD(awaiter(struct pt_loop *loop, struct pt_task *task)) {
    struct awaiter *w = (struct awaiter *)task;
    PT_TASK_BEGIN(loop, task);
    if (w->late)
        PT_TASK_YIELD();
    printf("%s awaits job\n", w->name);
    PT_JOIN(&job_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s got %ld\n", w->name, (long)job_task.gen.value.i);
    else
        printf("%s: join: %s\n", w->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &job_task, job);
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ws[i].task, awaiter);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    PT_JOIN(&job_task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main got %ld\n", (long)job_task.gen.value.i);
    else
        printf("main: join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
