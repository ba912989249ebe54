/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/core.h - the scheduler: a FIFO ready queue, the timers, parking
 * and waking tasks, spawn / cancel / join / sleep, and one loop iteration in
 * the order of asyncio's _run_once:
 *
 *   1. work out how long it may block: 0 if anything is ready, else until
 *      the earliest deadline (forever if there is none);
 *   2. poll descriptors (the readiness back end) or idle for that long;
 *   3. move every timer that is due to the ready queue (earliest first,
 *      equal deadlines in the order they were set);
 *   4. run the tasks that are ready NOW, once each: a task made ready while
 *      this happens waits for the next iteration, after the next poll, so
 *      nothing can starve the readiness check.
 *
 * Nothing here allocates: tasks and the heap's array belong to the caller.
 */
#ifndef PT_LOOP_CORE_H
#define PT_LOOP_CORE_H

#include <stddef.h>

#include "agree.h"
#include "iowait.h"
#include "port.h"
#include "timers.h"
#include "types.h"

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
    if ((cap >> (sizeof(pt_index_t) * 8 - 1)) >> 1) { /* more than PT_INDEX_MAX: a shift */
        cap = (size_t)-1; /* PT_INDEX_MAX once cut to pt_index_t, with no constant to load */
        rc = PT_EINVAL;
    }
    l->agree = PT__AGREE;
    l->ready.head = NULL; /* (its tail means nothing then) */
    pt__timers_init(l, heap);
    l->ntimers = 0;
    l->timers_cap = (pt_index_t)cap;
    l->live = 0;
#if PT_LOOP_STALL_CHECK
    l->polls = l->polls_seen = 0;
    l->polls_hash = 0;
#endif
#ifdef PT__PORT_NO_CLOCK
    l->flags = PT__L_VIRTUAL; /* PT_PORT_VIRTUAL: no other clock */
#else
    l->flags = 0;
#endif
#if PT_LOOP_BACKGROUND
    l->background = NULL;
#endif
#if PT_LOOP_CALLBACKS
    l->timeouts = NULL;
#endif
#if PT_DEBUG
    l->tasks = l->running = NULL;
    l->slow_fn = NULL;
    l->slow_arg = NULL;
    l->slow_us = PT_DEBUG_SLOW_US;
#endif
    l->now = PT_PORT_NOW();
#if PT_LOOP_IO
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
#if PT_LOOP_IO
    pt__backend_close(&l->io);
#else
    (void)l;
#endif
}

