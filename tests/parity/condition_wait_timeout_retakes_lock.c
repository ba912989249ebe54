/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_COND_WAIT with a timeout (Python's wait_for(cond.wait(), timeout)) and nobody
 * notifying: the wait ends PT_ETIMEDOUT, holding the lock again, which it takes back only once the
 * task holding it meanwhile has released it (condition_wait_timeout_retakes_lock.py). */
#include "parity.h"

static struct pt_lock lock;
static struct pt_cond cond;
static struct pt_task w, h, m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("W waits 10 units\n");
    PT_COND_WAIT(&cond, 10 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("W notified\n");
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("W timed out, holds the lock: %s\n",
               pt_lock_owner(&lock) == task ? "True" : "False");
    else
        printf("W: wait: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("W releases\n");
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(holder(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("H holds the lock\n");
    PT_SLEEP(20 * UNIT);
    printf("H releases\n");
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    pt_cond_init(&cond, &lock);
    parity_spawn(loop, &w, waiter);
    parity_spawn(loop, &h, holder);
    PT_JOIN(&w, PT_FOREVER);
    PT_JOIN(&h, PT_FOREVER);
    printf("locked: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
