/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a lock released to W1, the longest waiter, then W1 cancelled before it has run: W1 never
 * holds it (its cleanup runs) and pt_task_cancel passes the lock on to W2, the next waiter, as
 * asyncio's Lock does (lock_granted_waiter_cancelled_passes_on.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
};

static struct waiter w1 = {.name = "W1"}, w2 = {.name = "W2"};
static struct pt_lock lock;
static struct pt_task m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s waits\n", w->name);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("%s acquired\n", w->name);
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_CLEANUP();
    printf("%s finally\n", w->name);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    parity_spawn(loop, &w1.task, waiter);
    parity_spawn(loop, &w2.task, waiter);
    PT_TASK_YIELD();
    printf("main releases, then cancels W1\n");
    (void)pt_lock_release(loop, &lock, task);
    (void)pt_task_cancel(loop, &w1.task);
    PT_JOIN(&w1.task, PT_FOREVER);
    PT_JOIN(&w2.task, PT_FOREVER);
    printf("W1 cancelled: %s, locked: %s\n",
           pt_task_status(&w1.task) == PT_CLOSED ? "True" : "False",
           pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
