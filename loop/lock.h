/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/lock.h - a lock and a condition variable between tasks of one loop,
 * as asyncio's Lock and Condition. Caller-owned, no allocation.
 *
 * The lock is FIFO: a release hands it to the longest waiter before that
 * one runs, so a task that asks later never overtakes a waiter. It knows
 * its owner: a release by another task, or a second acquire by the owner
 * (which would wait for ever in asyncio), is refused with an error.
 *
 *   struct pt_lock lock;   pt_lock_init(&lock);
 *   PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
 *   ... PT_WAIT_RESULT() == PT_OK: this task holds it ...
 *   pt_lock_release(loop, &lock, task);
 *
 * A task that finishes or is cancelled while it holds the lock still holds
 * it: release it in its PT_TASK_CLEANUP section (pt_lock_owner tells).
 */
#ifndef PT_LOOP_LOCK_H
#define PT_LOOP_LOCK_H

#include "sync.h"

/* ---- lock -------------------------------------------------------------- */

static inline void pt_lock_init(struct pt_lock *k) {
    pt__wlist_init(&k->w, PT__WL_LOCK);
    k->owner = NULL;
}

/* The task holding k, or NULL. */
static inline struct pt_task *pt_lock_owner(const struct pt_lock *k) {
    return k->owner;
}

/* Take k for t if it is free (it is not while tasks wait for it). 1 if
 * taken. */
static inline int pt_lock_try(struct pt_lock *k, struct pt_task *t) {
    if (k->owner)
        return 0;
    k->owner = t;
    return 1;
}

/* Release k, held by t: it goes to the longest waiter, if any. PT_OK;
 * PT_EINVAL if k is not held; PT_EBUSY if another task holds it (then
 * nothing changes). */
static inline int pt_lock_release(struct pt_loop *l, struct pt_lock *k, struct pt_task *t) {
    if (!k->owner)
        return PT_EINVAL;
    if (k->owner != t)
        return PT_EBUSY;
    pt__wl_lock(l, &k->w);
    return PT_OK;
}

/* Internal: PT_LOCK_ACQUIRE's first step; nonzero: park. */
static inline int pt__lock_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                 struct pt_lock *k, pt_time_t timeout) {
    if (pt__not_running(l, t, g))
        return 0;
    g->value.i = PT_OK;
    if (pt_lock_try(k, t))
        return 0;
    if (k->owner == t) {
        g->value.i = PT_EBUSY;
        return 0;
    }
    return pt__list_park(l, t, g, &k->w.q, timeout, PT__WAIT_LIST);
}

/*
 * void PT_LOCK_ACQUIRE(struct pt_lock *k, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EBUSY | PT_EFULL
 * Take k: at once if it is free, else when it is handed to this task, in
 * turn. PT_EBUSY: this task holds it already (nothing changes).
 */
#define PT_LOCK_ACQUIRE(k, timeout)                                                                \
    do {                                                                                           \
        if (pt__lock_start(pt__loop, pt__task, pt__gen, (k), (timeout))) {                         \
            PT__PARKED_HERE();                                                                     \
            if (pt__gen->value.p == (void *)(k)) /* handed over */                                 \
                (void)pt__granted(pt__loop, pt__task, pt__gen, &(k)->w);                           \
        }                                                                                          \
    } while (0)

/* ---- condition ----------------------------------------------------------- */

/* A condition variable over a lock (asyncio.Condition). */
struct pt_cond {
    struct pt__wlist w;
    struct pt_lock *lock;
};

static inline void pt_cond_init(struct pt_cond *c, struct pt_lock *k) {
    pt__wlist_init(&c->w, PT__WL_KEEP);
    c->lock = k;
}

/* Wake up to n tasks waiting on c (the longest waiting first), which t
 * must hold c's lock to do. Each then takes the lock back, in turn. PT_OK;
 * PT_EBUSY if t does not hold the lock (nobody is woken). */
static inline int pt_cond_notify(struct pt_loop *l, struct pt_cond *c, struct pt_task *t,
                                 unsigned n) {
    if (c->lock->owner != t)
        return PT_EBUSY;
    while (n-- && pt__waitq_wake_one(l, &c->w.q))
        ;
    return PT_OK;
}

/* Wake every task waiting on c (t holds the lock): as pt_cond_notify. */
static inline int pt_cond_notify_all(struct pt_loop *l, struct pt_cond *c, struct pt_task *t) {
    return pt_cond_notify(l, c, t, (unsigned)-1);
}

/* Internal: PT_COND_WAIT's first step: park on c (so that full timers
 * fail before anything changes), then release the lock. Nonzero: parked. */
static inline int pt__cond_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                 struct pt_cond *c, pt_time_t timeout) {
    if (pt__not_running(l, t, g))
        return 0;
    if (c->lock->owner != t) {
        g->value.i = PT_EBUSY;
        return 0;
    }
    if (!pt__list_park(l, t, g, &c->w.q, timeout, PT__WAIT_LIST))
        return 0;
    pt__wl_lock(l, &c->lock->w);
    return 1;
}

/* Internal: PT_COND_WAIT resumed: notified or timed out (then take the
 * lock back, parking for it if need be: nonzero), or given the lock back
 * (done). Meanwhile the condition's outcome is the lock wait's kind: a
 * timed-out one waits as PT__WAIT_RETRY with PT__T_TIMED_OUT set, which
 * the lock's grant leaves (pt__unpark). A timeout scope that cuts
 * the lock's wait makes it timed out, as asyncio's cancel would. */
static inline int pt__cond_resume(struct pt_task *t, struct pt_gen *g, struct pt_cond *c) {
    if (g->value.p != (void *)c->lock) { /* the condition's wait ended */
        int timed_out = g->value.p != (void *)c;
        if (!pt_lock_try(c->lock, t)) { /* even in a scope that has passed */
            pt__mark_parked(t, g, timed_out ? PT__WAIT_RETRY : PT__WAIT_LIST, c->lock);
            if (timed_out)
                pt__set_flag(t, PT__T_TIMED_OUT);
            pt__waitq_push(&c->lock->w.q, t);
            return 1;
        }
        g->value.i = timed_out ? PT_ETIMEDOUT : PT_OK;
        return 0;
    }
    g->value.i = pt__flag(t, PT__T_TIMED_OUT) ? PT_ETIMEDOUT : PT_OK;
    pt__clear_flag(t, PT__T_TIMED_OUT);
    return 0;
}

/*
 * void PT_COND_WAIT(struct pt_cond *c, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EBUSY | PT_EFULL
 * Release c's lock (which this task must hold: else PT_EBUSY at once),
 * wait until notified or the timeout passes, then take the lock again
 * (waiting for it as long as it takes) before going on: PT_OK (notified)
 * or PT_ETIMEDOUT, holding the lock either way. PT_EFULL (timers full) and a
 * timeout of 0 leave at once with the lock still held. A task cancelled in
 * here does not hold the lock in its cleanup section.
 */
#define PT_COND_WAIT(c, timeout)                                                                   \
    do {                                                                                           \
        int pt__parked; /* (assigned apart: C++ may not jump past an initialisation) */            \
        pt__parked = pt__cond_start(pt__loop, pt__task, pt__gen, (c), (timeout));                  \
        while (pt__parked) { /* one resume point: the condition, then the lock */                  \
            PT__PARKED_HERE();                                                                     \
            pt__parked = pt__cond_resume(pt__task, pt__gen, (c));                                  \
        }                                                                                          \
    } while (0)

#endif /* PT_LOOP_LOCK_H */
