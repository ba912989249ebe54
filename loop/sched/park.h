/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/park.h - the scheduler's second layer: parking a task on what
 * it waits for (its timer, a descriptor, a waiter list, another task, a
 * group), waking it, and cancelling it. Every wait starts in pt__park and
 * ends in pt__wake; a cancel or a timer that comes due marks the wait and
 * ends it there too (pt__cancel).
 */
#ifndef PT_LOOP_SCHED_PARK_H
#define PT_LOOP_SCHED_PARK_H

#include "hooks.h"
#include "queue.h"

/* Mark t (in generator g) parked on obj of kind `kind` (not timed out;
 * not cancelled: no task that parks has a cancel to deliver). */
static inline void pt__mark_parked(struct pt_task *t, struct pt_gen *g, unsigned kind, void *obj) {
    pt__set_place_clearing(t, PT__PLACE_PARKED + kind, PT__T_TIMED_OUT);
    /* Both slots: PT_AWAIT copies the sub-coroutine's value up on return. */
    t->gen.value.p = obj;
    g->value.p = obj;
}

/*
 * Park t (running in generator g: the task's own, or a sub-coroutine's)
 * with a deadline `timeout` ticks away unless PT_FOREVER, on `obj` of kind
 * `kind`. Returns 1 if parked; 0 if not, with the wait's result set:
 * PT_EFULL if the timers are full, PT_ETIMEDOUT inside a timeout scope
 * whose deadline has passed; with PT_CONFIG_DEBUG, PT_EINVAL if t is not the task
 * l is resuming (a wait outside a task, or in another task's body). (Every
 * wait starts here: one copy.)
 */
PT__OUTLINE int pt__park(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, pt_time_t timeout,
                         unsigned kind, void *obj) {
    if (pt__not_running(l, t, g)) /* parking it would link a task that runs on */
        return 0;
    if (pt__hook_scope_passed(l, t)) { /* in a scope whose deadline passed */
        g->value.i = PT_ETIMEDOUT;
        return 0;
    }
    if (timeout != PT_FOREVER || kind == PT__WAIT_NONE) { /* a sleep always has one */
        if (pt__timer_add(l, t, pt_time_after(pt_loop_now(l), timeout)) != PT_OK) {
            g->value.i = PT_EFULL;
            return 0;
        }
    }
    pt__mark_parked(t, g, kind, obj);
    return 1;
}

/* Take a parked t off its timer and whatever it waits on (its place and
 * flags are pt__wake's to change); but a PT__WAIT_RETRY wait keeps its timer (a
 * wake-up by its list: see there; its other ends have taken it off), and
 * PT__T_TIMED_OUT stays (PT_COND_WAIT's). */
static inline void pt__unpark(struct pt_loop *l, struct pt_task *t, void *obj) {
    unsigned kind = pt__wait_kind(t);
#if PT_CONFIG_IO
    if (kind == PT__WAIT_IO)
        pt__backend_unwatch(&l->io, (struct pt_io *)obj);
#endif
    /* One walk for a waiter list and for joiners: the list starts at obj
     * either way (a struct pt_waitq's head, a task's up.joiners: each the
     * first member). (A group's owner: the group lets it go before it
     * wakes it.) */
    if (kind >= PT__WAIT_LIST && kind <= PT__WAIT_JOIN) {
        struct pt_task *prev = pt__unlink((struct pt_task **)obj, t);
        if (pt__hook_on_list(kind) && !t->next) /* it was the list's tail */
            ((struct pt_waitq *)obj)->tail = prev;
    }
    if (!pt__hook_keeps_timer(t, kind))
        pt__timer_remove(l, t); /* (last: only l and t are kept across the call) */
}

/* Wake a parked t: its wait ends with `result`, or PT_ECANCELLED if a
 * cancel came during it, else PT_ETIMEDOUT if its deadline passed (a
 * join or a group wait then waited on for what that cancelled); it runs
 * next iteration. A t not parked is only queued (pt__ready_push). */
PT__OUTLINE void pt__wake(struct pt_loop *l, struct pt_task *t, int result) {
    if (pt__parked(t)) {
        void *obj = t->gen.value.p;
#if PT_CONFIG_PREFETCH > 0 /* (loop/config.h: the task's state, before its turn) */
        uintptr_t at;
        for (at = 64; at < PT_CONFIG_PREFETCH; at += 64)
            __builtin_prefetch((const void *)((uintptr_t)t + at), 1);
#endif
        if (pt__flag(t, PT__T_CANCELLED)) /* (a cancel wins over a deadline) */
            result = PT_ECANCELLED;
        else if (pt__flag(t, PT__T_TIMED_OUT))
            result = PT_ETIMEDOUT;
        t->gen.value.i = result; /* (first: one value fewer to keep across the calls) */
        pt__unpark(l, t, obj);
    }
    pt__waitq_push(&l->ready, t);
    /* A cancel of its wait is delivered (a task not parked has none). */
    pt__set_place_clearing(t, PT__PLACE_QUEUED, PT__T_CANCELLED);
}