#if PT_LOOP_IO
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
 * PT_LOOP_LAZY_CLOCK (a POSIX host's default) it is read the first time
 * the iteration needs it (a deadline set or compared, or a call of this),
 * and an iteration that needs no time reads no clock; without it, at the
 * start of every iteration and after its poll. On the virtual clock, the
 * virtual time.
 */
#if PT_LOOP_LAZY_CLOCK
static inline pt_time_t pt_loop_now(struct pt_loop *l) {
    if ((l->flags & (PT__L_STALE | PT__L_VIRTUAL)) == PT__L_STALE) {
        l->flags &= (unsigned char)~PT__L_STALE;
        l->now = PT_PORT_NOW();
    }
    return l->now;
}

/* Time has passed: the clock is read when next needed. */
#define pt__clock_passed(l) ((l)->flags |= PT__L_STALE)

/* The same for a look that changes nothing (diagnostics). */
static inline pt_time_t pt__now_peek(const struct pt_loop *l) {
    return (l->flags & (PT__L_STALE | PT__L_VIRTUAL)) == PT__L_STALE ? (pt_time_t)PT_PORT_NOW()
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
        l->now = PT_PORT_NOW();
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

/* ---- the ready queue and waiter lists ---------------------------------- */

static inline void pt__waitq_push(struct pt_waitq *q, struct pt_task *t) {
    t->next = NULL;
    if (q->head)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
}

/* Put t, which is not parked, at the end of the ready queue. When
 * optimising for size, pt__wake's end, one copy of it (no wait ends, so
 * the result is not used: any will do, and 1 rather than 0 spares the
 * code GCC would otherwise spend deriving a 0 from the caller's test).
 * Otherwise its own two steps: a yield pushes its task once per resume,
 * and going through pt__wake's test of the parked bit cost a fifth more
 * instructions per resume (W1a). */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
PT__OUTLINE void pt__wake(struct pt_loop *l, struct pt_task *t, int result);
#define pt__ready_push(l, t) pt__wake((l), (t), 1)
#else
static inline void pt__ready_push(struct pt_loop *l, struct pt_task *t) {
    pt__waitq_push(&l->ready, t);
    t->gen.aux |= PT__T_QUEUED;
}
#endif

/* Take t out of the list that *p starts, which holds it (a parked task is
 * in its waiter list, or in the joiners of the task it joins: from that
 * one's awaiter); return the task before it, NULL if none. */
static inline struct pt_task *pt__unlink(struct pt_task **p, struct pt_task *t) {
    struct pt_task *prev = NULL;
    while (*p != t) {
        prev = *p;
        p = &prev->next;
    }
    *p = t->next;
    return prev;
}

/* ---- parking and waking ------------------------------------------------ */

static inline unsigned pt__wait_kind(const struct pt_task *t) {
    return (t->gen.aux & PT__T_WAIT_MASK) >> PT__T_WAIT_SHIFT;
}

/* Mark t (in generator g) parked on obj of kind `kind` (not timed out). */
static inline void pt__mark_parked(struct pt_task *t, struct pt_gen *g, unsigned kind, void *obj) {
    t->gen.aux = (unsigned char)((t->gen.aux & ~(PT__T_WAIT_MASK | PT__T_TIMED_OUT)) |
                                 PT__T_PARKED | (kind << PT__T_WAIT_SHIFT));
    /* Both slots: PT_AWAIT copies the sub-coroutine's value up on return. */
    t->gen.value.p = obj;
    g->value.p = obj;
}

#if PT_LOOP_CALLBACKS
/* Nonzero if t is inside a timeout scope whose deadline has passed (or
 * that could not set its timer): loop/timeout.h. */
static inline int pt__timeout_passed(const struct pt_loop *l, const struct pt_task *t) {
    const struct pt_timeout *sc;
    for (sc = l->timeouts; sc; sc = sc->next)
        if (sc->task == t && sc->state != 1)
            return 1;
    return 0;
}
#endif

/* With PT_DEBUG: nonzero, and the wait's result PT_EINVAL, if t is not
 * the task l is resuming (loop/debug.h); a wait that changes anything of
 * t's before pt__park asks this first. Without it: 0, unchecked. */
#if PT_DEBUG
static inline int pt__not_running(const struct pt_loop *l, const struct pt_task *t,
                                  struct pt_gen *g) {
    if (t == l->running)
        return 0;
    g->value.i = PT_EINVAL;
    return 1;
}
#else
#define pt__not_running(l, t, g) 0
#endif

/*
 * Park t (running in generator g: the task's own, or a sub-coroutine's)
 * with a deadline `timeout` ticks away unless PT_FOREVER, on `obj` of kind
 * `kind`. Returns 1 if parked; 0 if not, with the wait's result set:
 * PT_EFULL if the timers are full, PT_ETIMEDOUT inside a timeout scope
 * whose deadline has passed; with PT_DEBUG, PT_EINVAL if t is not the task
 * l is resuming (a wait outside a task, or in another task's body). (Every
 * wait starts here: one copy.)
 */
PT__OUTLINE int pt__park(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, pt_time_t timeout,
                         unsigned kind, void *obj) {
    if (pt__not_running(l, t, g)) /* parking it would link a task that runs on */
        return 0;
#if PT_LOOP_CALLBACKS
    if (l->timeouts && pt__timeout_passed(l, t)) { /* in a scope whose deadline passed */
        g->value.i = PT_ETIMEDOUT;
        return 0;
    }
#endif
    if (timeout != PT_FOREVER || kind == PT__WAIT_NONE) { /* a sleep always has one */
        if (pt__timer_add(l, t, pt_time_after(pt_loop_now(l), timeout)) != PT_OK) {
            g->value.i = PT_EFULL;
            return 0;
        }
    }
    pt__mark_parked(t, g, kind, obj);
    return 1;
}

/* Take a parked t off its timer and whatever it waits on (its marks are
 * pt__wake's to clear); but a PT__WAIT_RETRY wait keeps its timer (a
 * wake-up by its list: see there; its other ends have taken it off), and
 * PT__T_TIMED_OUT stays (PT_COND_WAIT's). */
static inline void pt__unpark(struct pt_loop *l, struct pt_task *t, void *obj) {
    unsigned kind = pt__wait_kind(t);
#if PT_LOOP_IO
    if (kind == PT__WAIT_IO)
        pt__backend_unwatch(&l->io, (struct pt_io *)obj);
#endif
    /* One walk for a waiter list (none without PT_LOOP_SYNC) and for
     * joiners: the list starts at obj either way (a struct pt_waitq's head,
     * a task's awaiter: each the first member). (A group's owner: the
     * group lets it go before it wakes it.) */
    if (kind - PT__WAIT_LIST <= PT__WAIT_JOIN - PT__WAIT_LIST) {
        struct pt_task *prev = pt__unlink((struct pt_task **)obj, t);
#if PT_LOOP_SYNC
        if (kind < PT__WAIT_SHIELD && !t->next) /* it was the list's tail */
            ((struct pt_waitq *)obj)->tail = prev;
#else
        (void)prev;
#endif
    }
#if PT_LOOP_SYNC
    if (kind != PT__WAIT_RETRY)
#endif
        pt__timer_remove(l, t); /* (last: only l and t are kept across the call) */
}

/* What pt__wake's one subtraction needs (a negative size if not). */
typedef char pt__wake_results[PT_ECANCELLED == PT_ETIMEDOUT - (int)PT__T_CANCELLED ? 1 : -1];

/* Wake a parked t: its wait ends with `result`, or PT_ECANCELLED if a
 * cancel came during it, else PT_ETIMEDOUT if its deadline passed (a
 * join or a group wait then waited on for what that cancelled); it runs
 * next iteration. A t not parked is only queued (pt__ready_push). */
PT__OUTLINE void pt__wake(struct pt_loop *l, struct pt_task *t, int result) {
    unsigned char aux = t->gen.aux;
    if (aux & PT__T_PARKED) {
        void *obj = t->gen.value.p;
#if PT_LOOP_PREFETCH > 0 /* (loop/config.h: the task's state, before its turn) */
        uintptr_t at;
        for (at = 64; at < PT_LOOP_PREFETCH; at += 64)
            __builtin_prefetch((const void *)((uintptr_t)t + at), 1);
#endif
        /* A cancel's mark first: PT_ECANCELLED is PT_ETIMEDOUT less that bit
         * (pt__wake_results). */
        if (aux & (PT__T_CANCELLED | PT__T_TIMED_OUT))
            result = PT_ETIMEDOUT - (int)(aux & PT__T_CANCELLED);
        t->gen.value.i = result; /* (first: one value fewer to keep across the calls) */
        pt__unpark(l, t, obj);
        aux &= (unsigned char)~(PT__T_PARKED | PT__T_WAIT_MASK);
    }
    pt__waitq_push(&l->ready, t);
    t->gen.aux = (unsigned char)(aux | PT__T_QUEUED);
}

#if PT_LOOP_IO
/* Wake the tasks whose descriptor waits the back end reports ended
 * (loop/backend.h: pt__backend_next), each with its result; how many. */
static inline int pt__io_dispatch(struct pt_loop *l) {
    struct pt_io *io;
    int result, woke = 0;
    while ((io = pt__backend_next(&l->io, &result)) != NULL) {
        pt__wake(l, io->task, result);
        woke++;
    }
    return woke;
}
#endif

/*
 * Wake the first task of q (if any) and return it. Its wait result is
 * left as q itself (the wait macros read that as "woken by q"), and until
 * it runs it stays marked as waiting on a list: if it is cancelled before
 * it could act on the wake-up, what it was granted goes on to the next
 * waiter at its turn (pt__cancel, pt__run_special), and if a timeout
 * scope of its passes meanwhile, when it resumes (pt__granted): nothing is
 * lost. A PT__WAIT_RETRY waiter keeps its
 * timer (pt__unpark): one that comes due before it runs is dropped
 * (pt__expire_timers), and its wait reads that as its deadline passed.
 */
static inline struct pt_task *pt__waitq_wake_one(struct pt_loop *l, struct pt_waitq *q) {
    struct pt_task *t = q->head;
    if (!t)
        return NULL;
    pt__wake(l, t, PT_OK); /* (one wake path; then the marks above) */
    t->gen.value.p = q;
    t->gen.aux |= (unsigned char)(PT__WAIT_LIST << PT__T_WAIT_SHIFT);
    return t;
}

#if PT_LOOP_SYNC
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
        ((struct pt_loop_sem *)w)->count++;
}
PT__OUTLINE void pt__wl_lock(struct pt_loop *l, struct pt__wlist *w) {
    ((struct pt_lock *)w)->owner = pt__waitq_wake_one(l, &w->q);
}
/* What a list's waiters are granted (struct pt__wlist's give): */
#define PT__WL_KEEP ((pt__give_fn)0) /* nothing to give back (event, condition, barrier) */
#define PT__WL_QUEUE pt__wl_queue    /* a queue's getters or putters: wake the next one */
#define PT__WL_SEM pt__wl_sem        /* a unit of a struct pt_loop_sem */
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
#if PT_LOOP_CALLBACKS
    if (l->timeouts && pt__timeout_passed(l, t)) {
        g->value.i = PT_ETIMEDOUT;
        pt__wlist_give(l, w);
        return 0;
    }
#else
    (void)l, (void)t, (void)w;
#endif
    return 1;
}
#endif

/* ---- the debug mode's bookkeeping (loop/debug.h) ----------------------- */

#if PT_DEBUG
/* What times a resume: microseconds in a uint32_t that wraps (a resume of
 * more than 71 minutes is misread), from the best clock there is. */
#ifndef PT_DEBUG_NOW_US
#if defined(PT__PORT_POSIX_CLOCK)
#define PT_DEBUG_NOW_US() ((uint32_t)pt__posix_now_us())
#elif defined(PT__PORT_NO_CLOCK)
#define PT_DEBUG_NOW_US() ((uint32_t)0) /* no clock: no resume is slow */
#else
#if PT_TICKS_PER_SEC > 1000000
#error "PT_DEBUG: ticks shorter than a microsecond: define PT_DEBUG_NOW_US() (loop/config.h)"
#endif
/* (Exact across the tick counter's wrap: a product by a whole number.) */
#define PT_DEBUG_NOW_US() ((uint32_t)PT_PORT_NOW() * (uint32_t)(1000000u / PT_TICKS_PER_SEC))
#endif
#endif

/* t, spawned on l, joins l's live tasks (at the head: O(1)). */
static inline void pt__debug_link(struct pt_loop *l, struct pt_task *t) {
    t->dnext = l->tasks;
    t->dprev = &l->tasks;
    if (l->tasks)
        l->tasks->dprev = &t->dnext;
    l->tasks = t;
}

/* t has finished: out of its loop's live tasks. */
static inline void pt__debug_unlink(struct pt_task *t) {
    *t->dprev = t->dnext;
    if (t->dnext)
        t->dnext->dprev = t->dprev;
    t->dnext = NULL;
    t->dprev = NULL;
}

