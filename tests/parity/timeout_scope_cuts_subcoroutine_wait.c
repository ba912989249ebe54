/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a timeout scope around PT_AWAIT of a sub-coroutine (Python's asyncio.timeout() around
 * `await fetch()`): the deadline cuts the wait inside the sub-coroutine (its PT_SLEEP ends
 * PT_ETIMEDOUT); it gives up with that error, its cleanup runs first, and PT_TIMEOUT_END in the
 * caller gives PT_ETIMEDOUT (timeout_scope_cuts_subcoroutine_wait.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_gen fetch;
    struct pt_timeout scope;
} m;

static PT_THREAD(fetch(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    PT_SUB_BEGIN(loop, task, g);
    printf("fetch sleeps\n");
    PT_SLEEP(100 * UNIT);
    if (PT_WAIT_RESULT() != PT_OK)
        PT_TASK_FAIL(pt_value_int(PT_WAIT_RESULT()));
    printf("fetch not reached\n");
    PT_TASK_RETURN(pt_value_int(1));
    PT_TASK_CLEANUP();
    printf("fetch finally\n");
    PT_SUB_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&m.scope, 2 * UNIT);
    PT_AWAIT(&task->gen, &m.fetch, fetch(loop, task, &m.fetch));
    if (pt_gen_status(&m.fetch) == PT_ENDED)
        printf("got %ld: not reached\n", (long)m.fetch.value.i);
    if (PT_TIMEOUT_END(&m.scope) == PT_ETIMEDOUT)
        printf("timed out\n");
    else
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
