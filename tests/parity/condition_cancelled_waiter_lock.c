/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: a task cancelled in PT_COND_WAIT does not take the lock back: its cleanup
 * section runs without it (loop/lock.h, PT_COND_WAIT; docs/asyncio.md, "Where it differs": a
 * cancelled task's body does not run again). asyncio's Condition.wait() re-takes the lock before
 * CancelledError goes on, so the finally runs holding it and `async with` releases it
 * (condition_cancelled_waiter_lock.py). */
#include "parity.h"

static struct pt_lock lock;
static struct pt_cond cond;
static struct pt_task w, m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("W waits\n");
    PT_COND_WAIT(&cond, PT_FOREVER);
    printf("W not reached\n");
    PT_TASK_CLEANUP();
    printf("W finally, lock held: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    if (pt_lock_owner(&lock) == task)
        (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    pt_cond_init(&cond, &lock);
    parity_spawn(loop, &w, waiter);
    PT_SLEEP(UNIT);
    printf("main cancels W\n");
    (void)pt_task_cancel(loop, &w);
    PT_JOIN(&w, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("W cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("locked: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
