/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a timeout scope (PT_TIMEOUT_BEGIN / PT_TIMEOUT_END, Python's asyncio.timeout): the waits
 * that end in time go on as usual; the one in progress when the deadline passes (a PT_QUEUE_GET on
 * an empty queue) ends PT_ETIMEDOUT; the program skips the rest of the block by testing that
 * result, as the exception would, and PT_TIMEOUT_END gives PT_ETIMEDOUT. A wait after the scope is
 * not cut (timeout_scope_cuts_wait.py). */
#include "parity.h"

static pt_value slots[4];
static struct pt_queue q;
static struct {
    struct pt_task task;
    struct pt_timeout scope;
    pt_value v;
} m;

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_queue_init(&q, slots, 4);
    PT_TIMEOUT_BEGIN(&m.scope, 20 * UNIT);
    printf("sleep 1 unit\n");
    PT_SLEEP(UNIT);
    if (PT_WAIT_RESULT() == PT_OK) {
        printf("get from an empty queue\n");
        PT_QUEUE_GET(&q, &m.v, PT_FOREVER);
        if (PT_WAIT_RESULT() == PT_OK) {
            printf("got %ld: not reached\n", (long)m.v.i);
            PT_SLEEP(UNIT);
        }
    }
    if (PT_TIMEOUT_END(&m.scope) == PT_OK)
        printf("block done\n");
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("timed out\n");
    else
        printf("scope: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_SLEEP(3 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("a sleep after the block is not cut\n");
    else
        printf("sleep: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
