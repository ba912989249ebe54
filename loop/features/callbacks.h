/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/features/callbacks.h - callbacks' and timeout scopes' side of the
 * scheduler's hooks (PT_CONFIG_CALLBACKS; loop/sched/hooks.h): a handle
 * dropped, a handle's turn, and the scopes a task has open. What a
 * program calls is loop/call.h and loop/timeout.h.
 */
#ifndef PT_LOOP_FEATURES_CALLBACKS_H
#define PT_LOOP_FEATURES_CALLBACKS_H

#include "../sched/hooks.h"

#if PT_CONFIG_CALLBACKS
/* A callback's handle (loop/call.h): what it calls. */
typedef void (*pt_callback_fn)(struct pt_loop *loop, void *arg);

/* Nonzero if t is inside a timeout scope whose deadline has passed (or
 * that could not set its timer): loop/timeout.h. */
static inline int pt__timeout_passed(const struct pt_loop *l, const struct pt_task *t) {
    const struct pt_timeout *sc;
    for (sc = l->timeouts; sc; sc = sc->next)
        if (sc->task == t && sc->state != PT__TO_OPEN)
            return 1;
    return 0;
}

/* Drop a pending callback handle's task h (loop/call.h); 0 if it was not
 * pending. A timer is taken out; one in the ready queue is
 * marked and dropped at its turn (the run in progress may hold it). */
PT__OUTLINE int pt__handle_drop(struct pt_loop *l, struct pt_task *h) {
    if ((h->gen.state & PT__GEN_CLOSING) || !pt__queued_or_parked(h))
        return 0;
    if (pt__parked(h)) {
        pt__timer_remove(l, h);
        pt__set_place(h, PT__PLACE_NONE);
    } else {
        h->gen.state |= PT__GEN_CLOSING;
    }
    if (!pt__flag(h, PT__T_BACKGROUND))
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
            sc->state = PT__TO_CLOSED;
            (void)pt__handle_drop(l, &sc->timer.task);
        } else {
            p = &sc->next;
        }
    }
}

/* Run the callback of handle h, unless it was cancelled; either way the
 * handle is free again (the callback may schedule it anew). */
static inline void pt__call_run(struct pt_loop *l, struct pt_task *h) {
    unsigned char cancelled = h->gen.state & PT__GEN_CLOSING;
    h->gen.state = PT__T_CALLBACK;
    if (cancelled)
        return;
    if (!pt__flag(h, PT__T_BACKGROUND))
        l->live--;
    ((pt_callback_fn)(void (*)(void))h->fn)(l, h->gen.ret.p);
}
#endif

#endif /* PT_LOOP_FEATURES_CALLBACKS_H */
