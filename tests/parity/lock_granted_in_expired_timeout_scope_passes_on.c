/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: W1 waits for a lock inside a timeout scope of 0 ticks, W2 without one; the lock is
 * released to W1 in the same iteration, before the scope's deadline has been acted on. The scope
 * then ends W1's wait before W1 has run: the wait and the scope both end PT_ETIMEDOUT, W1 does not
 * hold the lock, and it goes on to W2, as with asyncio.timeout(0)
 * (lock_granted_in_expired_timeout_scope_passes_on.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
    struct pt_timeout scope; /* W1's */
    int scoped;
};

static struct waiter w1 = {.name = "W1", .scoped = 1}, w2 = {.name = "W2"};
static struct pt_lock lock;
static struct pt_task m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    if (w->scoped) {
        PT_TIMEOUT_BEGIN(&w->scope, 0);
        PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK && PT_WAIT_RESULT() != PT_ETIMEDOUT)
            printf("%s acquire: %s\n", w->name, pt_err_string(PT_WAIT_RESULT()));
        if (PT_TIMEOUT_END(&w->scope) == PT_ETIMEDOUT) {
            printf("%s timed out%s\n", w->name,
                   pt_lock_owner(&lock) == task ? ", holding the lock" : "");
            PT_TASK_RETURN(pt_value_int(0));
        }
    } else {
        PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    }
    printf("%s acquired\n", w->name);
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    parity_spawn(loop, &w1.task, waiter);
    parity_spawn(loop, &w2.task, waiter);
    PT_TASK_YIELD();
    printf("main releases\n");
    (void)pt_lock_release(loop, &lock, task);
    PT_JOIN(&w1.task, PT_FOREVER);
    PT_JOIN(&w2.task, PT_FOREVER);
    printf("locked: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
