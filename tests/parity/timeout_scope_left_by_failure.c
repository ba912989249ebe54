/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a failure that goes out of a timeout scope (PT_AWAIT_RAISE inside PT_TIMEOUT_BEGIN /
 * PT_TIMEOUT_END, Python's exception going out of `async with asyncio.timeout()`): the task's
 * cleanup, after the block, waits past the scope's deadline; in Python that wait is not cut
 * (timeout_scope_left_by_failure.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_gen parse;
    struct pt_timeout scope;
} w;
static struct pt_task m;

static PT_THREAD(parse(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    PT_SUB_BEGIN(loop, task, g);
    PT_SLEEP(UNIT);
    printf("parse raises 5\n");
    PT_TASK_FAIL(pt_value_int(5));
    PT_SUB_END();
}

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&w.scope, 10 * UNIT);
    PT_AWAIT_RAISE(&task->gen, &w.parse, parse(loop, task, &w.parse));
    printf("worker not reached\n");
    (void)PT_TIMEOUT_END(&w.scope);
    PT_TASK_CLEANUP();
    printf("worker finally sleeps past the deadline\n");
    PT_SLEEP(15 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("worker finally done\n");
    else
        printf("worker finally: sleep: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &w.task, worker);
    PT_JOIN(&w.task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_EFAILED)
        printf("worker failed with %d\n", pt_task_error(&w.task));
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
