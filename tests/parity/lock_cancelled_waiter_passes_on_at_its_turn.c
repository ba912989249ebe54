/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a lock released to W1, the longest waiter, then W1 cancelled and L spawned before W1
 * has run: W1 passes the lock on at its own turn (pt_task_cancel does not), so L runs before W2
 * gets it, as with asyncio's Lock (lock_cancelled_waiter_passes_on_at_its_turn.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
    int acquired;
};

static struct waiter w1 = {.name = "W1"}, w2 = {.name = "W2"};
static struct pt_lock lock;
static struct pt_task m, l;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    w->acquired = 1;
    printf("%s acquired\n", w->name);
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_CLEANUP();
    if (!w->acquired) /* (no other way out of the body) */
        printf("%s cancelled\n", w->name);
    PT_TASK_END();
}

static PT_THREAD(late(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("L runs\n");
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    parity_spawn(loop, &w1.task, waiter);
    parity_spawn(loop, &w2.task, waiter);
    PT_TASK_YIELD();
    printf("main releases, cancels W1, starts L\n");
    (void)pt_lock_release(loop, &lock, task);
    (void)pt_task_cancel(loop, &w1.task);
    parity_spawn(loop, &l, late);
    PT_JOIN(&w1.task, PT_FOREVER);
    PT_JOIN(&w2.task, PT_FOREVER);
    PT_JOIN(&l, PT_FOREVER);
    printf("locked: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
