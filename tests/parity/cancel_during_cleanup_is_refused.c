/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: a second cancel while the cleanup section waits returns PT_EINVAL and the
 * cleanup runs on to its end (loop/core.h, pt_task_cancel: a cleanup runs exactly once, to its
 * end); asyncio's cancel() returns True and raises CancelledError at the finally's await. */
#include "parity.h"

static struct pt_task m, w;

static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(1000));
    PT_TASK_CLEANUP();
    printf("W cleanup waits\n");
    PT_SLEEP(UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("W cleanup done\n");
    else
        printf("W cleanup cancelled\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &w, worker);
    PT_TASK_YIELD();
    (void)pt_task_cancel(loop, &w);
    PT_TASK_YIELD();
    printf("second cancel: %s\n", pt_task_cancel(loop, &w) == PT_OK ? "True" : "False");
    PT_JOIN(&w, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("W cancelled\n");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
