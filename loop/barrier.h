/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/barrier.h - a barrier between tasks of one loop, as asyncio's
 * Barrier: `parties` tasks wait until all of them have arrived, then all
 * go on together, and the barrier is ready for the next round at once.
 * Caller-owned, no allocation.
 *
 *   struct pt_barrier b;   pt_barrier_init(&b, 3);
 *   PT_BARRIER_WAIT(&b, &me->index, PT_FOREVER);   (in each of 3 tasks)
 *
 * A waiter that times out or is cancelled leaves the round (asyncio's does
 * too): the barrier then waits for another to take its place. Abort breaks
 * the barrier for good (until reset): its waiters and every later wait end
 * with PT_EBROKEN, as BrokenBarrierError. Reset ends the waits of the
 * round in progress with PT_EBROKEN and leaves the barrier empty and whole.
 */
#ifndef PT_LOOP_BARRIER_H
#define PT_LOOP_BARRIER_H

#include "sync.h"

struct pt_barrier {
    struct pt__wlist w; /* the tasks of this round that wait */
    pt_index_t parties;
    unsigned char broken;
};

/* A barrier for `parties` tasks (1 or more). */
static inline void pt_barrier_init(struct pt_barrier *b, pt_index_t parties) {
    pt__wlist_init(&b->w, PT__WL_KEEP);
    b->parties = parties;
    b->broken = 0;
}

/* The number of tasks waiting in this round (asyncio's n_waiting). */
static inline pt_index_t pt_barrier_waiting(const struct pt_barrier *b) {
    pt_index_t n = 0;
    const struct pt_task *t;
    for (t = b->w.q.head; t; t = t->next)
        n++;
    return n;
}

/* Nonzero once aborted (until reset). */
static inline int pt_barrier_broken(const struct pt_barrier *b) {
    return b->broken;
}

/* Internal: end every wait of the round with `result`. */
static inline void pt__barrier_release(struct pt_loop *l, struct pt_barrier *b, int result) {
    while (b->w.q.head)
        pt__wake(l, b->w.q.head, result);
}

/* Break the barrier: its waiters, and every wait until a reset, end with
 * PT_EBROKEN. */
static inline void pt_barrier_abort(struct pt_loop *l, struct pt_barrier *b) {
    b->broken = 1;
    pt__barrier_release(l, b, PT_EBROKEN);
}

/* End the waits of the round in progress with PT_EBROKEN and make the
 * barrier empty and whole again. */
static inline void pt_barrier_reset(struct pt_loop *l, struct pt_barrier *b) {
    b->broken = 0;
    pt__barrier_release(l, b, PT_EBROKEN);
}

/* Internal: arrive. Nonzero: park until the round is complete. */
static inline int pt__barrier_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                    struct pt_barrier *b, pt_index_t *index, pt_time_t timeout) {
    pt_index_t n;
    if (pt__not_running(l, t, g))
        return 0;
    g->value.i = PT_OK;
    if (b->broken) {
        g->value.i = PT_EBROKEN;
        return 0;
    }
    n = pt_barrier_waiting(b);
    *index = n;
    if ((pt_index_t)(n + 1u) >= b->parties) { /* the last one: all go */
        pt__barrier_release(l, b, PT_OK);
        return 0;
    }
    return pt__list_park(l, t, g, &b->w.q, timeout, PT__WAIT_LIST);
}

/*
 * void PT_BARRIER_WAIT(struct pt_barrier *b, pt_index_t *index, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_EBROKEN | PT_ETIMEDOUT | PT_EFULL
 * Arrive at b and wait for the others of the round; *index (which must
 * outlive the wait) is set on arrival to the order of arrival, 0 to
 * parties-1, as Barrier.wait() returns. The last to arrive does not stop;
 * the others wake in the order they arrived.
 */
#define PT_BARRIER_WAIT(b, index, timeout)                                                         \
    PT__PARK_IF(pt__barrier_start(pt__loop, pt__task, pt__gen, (b), (index), (timeout)))

#endif /* PT_LOOP_BARRIER_H */
