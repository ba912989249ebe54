/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/hooks.h - the seam between the scheduler (loop/sched/) and the
 * features that hook into it (loop/features/: the debug mode, timeout
 * scopes and callbacks, waiter lists, task groups, background tasks, the
 * stall check). The scheduler calls only the hooks below; each calls the
 * enabled features' code under its option and is nothing (0, or no code)
 * without them, so that no function of the scheduler tests a feature's
 * option. (The readiness back end, PT_CONFIG_IO, and the clock's options are
 * the scheduler's own.)
 *
 * Each hook: when the scheduler calls it, what it is told, what it may do.
 *
 *   pt__hook_loop_init(l)          pt_loop_init: the features' fields of
 *                                  loop l start empty.
 *   pt__hook_spawn(l, t)           t is spawned on l (initialised, not
 *                                  queued yet): the debug mode notes its
 *                                  loop and links it into l's live tasks.
 *   pt__not_running(l, t, g)       the first test of every wait of t (in
 *                                  generator g): with PT_CONFIG_DEBUG, nonzero, the
 *                                  wait's result PT_EINVAL in g, if t is not
 *                                  the task l is resuming. Changes nothing
 *                                  else. (Waits outside loop/sched/ call it
 *                                  too.)
 *   PT__NOTE_LINE()                a task body stops at one of the loop's
 *                                  stops (in the body: pt__task in scope):
 *                                  the debug mode notes the source line
 *                                  (pt_task_describe's `line`: where a lost
 *                                  resume point was).
 *   pt__hook_foreign(l, t)         pt_task_cancel of t, PT_JOIN of t: with
 *                                  PT_CONFIG_DEBUG, nonzero if t was last spawned
 *                                  on another loop (refused: PT_EINVAL).
 *   pt__hook_scope_passed(l, t)    t is about to park, or a grant of its
 *                                  resumes: nonzero if a timeout scope of
 *                                  t's has passed (the wait ends
 *                                  PT_ETIMEDOUT). Changes nothing.
 *   pt__hook_cancel(l, t)          t, in its body, is being cancelled
 *                                  (marked closing, its wait not ended
 *                                  yet): its timeout scopes close. Must
 *                                  not queue or wake t.
 *   pt__hook_on_list(kind)         pt__unpark: nonzero if a wait of `kind`
 *                                  is on a waiter list, whose tail it
 *                                  fixes (PT__WAIT_LIST, PT__WAIT_RETRY;
 *                                  never without PT_CONFIG_SYNC).
 *   pt__hook_keeps_timer(t, kind)  pt__unpark: nonzero if t's wait of
 *                                  `kind` keeps its timer: a PT__WAIT_RETRY
 *                                  wait woken by its list (loop/sync.h),
 *                                  not cancelled.
 *   pt__hook_granted(t)            pt__cancel of queued t: nonzero if a
 *                                  waiter list woke it with a grant
 *                                  (PT__PLACE_QUEUED_GRANTED), which it
 *                                  then gives back at its turn (marked
 *                                  PT__T_CANCELLED till then:
 *                                  pt__hook_cancelled_turn); the timer
 *                                  its wait kept goes now.
 *   pt__hook_group_wait(l, t)      t's parked wait was marked timed out or
 *                                  cancelled: nonzero if it is a group's
 *                                  wait (PT__WAIT_NEXT, PT__WAIT_GROUP),
 *                                  handed to the group, which ends it or
 *                                  cancels the members (struct pt_group's
 *                                  event).
 *   pt__hook_cleanup(l, t, g)      PT_TASK_CLEANUP: generator g of t enters
 *                                  its cleanup section: the timeout scopes
 *                                  g opened close.
 *   pt__hook_task_done(l, t)       t has finished (no longer alive): the
 *                                  debug mode unlinks it, its timeout
 *                                  scopes close. Must not wake anyone.
 *   pt__hook_background_done(l, t) then: nonzero if t is a background task,
 *                                  now out of l's list (nobody awaits it).
 *   pt__hook_member_done(l, t)     then: nonzero if t is a group's member,
 *                                  its group told (the group, not the
 *                                  scheduler, wakes who waits for it).
 *   pt__hook_resume(l, t)          resume t's body, returning its status:
 *                                  with PT_CONFIG_DEBUG as the task l is running,
 *                                  timed for the slow-resume callback.
 *   PT__RUN_SPECIAL(state)         nonzero for a state the ready queue's
 *                                  turn hands to pt__run_special: a task
 *                                  cancelled, and with PT_CONFIG_CALLBACKS a
 *                                  callback handle.
 *   pt__hook_callback(l, t)        there: nonzero if t is a callback handle,
 *                                  run now (or dropped if cancelled).
 *   pt__hook_cancelled_turn(l, t)  there, for a cancelled task about to
 *                                  resume: if it was cancelled while
 *                                  queued with what a waiter list granted
 *                                  it (PT__T_CANCELLED), its wait ends
 *                                  PT_ECANCELLED (the flag cleared) and
 *                                  the grant goes on to the list's next
 *                                  waiter.
 *   pt__hook_polled(l, t)          a PT_WAIT_UNTIL of t found its condition
 *                                  false and t was queued to poll it again:
 *                                  the stall check counts it.
 *   pt__hook_poll_begin(l)         an iteration's poll phase begins (before
 *                                  the poll): the stall check looks at the
 *                                  last iteration; returns what
 *   pt__hook_poll_end(l, tail)     is told when the phase ends (the due
 *                                  timers woken): whether anything was
 *                                  woken in it.
 *   pt__hook_run_edge(l)           a run starts, or pt_loop_run_once's
 *                                  iteration ends: the stall check forgets
 *                                  what it saw.
 *   pt__hook_background_live(l)    nonzero while background tasks are alive
 *                                  (pt_loop_run goes on for them).
 *   pt__hook_no_task_left(l)       pt_loop_run has no task left but
 *                                  background ones: it cancels them;
 *                                  nonzero if anything is pending then.
 *
 * The features' functions the hooks call are declared here and defined in
 * loop/features/, which loop/core.h includes after the scheduler's layers.
 */
