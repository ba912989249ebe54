/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local pointer across PT_LOCK_ACQUIRE, the lock's own
 * address among its uses after the wait. */
#include "loop/loop.h"

struct shared {
    struct pt_lock lock;
    int value;
};

struct user {
    struct pt_task task;
    struct shared *shared;
};

PT_THREAD(user_run(struct pt_loop *loop, struct pt_task *task)) {
    struct user *u = (struct user *)task;
    PT_TASK_BEGIN(loop, task);
    struct shared *sh = u->shared;
    PT_LOCK_ACQUIRE(&sh->lock, PT_FOREVER); /* pt-lint: expect sh */
    sh->value++;                            /* pt-lint: expect sh */
    pt_lock_release(loop, &sh->lock, task); /* pt-lint: expect sh */
    PT_TASK_END();
}
