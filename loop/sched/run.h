/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sched/run.h - the scheduler's last layer: one loop iteration, in
 * the order of asyncio's _run_once,
 *
 *   1. work out how long it may block: 0 if anything is ready, else until
 *      the earliest deadline (forever if there is none);
 *   2. poll descriptors (the readiness back end) or idle for that long;
 *   3. move every timer that is due to the ready queue (earliest first,
 *      equal deadlines in the order they were set);
 *   4. run the tasks that are ready NOW, once each: a task made ready while
 *      this happens waits for the next iteration, after the next poll, so
 *      nothing can starve the readiness check;
 *
 * and the run modes built of it: pt_loop_run_once, pt_loop_run_until,
 * pt_loop_run, pt_loop_stop (loop/sched/queue.h).
 */
#ifndef PT_LOOP_SCHED_RUN_H
#define PT_LOOP_SCHED_RUN_H

#include "hooks.h"
#include "park.h"
#include "task.h"

/*
 * PT_CONFIG_ON_RUN(loop, task) and PT_CONFIG_AFTER_RUN(loop, task): if defined
 * before the loop's headers are included, called just before the loop
 * resumes a task and just after that resume returns (the task may have
 * finished then), e.g. to record which task ran when (the demos'
 * --timeline) or to time each run. By default, nothing.
 */
#ifndef PT_CONFIG_ON_RUN
#define PT_CONFIG_ON_RUN(loop, task) ((void)0)
#endif
#ifndef PT_CONFIG_AFTER_RUN
#define PT_CONFIG_AFTER_RUN(loop, task) ((void)0)
#endif

/* The head of the ready queue is a callback handle, or a cancelled task
 * (PT__RUN_SPECIAL): what pt__run_next does with it before (or instead
 * of) resuming it, now out of the queue.
 * PT_CLOSED: a task that ends here, never run (its waiters are told);
 * PT__RUN_DONE: a callback, run; 0: a task to resume. */
#define PT__RUN_DONE ((char)-1)
PT__SLOW char pt__run_special(struct pt_loop *l, struct pt_task *t) {
    unsigned char s;
    if (pt__hook_callback(l, t))
        return PT__RUN_DONE;
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
    /* Cancelled in its body once a list had granted it something: its
     * turn has come, so that goes on to the next waiter now. */
    pt__hook_cancelled_turn(l, t);
    return 0;
}

/* A task's PT_WAIT_UNTIL found its condition false (PT_WAITING, not
 * parked): the loop cannot see what it waits for, so it is queued to poll
 * again (and counted by the stall check: pt__hook_polled). Off the path
 * of a yield or a park, which return PT_YIELDED. */
PT__SLOW void pt__polled(struct pt_loop *l, struct pt_task *t) {
    if (pt__parked(t))
        return;
    pt__ready_push(l, t);
    pt__hook_polled(l, t);
}

/* Take the head of the ready queue and run it once. */
static inline struct pt_task *pt__run_next(struct pt_loop *l) {
    struct pt_task *t = l->ready.head;
    char status = 0;
    l->ready.head = t->next;
    pt__set_place(t, PT__PLACE_NONE); /* (no longer granted: pt__waitq_wake_one) */
    /* (One test, rare. A granted task cancelled since, PT__T_CANCELLED
     * still to deliver, is closing: pt__run_special delivers it.) */
    if (PT__RUN_SPECIAL(t->gen.state)) {
        status = pt__run_special(l, t);
        if (status == PT__RUN_DONE)
            return t;
    }
    if (!status) {
        PT_CONFIG_ON_RUN(l, t);
        status = pt__hook_resume(l, t);
        PT_CONFIG_AFTER_RUN(l, t);
    }
    if (PT__RARE(status != PT__TASK_YIELDED)) { /* (a yield, or a wait the loop parked) */
        if (status == PT__TASK_WAITING)         /* a PT_WAIT_UNTIL to poll again */
            pt__polled(l, t);
        else if (pt__task_left(l, t)) /* finished, or left by a plain return */
            pt__task_done(l, t);
    } else if (!pt__parked(t)) {
        pt__ready_push(l, t); /* a yield */
    }
    return t;
}

/* ---- one iteration ------------------------------------------------------ */

/* A timer is due (or a timeout scope's deadline passed, with `sleep`
 * PT_ETIMEDOUT): a sleep ends with `sleep`, any other wait is marked timed
 * out; a join then cancels what it waits for and goes on waiting for that
 * to finish, a group's wait is the group's (struct pt_group's event), the
 * others end now. (pt__cancel does it, for all but a sleep that ends
 * PT_OK: one ending PT_ETIMEDOUT is marked timed out too, which pt__wake
 * reads so.) */
