/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/features/waitlist.h - the waiter lists' side of the scheduler's
 * hooks (PT_CONFIG_SYNC; loop/sched/hooks.h): what a list grants its first
 * waiter (one function per kind of object), and what a granted waiter
 * cancelled or timed out before its turn gives back. The objects are
 * loop/sync.h's, loop/lock.h's and loop/barrier.h's.
 */
#ifndef PT_LOOP_FEATURES_WAITLIST_H
#define PT_LOOP_FEATURES_WAITLIST_H

#include "../sched/hooks.h"
#include "../sched/park.h"

#if PT_CONFIG_SYNC
/*
 * One of what w guards is free (a unit of a semaphore, a lock, a value or
 * a slot of a queue): grant it to the first waiter, or keep it in the
 * object if none waits. A granted waiter does not look again when it runs
 * (no later task can take what it was given: FIFO), except a queue's,
 * which tries again as asyncio's does. One function per kind of object,
 * which its init stores in the list (struct pt__wlist's give) and its
 * release calls: only a program that initialises such an object has it.
 */
PT__OUTLINE void pt__wl_queue(struct pt_loop *l, struct pt__wlist *w) {
    (void)pt__waitq_wake_one(l, &w->q); /* a getter's or a putter's turn */
}
PT__OUTLINE void pt__wl_sem(struct pt_loop *l, struct pt__wlist *w) {
    if (!pt__waitq_wake_one(l, &w->q)) /* a unit */
        ((struct pt_semaphore *)w)->count++;
}
PT__OUTLINE void pt__wl_lock(struct pt_loop *l, struct pt__wlist *w) {
    ((struct pt_lock *)w)->owner = pt__waitq_wake_one(l, &w->q);
}
/* What a list's waiters are granted (struct pt__wlist's give): */
#define PT__WL_KEEP ((pt__give_fn)0) /* nothing to give back (event, condition, barrier) */
#define PT__WL_QUEUE pt__wl_queue    /* a queue's getters or putters: wake the next one */
#define PT__WL_SEM pt__wl_sem        /* a unit of a struct pt_semaphore */
#define PT__WL_LOCK pt__wl_lock      /* a struct pt_lock */

/* A waiter granted by w was cancelled before it could run: what it was
 * given goes on to the next waiter. */
static inline void pt__wlist_give(struct pt_loop *l, struct pt__wlist *w) {
    if (w->give)
        w->give(l, w);
}

/* A wait of t (in generator g) woken by w resumes: 1, its result PT_OK, it
 * keeps what it was granted. But if a timeout scope of t's has passed since
 * (between the grant and this turn), 0: the wait ends PT_ETIMEDOUT as the
 * scope does, and the grant goes on to the next waiter, as asyncio's
 * timeout cancels a task woken and not yet run: never kept by a wait whose
 * scope says it timed out. */
static inline int pt__granted(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                              struct pt__wlist *w) {
    g->value.i = PT_OK;
    if (pt__hook_scope_passed(l, t)) {
        g->value.i = PT_ETIMEDOUT;
        pt__wlist_give(l, w);
        return 0;
    }
    return 1;
}
#endif

#endif /* PT_LOOP_FEATURES_WAITLIST_H */