/* Resume t, as the task l runs (which pt__park checks), timed if a
 * slow-resume callback is set: one longer than l->slow_us is reported
 * once it has returned. */
static inline char pt__debug_resume(struct pt_loop *l, struct pt_task *t) {
    char status;
    int timed = l->slow_fn != NULL;
    uint32_t start = timed ? PT_DEBUG_NOW_US() : 0u, us;
    l->running = t;
    status = t->fn(l, t);
    l->running = NULL;
    if (timed && l->slow_fn) { /* (set before and after: it may clear it) */
        us = (uint32_t)(PT_DEBUG_NOW_US() - start);
        if (us > l->slow_us)
            l->slow_fn(l->slow_arg, l, t, us);
    }
    return status;
}
#endif

/* ---- tasks ------------------------------------------------------------- */

/* (next, and a list build's deadline, are set where they are used.) */
static inline void pt__task_init(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    pt_gen_init(&t->gen);
    t->fn = fn;
    t->spawned = PT__SPAWNED(t);
    t->awaiter = NULL;
    pt__timer_init(t);
#if PT_DEBUG
    t->loop = l;
    t->line = 0;
#else
    (void)l;
#endif
}

/* Nonzero while t is alive: spawned (on any loop) and not finished, which
 * the mark alone says (a spawn sets it, pt__task_done clears it). Memory
 * that is no live task does not hold it, whatever its other bytes say, so
 * a task needs no zeroing before its first spawn. */
static inline int pt__task_alive(const struct pt_task *t) {
    return t->spawned == PT__SPAWNED(t);
}

/*
 * Start t running fn at the next iteration. It keeps pt_loop_run going
 * until it finishes. t is any memory the size of a task (it need not be
 * zeroed) or a task that has finished; a task still alive (on any loop) is
 * refused with PT_EBUSY (nothing changes). PT_EFULL if 65,535 (or 2^32-1) tasks are
 * already live. PT_ECONFIG if l was initialised by a file built with other
 * options, or never (loop/agree.h).
 */
static inline int pt_spawn(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    pt_index_t live = (pt_index_t)(l->live + 1u);
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (pt__task_alive(t))
        return PT_EBUSY;
    if (live == 0)
        return PT_EFULL;
    pt__task_init(l, t, fn);
    l->live = live;
#if PT_DEBUG
    pt__debug_link(l, t);
#endif
    pt__ready_push(l, t);
    return PT_OK;
}

#if PT_LOOP_BACKGROUND
/* Start a background task: it does not keep pt_loop_run going, and is
 * cancelled (its cleanup run) once nothing else is left. It cannot be
 * joined or put in a group. PT_EBUSY and PT_ECONFIG as for pt_spawn. (Not
 * with PT_LOOP_BACKGROUND 0.) */
static inline int pt_spawn_background(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (pt__task_alive(t))
        return PT_EBUSY;
    pt__task_init(l, t, fn);
    t->gen.aux |= PT__T_BACKGROUND;
    t->awaiter = l->background;
    l->background = t;
#if PT_DEBUG
    pt__debug_link(l, t);
#endif
    pt__ready_push(l, t);
    return PT_OK;
}
#endif

/* Final status of t: 0 while alive, else PT_ENDED (returned), PT_EXITED
 * (failed: PT_TASK_FAIL / PT_EXIT) or PT_CLOSED (cancelled). */
static inline char pt_task_status(const struct pt_task *t) {
    return pt_gen_status(&t->gen);
}

/* Nonzero once t has finished. */
static inline int pt_task_done(const struct pt_task *t) {
    return pt_gen_done(&t->gen);
}

/* What a waiter on t (which has finished) is told: PT_OK, PT_EFAILED or
 * PT_ECANCELLED, looked up by its final state (a table is the least code),
 * which is PT__GEN_DONE and its status alone (PT_EXITED, PT_ENDED or
 * PT_CLOSED: pt/gen.h sets no other bit with it), so it needs no mask. */
static inline int pt__task_outcome(const struct pt_task *t) {
    /* By status, from PT_EXITED: PT_EXITED, PT_ENDED, PT_CLOSED. */
    static const signed char outcome[PT_CLOSED - PT_EXITED + 1] = {PT_EFAILED, 0, PT_ECANCELLED};
    return outcome[t->gen.state - (PT__GEN_DONE | PT_EXITED)];
}

#if PT_LOOP_CALLBACKS
/* Drop a pending callback handle's task h (loop/call.h); 0 if it was not
 * pending. A timer is taken out; one in the ready queue is
 * marked and dropped at its turn (the run in progress may hold it). */
PT__OUTLINE int pt__handle_drop(struct pt_loop *l, struct pt_task *h) {
    if ((h->gen.state & PT__GEN_CLOSING) || !(h->gen.aux & (PT__T_QUEUED | PT__T_PARKED)))
        return 0;
    if (h->gen.aux & PT__T_PARKED) {
        pt__timer_remove(l, h);
        h->gen.aux &= (unsigned char)~PT__T_PARKED;
    } else {
        h->gen.state |= PT__GEN_CLOSING;
    }
    if (!(h->gen.aux & PT__T_BACKGROUND))
        l->live--;
    return 1;
}

/* Close the timeout scopes t has open (loop/timeout.h): all of them if g
 * is NULL (it is cancelled or has finished), else those its generator g
 * opened (g's cleanup section begins). */
PT__OUTLINE void pt__timeouts_drop(struct pt_loop *l, const struct pt_task *t,
                                   const struct pt_gen *g) {
    struct pt_timeout **p = &l->timeouts;
    while (*p) {
        struct pt_timeout *sc = *p;
        if (sc->task == t && (!g || sc->gen == g)) {
            *p = sc->next;
            sc->state = 0; /* PT__TO_CLOSED */
            (void)pt__handle_drop(l, &sc->timer.task);
        } else {
            p = &sc->next;
        }
    }
}
#endif

/* What pt__cancel's one subtraction needs (a negative size if not). */
typedef char pt__cancel_results[PT_EBUSY == PT_EINVAL - 1 ? 1 : -1];

/* pt_cancel(l, t) with `mark` 0. Otherwise t's timer has come due (t is
 * parked, its timer taken out: pt__timer_due): its wait takes `mark`
 * (PT__T_TIMED_OUT, or PT__T_PARKED, which it has, for a sleep that ends
 * PT_OK) and ends from there as a cancelled one does: one copy of that
 * for the cancel and the timer. */
