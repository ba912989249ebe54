/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/queue.h - the scheduler's first layer: the loop itself (its
 * initialisation, its clock, stop), the ready queue and the lists of tasks
 * linked by their `next` that parking uses. The timers are loop/timers.h's
 * (a 4-ary heap or a sorted list); the loop keeps their count and cap.
 */
#ifndef PT_LOOP_SCHED_QUEUE_H
#define PT_LOOP_SCHED_QUEUE_H

#include <stddef.h>

#include "../agree.h"
#include "../iowait.h"
#include "../port.h"
#include "../timers.h"
#include "../types.h"
#include "hooks.h"

/* ---- the loop ---------------------------------------------------------- */

/*
 * Initialise a loop whose timer heap is heap[0..cap-1]: at most `cap`
 * tasks may wait with a deadline at the same time (a wait beyond that fails
 * with PT_EFULL; a woken queue waiter, or a writer's drain or close, keeps
 * its timer until its turn: loop/sync.h). With PT_TIMERS_LIST (loop/timers.h) the timers are kept
 * in the tasks and `heap` is not used (it may be NULL); cap bounds them
 * all the same. PT_EINVAL if cap does not fit pt_index_t (it is then cut
 * to what fits). With the epoll back end it takes a descriptor:
 * PT_EMFILE or PT_ESYS if it cannot (then every descriptor wait fails), and
 * pt_loop_close gives it back.
 */
static inline int pt_loop_init(struct pt_loop *l, struct pt_timer_slot *heap, size_t cap) {
    int rc = PT_OK;
    if ((size_t)(pt_index_t)cap != cap) { /* more than PT_INDEX_MAX */
        cap = PT_INDEX_MAX;
        rc = PT_EINVAL;
    }
    l->agree = PT__AGREE;
    l->ready.head = NULL; /* (its tail means nothing then) */
    pt__timers_init(l, heap);
    l->ntimers = 0;
    l->timers_cap = (pt_index_t)cap;
    l->live = 0;
#ifdef PT__PORT_NO_CLOCK
    l->flags = PT__L_VIRTUAL; /* PT_CONFIG_PORT_VIRTUAL: no other clock */
#else
    l->flags = 0;
#endif
    pt__hook_loop_init(l);
    l->now = PT_CONFIG_PORT_NOW();
#if PT_CONFIG_IO
    {
        int brc = pt__io_init(l);
        if (brc != PT_OK)
            rc = brc;
    }
#endif
    return rc;
}

/* Release what pt_loop_init took from the system (the epoll back end's
 * descriptor; nothing otherwise). The loop is not used after this. */
static inline void pt_loop_close(struct pt_loop *l) {
#if PT_CONFIG_IO
    pt__backend_close(&l->io);
#else
    (void)l;
#endif
}

#if PT_CONFIG_IO
/*
 * Give the readiness back end its table for waits on descriptors 0..n-1,
 * `slots` being PT_IO_SLOTS(n) cells the caller owns (loop/backend.h):
 *
 *   static union pt_io_slot slots[PT_IO_SLOTS(4096)];
 *   pt_loop_io_table(&loop, slots, sizeof slots / sizeof slots[0]);
 *
 * The poll and epoll back ends need it (without it every descriptor wait
 * is PT_EINVAL); select has fixed tables and ignores it (PT_IO_SLOTS(n) is
 * 1). PT_OK; PT_EBUSY if waits are registered (nothing changes).
 */
static inline int pt_loop_io_table(struct pt_loop *l, union pt_io_slot *slots, size_t cells) {
    return pt__backend_table(&l->io, slots, cells);
}

/* The number of descriptor waits registered (diagnostics; tests check that
 * nothing is left behind). */
static inline unsigned pt_loop_io_waits(const struct pt_loop *l) {
    return pt__backend_waits(&l->io);
}
#endif

/* Use a virtual clock starting at `start`: whenever nothing is ready, time
 * jumps to the next deadline instead of passing. For tests and simulation. */
