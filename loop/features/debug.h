/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/features/debug.h - the debug mode's side of the scheduler's hooks
 * (PT_CONFIG_DEBUG; loop/sched/hooks.h): each loop's list of live tasks, and the
 * resume that notes the running task and times it. What a program calls
 * (pt_loop_walk, pt_task_describe, ...) is loop/debug.h.
 */
#ifndef PT_LOOP_FEATURES_DEBUG_H
#define PT_LOOP_FEATURES_DEBUG_H

#include "../sched/hooks.h"

#if PT_CONFIG_DEBUG
/* What times a resume: microseconds in a uint32_t that wraps (a resume of
 * more than 71 minutes is misread), from the best clock there is. */
#ifndef PT_CONFIG_DEBUG_NOW_US
#if defined(PT__PORT_POSIX_CLOCK)
#define PT_CONFIG_DEBUG_NOW_US() ((uint32_t)pt__posix_now_us())
#elif defined(PT__PORT_NO_CLOCK)
#define PT_CONFIG_DEBUG_NOW_US() ((uint32_t)0) /* no clock: no resume is slow */
#else
#if PT_CONFIG_TICKS_PER_SEC > 1000000
#error                                                                                             \
    "PT_CONFIG_DEBUG: ticks shorter than a microsecond: define PT_CONFIG_DEBUG_NOW_US() (loop/config.h)"
#endif
/* (Exact across the tick counter's wrap: a product by a whole number.) */
#define PT_CONFIG_DEBUG_NOW_US()                                                                   \
    ((uint32_t)PT_CONFIG_PORT_NOW() * (uint32_t)(1000000u / PT_CONFIG_TICKS_PER_SEC))
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
    uint32_t start = timed ? PT_CONFIG_DEBUG_NOW_US() : 0u, us;
    l->running = t;
    status = t->fn(l, t);
    l->running = NULL;
    if (timed && l->slow_fn) { /* (set before and after: it may clear it) */
        us = (uint32_t)(PT_CONFIG_DEBUG_NOW_US() - start);
        if (us > l->slow_us)
            l->slow_fn(l->slow_arg, l, t, us);
    }
    return status;
}
#endif

#endif /* PT_LOOP_FEATURES_DEBUG_H */