PT__OUTLINE int pt__cancel(struct pt_loop *l, struct pt_task *t, unsigned char mark) {
    int rc = PT_EINVAL; /* PT_OK once one task is cancelled */
#if PT_DEBUG
    if (t->loop != l) /* (what it joins is on its loop: PT_JOIN checks) */
        return PT_EINVAL;
#endif
    /* Down a chain of joins without recursion: t joins u, which joins ...
     * (each one joined is alive: queued, parked or running). */
    for (;;) {
        if (!mark) { /* cancel t */
            unsigned char s = t->gen.state;
            if (s >= PT__GEN_CLEANUP || (s & PT__GEN_CLOSING)) /* finishing */
                return rc;
            /* Running, or never spawned. Running: PT_EBUSY, which is
             * PT_EINVAL less 1 (pt__cancel_results); in a chain, PT_OK stays. */
            if (!(t->gen.aux & (PT__T_QUEUED | PT__T_PARKED)))
                return s >= PT__GEN_RUNNING ? rc - (rc < 0) : rc;
            rc = PT_OK;
            t->gen.state = (unsigned char)(s | PT__GEN_CLOSING);
            if (s < PT__GEN_RUNNING) /* not started: it ends in its turn */
                return rc;
            /* To its cleanup when it runs (inside PT_AWAIT, the await passes
             * the close on): here rather than at that turn, as nothing else
             * sets it. */
            if (!(s & PT__GEN_AWAITING))
                PT_LC_SET_EXIT(t->gen.lc);
#if PT_LOOP_CALLBACKS
            if (l->timeouts)
                pt__timeouts_drop(l, t, NULL);
#endif
#if PT_LOOP_SYNC
            /* A PT__WAIT_RETRY wait's timer, which a wake-up leaves, goes (as
             * any wait's that ends now: not a join's or a group's). */
            if (pt__wait_kind(t) <= PT__WAIT_RETRY)
                pt__timer_remove(l, t);
#endif
            if (!(t->gen.aux & PT__T_PARKED)) { /* queued: woken, or after a yield */
#if PT_LOOP_SYNC
                /* Granted by a list: it gives that back at its turn, as
                 * asyncio's waiter does (pt__run_special), after what is
                 * queued before it. Kept till then where a body leaves
                 * nothing: `ret`, untouched until the body ends, which a
                 * cancelled task does only after that turn. */
                if (pt__wait_kind(t) == PT__WAIT_LIST)
                    t->gen.ret.p = t->gen.value.p;
#endif
                t->gen.value.i = PT_ECANCELLED;
                return rc;
            }
            mark = PT__T_CANCELLED; /* parked: this wait ends cancelled */
        }
        t->gen.aux |= mark;
        if (pt__wait_kind(t) < PT__WAIT_JOIN) {
            pt__wake(l, t, PT_OK); /* (PT_OK unless a mark says otherwise) */
            return rc;
        }
#if PT_LOOP_GROUPS
        if (pt__wait_kind(t) != PT__WAIT_JOIN) { /* a group's: the group's to end */
            struct pt_group *g = (struct pt_group *)t->gen.value.p;
            g->event(l, g, NULL);
            return rc;
        }
#endif
        t = (struct pt_task *)t->gen.value.p; /* cancel the task it joins */
        mark = 0;
    }
}

/*
 * Cancel t: whatever it waits on (timer, descriptor, list) is dropped now,
 * and at the next iteration its PT_CLEANUP section runs (exactly once;
 * inside a sub-coroutine, innermost first; a sub-coroutine's cleanup that
 * was waiting sees that wait end with PT_ECANCELLED). Whoever awaits t then
 * sees PT_ECANCELLED, unless its cleanup finishes it with a result of its
 * own (PT_TASK_RETURN, PT_TASK_FAIL), as a `return` in a `finally` ends an
 * asyncio task that was cancelled. Its open timeout scopes are closed.
 *  - Not started yet: it finishes without running when its turn in the
 *    ready queue comes; until then pt_task_done is 0 (as asyncio's done()).
 *  - Queued with a wait that had ended: that wait ends PT_ECANCELLED too,
 *    and what a waiter list had granted it (a unit, the lock) goes on to
 *    the next waiter.
 *  - Joining a task (PT_JOIN) or waiting for a group (PT_GROUP_WAIT): what
 *    it waits for is cancelled too, and t goes on waiting until that has
 *    finished, then runs its cleanup, as a cancelled asyncio task awaiting
 *    another does. PT_JOIN_SHIELD and PT_GROUP_NEXT leave what they wait
 *    for alone: t stops waiting at once.
 * Returns PT_OK; PT_EINVAL if t was never spawned, has finished, is being
 * cancelled already or is in its cleanup section (it is finishing: the
 * cleanup goes on and its result stands), and with PT_DEBUG if t was last
 * spawned on another loop (without it, that is not checked); PT_EBUSY if
 * t is the running task (use PT_EXIT).
 */
static inline int pt_cancel(struct pt_loop *l, struct pt_task *t) {
    if (!pt__task_alive(t)) /* never spawned, or finished: its flags mean nothing */
        return PT_EINVAL;
    return pt__cancel(l, t, 0);
}

/* The error of a finished task: its error value if it failed (PT_EFAILED
 * if it gave none), PT_ECANCELLED if it was cancelled; 0 if it returned or
 * is still alive. */
static inline int pt_task_error(const struct pt_task *t) {
    int outcome;
    if (!pt_task_done(t)) /* (the status bits do not say an outcome yet) */
        return 0;
    outcome = pt__task_outcome(t);
    if (outcome == PT_EFAILED && t->gen.value.i)
        return (int)t->gen.value.i;
    return outcome;
}

/* t has finished: tell whoever awaits it. */
PT__SLOW void pt__task_done(struct pt_loop *l, struct pt_task *t) {
    t->spawned = 0; /* its memory may be reused: only a live task keeps the mark */
#if PT_DEBUG
    pt__debug_unlink(t);
#endif
#if PT_LOOP_CALLBACKS
    if (l->timeouts) /* left without PT_TIMEOUT_END */
        pt__timeouts_drop(l, t, NULL);
#endif
#if PT_LOOP_BACKGROUND
    if (t->gen.aux & PT__T_BACKGROUND) { /* unlink it */
        struct pt_task **p = &l->background;
        /* It is there: only this takes it out. The link is at the task's
         * own address (awaiter, the first member): a walk that GCC does
         * with one register fewer than through ->awaiter. */
        while (*p != t)
            p = (struct pt_task **)(void *)*p;
        *p = t->awaiter;
        return;
    }
#endif
    l->live--;
#if PT_LOOP_GROUPS
    if (t->gen.aux & PT__T_IN_GROUP) {
        struct pt_group *g = (struct pt_group *)(void *)t->awaiter;
        g->event(l, g, t);
        return;
    }
#endif
    /* Its joiners, in the order they joined: each wake-up takes the
     * first out of the list. */
    while (t->awaiter)
        pt__wake(l, t->awaiter, pt__task_outcome(t));
}

/*
 * PT_LOOP_ON_RUN(loop, task) and PT_LOOP_AFTER_RUN(loop, task): if defined
 * before the loop's headers are included, called just before the loop
 * resumes a task and just after that resume returns (the task may have
 * finished then), e.g. to record which task ran when (the demos'
 * --timeline) or to time each run. By default, nothing.
 */
#ifndef PT_LOOP_ON_RUN
#define PT_LOOP_ON_RUN(loop, task) ((void)0)
#endif
#ifndef PT_LOOP_AFTER_RUN
#define PT_LOOP_AFTER_RUN(loop, task) ((void)0)
#endif

#if PT_LOOP_CALLBACKS
/* A callback's handle (loop/call.h): what it calls. */
typedef void (*pt_callback_fn)(struct pt_loop *loop, void *arg);

/* Run the callback of handle h, unless it was cancelled; either way the
 * handle is free again (the callback may schedule it anew). */
static inline void pt__call_run(struct pt_loop *l, struct pt_task *h) {
    unsigned char cancelled = h->gen.state & PT__GEN_CLOSING;
    h->gen.state = PT__T_CALLBACK;
    if (cancelled)
        return;
    if (!(h->gen.aux & PT__T_BACKGROUND))
        l->live--;
    ((pt_callback_fn)(void (*)(void))h->fn)(l, h->gen.ret.p);
}
#endif

/* The head of the ready queue is a callback handle, or a cancelled task
 * (PT__RUN_SPECIAL): what pt__run_next does with it before (or instead
 * of) resuming it. PT_CLOSED: a task that ends here, never run (its
 * waiters are told); PT__RUN_DONE: a callback, run; 0: a task to resume. */