#ifndef PT_LOOP_SCHED_HOOKS_H
#define PT_LOOP_SCHED_HOOKS_H

#include "../timers.h"
#include "../types.h"

/* ---- the debug mode (loop/features/debug.h) ------------------------------ */

#if PT_CONFIG_DEBUG
static inline void pt__debug_link(struct pt_loop *l, struct pt_task *t);
static inline void pt__debug_unlink(struct pt_task *t);
static inline char pt__debug_resume(struct pt_loop *l, struct pt_task *t);

static inline int pt__not_running(const struct pt_loop *l, const struct pt_task *t,
                                  struct pt_gen *g) {
    if (t == l->running)
        return 0;
    g->value.i = PT_EINVAL;
    return 1;
}
#define pt__hook_foreign(l, t) ((t)->loop != (l))
#define PT__NOTE_LINE() (pt__task->line = __LINE__)
#define pt__hook_resume(l, t) pt__debug_resume((l), (t))
#else
#define pt__not_running(l, t, g) 0
#define pt__hook_foreign(l, t) 0
#define PT__NOTE_LINE() ((void)0)
#define pt__hook_resume(l, t) ((t)->fn((l), (t)))
#endif

static inline void pt__hook_spawn(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_DEBUG
    t->loop = l;
    t->line = 0;
    pt__debug_link(l, t);
#else
    (void)l, (void)t;
#endif
}

/* ---- callbacks and timeout scopes (loop/features/callbacks.h) ------------ */

#if PT_CONFIG_CALLBACKS
static inline int pt__timeout_passed(const struct pt_loop *l, const struct pt_task *t);
PT__OUTLINE void pt__timeouts_drop(struct pt_loop *l, const struct pt_task *t,
                                   const struct pt_gen *g);
static inline void pt__call_run(struct pt_loop *l, struct pt_task *h);
#define PT__RUN_SPECIAL(s) ((s) & (PT__T_CALLBACK | PT__GEN_CLOSING))
#else
#define PT__RUN_SPECIAL(s) ((s)&PT__GEN_CLOSING)
#endif

static inline int pt__hook_scope_passed(const struct pt_loop *l, const struct pt_task *t) {
#if PT_CONFIG_CALLBACKS
    return l->timeouts && pt__timeout_passed(l, t);
#else
    (void)l, (void)t;
    return 0;
#endif
}

static inline void pt__hook_cleanup(struct pt_loop *l, struct pt_task *t, struct pt_gen *g) {
#if PT_CONFIG_CALLBACKS
    if (l->timeouts)
        pt__timeouts_drop(l, t, g);
#else
    (void)l, (void)t, (void)g;
#endif
}

static inline int pt__hook_callback(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_CALLBACKS
    if (t->gen.state & PT__T_CALLBACK) {
        pt__call_run(l, t);
        return 1;
    }
#else
    (void)l, (void)t;
#endif
    return 0;
}

/* ---- waiter lists (loop/features/waitlist.h) ------------------------------ */

#if PT_CONFIG_SYNC
static inline void pt__wlist_give(struct pt_loop *l, struct pt__wlist *w);
#endif

/* Nonzero if a wait of `kind` is on a waiter list (PT__WAIT_LIST or
 * PT__WAIT_RETRY: only with PT_CONFIG_SYNC). */
static inline int pt__hook_on_list(unsigned kind) {
    return PT_CONFIG_SYNC && (kind == PT__WAIT_LIST || kind == PT__WAIT_RETRY);
}

/* Nonzero if queued t was woken by a waiter list that granted it
 * something (PT__PLACE_QUEUED_GRANTED: only with PT_CONFIG_SYNC). */
static inline int pt__hook_granted(const struct pt_task *t) {
    return PT_CONFIG_SYNC && pt__place(t) == PT__PLACE_QUEUED_GRANTED;
}

/* Nonzero if parked t's wait of `kind`, ending now, keeps its timer: a
 * PT__WAIT_RETRY wait woken by its list (only with PT_CONFIG_SYNC;
 * loop/sync.h), not by a cancel. (Every other end of it, a timer come
 * due or a timeout scope's, has taken the timer out first.) */
