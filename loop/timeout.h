/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/timeout.h - timeout scopes: one deadline over every wait between a
 * begin and an end, as `async with asyncio.timeout(d):` gives.
 *
 *   struct job { struct pt_task task; struct pt_timeout scope; ... };
 *
 *   PT_TIMEOUT_BEGIN(&j->scope, PT_MS(500));
 *   PT_SOCK_READ(...);              // each wait inside ends, at the latest,
 *   PT_QUEUE_GET(...);              // when the deadline passes
 *   PT_TIMEOUT_END(&j->scope);
 *   if (PT_WAIT_RESULT() == PT_ETIMEDOUT) ...   // the deadline passed
 *
 * When the deadline passes, the wait in progress ends as if its own
 * timeout had passed (PT_ETIMEDOUT; a PT_JOIN or PT_GROUP_WAIT cancels what
 * it waits for and ends once that has finished), and every later wait in
 * the scope ends at once with PT_ETIMEDOUT, so the body runs to the end
 * without stopping again (or leaves early: test the result). A wait whose
 * condition holds at once (a set event, a free unit) does not stop and so
 * is not cut, as in asyncio.
 *
 * Scopes nest: an inner deadline never extends an outer one (both run).
 * PT_TIMEOUT_END's result is PT_ETIMEDOUT if this scope's deadline passed,
 * PT_ECANCELLED if only an enclosing scope's did (go on to its end, as
 * asyncio's CancelledError goes on up to the timeout that raised it),
 * PT_EFULL if the scope could not set its timer (the timers were full:
 * then every wait in it ended at once), else PT_OK.
 *
 * Rules: the struct is zeroed before its first use and must outlive the
 * scope (keep it in the task's state, not in a local). A scope left another
 * way than its PT_TIMEOUT_END (PT_TASK_RETURN, PT_EXIT, PT_TASK_FAIL, one of
 * the *_RAISE macros) closes when the cleanup section of the generator that
 * opened it begins (PT_TASK_CLEANUP: the task's, or a sub-coroutine's), or
 * when the task finishes; one left by `break` or `goto` stays open until
 * then. A cancel closes all of the task's scopes: its cleanup section
 * waits without them.
 * Each scope holds a timer while it is open (one of pt_loop_init's cap).
 */
#ifndef PT_LOOP_TIMEOUT_H
#define PT_LOOP_TIMEOUT_H

#include "call.h"

/* Internal: arm sc's timer for `when`; 0 if the timers are full. */
static inline int pt__timeout_arm(struct pt_loop *l, struct pt_timeout *sc, pt_time_t when);

/* The scope's timer: its deadline has passed, unless it is a timer that
 * was due for a scope since closed, reused before it ran: then it is set
 * again for the new deadline. */
static inline void pt__timeout_fire(struct pt_loop *l, void *arg) {
    struct pt_timeout *sc = (struct pt_timeout *)arg;
    struct pt_task *t = sc->task;
    if (sc->state != PT__TO_OPEN)
        return;
    if (pt_time_before(pt_loop_now(l), PT__HANDLE_WHEN(&sc->timer))) {
        if (!pt__timeout_arm(l, sc, PT__HANDLE_WHEN(&sc->timer)))
            sc->state = PT__TO_FULL;
        return;
    }
    sc->state = PT__TO_PASSED;
    if (pt__parked(t)) { /* cut the wait in progress */
        pt__timer_remove(l, t);
        pt__timer_due(l, t, PT_ETIMEDOUT);
    }
}

/* A deadline that has passed already (a scope of 0 ticks) is acted on from
 * the back of the ready queue, as asyncio.timeout's call_soon: before a
 * task that a grant wakes later in this iteration runs, so that such a
 * grant goes on to the next waiter (pt__granted), not after it. */
static inline int pt__timeout_arm(struct pt_loop *l, struct pt_timeout *sc, pt_time_t when) {
    struct pt_task *h = &sc->timer.task;
    if (pt__queued(h)) { /* due for a closed scope: it sets itself again */
        h->gen.state = PT__T_CALLBACK;
        PT__HANDLE_WHEN(&sc->timer) = when;
        return 1;
    }
    if (pt_time_before(pt_loop_now(l), when)) {
        if (pt_call_at(l, &sc->timer, when, pt__timeout_fire, sc) != PT_OK)
            return 0;
    } else {
        if (pt_call_soon(l, &sc->timer, pt__timeout_fire, sc) != PT_OK)
            return 0;
        PT__HANDLE_WHEN(&sc->timer) = when;
    }
    pt__set_flag(h, PT__T_BACKGROUND); /* it keeps no loop going */
    l->live--;
    return 1;
}

/* Internal: open scope sc for task t, `ticks` from now (PT_FOREVER: no
 * deadline, as timeout(None)), or at `when` if `at`. */
static inline void pt__timeout_begin(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                     struct pt_timeout *sc, pt_time_t ticks, int at) {
    sc->task = t;
    sc->gen = g;
    sc->state = PT__TO_OPEN;
    if ((at || ticks != PT_FOREVER) &&
        !pt__timeout_arm(l, sc, at ? ticks : pt_time_after(pt_loop_now(l), ticks)))
        sc->state = PT__TO_FULL;
    sc->next = l->timeouts;
    l->timeouts = sc;
}

/* Internal: close scope sc; its result (see the top of the file). */
static inline int pt__timeout_end(struct pt_loop *l, struct pt_timeout *sc) {
    struct pt_timeout **p = &l->timeouts;
    unsigned char state = sc->state;
    int outer;
    while (*p && *p != sc)
        p = &(*p)->next;
    if (!*p) /* not open: closed by a cancel, or never begun */
        return PT_EINVAL;
    *p = sc->next;
    sc->state = PT__TO_CLOSED;
    (void)pt__handle_drop(l, &sc->timer.task);
    outer = pt__timeout_passed(l, sc->task);
    if (state == PT__TO_PASSED)
        return PT_ETIMEDOUT;
    if (state == PT__TO_FULL)
        return PT_EFULL;
    return outer ? PT_ECANCELLED : PT_OK;
}

/*
 * void PT_TIMEOUT_BEGIN(struct pt_timeout *sc, pt_time_t ticks)
 * void PT_TIMEOUT_BEGIN_AT(struct pt_timeout *sc, pt_time_t when)
 * Open a timeout scope for the running task: its deadline is `ticks` from
 * now (PT_FOREVER: none), or the loop time `when`. Not a wait.
 */
#define PT_TIMEOUT_BEGIN(sc, ticks) pt__timeout_begin(pt__loop, pt__task, pt__gen, (sc), (ticks), 0)
#define PT_TIMEOUT_BEGIN_AT(sc, when)                                                              \
    pt__timeout_begin(pt__loop, pt__task, pt__gen, (sc), (when), 1)

/*
 * intptr_t PT_TIMEOUT_END(struct pt_timeout *sc)
 *   -> PT_OK | PT_ETIMEDOUT | PT_ECANCELLED | PT_EFULL | PT_EINVAL
 * Close the scope; the result (also in PT_WAIT_RESULT()) says whether its
 * deadline passed (see the top of the file). PT_EINVAL: sc is not open.
 */
#define PT_TIMEOUT_END(sc) (pt__gen->value.i = pt__timeout_end(pt__loop, (sc)))

/* Nonzero once sc's deadline has passed (while it is open). */
static inline int pt_timeout_expired(const struct pt_timeout *sc) {
    return sc->state == PT__TO_PASSED;
}

#endif /* PT_LOOP_TIMEOUT_H */