#define PT__RUN_DONE ((char)-1)
PT__SLOW char pt__run_special(struct pt_loop *l, struct pt_task *t) {
    unsigned char s;
#if PT_LOOP_CALLBACKS
    if (t->gen.state & PT__T_CALLBACK) {
        pt__call_run(l, t);
        return PT__RUN_DONE;
    }
#else
    (void)l;
#endif
    /* pt__gen_enter_slow's work, for what can come here: a task cancelled
     * before it ran ends now; one cancelled after it started resumes, and
     * goes to its cleanup (pt__cancel has set its local continuation to
     * the exit point, unless inside PT_AWAIT: the await passes the close
     * on). (A finished one never comes: only a live task is queued.) */
    s = t->gen.state;
    if (!(s & PT__GEN_LIFE)) { /* (its value is still pt_gen_init's: PT_NONE) */
        t->gen.state = PT__GEN_DONE | PT_CLOSED;
        return PT_CLOSED;
    }
#if PT_LOOP_SYNC
    /* Cancelled in its body once a list had granted it something: its turn
     * has come, so that goes on to the next waiter now (pt__cancel). */
    if (t->gen.ret.p && pt__gen_life(s) == PT__GEN_RUNNING) {
        struct pt__wlist *w = (struct pt__wlist *)t->gen.ret.p;
        t->gen.ret = PT_NONE;
        pt__wlist_give(l, w);
    }
#endif
    return 0;
}

/* Nonzero for a state that pt__run_next leaves to pt__run_special: a
 * callback, or a task cancelled (before it ran: it ends there; after it
 * started: a grant it had goes on; in its cleanup: nothing). (A task body
 * does not test its state: PT_TASK_BEGIN trusts this one test.) */
#if PT_LOOP_CALLBACKS
#define PT__RUN_SPECIAL(s) ((s) & (PT__T_CALLBACK | PT__GEN_CLOSING))
#else
#define PT__RUN_SPECIAL(s) ((s)&PT__GEN_CLOSING)
#endif

/* A task's PT_WAIT_UNTIL found its condition false (PT_WAITING, not
 * parked): the loop cannot see what it waits for, so it is queued to poll
 * again. On the virtual clock it is counted for pt__polls_check, unless
 * its resume point is the start again (PT_RESTART: the body runs anew, as
 * after a yield). Off the path of a yield or a park, which return
 * PT_YIELDED. */
PT__SLOW void pt__polled(struct pt_loop *l, struct pt_task *t) {
    if (t->gen.aux & PT__T_PARKED)
        return;
    pt__ready_push(l, t);
#if PT_LOOP_STALL_CHECK
    if ((l->flags & PT__L_VIRTUAL) && t->gen.lc)
        l->polls++;
#endif
}

/* What a task body's stopping macros return (pt/thread.h's PT__STOP): a
 * yield or a wait the loop parked, and a PT_WAIT_UNTIL to poll again.
 * Anything else is a finish, or a body that left by a plain `return`:
 * pt__task_left. */
#define PT__TASK_YIELDED ((char)(PT__STATUS_MARK | PT_YIELDED))
#define PT__TASK_WAITING ((char)(PT__STATUS_MARK | PT_WAITING))
typedef char pt__mark_bits[PT__STATUS_MARK > PT_CLOSED && (PT__STATUS_MARK | PT_YIELDED) == 127 &&
                                   PT_GEN_ELOST == PT_ELOST
                               ? 1
                               : -1];

/* t's body returned without a stop: nonzero if t has finished (its
 * status said so), else it left by a plain `return` (its own, or a
 * sub-coroutine's it awaits) and fails with PT_ERETURN, after its cleanup
 * section, which runs at its next turn as a cancelled task's does
 * (returning in the cleanup section itself, it finishes now): it is never
 * entered again where it returned, and its joiners are told. */
PT__SLOW int pt__task_left(struct pt_loop *l, struct pt_task *t) {
    struct pt_gen *g = &t->gen;
    unsigned char s = g->state;
    if (s >= PT__GEN_DONE)
        return 1;
    g->ret = pt_int(PT_ERETURN);
    s = (unsigned char)((s & ~(PT__GEN_STATUS | PT__GEN_CLOSING | PT__GEN_AWAITING)) |
                        PT__GEN_FAILED);
    g->state = s;
    if (pt__gen_life(s) != PT__GEN_RUNNING) { /* in its cleanup, or not begun */
        (void)pt__gen_finish(g);
        return 1;
    }
    PT_LC_SET_EXIT(g->lc);
    if (!(g->aux & PT__T_PARKED))
        pt__ready_push(l, t);
    return 0;
}

/* Take the head of the ready queue and run it once. */
static inline struct pt_task *pt__run_next(struct pt_loop *l) {
    struct pt_task *t = l->ready.head;
    char status = 0;
    l->ready.head = t->next;
    /* Not queued, and no longer marked as woken (see pt__waitq_wake_one). */
    t->gen.aux &= (unsigned char)~(PT__T_QUEUED | PT__T_WAIT_MASK);
    if (PT__RUN_SPECIAL(t->gen.state)) { /* (one test: rare) */
        status = pt__run_special(l, t);
        if (status == PT__RUN_DONE)
            return t;
    }
    if (!status) {
        PT_LOOP_ON_RUN(l, t);
#if PT_DEBUG
        status = pt__debug_resume(l, t);
#else
        status = t->fn(l, t);
#endif
        PT_LOOP_AFTER_RUN(l, t);
    }
    if (PT__RARE(status != PT__TASK_YIELDED)) { /* (a yield, or a wait the loop parked) */
        if (status == PT__TASK_WAITING)         /* a PT_WAIT_UNTIL to poll again */
            pt__polled(l, t);
        else if (pt__task_left(l, t)) /* finished, or left by a plain return */
            pt__task_done(l, t);
    } else if (!(t->gen.aux & PT__T_PARKED)) {
        pt__ready_push(l, t); /* a yield */
    }
    return t;
}

/* ---- writing a task ---------------------------------------------------- */

/*
 * A task body:
 *
 *   static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
 *       struct my_worker *w = (struct my_worker *)task; // task first member
 *       PT_TASK_BEGIN(loop, task);
 *       PT_SLEEP(PT_MS(100));
 *       PT_TASK_RETURN(pt_int(42));
 *       PT_TASK_CLEANUP();        // optional: runs once, also on cancel
 *       PT_TASK_END();
 *   }
 *
 * A coroutine that a task awaits with PT_AWAIT and that waits on the loop
 * itself is written between PT_SUB_BEGIN(loop, task, g) and PT_SUB_END(),
 * where g is its own struct pt_gen. Inside both, the wait macros below
 * (PT_SLEEP, PT_JOIN, ...) may be used; locals do not survive them.
 * PT_WAIT_UNTIL(&task->gen, cond) (pt/thread.h) works too, but the loop
 * cannot see cond: it polls it every iteration, which spins on a real
 * clock; on the virtual clock time does not pass meanwhile, and a run
 * with only such polls left ends PT_ESTALL (pt_loop_run). Wait on an event
 * (loop/sync.h) set where cond changes instead.
 * Only the loop calls a task's function (pt__run_next, which tests the
 * state the body's PT_GEN_BEGIN would); a sub-coroutine tests its own.
 * The statuses of both bodies' stops are marked (pt/thread.h's PT__STOP):
 * a body that leaves by a plain `return` (not PT_TASK_RETURN) fails with
 * PT_ERETURN, and so does a task awaiting a sub-coroutine that does; a
 * generator of pt/gen.h's own (PT_GEN_BEGIN) that a task awaits must not
 * stop: its stops are not marked. With the switch back end, a resume point
 * inside a switch of the body's own fails it with PT_ELOST.
 */
