/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/task.h - the scheduler's third layer: a task's life. Spawned
 * (queued for its first turn), alive while its mark says so, cancelled,
 * finished (its joiners told), and what it finished with.
 */
#ifndef PT_LOOP_SCHED_TASK_H
#define PT_LOOP_SCHED_TASK_H

#include "hooks.h"
#include "park.h"

/* (next, wait, and a list build's deadline are set where they are used.) */
static inline void pt__task_init(struct pt_task *t, pt_task_fn fn) {
    pt_gen_init(&t->gen);
    t->fn = fn;
    t->spawned = PT__SPAWNED(t);
    t->up.joiners = NULL;
    pt__timer_init(t);
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
static inline int pt_loop_spawn(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    pt_index_t live = (pt_index_t)(l->live + 1u);
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (pt__task_alive(t))
        return PT_EBUSY;
    if (live == 0)
        return PT_EFULL;
    pt__task_init(t, fn);
    l->live = live;
    pt__hook_spawn(l, t);
    pt__ready_push(l, t);
    return PT_OK;
}

/* Final status of t: 0 while alive, else PT_ENDED (returned), PT_EXITED
 * (failed: PT_TASK_FAIL / PT_EXIT) or PT_CLOSED (cancelled). */
static inline char pt_task_status(const struct pt_task *t) {
    return pt_gen_status(&t->gen);
}

/* Nonzero once t has finished. */
static inline int pt_task_done(const struct pt_task *t) {
    return pt_gen_done(&t->gen);
}

/* What a waiter on t (which has finished) is told, by its final status:
 * PT_OK (it returned), PT_EFAILED (it failed) or PT_ECANCELLED (it was
 * cancelled). */
static inline int pt__task_outcome(const struct pt_task *t) {
    switch (t->gen.state & PT__GEN_STATUS) { /* (finished: its final status) */
    case PT_EXITED:
        return PT_EFAILED;
    case PT_CLOSED:
        return PT_ECANCELLED;
    default: /* PT_ENDED */
        return PT_OK;
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
 * cleanup goes on and its result stands), and with PT_CONFIG_DEBUG if t was last
 * spawned on another loop (without it, that is not checked); PT_EBUSY if
 * t is the running task (use PT_EXIT).
 */
static inline int pt_task_cancel(struct pt_loop *l, struct pt_task *t) {
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
    pt__hook_task_done(l, t);
    if (pt__hook_background_done(l, t)) /* (counted in no `live`; not joinable) */
        return;
    l->live--;
    if (pt__hook_member_done(l, t)) /* (its group wakes who waits for it) */
        return;
    /* Its joiners, in the order they joined: each wake-up takes the
     * first out of the list. */
    while (t->up.joiners)
        pt__wake(l, t->up.joiners, pt__task_outcome(t));
}

/* What a task body's stopping macros return (pt/thread.h's PT__STOP): a
 * yield or a wait the loop parked, and a PT_WAIT_UNTIL to poll again.
 * Anything else is a finish, or a body that left by a plain `return`:
 * pt__task_left. The marked statuses must differ from every final status
 * and fit in a char. */
#define PT__TASK_YIELDED ((char)(PT__STATUS_MARK | PT_YIELDED))
#define PT__TASK_WAITING ((char)(PT__STATUS_MARK | PT_WAITING))
typedef char pt__marks_fit[PT__STATUS_MARK > PT_CLOSED && (PT__STATUS_MARK | PT_YIELDED) <= 127 &&
                                   (PT__STATUS_MARK | PT_WAITING) <= 127
                               ? 1
                               : -1];
/* A task that pt/gen.h fails for a lost resume point reports PT_ELOST:
 * pt/gen.h, which knows no loop, gives the same number its own name. */
typedef char pt__elost_agrees[PT_GEN_ELOST == PT_ELOST ? 1 : -1];

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
    g->ret = pt_value_int(PT_ERETURN);
    s = (unsigned char)((s & ~(PT__GEN_STATUS | PT__GEN_CLOSING | PT__GEN_AWAITING)) |
                        PT__GEN_FAILED);
    g->state = s;
    if (pt__gen_life(s) != PT__GEN_RUNNING) { /* in its cleanup, or not begun */
        (void)pt__gen_finish(g);
        return 1;
    }
    PT_LC_SET_EXIT(g->lc);
    if (!pt__parked(t))
        pt__ready_push(l, t);
    return 0;
}
#endif /* PT_LOOP_SCHED_TASK_H */