#if PT_CONFIG_IO
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
 * it runs its place is PT__PLACE_QUEUED_GRANTED: if it is cancelled before it
 * could act on the wake-up, what it was granted goes on to the next
 * waiter at its turn (pt__cancel, pt__hook_cancelled_turn), and if a
 * timeout scope of its passes meanwhile, when it resumes (pt__granted):
 * nothing is lost. A PT__WAIT_RETRY waiter keeps its timer (pt__unpark):
 * one that comes due before it runs is dropped (pt__expire_timers), and
 * its wait reads that as its deadline passed.
 */
static inline struct pt_task *pt__waitq_wake_one(struct pt_loop *l, struct pt_waitq *q) {
    struct pt_task *t = q->head;
    if (!t)
        return NULL;
    pt__wake(l, t, PT_OK); /* (one wake path; then the marks above) */
    t->gen.value.p = q;
    pt__set_place(t, PT__PLACE_QUEUED_GRANTED);
    return t;
}

/* pt_task_cancel(l, t) with `mark` 0. Otherwise a parked t's wait ends from
 * outside with `mark` set in its flags: PT__T_TIMED_OUT (its timer has
 * come due and is taken out: pt__timer_due) or PT__T_CANCELLED (its group
 * cancels the wait: loop/group.h). A join then cancels the task it joins,
 * a group's wait goes to the group, any other ends now: one copy of that
 * for a cancel and a timer. */
PT__OUTLINE int pt__cancel(struct pt_loop *l, struct pt_task *t, unsigned char mark) {
    int rc = PT_EINVAL;         /* PT_OK once one task is cancelled */
    if (pt__hook_foreign(l, t)) /* (what it joins is on its loop: PT_JOIN checks) */
        return PT_EINVAL;
    /* Down a chain of joins without recursion: t joins u, which joins ...
     * (each one joined is alive: queued, parked or running). */
    for (;;) {
        if (!mark) { /* cancel t */
            unsigned char s = t->gen.state;
            if (s >= PT__GEN_CLEANUP || (s & PT__GEN_CLOSING)) /* finishing */
                return rc;
            if (!pt__queued_or_parked(t)) {
                /* Running (PT_EBUSY, unless it ends a chain of joins whose
                 * first was cancelled: PT_OK), or never spawned. */
                if (s >= PT__GEN_RUNNING && rc != PT_OK)
                    return PT_EBUSY;
                return rc;
            }
            rc = PT_OK;
            t->gen.state = (unsigned char)(s | PT__GEN_CLOSING);
            if (s < PT__GEN_RUNNING) /* not started: it ends in its turn */
                return rc;
            /* To its cleanup when it runs (inside PT_AWAIT, the await passes
             * the close on): here rather than at that turn, as nothing else
             * sets it. */
            if (!(s & PT__GEN_AWAITING))
                PT_LC_SET_EXIT(t->gen.lc);
            pt__hook_cancel(l, t);
            if (!pt__parked(t)) { /* queued: woken, or after a yield */
                /* Granted by a list: it gives that back at its turn, as
                 * asyncio's waiter does (pt__hook_cancelled_turn), after
                 * what is queued before it; till then gen.value names the
                 * list. */
                if (pt__hook_granted(t)) {
                    pt__set_flag(t, PT__T_CANCELLED);
                    pt__timer_remove(l, t); /* the timer its wait kept */
                } else {
                    t->gen.value.i = PT_ECANCELLED;
                }
                return rc;
            }
            mark = PT__T_CANCELLED; /* parked: this wait ends cancelled */
        }
        pt__set_flag(t, mark);
        if (pt__wait_kind(t) < PT__WAIT_JOIN) {
            pt__wake(l, t, PT_OK); /* (PT_OK unless a mark says otherwise) */
            return rc;
        }
        if (pt__hook_group_wait(l, t)) /* a group's: the group's to end */
            return rc;
        t = (struct pt_task *)t->gen.value.p; /* cancel the task it joins */
        mark = 0;
    }
}

#endif /* PT_LOOP_SCHED_PARK_H */