#define PT__TASK_LOCALS(loop, task, g)                                                             \
    {                                                                                              \
        struct pt_loop *const pt__loop = (loop);                                                   \
        struct pt_task *const pt__task = (task);                                                   \
        struct pt_gen *const pt__gen = (g);                                                        \
        PT__DIAG_PUSH PT__DIAG_OFF_SHADOW enum { pt__status_mark = PT__STATUS_MARK };              \
        PT__DIAG_POP(void) pt__loop;                                                               \
        (void)pt__task;

#define PT_TASK_BEGIN(loop, task)                                                                  \
    PT__TASK_LOCALS((loop), (task), &(task)->gen) PT__GEN_BEGIN_ENTERED(pt__gen)
#define PT_TASK_END()                                                                              \
    PT_GEN_END(pt__gen)                                                                            \
    }
#define PT_SUB_BEGIN(loop, task, g) PT__TASK_LOCALS((loop), (task), (g)) PT_GEN_BEGIN(pt__gen)
#define PT_SUB_END() PT_TASK_END()

#if PT_LOOP_CALLBACKS
/* The cleanup section begins: the timeout scopes this generator left open
 * (by a return, an exit or a failure) close, as `async with` blocks do when
 * an exception leaves them. */
#define PT_TASK_CLEANUP()                                                                          \
    PT_CLEANUP(pt__gen);                                                                           \
    if (pt__loop->timeouts)                                                                        \
    pt__timeouts_drop(pt__loop, pt__task, pt__gen)
#else
#define PT_TASK_CLEANUP() PT_CLEANUP(pt__gen)
#endif
/* Finish with a result (a joiner sees PT_OK and reads it from the task). */
#define PT_TASK_RETURN(v) PT_RETURN(pt__gen, (v))
/* Finish as failed with an error value, which stays the task's result in
 * gen.value (a joiner sees PT_EFAILED), whatever the cleanup waits on. */
#define PT_TASK_FAIL(err) PT_FAIL(pt__gen, (err))
/* void PT_TASK_YIELD(void)
 * Go to the back of the ready queue (asyncio's sleep(0)). */
#define PT_TASK_YIELD()                                                                            \
    do {                                                                                           \
        PT__NOTE_LINE();                                                                           \
        PT_YIELD(pt__gen);                                                                         \
    } while (0)

/* The loop, inside a task body. */
#define PT_LOOP() (pt__loop)
/* int PT_WAIT_RESULT(void): inside a task or PT_SUB body, the result of its
 * last wait (the one way to read it). */
#define PT_WAIT_RESULT() ((int)pt__gen->value.i)

/* Internal: stop here until the loop wakes the task. */
#define PT__PARKED_HERE()                                                                          \
    do {                                                                                           \
        PT__NOTE_LINE();                                                                           \
        PT_YIELD(pt__gen);                                                                         \
    } while (0)

/* Internal: the debug mode notes the source line of each stop of the
 * loop's (pt_task_describe's `line`: where a lost resume point was). */
#if PT_DEBUG
#define PT__NOTE_LINE() (pt__task->line = __LINE__)
#else
#define PT__NOTE_LINE() ((void)0)
#endif

/* Internal: park if `start` (an expression that parks) says so. */
#define PT__PARK_IF(start)                                                                         \
    do {                                                                                           \
        if (start)                                                                                 \
            PT__PARKED_HERE();                                                                     \
    } while (0)

/* ---- sleep and join ---------------------------------------------------- */

static inline int pt__sleep_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                  pt_time_t ticks) {
    /* (PT_FOREVER is a long sleep here: pt_time_after cuts it to the maximum) */
    return pt__park(l, t, g, ticks, PT__WAIT_NONE, NULL);
}

/*
 * void PT_SLEEP(pt_time_t ticks) then PT_WAIT_RESULT() -> PT_OK | PT_EFULL
 * Sleep `ticks`: the task runs again once the loop's clock has advanced by
 * at least that much, never sooner. PT_SLEEP(0) waits for the next
 * iteration's timers (after its poll), unlike PT_TASK_YIELD, which only
 * goes to the back of the ready queue. (On a POSIX host the clock counts
 * microseconds: with select a sleep ends some tens of microseconds after
 * its length, the kernel's timer slack; poll and epoll wait in whole
 * milliseconds, so up to 1 ms after.) The wait result is PT_OK, or
 * PT_EFULL if the timers were full (then it did not sleep).
 */
#define PT_SLEEP(ticks) PT__PARK_IF(pt__sleep_start(pt__loop, pt__task, pt__gen, (ticks)))

/* What pt__join_start's one test needs (a negative size if not). */
typedef char pt__join_bits[PT__T_QUEUED == 1 && PT__T_PARKED == 2 &&
                                   (PT__T_BACKGROUND | PT__T_IN_GROUP) == 0x0C
                               ? 1
                               : -1];

static inline int pt__join_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                 struct pt_task *other, pt_time_t timeout, unsigned kind) {
    int rc = PT_EBUSY;
    if (pt__not_running(l, t, g))
        return 0;
#if PT_DEBUG
    if (other->loop != l) { /* another loop's (or never spawned) */
        g->value.i = PT_EINVAL;
        return 0;
    }
#endif
    if (pt_task_done(other))
        rc = pt__task_outcome(other);
    else if (!pt__task_alive(other)) /* never spawned (a finished one is done) */
        rc = PT_EINVAL;
    /* Joinable: queued or parked (alive but neither: t itself, running),
     * not background, not in a group. One test of those four bits, the
     * low ones (pt__join_bits): 1 to 3, queued, parked, or parked with a
     * cancel's mark. */
    else if ((unsigned char)(other->gen.aux << 4) - 0x10u < 0x30u) {
        struct pt_task **p = &other->awaiter;
        if (!pt__park(l, t, g, timeout, kind, other))
            return 0;
        while (*p) /* the last of its joiners */
            p = &(*p)->next;
        *p = t;
        t->next = NULL;
        return 1;
    }
    g->value.i = rc;
    return 0;
}

/*
 * void PT_JOIN(struct pt_task *other, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_EFAILED | PT_ECANCELLED | PT_ETIMEDOUT | PT_EBUSY |
 * PT_EINVAL | PT_EFULL Wait until task `other` finishes; its result is then other->gen.value. Any
 * number of tasks may join one task (they chain through their own `next` while they wait: a task
 * does not grow); they wake in the order they joined. The wait result: PT_OK (it returned),
 * PT_EFAILED (it failed), PT_ECANCELLED (it was cancelled), PT_ETIMEDOUT (the timeout passed: it
 * was cancelled, or left to finish if it was in its cleanup section already, and this returns once
 * its cleanup has run), PT_EBUSY (it is a background task, a group's member, or this task),
 * PT_EINVAL (it was never spawned; with PT_DEBUG also: it was last spawned on another loop, which
 * is not checked without it), PT_EFULL. A timeout of 0 waits one iteration, then cancels `other`
 * unless it has finished (asyncio's wait_for(t, 0)). A cancel of this task cancels `other` too (see
 * pt_cancel).
 */
#define PT_JOIN(other, timeout)                                                                    \
    PT__PARK_IF(pt__join_start(pt__loop, pt__task, pt__gen, (other), (timeout), PT__WAIT_JOIN))

/* Internal: finish the running task with error err as an exception that
 * reaches the top of a task does: PT_ECANCELLED (a CancelledError) ends it
 * cancelled (PT_CLOSED: not a failure, for a group), any other error ends
 * it failed with err. Its cleanup section runs first. */
#define PT__TASK_RAISE(err)                                                                        \
    do {                                                                                           \
        int pt__err = (err);                                                                       \
        if (pt__err == PT_ECANCELLED) {                                                            \
            pt__gen->state |= PT__GEN_CLOSING;                                                     \
            PT_EXIT(pt__gen);                                                                      \
        }                                                                                          \
        PT_TASK_FAIL(pt_int(pt__err));                                                             \
    } while (0)

