/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: tasks and pt_call_soon callbacks share the one FIFO ready queue (Python's create_task and
 * loop.call_soon): a new task's first step and a callback run in the order they were scheduled; a
 * task that yields (PT_TASK_YIELD) and a callback scheduled while the queue runs go to the back,
 * for the next iteration (call_soon_interleaved_with_tasks.py). */
#include "parity.h"

struct worker {
    struct pt_task task;
    const char *name;
    int step;
};

static struct worker t = {.name = "T"}, u = {.name = "U"};
static struct pt_handle h1, h2;
static struct pt_task m;

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    struct worker *w = (struct worker *)task;
    PT_TASK_BEGIN(loop, task);
    for (w->step = 1; w->step <= 3; w->step++) {
        printf("%s step %d\n", w->name, w->step);
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

static void cb(struct pt_loop *loop, void *arg) {
    const char *name = (const char *)arg;
    printf("callback %s\n", name);
    if (name[1] == '1' && name[2] == '\0') /* "c1": its handle is free again */
        (void)pt_call_soon(loop, &h1, cb, "c1 again");
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("main schedules\n");
    parity_spawn(loop, &t.task, worker);
    (void)pt_call_soon(loop, &h1, cb, "c1");
    parity_spawn(loop, &u.task, worker);
    (void)pt_call_soon(loop, &h2, cb, "c2");
    printf("main yields\n");
    PT_TASK_YIELD();
    printf("main resumes\n");
    PT_JOIN(&t.task, PT_FOREVER);
    PT_JOIN(&u.task, PT_FOREVER);
    printf("main done\n");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