static inline void pt__timer_due(struct pt_loop *l, struct pt_task *t, int sleep) {
    if (sleep == PT_OK && pt__wait_kind(t) == PT__WAIT_NONE)
        pt__wake(l, t, PT_OK); /* a sleep's end */
    else
        (void)pt__cancel(l, t, PT__T_TIMED_OUT);
}

/* Wake the due timers; with no timer, the clock is not read (the first
 * test is false). */
static inline void pt__expire_timers(struct pt_loop *l) {
    struct pt_task *t;
    while ((t = pt__timer_first(l)) != NULL &&
           !pt_time_before(pt_loop_now(l), pt__timer_first_when(l))) {
        pt__timer_remove(l, t);
        if (pt__parked(t)) /* else one kept past its wait's wake */
            pt__timer_due(l, t, PT_OK);
    }
}

#if PT_CONFIG_IO
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
#if PT_CONFIG_IO
    int rc = pt__io_wait(l, timeout); /* (loop/iowait.h) */
    int woke = pt__io_dispatch(l);
    pt__io_waited(l, rc, woke, timeout);
    return woke;
#else
    (void)l;
    if (timeout)
        PT_CONFIG_PORT_IDLE(timeout);
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

/* Steps 1 to 3 of an iteration, for a loop with timers, descriptor waits
 * or the virtual clock (without any of them there is nothing to do). */
PT__SLOW void pt__loop_poll(struct pt_loop *l, int may_block) {
    struct pt_task *tail = pt__hook_poll_begin(l);
#if !PT_CONFIG_IO
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
    pt__hook_poll_end(l, tail);
}

/* One iteration (see the top of this file), in a run that holds
 * PT__L_RUNNING: time has passed (the clock is read when first needed), the
 * poll and the timers if there are any, then what is ready now runs now. */
PT__HOT void pt__iterate(struct pt_loop *l, int may_block) {
    struct pt_task *last;
    pt__clock_passed(l); /* (nothing on the virtual clock) */
#if PT_CONFIG_IO
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

/*
 * One iteration. If `may_block` is 0 it never blocks: for a firmware
 * super-loop or for running inside another loop. PT_OK, or PT_EBUSY (and
 * nothing done) if called from one of the loop's own tasks: a loop runs
 * one iteration at a time; PT_ECONFIG (nothing done) as for pt_loop_spawn.
 */
PT__OUTLINE int pt_loop_run_once(struct pt_loop *l, int may_block) {
    int rc;
    if (l->flags & PT__L_RUNNING) /* (a run's own state: left alone) */
        return pt__loop_once(l, may_block);
    pt__hook_run_edge(l);
    rc = pt__loop_once(l, may_block);
    pt__hook_run_edge(l);
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
 * initialised with other options (PT_ECONFIG of pt_loop_spawn: loop/agree.h);
 * then it runs nothing.
 */
PT__RUNS char pt_loop_run_until(struct pt_loop *l, struct pt_task *t) {
    if ((l->flags & PT__L_RUNNING) || !pt__agrees(l))
        return 0;
    pt__hook_run_edge(l);
    PT__RUN_HOLD(l);
    while (!pt_task_done(t) && pt__go_on(l))
        PT__RUN_ONE(l);
    PT__RUN_LET_GO(l);
    return pt_task_status(t);
}

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
 * a later run goes on); PT_ECONFIG (nothing run) as for pt_loop_spawn.
 */
PT__RUNS int pt_loop_run(struct pt_loop *l) {
    int rc = PT_OK;
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (l->flags & PT__L_RUNNING)
        return PT_EBUSY;
    pt__hook_run_edge(l);
    PT__RUN_HOLD(l);
    /* With no task left but background ones, those are cancelled (one
     * parked without a deadline is pending nothing, and the usual case),
     * and the run goes on while their cleanups run. */
    while (!(l->flags & PT__L_STOP) &&
           (pt__pending(l) || (!l->live && pt__hook_background_live(l)))) {
        if (PT__RARE(!l->live) && !pt__hook_no_task_left(l))
            break;
        PT__RUN_ONE(l);
    }
    if (l->flags & PT__L_STALL)
        rc = PT_ESTALL;
    else if (l->flags & PT__L_STOP)
        rc = PT_EINVAL;
    else if (l->live || pt__hook_background_live(l))
        rc = PT_EBUSY;
    PT__RUN_LET_GO(l);
    return rc;
}

#endif /* PT_LOOP_SCHED_RUN_H */