/*
 * void PT_JOIN_RAISE(struct pt_task *other, pt_time_t timeout)
 * PT_JOIN, then, unless it ended PT_OK, the error goes up as an exception
 * through `await task`: this task fails with it (pt_task_error(other) for
 * PT_EFAILED), or, if it is PT_ECANCELLED (other was cancelled), ends
 * cancelled itself (PT_CLOSED), as a CancelledError does.
 */
#define PT_JOIN_RAISE(other, timeout)                                                              \
    do {                                                                                           \
        PT_JOIN((other), (timeout));                                                               \
        if (PT_WAIT_RESULT() != PT_OK)                                                             \
            PT__TASK_RAISE(PT_WAIT_RESULT() == PT_EFAILED ? pt_task_error(other)                   \
                                                          : PT_WAIT_RESULT());                     \
    } while (0)

/*
 * void PT_JOIN_SHIELD(struct pt_task *other, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> as PT_JOIN
 * PT_JOIN through asyncio's shield(): neither the timeout nor a cancel of
 * this task touches `other`. The timeout ends the wait at once with
 * PT_ETIMEDOUT, a cancel with PT_ECANCELLED, and `other` runs on (join it
 * again later for its result).
 */
#define PT_JOIN_SHIELD(other, timeout)                                                             \
    PT__PARK_IF(pt__join_start(pt__loop, pt__task, pt__gen, (other), (timeout), PT__WAIT_SHIELD))

/* ---- one iteration ------------------------------------------------------ */

/* A timer is due (or a timeout scope's deadline passed, with `sleep`
 * PT_ETIMEDOUT): a sleep ends with `sleep`, any other wait is marked timed
 * out; a join then cancels what it waits for and goes on waiting for that
 * to finish, a group's wait is the group's (struct pt_group's event), the
 * others end now. (pt__cancel does it: a sleep ending PT_ETIMEDOUT is
 * marked timed out too, which pt__wake reads so.) */
static inline void pt__timer_due(struct pt_loop *l, struct pt_task *t, int sleep) {
    (void)pt__cancel(
        l, t, sleep != PT_OK || pt__wait_kind(t) != PT__WAIT_NONE ? PT__T_TIMED_OUT : PT__T_PARKED);
}

/* Wake the due timers; with no timer, the clock is not read (the first
 * test is false). */
static inline void pt__expire_timers(struct pt_loop *l) {
    struct pt_task *t;
    while ((t = pt__timer_first(l)) != NULL &&
           !pt_time_before(pt_loop_now(l), pt__timer_first_when(l))) {
        pt__timer_remove(l, t);
        if (t->gen.aux & PT__T_PARKED) /* else one kept past its wait's wake */
            pt__timer_due(l, t, PT_OK);
    }
}

#if PT_LOOP_IO
static inline int pt__io_pending(const struct pt_loop *l) {
    return pt__backend_waits(&l->io) != 0;
}
#else
#define pt__io_pending(l) 0
#endif

/* Block for at most `timeout` ticks (PT_FOREVER: no limit) waiting for
 * descriptors, or idle through the port. Returns how many woke. (l->now
 * was read this iteration if the timeout is neither 0 nor PT_FOREVER:
 * only then does pt__io_wait use it.) */
static inline int pt__poll(struct pt_loop *l, pt_time_t timeout) {
#if PT_LOOP_IO
    int rc = pt__io_wait(l, timeout); /* (loop/iowait.h) */
    int woke = pt__io_dispatch(l);
    pt__io_waited(l, rc, woke, timeout);
    return woke;
#else
    (void)l;
    if (timeout)
        PT_PORT_IDLE(timeout);
    return 0;
#endif
}

/* Nonzero if anything could still happen (ready tasks, timers, waits). */
static inline int pt__pending(const struct pt_loop *l) {
    return l->ready.head != NULL || l->ntimers != 0 || pt__io_pending(l);
}

/* Nonzero if pt_loop_run* should go on: not stopped (nor stalled: a
 * stall stops too), and anything pending. */
static inline int pt__go_on(const struct pt_loop *l) {
    return !(l->flags & PT__L_STOP) && pt__pending(l);
}

#if PT_LOOP_STALL_CHECK
/* The factor of pt__polls_check's hash (2^32 / the golden ratio). */
#define PT__POLLS_MIX ((uintptr_t)0x9E3779B1u)

/* At the start of an iteration on the virtual clock: were the tasks that
 * the last one queued all polls of waits the loop cannot see (pt__polled)?
 * If so, and they are the same tasks at the same points as the iteration
 * before queued, nothing ran in between but those polls (a wake or a
 * spawn would have queued something else, or, in the poll phase, clears
 * the mark: pt__loop_poll), so nothing but a timer can change what they
 * read: time jumps to the next timer, as it would have passed on a real
 * clock while they spun; with no timer and no descriptor wait either,
 * the run stalls (PT__L_STALL: pt_loop_run's PT_ESTALL). Two iterations,
 * not one: a task's first arrival at its PT_WAIT_UNTIL may have changed
 * what a poller already read. A flag set outside the loop (an interrupt,
 * another thread) is not seen. */
PT__SLOW void pt__polls_check(struct pt_loop *l) {
    pt_index_t polls = l->polls, n = 0;
    uintptr_t h = 0;
    struct pt_task *t;
    l->polls = 0;
    for (t = polls ? l->ready.head : NULL; t && n <= polls; t = t->next) {
        n++;
        h = (h ^ (uintptr_t)(void *)t) * PT__POLLS_MIX + (uintptr_t)t->gen.lc;
    }
    if (!polls || n != polls) { /* no poll, or something else queued */
        l->polls_seen = 0;
    } else if (l->polls_seen != n || l->polls_hash != h) { /* the first such iteration */
        l->polls_seen = n;
        l->polls_hash = h;
    } else {
        l->polls_seen = 0;
        if (l->ntimers) {
            pt_time_t first = pt__timer_first_when(l);
            if (pt_time_before(l->now, first))
                l->now = first;
        } else if (!pt__io_pending(l) && !(l->flags & PT__L_STOP)) {
            l->flags |= PT__L_STOP | PT__L_STALL; /* a stop, with its reason */
        }
    }
}
#endif

/* Steps 1 to 3 of an iteration, for a loop with timers, descriptor waits
 * or the virtual clock (without any of them there is nothing to do). */
PT__SLOW void pt__loop_poll(struct pt_loop *l, int may_block) {
#if PT_LOOP_STALL_CHECK
    struct pt_task *tail;
    if (l->flags & PT__L_VIRTUAL)
        pt__polls_check(l);
    tail = l->ready.tail; /* (read only if polls_seen: then the queue holds tasks) */
#endif
#if !PT_LOOP_IO
    /* No descriptors; a timer or the virtual clock (pt__iterate calls only
     * then). With a timer: idle (or, on the virtual clock, jump) until it
     * is due, if it is not yet and nothing is ready; what the poll below
     * does when it wakes nothing. */
    if (may_block && !l->ready.head && !(l->flags & PT__L_STOP) && l->ntimers) {
        pt_time_t first = pt__timer_first_when(l), now = pt_loop_now(l);
        if (pt_time_before(now, first)) {
            if (l->flags & PT__L_VIRTUAL) {
                l->now = first;
            } else {
                (void)pt__poll(l, (pt_time_t)(first - now));
                pt__clock_passed(l);
            }
        }
    }
#else
    pt_time_t timeout = 0;
    int virt = l->flags & PT__L_VIRTUAL, timed = 0; /* timed: a timer to wait for */

    if (may_block && !l->ready.head && !(l->flags & PT__L_STOP)) {
        timeout = PT_FOREVER;
        if (l->ntimers) {
            timeout = pt_time_until(pt_loop_now(l), pt__timer_first_when(l));
            timed = timeout != 0;
        }
    }
    /* Poll (or idle) if there is a timer to wait for or a descriptor; with
     * neither, return rather than block forever. On the virtual clock, poll
     * without waiting; if nothing happened, time jumps to the timer instead. */
    if (timed || pt__io_pending(l) || virt) {
        int woke = pt__poll(l, virt ? 0 : timeout);
        if (!virt) /* time passed while it polled */
            pt__clock_passed(l);
        else if (!woke && timed)
            l->now = pt__timer_first_when(l); /* (nothing woke: the same timer) */
    }
#endif

    pt__expire_timers(l);
#if PT_LOOP_STALL_CHECK
    if (l->polls_seen && l->ready.tail != tail) /* woken: runs with the polls */
        l->polls_seen = 0;
#endif
}