static inline int pt__hook_keeps_timer(const struct pt_task *t, unsigned kind) {
    return PT_CONFIG_SYNC && kind == PT__WAIT_RETRY && !pt__flag(t, PT__T_CANCELLED);
}

static inline void pt__hook_cancelled_turn(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_SYNC
    if (pt__flag(t, PT__T_CANCELLED)) {                           /* (pt__cancel of a granted t) */
        struct pt__wlist *w = (struct pt__wlist *)t->gen.value.p; /* the list that granted it */
        pt__clear_flag(t, PT__T_CANCELLED);                       /* delivered */
        t->gen.value.i = PT_ECANCELLED;
        pt__wlist_give(l, w);
    }
#else
    (void)l, (void)t;
#endif
}

/* ---- task groups (loop/group.h, through struct pt_group's event) ---------- */

static inline int pt__hook_group_wait(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_GROUPS
    if (pt__wait_kind(t) == PT__WAIT_NEXT || pt__wait_kind(t) == PT__WAIT_GROUP) {
        struct pt_group *g = (struct pt_group *)t->gen.value.p;
        g->event(l, g, NULL);
        return 1;
    }
#else
    (void)l, (void)t;
#endif
    return 0;
}

static inline int pt__hook_member_done(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_GROUPS
    if (pt__flag(t, PT__T_IN_GROUP)) {
        t->up.group->event(l, t->up.group, t);
        return 1;
    }
#else
    (void)l, (void)t;
#endif
    return 0;
}

/* ---- background tasks (loop/features/background.h) ------------------------ */

#if PT_CONFIG_BACKGROUND
static inline void pt__background_unlink(struct pt_loop *l, struct pt_task *t);
PT__SLOW int pt__cancel_background(struct pt_loop *l);
#define pt__hook_background_live(l) ((l)->background != NULL)
#define pt__hook_no_task_left(l) pt__cancel_background(l)
#else
#define pt__hook_background_live(l) 0
#define pt__hook_no_task_left(l) 0
#endif

static inline int pt__hook_background_done(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_BACKGROUND
    if (pt__flag(t, PT__T_BACKGROUND)) {
        pt__background_unlink(l, t);
        return 1;
    }
#else
    (void)l, (void)t;
#endif
    return 0;
}

/* ---- the stall check (loop/features/stall.h) ------------------------------ */

#if PT_CONFIG_STALL_CHECK
PT__SLOW void pt__polls_check(struct pt_loop *l);
static inline void pt__polls_forget(struct pt_loop *l);

static inline void pt__hook_polled(struct pt_loop *l, struct pt_task *t) {
    if ((l->flags & PT__L_VIRTUAL) && t->gen.lc) /* (PT_RESTART: as after a yield) */
        l->polls++;
}
/* Returns the ready queue's tail before the poll (read only if polls_seen:
 * then the queue holds tasks). */
static inline struct pt_task *pt__hook_poll_begin(struct pt_loop *l) {
    if (l->flags & PT__L_VIRTUAL)
        pt__polls_check(l);
    return l->ready.tail;
}
static inline void pt__hook_poll_end(struct pt_loop *l, struct pt_task *tail) {
    if (l->polls_seen && l->ready.tail != tail) /* woken: runs with the polls */
        l->polls_seen = 0;
}
#define pt__hook_run_edge(l) pt__polls_forget(l)
#else
#define pt__hook_polled(l, t) ((void)0)
#define pt__hook_poll_begin(l) ((struct pt_task *)NULL)
#define pt__hook_poll_end(l, tail) ((void)(tail))
#define pt__hook_run_edge(l) ((void)(l)) /* (no stall is ever found) */
#endif

/* ---- every feature -------------------------------------------------------- */

static inline void pt__hook_loop_init(struct pt_loop *l) {
#if PT_CONFIG_STALL_CHECK
    l->polls = l->polls_seen = 0;
    l->polls_hash = 0;
#endif
#if PT_CONFIG_BACKGROUND
    l->background = NULL;
#endif
#if PT_CONFIG_CALLBACKS
    l->timeouts = NULL;
#endif
#if PT_CONFIG_DEBUG
    l->tasks = l->running = NULL;
    l->slow_fn = NULL;
    l->slow_arg = NULL;
    l->slow_us = PT_CONFIG_DEBUG_SLOW_US;
#endif
    (void)l;
}

static inline void pt__hook_cancel(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_CALLBACKS
    if (l->timeouts)
        pt__timeouts_drop(l, t, NULL);
#endif
    (void)l, (void)t;
}

static inline void pt__hook_task_done(struct pt_loop *l, struct pt_task *t) {
#if PT_CONFIG_DEBUG
    pt__debug_unlink(t);
#endif
#if PT_CONFIG_CALLBACKS
    if (l->timeouts) /* left without PT_TIMEOUT_END */
        pt__timeouts_drop(l, t, NULL);
#endif
    (void)l, (void)t;
}

#endif /* PT_LOOP_SCHED_HOOKS_H */
