/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a task cancelled while it sleeps returns from its cleanup section: PT_TASK_RETURN there
 * replaces the cancel, so the task ends PT_ENDED with that result and its joiner sees PT_OK, as a
 * `return` in a `finally` suppresses asyncio's CancelledError
 * (cancel_return_in_cleanup_replaces_cancel.py). */
#include "parity.h"

static struct pt_task m, w;

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("W sleeps\n");
    PT_SLEEP(PT_MS(1000));
    printf("W woke\n");
    PT_TASK_CLEANUP();
    printf("W finally returns 7\n");
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &w, worker);
    PT_TASK_YIELD();
    printf("main cancels W\n");
    (void)pt_task_cancel(loop, &w);
    PT_JOIN(&w, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("result %ld, cancelled: %s\n", (long)w.gen.value.i,
               pt_task_status(&w) == PT_CLOSED ? "True" : "False");
    else
        printf("join: %s\n", pt_err_string(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
