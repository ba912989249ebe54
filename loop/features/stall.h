/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/features/stall.h - the stall check's side of the scheduler's hooks
 * (PT_CONFIG_STALL_CHECK; loop/sched/hooks.h): on the virtual clock, what
 * tells a run that only waits the loop cannot see (PT_WAIT_UNTIL polled
 * again) are left, so that time jumps to the next timer or, with none,
 * the run ends PT_ESTALL.
 */
#ifndef PT_LOOP_FEATURES_STALL_H
#define PT_LOOP_FEATURES_STALL_H

#include "../sched/hooks.h"
#include "../sched/run.h"

#if PT_CONFIG_STALL_CHECK
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

/* A run starts, or pt_loop_run_once's iteration ends: what the caller
 * does in between may change what a poll reads (pt__polls_check compares
 * two iterations of one run), and a stall is only a run's to report. */
static inline void pt__polls_forget(struct pt_loop *l) {
    l->polls_seen = 0;
    if (l->flags & PT__L_STALL)
        l->flags &= (unsigned char)~(PT__L_STOP | PT__L_STALL);
}
#endif

#endif /* PT_LOOP_FEATURES_STALL_H */
