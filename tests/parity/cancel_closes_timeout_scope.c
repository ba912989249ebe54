/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel of a task inside a timeout scope closes the scope, so its cleanup may wait
 * past the old deadline without being cut, as asyncio.timeout() is left on the way out of a
 * cancelled task (cancel_closes_timeout_scope.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_timeout scope;
} w;
static struct pt_task m;

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&w.scope, 10 * UNIT);
    printf("worker sleeps\n");
    PT_SLEEP(100 * UNIT);
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
    PT_SLEEP(UNIT);
    printf("main cancels worker\n");
    (void)pt_task_cancel(loop, &w.task);
    PT_JOIN(&w.task, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("worker cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
