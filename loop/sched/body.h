/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/body.h - writing a task: the body's opening and closing
 * macros, its yield, and the waits of the scheduler's own (sleep, join).
 * The waits of the other objects are in their headers (loop/sync.h,
 * loop/io.h, ...), written the same way: a start function that parks the
 * task (pt__park), then a stop until the loop wakes it.
 */
#ifndef PT_LOOP_SCHED_BODY_H
#define PT_LOOP_SCHED_BODY_H

#include "hooks.h"
#include "park.h"
#include "task.h"

/*
 * A task body:
 *
 *   static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
 *       struct my_worker *w = (struct my_worker *)task; // task first member
 *       PT_TASK_BEGIN(loop, task);
 *       PT_SLEEP(PT_MS(100));
 *       PT_TASK_RETURN(pt_value_int(42));
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

/* The cleanup section begins: the timeout scopes this generator left open
 * (by a return, an exit or a failure) close, as `async with` blocks do when
 * an exception leaves them (pt__hook_cleanup). */
#define PT_TASK_CLEANUP()                                                                          \
    PT_CLEANUP(pt__gen);                                                                           \
    pt__hook_cleanup(pt__loop, pt__task, pt__gen)
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

static inline int pt__join_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                 struct pt_task *other, pt_time_t timeout, unsigned kind) {
    int rc = PT_EBUSY;
    if (pt__not_running(l, t, g))
        return 0;
    if (pt__hook_foreign(l, other)) { /* another loop's (or never spawned) */
        g->value.i = PT_EINVAL;
        return 0;
    }
    if (pt_task_done(other))
        rc = pt__task_outcome(other);
    else if (!pt__task_alive(other)) /* never spawned (a finished one is done) */
        rc = PT_EINVAL;
    /* Joinable: queued or parked (alive but neither: t itself, running),
     * not background, not in a group. */
    else if (pt__queued_or_parked(other) && !pt__flag(other, PT__T_BACKGROUND | PT__T_IN_GROUP)) {
        struct pt_task **p = &other->up.joiners;
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
 * PT_EINVAL (it was never spawned; with PT_CONFIG_DEBUG also: it was last spawned on another loop,
 * which is not checked without it), PT_EFULL. A timeout of 0 waits one iteration, then cancels
 * `other` unless it has finished (asyncio's wait_for(t, 0)). A cancel of this task cancels `other`
 * too (see pt_task_cancel).
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
        PT_TASK_FAIL(pt_value_int(pt__err));                                                       \
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

#endif /* PT_LOOP_SCHED_BODY_H */
