/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a failure goes up through every await: the sub-coroutine parse fails (PT_TASK_FAIL),
 * the worker task awaiting it with PT_AWAIT_RAISE fails with its error (parse's cleanup first,
 * then the worker's), the middle task joining the worker with PT_JOIN_RAISE fails with it too,
 * and main, joining the middle task, sees PT_EFAILED and the error (pt_task_error), as an
 * exception goes up through `await coro` and `await task` (await_failure_propagates.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_gen parse;
} w;
static struct pt_task mid, m;

static PT_THREAD(parse(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    PT_SUB_BEGIN(loop, task, g);
    printf("parse starts\n");
    PT_SLEEP(UNIT);
    printf("parse raises 5\n");
    PT_TASK_FAIL(pt_value_int(5));
    PT_TASK_CLEANUP();
    printf("parse finally\n");
    PT_SUB_END();
}

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT_RAISE(&task->gen, &w.parse, parse(loop, task, &w.parse));
    printf("worker not reached\n");
    PT_TASK_CLEANUP();
    printf("worker finally\n");
    PT_TASK_END();
}

static PT_THREAD(middle(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_JOIN_RAISE(&w.task, PT_FOREVER);
    printf("middle not reached\n");
    PT_TASK_CLEANUP();
    printf("middle finally\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &w.task, worker);
    parity_spawn(loop, &mid, middle);
    PT_JOIN(&mid, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main: middle returned\n");
    else if (PT_WAIT_RESULT() == PT_EFAILED)
        printf("main caught %d\n", pt_task_error(&mid));
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    if (pt_task_status(&w.task) == PT_EXITED)
        printf("worker failed with %d\n", pt_task_error(&w.task));
    else
        printf("worker status %d\n", pt_task_status(&w.task));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