static inline void pt_loop_use_virtual_clock(struct pt_loop *l, pt_time_t start) {
    l->flags |= PT__L_VIRTUAL;
    l->now = start;
}

/*
 * The loop's time: its clock read once per iteration. With
 * PT_CONFIG_LAZY_CLOCK (a POSIX host's default) it is read the first time
 * the iteration needs it (a deadline set or compared, or a call of this),
 * and an iteration that needs no time reads no clock; without it, at the
 * start of every iteration and after its poll. On the virtual clock, the
 * virtual time.
 */
#if PT_CONFIG_LAZY_CLOCK
static inline pt_time_t pt_loop_now(struct pt_loop *l) {
    if ((l->flags & (PT__L_STALE | PT__L_VIRTUAL)) == PT__L_STALE) {
        l->flags &= (unsigned char)~PT__L_STALE;
        l->now = PT_CONFIG_PORT_NOW();
    }
    return l->now;
}

/* Time has passed: the clock is read when next needed. */
#define pt__clock_passed(l) ((l)->flags |= PT__L_STALE)

/* The same for a look that changes nothing (diagnostics). */
static inline pt_time_t pt__now_peek(const struct pt_loop *l) {
    return (l->flags & (PT__L_STALE | PT__L_VIRTUAL)) == PT__L_STALE
               ? (pt_time_t)PT_CONFIG_PORT_NOW()
               : l->now;
}
#else
static inline pt_time_t pt_loop_now(struct pt_loop *l) {
    return l->now;
}

/* Time has passed: read the clock (a board's is one load of a counter:
 * less than the code that would avoid it). */
static inline void pt__clock_passed(struct pt_loop *l) {
    if (!(l->flags & PT__L_VIRTUAL))
        l->now = PT_CONFIG_PORT_NOW();
}

#define pt__now_peek(l) ((l)->now)
#endif

/* Make the running pt_loop_run* return after the current iteration. (A
 * stop wins over a stall found in the same iteration: PT_EINVAL.) */
static inline void pt_loop_stop(struct pt_loop *l) {
    l->flags = (unsigned char)((l->flags | PT__L_STOP) & ~PT__L_STALL);
}

/* The number of timers pending (diagnostics; tests check that nothing is
 * left behind). */
static inline pt_index_t pt_loop_timers(const struct pt_loop *l) {
    return l->ntimers;
}

/* ---- the ready queue and the lists of tasks ----------------------------- */

static inline void pt__waitq_push(struct pt_waitq *q, struct pt_task *t) {
    t->next = NULL;
    if (q->head)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
}

/* Put t, which is not parked, at the end of the ready queue. When
 * optimising for size, through pt__wake (loop/sched/park.h), whose end
 * does the same: one copy of it. (t is not parked, so no wait ends and
 * the result is not written: any value will do, and the one that costs
 * the callers least is a nonzero one.) Otherwise its own two steps: a
 * yield pushes its task once per resume, and pt__wake's test of the
 * parked bit costs a fifth more time per resume (W1a). */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
PT__OUTLINE void pt__wake(struct pt_loop *l, struct pt_task *t, int result);
#define pt__ready_push(l, t) pt__wake((l), (t), 1)
#else
static inline void pt__ready_push(struct pt_loop *l, struct pt_task *t) {
    pt__waitq_push(&l->ready, t);
    pt__set_place(t, PT__PLACE_QUEUED);
}
#endif

/* Take t out of the list that *p starts, which holds it (a parked task is
 * in its waiter list, or in the joiners of the task it joins: from that
 * one's up.joiners); return the task before it, NULL if none. */
static inline struct pt_task *pt__unlink(struct pt_task **p, struct pt_task *t) {
    struct pt_task *prev = NULL;
    while (*p != t) {
        prev = *p;
        p = &prev->next;
    }
    *p = t->next;
    return prev;
}

#endif /* PT_LOOP_SCHED_QUEUE_H */