/* One iteration (see the top of this file), in a run that holds
 * PT__L_RUNNING: time has passed (the clock is read when first needed), the
 * poll and the timers if there are any, then what is ready now runs now. */
PT__HOT void pt__iterate(struct pt_loop *l, int may_block) {
    struct pt_task *last;
    pt__clock_passed(l); /* (nothing on the virtual clock) */
#if PT_LOOP_IO
    if (l->ntimers || pt__io_pending(l) || (l->flags & PT__L_VIRTUAL))
#else
    /* (without a timer or the virtual clock there is nothing to do) */
    if (l->ntimers || (l->flags & PT__L_VIRTUAL))
#endif
        pt__loop_poll(l, may_block);
    if (!l->ready.head)
        return;
    last = l->ready.tail; /* the snapshot */
    while (pt__run_next(l) != last)
        ;
}

/* pt_loop_run_once's iteration, which the runs also call when optimising
 * for size. */
PT__OUTLINE int pt__loop_once(struct pt_loop *l, int may_block) {
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (l->flags & PT__L_RUNNING)
        return PT_EBUSY;
    l->flags |= PT__L_RUNNING;
    pt__iterate(l, may_block);
    l->flags &= (unsigned char)~PT__L_RUNNING;
    return PT_OK;
}

/* A run starts, or pt_loop_run_once's iteration ends: what the caller
 * does in between may change what a poll reads (pt__polls_check compares
 * two iterations of one run), and a stall is only a run's to report. */
#if PT_LOOP_STALL_CHECK
static inline void pt__polls_forget(struct pt_loop *l) {
    l->polls_seen = 0;
    if (l->flags & PT__L_STALL)
        l->flags &= (unsigned char)~(PT__L_STOP | PT__L_STALL);
}
#else
#define pt__polls_forget(l) ((void)(l)) /* (no stall is ever found) */
#endif

/*
 * One iteration. If `may_block` is 0 it never blocks: for a firmware
 * super-loop or for running inside another loop. PT_OK, or PT_EBUSY (and
 * nothing done) if called from one of the loop's own tasks: a loop runs
 * one iteration at a time; PT_ECONFIG (nothing done) as for pt_spawn.
 */
PT__OUTLINE int pt_loop_run_once(struct pt_loop *l, int may_block) {
    int rc;
    if (l->flags & PT__L_RUNNING) /* (a run's own state: left alone) */
        return pt__loop_once(l, may_block);
    pt__polls_forget(l);
    rc = pt__loop_once(l, may_block);
    pt__polls_forget(l);
    return rc;
}

/* How pt_loop_run and pt_loop_run_until go round: holding PT__L_RUNNING
 * for the whole run, the iteration inlined (a call and the flag's set and
 * clear per iteration cost about what a resume does); optimising for
 * size, through pt_loop_run_once: one copy of the iteration. */
#if defined(__OPTIMIZE_SIZE__)
#define PT__RUN_HOLD(l) ((void)0)
#define PT__RUN_ONE(l) ((void)pt__loop_once((l), 1))
#define PT__RUN_LET_GO(l) ((l)->flags &= (unsigned char)~(PT__L_STOP | PT__L_STALL))
#else
#define PT__RUN_HOLD(l) ((l)->flags |= PT__L_RUNNING)
#define PT__RUN_ONE(l) pt__iterate((l), 1)
#define PT__RUN_LET_GO(l) ((l)->flags &= (unsigned char)~(PT__L_STOP | PT__L_STALL | PT__L_RUNNING))
#endif

/*
 * Run until task t has finished; returns its status (pt_task_status), or
 * 0 if pt_loop_stop was called or nothing could make progress any more
 * (t waits on something nobody will signal; on the virtual clock, also
 * when only waits the loop cannot see are left, where pt_loop_run returns
 * PT_ESTALL), or if called from one of the loop's own tasks or on a loop
 * initialised with other options (PT_ECONFIG of pt_spawn: loop/agree.h);
 * then it runs nothing.
 */
PT__RUNS char pt_loop_run_until(struct pt_loop *l, struct pt_task *t) {
    if ((l->flags & PT__L_RUNNING) || !pt__agrees(l))
        return 0;
    pt__polls_forget(l);
    PT__RUN_HOLD(l);
    while (!pt_task_done(t) && pt__go_on(l))
        PT__RUN_ONE(l);
    PT__RUN_LET_GO(l);
    return pt_task_status(t);
}

#if PT_LOOP_BACKGROUND
/* No task left: cancel the background tasks, newest first (those new
 * too; those in their cleanups say PT_EINVAL, and go on). 0 if there is
 * nothing to run then: none, or all in their cleanups, left waiting
 * (PT_EBUSY). */
PT__SLOW int pt__cancel_background(struct pt_loop *l) {
    struct pt_task *b;
    if (!l->background)
        return 0;
    for (b = l->background; b; b = b->awaiter)
        (void)pt_cancel(l, b);
    return pt__pending(l);
}
#endif

/*
 * Run until no task is left but background ones, then cancel those (newest
 * first) and run until their cleanups are done; what the cleanups start is
 * run to its end (a task) or cancelled in turn (a background task).
 * Returns PT_OK; PT_EBUSY if tasks (background ones in their cleanup
 * included) are left waiting on something nobody will signal, or if called
 * from one of the loop's own tasks (then it runs nothing); PT_EINVAL if
 * stopped; PT_ESTALL on the virtual clock when the tasks left only poll
 * waits the loop cannot see (PT_WAIT_UNTIL on a flag), with no timer and
 * no descriptor wait that could change them (the tasks stay as they are;
 * a later run goes on); PT_ECONFIG (nothing run) as for pt_spawn.
 */
PT__RUNS int pt_loop_run(struct pt_loop *l) {
    int rc = PT_OK;
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (l->flags & PT__L_RUNNING)
        return PT_EBUSY;
    pt__polls_forget(l);
    PT__RUN_HOLD(l);
#if PT_LOOP_BACKGROUND
    /* (A background task parked without a deadline is pending nothing,
     * and the usual case: with no task left, go on to cancel it too.) */
    while (!(l->flags & PT__L_STOP) && (pt__pending(l) || (!l->live && l->background))) {
        if (PT__RARE(!l->live) && !pt__cancel_background(l))
            break;
        PT__RUN_ONE(l);
    }
#else
    while (pt__go_on(l) && l->live)
        PT__RUN_ONE(l);
#endif
    if (l->flags & PT__L_STALL)
        rc = PT_ESTALL;
    else if (l->flags & PT__L_STOP)
        rc = PT_EINVAL;
#if PT_LOOP_BACKGROUND
    else if (l->live || l->background)
#else
    else if (l->live)
#endif
        rc = PT_EBUSY;
    PT__RUN_LET_GO(l);
    return rc;
}

#endif /* PT_LOOP_CORE_H */
