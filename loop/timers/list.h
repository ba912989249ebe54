/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/timers/list.h - PT_TIMERS_LIST: the timers in a list sorted by
 * deadline, linked through the tasks (tnext), circular: the loop holds the
 * latest, whose tnext is the earliest. No array and the least code, for a
 * microcontroller's few timers:
 *   - setting a timer walks from the earliest to its place, after the
 *     equal deadlines (the order they were set: FIFO with no counter); one
 *     not earlier than the latest goes at the end at once, which is where
 *     a loop's timers mostly go (the same timeout, set as time goes on);
 *   - taking one out walks from the latest to the one before it: the
 *     earliest (a timer that fires) at once, another (a wait that ended
 *     early) in as many steps as timers come before it.
 * So O(n) for a timer set out of order or ended early, O(1) otherwise.
 */
#ifndef PT_LOOP_TIMERS_LIST_H
#define PT_LOOP_TIMERS_LIST_H

#include <stddef.h>

#include "../types.h"

static inline void pt__timers_init(struct pt_loop *l, struct pt_timer_slot *heap) {
    (void)heap;
    l->timers = NULL;
}

/* t has no timer (a task or handle set up anew). */
static inline void pt__timer_init(struct pt_task *t) {
    t->tnext = NULL;
}

static inline int pt__timer_pending(const struct pt_task *t) {
    return t->tnext != NULL;
}

/* The earliest timer: the one after the latest. */
static inline struct pt_task *pt__timer_first(const struct pt_loop *l) {
    struct pt_task *first;
    if (!l->timers)
        return NULL;
    first = l->timers->tnext;
#if defined(__GNUC__)
    if (!first) /* (never: the list is a circle) */
        __builtin_unreachable();
#endif
    return first;
}

/* When the earliest fires (there is one); when t's fires (it has one). */
static inline pt_time_t pt__timer_first_when(const struct pt_loop *l) {
    return l->timers->tnext->deadline;
}
static inline pt_time_t pt__timer_when(const struct pt_loop *l, const struct pt_task *t) {
    (void)l;
    return t->deadline;
}

static inline int pt__timer_add(struct pt_loop *l, struct pt_task *t, pt_time_t when) {
    struct pt_task *p = l->timers;
    if (l->ntimers >= l->timers_cap)
        return PT_EFULL;
    t->deadline = when;
    l->ntimers++;
    if (!p) /* alone: the end case below makes it a circle of one, as t->tnext is NULL */
        p = t;
    if (pt_time_before(t->deadline, p->deadline)) { /* before the latest: find its place */
        while (!pt_time_before(t->deadline, p->tnext->deadline))
            p = p->tnext;
    } else { /* at the end: the new latest */
        l->timers = t;
    }
    t->tnext = p->tnext;
    p->tnext = t;
    return PT_OK;
}

/* Take t out, if it has a timer. */
PT__OUTLINE void pt__timer_remove(struct pt_loop *l, struct pt_task *t) {
    struct pt_task *p = l->timers;
    if (!t->tnext)
        return;
    l->ntimers--;
    while (p->tnext != t) /* the one before it, around the circle */
        p = p->tnext;
    p->tnext = t->tnext;
    if (l->timers == t) /* the latest: the one before it is now, if any */
        l->timers = p == t ? NULL : p;
    t->tnext = NULL;
}

#endif /* PT_LOOP_TIMERS_LIST_H */
