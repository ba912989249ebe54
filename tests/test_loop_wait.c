/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_wait.c - the contract of waiting for other tasks
 * (loop/core.h, loop/group.h): several joiners of one task, what a
 * cancel or a timeout of a joiner does to the joined task, PT_JOIN_SHIELD,
 * PT_JOIN_RAISE and PT_GROUP_WAIT_RAISE, pt_task_error, the group's
 * completion order and PT_GROUP_NEXT. On the virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

/* A task of these tests: the fixture's, and what it waits for. */
struct wk {
    struct tk k; /* first member: the task */
    struct pt_task *target, *target2;
    struct pt_group *group;
    int mode;                /* below */
    int fail;                /* a worker: fail with n (rather than return it) */
    pt_time_t cleanup_ticks; /* a sleep in its cleanup section */
    long cleaned_at;         /* when its cleanup section began (-1: never) */
    long done_at;            /* a worker: when it finished its work */
    int after;               /* went on past the wait */
    int r2;                  /* a second wait's result, and when it ended */
    long w2;
    struct pt_task *got[4]; /* PT_GROUP_NEXT: what it got, */
    int results[4];         /* the results, */
    long at[4];             /* and when */
    int nexts;              /* PT_GROUP_NEXT calls to make */
    struct pt_gen sub;      /* a sub-coroutine it awaits */
    int ngot;
};

enum { M_JOIN, M_SHIELD, M_SHIELD_THEN_JOIN, M_RAISE, M_WAIT, M_WAIT_RAISE, M_NEXT };

static void wk_init(struct wk *w, const char *name, int id) {
    int i;
    memset(w, 0, sizeof *w);
    tk_init(&w->k, name, id);
    w->cleaned_at = w->done_at = -1;
    w->r2 = 99;
    w->w2 = -1;
    for (i = 0; i < 4; i++) {
        w->results[i] = 99;
        w->at[i] = -1;
    }
}

#define WK(task) ((struct wk *)(task))

#define WK_CLEANUP_SECTION(w)                                                                      \
    PT_TASK_CLEANUP();                                                                             \
    (w)->k.cleanups++;                                                                             \
    (w)->k.cleanup_result = PT_WAIT_RESULT();                                                      \
    (w)->cleaned_at = (long)pt_loop_now(loop);                                                     \
    note_n((w)->k.name, -(long)(w)->k.cleanups);                                                   \
    if ((w)->cleanup_ticks)                                                                        \
        PT_SLEEP((w)->cleanup_ticks);                                                              \
    PT_TASK_END()

/* Works `ticks` (or until its event is set), then returns n, or fails
 * with n if `fail`. */
static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    PT_TASK_BEGIN(loop, task);
    if (w->k.ev)
        PT_EVENT_WAIT(w->k.ev, PT_FOREVER);
    else
        PT_SLEEP(w->k.ticks);
    w->done_at = (long)pt_loop_now(loop);
    note(w->k.name);
    if (w->fail)
        PT_TASK_FAIL(pt_value_int(w->k.n));
    PT_TASK_RETURN(pt_value_int(w->k.n));
    WK_CLEANUP_SECTION(w);
}

/* Sleeps `ticks`, then waits for `target` (M_JOIN, M_SHIELD, M_RAISE)
 * with `timeout`; M_SHIELD_THEN_JOIN joins it again after the shielded
 * wait (r2, w2). */
static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    if (w->mode == M_JOIN)
        PT_JOIN(w->target, k->timeout);
    else if (w->mode == M_RAISE)
        PT_JOIN_RAISE(w->target, k->timeout);
    else
        PT_JOIN_SHIELD(w->target, k->timeout);
    AFTER_WAIT(k);
    w->after = 1;
    note(k->name);
    if (w->mode == M_SHIELD_THEN_JOIN) {
        PT_JOIN(w->target, PT_FOREVER);
        w->r2 = PT_WAIT_RESULT();
        w->w2 = (long)pt_loop_now(loop);
    }
    WK_CLEANUP_SECTION(w);
}

/* Sleeps `ticks`, then cancels `target` (result: what pt_task_cancel said). */
static PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(w->k.ticks);
    w->k.result = pt_task_cancel(loop, w->target);
    PT_TASK_END();
}

/* Spawn a worker W working `ticks` that returns n (fails with it if
 * `fail`), its cleanup sleeping `cleanup_ticks`. */
static void spawn_worker(struct wk *w, pt_time_t ticks, int n, int fail, pt_time_t cleanup_ticks) {
    wk_init(w, "W", 9);
    w->k.ticks = ticks;
    w->k.n = n;
    w->fail = fail;
    w->cleanup_ticks = cleanup_ticks;
    spawn(&w->k, worker);
}

/* Spawn a joiner of `target` that starts after `ticks`. */
static void spawn_joiner(struct wk *j, const char *name, int id, struct wk *target, int mode,
                         pt_time_t ticks, pt_time_t timeout) {
    wk_init(j, name, id);
    j->target = &target->k.task;
    j->mode = mode;
    j->k.ticks = ticks;
    j->k.timeout = timeout;
    spawn(&j->k, joiner);
}

/* Spawn a canceller of `target` at `ticks`. */
static void spawn_canceller(struct wk *c, struct pt_task *target, pt_time_t ticks) {
    wk_init(c, "x", 8);
    c->target = target;
    c->k.ticks = ticks;
    spawn(&c->k, canceller);
}

/* Sleeps for good; its cleanup joins `target` (r2, w2). */
static PT_THREAD(cleanup_joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(1000);
    PT_TASK_CLEANUP();
    PT_JOIN(w->target, PT_FOREVER);
    w->r2 = PT_WAIT_RESULT();
    w->w2 = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* ---- several joiners of one task ----------------------------------------- */

/* W returns 42 at 20; J0, J1, J2 join it from 3, 1, 2 (in the order J1,
 * J2, J0); J0's timeout is `timeout0` and its kind of join `mode0`; W's
 * cleanup sleeps 3. */
static void three_joiners(struct wk *w, struct wk j[3], int mode0, pt_time_t timeout0) {
    static const pt_time_t start[3] = {3, 1, 2};
    static const char *const names[3] = {"j0", "j1", "j2"};
    int i;
    fresh(0);
    spawn_worker(w, 20, 42, 0, 3);
    for (i = 0; i < 3; i++)
        spawn_joiner(&j[i], names[i], i, w, i ? M_JOIN : mode0, start[i],
                     i ? PT_FOREVER : timeout0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Any number of tasks join one: each gets its result, when it ends. */
static void test_every_joiner_gets_the_result(void) {
    struct wk w, j[3];
    int i;
    three_joiners(&w, j, M_JOIN, PT_FOREVER);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_ENDED);
    CHECK_EQ_INT(w.k.task.gen.value.i, 42);
    for (i = 0; i < 3; i++) {
        CHECK_EQ_INT(j[i].k.result, PT_OK);
        CHECK_EQ_INT(j[i].k.woke_at, 23); /* once W's cleanup has run */
    }
}

/* They wake in the order they joined. */
static void test_joiners_wake_in_the_order_they_joined(void) {
    struct wk w, j[3];
    three_joiners(&w, j, M_JOIN, PT_FOREVER);
    CHECK_EQ_INT(norder, 3);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 2);
    CHECK_EQ_INT(order[2], 0);
    CHECK_EQ_STR(trace.buf, "W W-1 j1 j1-1 j2 j2-1 j0 j0-1 ");
}

/* A joiner whose timeout passes (J0, joined at 3, timeout 5) cancels the
 * task (as wait_for) and returns PT_ETIMEDOUT once its cleanup has run;
 * the other joiners see it cancelled, all woken together in join order. */
static void test_join_timeout_cancels_the_task_for_every_joiner(void) {
    struct wk w, j[3];
    three_joiners(&w, j, M_JOIN, 5);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_CLOSED);
    CHECK_EQ_INT(w.cleaned_at, 8);
    CHECK_EQ_INT(j[0].k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(j[1].k.result, PT_ECANCELLED);
    CHECK_EQ_INT(j[2].k.result, PT_ECANCELLED);
    CHECK_EQ_INT(j[0].k.woke_at, 11);
    CHECK_EQ_INT(j[1].k.woke_at, 11);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 2);
    CHECK_EQ_INT(order[2], 0);
}

/* A shielded joiner that times out leaves at once, alone: the task and
 * the other joiners go on as if it had never joined. */
static void test_shielded_joiner_that_times_out_leaves_the_others(void) {
    struct wk w, j[3];
    three_joiners(&w, j, M_SHIELD, 5);
    CHECK_EQ_INT(j[0].k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(j[0].k.woke_at, 8);
    CHECK_EQ_INT(j[0].k.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_ENDED);
    CHECK_EQ_INT(j[1].k.result, PT_OK);
    CHECK_EQ_INT(j[2].k.result, PT_OK);
    CHECK_EQ_INT(j[1].k.woke_at, 23);
    CHECK_EQ_INT(norder, 3);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 1);
    CHECK_EQ_INT(order[2], 2);
}

/* J (and K) join W (working 100, cleanup sleeping 5); X cancels J at 10. */
static void cancelled_joiner(struct wk *w, struct wk *j, struct wk *k) {
    struct wk x;
    fresh(0);
    spawn_worker(w, 100, 1, 0, 5);
    spawn_joiner(j, "J", 0, w, M_JOIN, 0, PT_FOREVER);
    j->cleanup_ticks = 1;
    spawn_joiner(k, "K", 1, w, M_JOIN, 0, PT_FOREVER);
    spawn_canceller(&x, &j->k.task, 10);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.k.result, PT_OK);
}

/* A cancel of a joiner cancels the task it joins (asyncio: cancelling a
 * task that awaits another cancels that one). */
static void test_cancel_of_a_joiner_cancels_the_joined_task(void) {
    struct wk w, j, k;
    cancelled_joiner(&w, &j, &k);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_CLOSED);
    CHECK_EQ_INT(w.k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(w.cleaned_at, 10);
    CHECK_EQ_INT(w.done_at, -1);
}

/* ... and the joiner waits for that task's cleanup before its own. */
static void test_cancelled_joiner_runs_its_cleanup_after_the_joined_tasks(void) {
    struct wk w, j, k;
    cancelled_joiner(&w, &j, &k);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_CLOSED);
    CHECK_EQ_INT(j.k.result, 99);
    CHECK_EQ_INT(j.cleaned_at, 15);
    CHECK_EQ_INT(j.k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "W-1 J-1 K K-1 ");
}

/* ... the task's other joiners see it cancelled. */
static void test_cancel_of_a_joiner_ends_the_other_joins_cancelled(void) {
    struct wk w, j, k;
    cancelled_joiner(&w, &j, &k);
    CHECK_EQ_INT(k.k.result, PT_ECANCELLED);
    CHECK_EQ_INT(k.k.woke_at, 15);
}

/* ---- PT_JOIN_SHIELD -------------------------------------------------------- */

/* A cancel of a shielded joiner ends its wait at once (PT_ECANCELLED in
 * its cleanup) and leaves the task running. */
static void test_cancel_of_a_shielded_joiner_leaves_the_task_running(void) {
    struct wk w, j, x;
    fresh(0);
    spawn_worker(&w, 20, 7, 0, 0);
    spawn_joiner(&j, "J", 0, &w, M_SHIELD, 0, PT_FOREVER);
    spawn_canceller(&x, &j.k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(j.k.result, 99);
    CHECK_EQ_INT(j.cleaned_at, 5);
    CHECK_EQ_INT(j.k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_ENDED);
    CHECK_EQ_INT(w.done_at, 20);
    CHECK_EQ_INT(w.k.task.gen.value.i, 7);
    CHECK_EQ_STR(trace.buf, "J-1 W W-1 ");
}

/* A shielded join's timeout returns at once, PT_ETIMEDOUT; the task runs
 * on and can be joined again for its result. */
static void test_shielded_join_timeout_returns_at_once_and_the_task_runs_on(void) {
    struct wk w, j;
    fresh(0);
    spawn_worker(&w, 20, 7, 0, 0);
    spawn_joiner(&j, "J", 0, &w, M_SHIELD_THEN_JOIN, 0, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(j.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(j.k.woke_at, 5);
    CHECK_EQ_INT(w.k.cleanups, 1);
    CHECK_EQ_INT(w.k.cleanup_result, PT_OK); /* not cancelled */
    CHECK_EQ_INT(j.r2, PT_OK);
    CHECK_EQ_INT(j.w2, 20);
    CHECK_EQ_INT(w.k.task.gen.value.i, 7);
}

/* ---- PT_JOIN_RAISE and pt_task_error --------------------------------------- */

/* J joins W with PT_JOIN_RAISE (timeout `timeout`); W works 10, returns
 * or fails with n; X cancels W at 5 if `cancel`. */
static void join_raise(struct wk *w, struct wk *j, int n, int fail, int cancel, pt_time_t timeout) {
    struct wk x;
    fresh(0);
    spawn_worker(w, 10, n, fail, 0);
    spawn_joiner(j, "J", 0, w, M_RAISE, 0, timeout);
    if (cancel)
        spawn_canceller(&x, &w->k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The joiner fails with the task's error value, after its own cleanup,
 * and nothing after the join runs. */
static void test_join_raise_fails_with_the_tasks_error(void) {
    struct wk w, j;
    join_raise(&w, &j, -42, 1, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_EXITED);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_EXITED);
    CHECK_EQ_INT(j.k.task.gen.value.i, -42);
    CHECK_EQ_INT(pt_task_error(&j.k.task), -42);
    CHECK_EQ_INT(j.after, 0);
    CHECK_EQ_INT(j.k.cleanups, 1);
    CHECK_EQ_INT(j.cleaned_at, 10);
}

/* A task that failed with no value (0): PT_EFAILED. */
static void test_join_raise_of_a_task_failed_without_a_value_is_efailed(void) {
    struct wk w, j;
    join_raise(&w, &j, 0, 1, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_EXITED);
    CHECK_EQ_INT(pt_task_error(&j.k.task), PT_EFAILED);
}

/* A cancelled task: the cancellation goes up as asyncio's CancelledError
 * does through `await task`: the joiner ends cancelled too (PT_CLOSED,
 * which a group does not count as a failure), after its cleanup. */
static void test_join_raise_of_a_cancelled_task_ends_cancelled(void) {
    struct wk w, j;
    join_raise(&w, &j, 1, 0, 1, PT_FOREVER);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_error(&j.k.task), PT_ECANCELLED);
    CHECK_EQ_INT(j.k.cleanups, 1);
    CHECK_EQ_INT(j.after, 0);
    CHECK_EQ_INT(j.cleaned_at, 5);
}

/* The join's timeout: the task is cancelled, the joiner fails with
 * PT_ETIMEDOUT. */
static void test_join_raise_that_times_out_fails_with_etimedout(void) {
    struct wk w, j;
    join_raise(&w, &j, 1, 0, 0, 4);
    CHECK_EQ_INT(pt_task_status(&w.k.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_EXITED);
    CHECK_EQ_INT(j.k.task.gen.value.i, PT_ETIMEDOUT);
    CHECK_EQ_INT(j.cleaned_at, 4);
}

/* A task that returns: the joiner goes on, as after PT_JOIN. */
static void test_join_raise_of_a_task_that_returns_goes_on(void) {
    struct wk w, j;
    join_raise(&w, &j, 6, 0, 0, PT_FOREVER);
    CHECK_EQ_INT(j.after, 1);
    CHECK_EQ_INT(j.k.result, PT_OK);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_ENDED);
    CHECK_EQ_INT(w.k.task.gen.value.i, 6);
}

/* pt_task_error of a finished task: its error value if it failed
 * (PT_EFAILED if it gave none), PT_ECANCELLED if it was cancelled, 0 if
 * it returned. */
static void test_task_error_tells_how_a_task_finished(void) {
    struct wk w[4], x;
    fresh(0);
    spawn_worker(&w[0], 1, -5, 1, 0);
    spawn_worker(&w[1], 1, 0, 1, 0);
    spawn_worker(&w[2], 10, 3, 0, 0);
    spawn_worker(&w[3], 1, 3, 0, 0);
    spawn_canceller(&x, &w[2].k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_error(&w[0].k.task), -5);
    CHECK_EQ_INT(pt_task_error(&w[1].k.task), PT_EFAILED);
    CHECK_EQ_INT(pt_task_error(&w[2].k.task), PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_error(&w[3].k.task), 0);
}

/* ... and 0 while it is alive, its cleanup section after a return
 * included (the status it will finish with is not an outcome yet). */
static void test_task_error_of_a_live_task_is_0(void) {
    struct wk w;
    fresh(0);
    spawn_worker(&w, 1, 3, 0, 10);
    CHECK_EQ_INT(pt_task_error(&w.k.task), 0); /* queued */
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* returned; its cleanup sleeps */
    CHECK(!pt_task_done(&w.k.task));
    CHECK_EQ_INT(pt_task_error(&w.k.task), 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A join made in the cleanup section of a cancelled task gets the joined
 * task's outcome: the cancel came before it. C is cancelled at 5; its
 * cleanup joins W, which fails at 10. (Found by the fuzzer.) */
static void test_join_in_a_cancelled_tasks_cleanup_gets_the_outcome(void) {
    struct wk w, c, x;
    fresh(0);
    spawn_worker(&w, 10, -5, 1, 0);
    wk_init(&c, "c", 1);
    c.target = &w.k.task;
    spawn(&c.k, cleanup_joiner);
    spawn_canceller(&x, &c.k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.r2, PT_EFAILED);
    CHECK_EQ_INT(c.w2, 10);
    CHECK_EQ_INT(pt_task_status(&c.k.task), PT_CLOSED);
}

/* A sub-coroutine that joins `target` with PT_JOIN_RAISE. */
static PT_THREAD(raising_sub(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct wk *w = WK(task);
    PT_SUB_BEGIN(loop, task, g);
    PT_JOIN_RAISE(w->target, PT_FOREVER);
    PT_SUB_END();
}

/* Awaits raising_sub with PT_AWAIT_RAISE. */
static PT_THREAD(sub_raiser(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT_RAISE(&task->gen, &w->sub, raising_sub(loop, task, &w->sub));
    w->after = 1;
    WK_CLEANUP_SECTION(w);
}

/* A cancellation raised in a sub-coroutine goes on up through
 * PT_AWAIT_RAISE as a cancellation: the task ends cancelled, not failed
 * and not going on. W is cancelled at 5. */
static void test_cancellation_raised_in_a_sub_ends_the_task_cancelled(void) {
    struct wk w, j, x;
    fresh(0);
    spawn_worker(&w, 10, 3, 0, 0);
    wk_init(&j, "j", 1);
    j.target = &w.k.task;
    spawn(&j.k, sub_raiser);
    spawn_canceller(&x, &w.k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_CLOSED);
    CHECK_EQ_INT(j.after, 0);
    CHECK_EQ_INT(j.k.cleanups, 1);
}

/* A sub-coroutine that joins `target`; its cleanup joins target2 (r2,
 * w2). */
static PT_THREAD(cleanup_joining_sub(struct pt_loop *loop, struct pt_task *task,
                                     struct pt_gen *g)) {
    struct wk *w = WK(task);
    PT_SUB_BEGIN(loop, task, g);
    PT_JOIN(w->target, PT_FOREVER);
    PT_TASK_CLEANUP();
    PT_JOIN(w->target2, PT_FOREVER);
    w->r2 = PT_WAIT_RESULT();
    w->w2 = (long)pt_loop_now(loop);
    PT_SUB_END();
}

/* Awaits cleanup_joining_sub. */
static PT_THREAD(sub_awaiter(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &w->sub, cleanup_joining_sub(loop, task, &w->sub));
    w->after = 1;
    WK_CLEANUP_SECTION(w);
}

/* Only the wait a cancel interrupts ends PT_ECANCELLED: a join that a
 * sub-coroutine's cleanup makes after it gets the joined task's outcome,
 * as `await` in a `finally:` does. J's sub joins U; J is cancelled at 5,
 * which cancels U; the sub's cleanup then joins W, which returns at 10. */
static void test_join_in_a_cancelled_subs_cleanup_gets_the_outcome(void) {
    struct wk w, u, j, x;
    fresh(0);
    spawn_worker(&w, 10, 7, 0, 0);
    spawn_worker(&u, 100, 8, 0, 0);
    wk_init(&j, "j", 1);
    j.target = &u.k.task;
    j.target2 = &w.k.task;
    spawn(&j.k, sub_awaiter);
    spawn_canceller(&x, &j.k.task, 5);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&u.k.task), PT_CLOSED);
    CHECK_EQ_INT(j.r2, PT_OK);
    CHECK_EQ_INT(j.w2, 10);
    CHECK_EQ_INT(j.after, 0);
    CHECK_EQ_INT(j.k.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&j.k.task), PT_CLOSED);
}

/* ---- groups: completion order, PT_GROUP_NEXT, cancel, raise ---------------- */

/* Sleeps `ticks`, then: M_WAIT / M_WAIT_RAISE waits for the group with
 * `timeout`; M_NEXT calls PT_GROUP_NEXT `nexts` times (the first with
 * `timeout`, the others without). */
static PT_THREAD(owner(struct pt_loop *loop, struct pt_task *task)) {
    struct wk *w = WK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    if (w->mode == M_NEXT) {
        for (w->ngot = 0; w->ngot < w->nexts; w->ngot++) {
            k->i = (int)iterations;
            PT_GROUP_NEXT(w->group, &w->got[w->ngot], w->ngot ? PT_FOREVER : k->timeout);
            w->results[w->ngot] = PT_WAIT_RESULT();
            w->at[w->ngot] = (long)pt_loop_now(loop);
        }
    } else if (w->mode == M_WAIT_RAISE) {
        PT_GROUP_WAIT_RAISE(w->group, k->timeout);
    } else {
        PT_GROUP_WAIT(w->group, k->timeout);
    }
    AFTER_WAIT(k);
    w->after = 1;
    note(k->name);
    WK_CLEANUP_SECTION(w);
}

struct gfix {
    struct pt_group g;
    struct pt_task *slots[3];
    struct wk m[3];
};

/* A group of three members working `ticks` each (returning, or failing
 * with n if n < 0), their cleanups sleeping `cleanup_ticks`; not run. */
static void group_of_three(struct gfix *f, unsigned char mode, const pt_time_t ticks[3],
                           const int n[3], pt_time_t cleanup_ticks) {
    static const char *const names[3] = {"a", "b", "c"};
    int i;
    fresh(0);
    pt_group_init(&f->g, f->slots, 3, mode);
    for (i = 0; i < 3; i++) {
        wk_init(&f->m[i], names[i], i);
        f->m[i].k.ticks = ticks[i];
        f->m[i].k.n = n[i];
        f->m[i].fail = n[i] < 0;
        f->m[i].cleanup_ticks = cleanup_ticks;
        CHECK_EQ_INT(pt_group_spawn(&lp, &f->g, &f->m[i].k.task, worker), PT_OK);
    }
}

/* Members working 30, 10, 20 (returning 1, 2, 3). */
static void group_30_10_20(struct gfix *f) {
    static const pt_time_t ticks[3] = {30, 10, 20};
    static const int n[3] = {1, 2, 3};
    group_of_three(f, PT_GROUP_COLLECT, ticks, n, 0);
}

static void spawn_owner(struct wk *o, const char *name, int id, struct pt_group *g, int mode,
                        pt_time_t ticks, pt_time_t timeout) {
    wk_init(o, name, id);
    o->group = g;
    o->mode = mode;
    o->nexts = 4;
    o->k.ticks = ticks;
    o->k.timeout = timeout;
    spawn(&o->k, owner);
}

/* The members array holds them in the order they finished. */
static void test_group_members_are_kept_in_completion_order(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.k.result, PT_OK);
    CHECK_EQ_INT(o.k.woke_at, 30);
    CHECK(f.slots[0] == &f.m[1].k.task);
    CHECK(f.slots[1] == &f.m[2].k.task);
    CHECK(f.slots[2] == &f.m[0].k.task);
}

/* PT_GROUP_NEXT gives the first member to finish (FIRST_COMPLETED) ... */
static void test_group_next_gives_the_first_to_complete(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, PT_FOREVER);
    o.nexts = 1;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.results[0], PT_OK);
    CHECK(o.got[0] == &f.m[1].k.task);
    CHECK_EQ_INT(o.at[0], 10);
    CHECK_EQ_INT(pt_group_left(&f.g), 2);
}

/* ... then the others as they finish (as_completed); then PT_EINVAL:
 * every member has been taken. */
static void test_group_next_gives_members_as_they_complete(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(o.got[0] == &f.m[1].k.task);
    CHECK(o.got[1] == &f.m[2].k.task);
    CHECK(o.got[2] == &f.m[0].k.task);
    CHECK_EQ_INT(o.at[0], 10);
    CHECK_EQ_INT(o.at[1], 20);
    CHECK_EQ_INT(o.at[2], 30);
    CHECK_EQ_INT(o.results[2], PT_OK);
}

static void test_group_next_when_all_are_taken_is_einval(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.results[3], PT_EINVAL);
    CHECK_EQ_INT(o.at[3], 30);
    CHECK_EQ_INT(pt_group_left(&f.g), 0);
}

/* Members that have finished are given without stopping: the owner comes
 * at 25, takes two at once, then waits for the third. */
static void test_group_next_gives_finished_members_without_waiting(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 25, PT_FOREVER);
    o.nexts = 3;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(o.got[0] == &f.m[1].k.task);
    CHECK(o.got[1] == &f.m[2].k.task);
    CHECK_EQ_INT(o.at[0], 25);
    CHECK_EQ_INT(o.at[1], 25);
    CHECK_EQ_INT(o.at[2], 30);
}

/* A timeout of PT_GROUP_NEXT cancels nothing: the members run on, and the
 * next call takes the first to finish. */
static void test_group_next_timeout_cancels_nothing(void) {
    struct gfix f;
    struct wk o;
    int i;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, 5);
    o.nexts = 2;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.results[0], PT_ETIMEDOUT);
    CHECK_EQ_INT(o.at[0], 5);
    CHECK_EQ_INT(o.results[1], PT_OK);
    CHECK(o.got[1] == &f.m[1].k.task);
    CHECK_EQ_INT(o.at[1], 10);
    for (i = 0; i < 3; i++)
        CHECK_EQ_INT(pt_task_status(&f.m[i].k.task), PT_ENDED);
}

/* While one task waits on the group, another's PT_GROUP_NEXT or
 * PT_GROUP_WAIT is refused at once with PT_EBUSY. */
static void test_group_next_while_another_task_waits_is_ebusy(void) {
    struct gfix f;
    struct wk o, p, q;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, PT_FOREVER);
    o.nexts = 1;
    spawn_owner(&p, "p", 6, &f.g, M_NEXT, 5, PT_FOREVER);
    p.nexts = 1;
    spawn_owner(&q, "q", 7, &f.g, M_WAIT, 5, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p.results[0], PT_EBUSY);
    CHECK_EQ_INT(p.at[0], 5);
    CHECK_EQ_INT(q.k.result, PT_EBUSY);
    CHECK_EQ_INT(q.k.woke_at, 5);
    CHECK_EQ_INT(o.results[0], PT_OK);
    CHECK(o.got[0] == &f.m[1].k.task);
}

/* A cancel of a task in PT_GROUP_NEXT ends its wait at once and leaves
 * the members alone; the group can be waited on again. */
static void test_cancel_of_a_group_next_waiter_leaves_the_members(void) {
    struct gfix f;
    struct wk o, p, x;
    int i;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_NEXT, 0, PT_FOREVER);
    spawn_canceller(&x, &o.k.task, 5);
    spawn_owner(&p, "p", 6, &f.g, M_NEXT, 15, PT_FOREVER);
    p.nexts = 2;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.cleaned_at, 5);
    CHECK_EQ_INT(o.k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(o.results[0], 99);
    for (i = 0; i < 3; i++)
        CHECK_EQ_INT(pt_task_status(&f.m[i].k.task), PT_ENDED);
    CHECK(p.got[0] == &f.m[1].k.task);
    CHECK_EQ_INT(p.at[0], 15);
    CHECK(p.got[1] == &f.m[2].k.task);
    CHECK_EQ_INT(p.at[1], 20);
}

/* A cancel of a task in PT_GROUP_WAIT cancels the members, and the task
 * waits until they have finished (their cleanups sleep 5) before its own
 * cleanup. */
static void test_cancel_of_a_group_wait_owner_cancels_the_members_and_waits(void) {
    static const pt_time_t ticks[3] = {100, 100, 100};
    static const int n[3] = {1, 2, 3};
    struct gfix f;
    struct wk o, x;
    int i;
    group_of_three(&f, PT_GROUP_COLLECT, ticks, n, 5);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT, 0, PT_FOREVER);
    spawn_canceller(&x, &o.k.task, 10);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    for (i = 0; i < 3; i++) {
        CHECK_EQ_INT(pt_task_status(&f.m[i].k.task), PT_CLOSED);
        CHECK_EQ_INT(f.m[i].cleaned_at, 10);
    }
    CHECK_EQ_INT(o.k.result, 99);
    CHECK_EQ_INT(o.cleaned_at, 15);
    CHECK_EQ_INT(o.k.cleanups, 1);
    CHECK_EQ_INT(o.k.cleanup_result, PT_ECANCELLED); /* as a cancelled joiner's */
    CHECK_EQ_INT(pt_task_status(&o.k.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "a-1 b-1 c-1 o-1 ");
}

/* PT_GROUP_WAIT_RAISE: the owner fails with the error of the first member
 * to fail (b, -9 at 10; c would fail with -8 at 20: cancelled). */
static void test_group_wait_raise_fails_with_the_first_members_error(void) {
    static const pt_time_t ticks[3] = {5, 10, 20};
    static const int n[3] = {1, -9, -8};
    struct gfix f;
    struct wk o;
    group_of_three(&f, PT_GROUP_CANCEL_ON_FAIL, ticks, n, 0);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT_RAISE, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&o.k.task), PT_EXITED);
    CHECK_EQ_INT(o.k.task.gen.value.i, -9);
    CHECK_EQ_INT(pt_group_error(&f.g), -9);
    CHECK_EQ_INT(o.after, 0);
    CHECK_EQ_INT(o.cleaned_at, 10);
    CHECK_EQ_INT(pt_task_status(&f.m[2].k.task), PT_CLOSED);
}

/* Collecting, the first to fail is the first in completion order (c, -8
 * at 10, before b, -9 at 20). */
static void test_group_wait_raise_collecting_fails_with_the_first_to_fail(void) {
    static const pt_time_t ticks[3] = {5, 20, 10};
    static const int n[3] = {1, -9, -8};
    struct gfix f;
    struct wk o;
    group_of_three(&f, PT_GROUP_COLLECT, ticks, n, 0);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT_RAISE, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.k.task.gen.value.i, -8);
    CHECK_EQ_INT(o.cleaned_at, 20);
    CHECK_EQ_INT(pt_task_status(&f.m[1].k.task), PT_EXITED);
}

/* Its timeout: the members are cancelled, the owner fails with
 * PT_ETIMEDOUT once they have finished. */
static void test_group_wait_raise_that_times_out_fails_with_etimedout(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT_RAISE, 0, 15);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&o.k.task), PT_EXITED);
    CHECK_EQ_INT(o.k.task.gen.value.i, PT_ETIMEDOUT);
    CHECK_EQ_INT(o.cleaned_at, 15);
    CHECK_EQ_INT(pt_task_status(&f.m[1].k.task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[0].k.task), PT_CLOSED);
}

/* All return: the owner goes on. */
static void test_group_wait_raise_of_members_that_return_goes_on(void) {
    struct gfix f;
    struct wk o;
    group_30_10_20(&f);
    spawn_owner(&o, "o", 5, &f.g, M_WAIT_RAISE, 0, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(o.after, 1);
    CHECK_EQ_INT(o.k.result, PT_OK);
    CHECK_EQ_INT(pt_task_status(&o.k.task), PT_ENDED);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(every_joiner_gets_the_result)                                                                \
    X(joiners_wake_in_the_order_they_joined)                                                       \
    X(join_timeout_cancels_the_task_for_every_joiner)                                              \
    X(shielded_joiner_that_times_out_leaves_the_others)                                            \
    X(cancel_of_a_joiner_cancels_the_joined_task)                                                  \
    X(cancelled_joiner_runs_its_cleanup_after_the_joined_tasks)                                    \
    X(cancel_of_a_joiner_ends_the_other_joins_cancelled)                                           \
    X(cancel_of_a_shielded_joiner_leaves_the_task_running)                                         \
    X(shielded_join_timeout_returns_at_once_and_the_task_runs_on)                                  \
    X(join_raise_fails_with_the_tasks_error)                                                       \
    X(join_raise_of_a_task_failed_without_a_value_is_efailed)                                      \
    X(join_raise_of_a_cancelled_task_ends_cancelled)                                               \
    X(join_raise_that_times_out_fails_with_etimedout)                                              \
    X(join_raise_of_a_task_that_returns_goes_on)                                                   \
    X(task_error_tells_how_a_task_finished)                                                        \
    X(task_error_of_a_live_task_is_0)                                                              \
    X(join_in_a_cancelled_tasks_cleanup_gets_the_outcome)                                          \
    X(cancellation_raised_in_a_sub_ends_the_task_cancelled)                                        \
    X(join_in_a_cancelled_subs_cleanup_gets_the_outcome)                                           \
    X(group_members_are_kept_in_completion_order)                                                  \
    X(group_next_gives_the_first_to_complete)                                                      \
    X(group_next_gives_members_as_they_complete)                                                   \
    X(group_next_when_all_are_taken_is_einval)                                                     \
    X(group_next_gives_finished_members_without_waiting)                                           \
    X(group_next_timeout_cancels_nothing)                                                          \
    X(group_next_while_another_task_waits_is_ebusy)                                                \
    X(cancel_of_a_group_next_waiter_leaves_the_members)                                            \
    X(cancel_of_a_group_wait_owner_cancels_the_members_and_waits)                                  \
    X(group_wait_raise_fails_with_the_first_members_error)                                         \
    X(group_wait_raise_collecting_fails_with_the_first_to_fail)                                    \
    X(group_wait_raise_that_times_out_fails_with_etimedout)                                        \
    X(group_wait_raise_of_members_that_return_goes_on)
/* clang-format on */
TEST_MAIN(TEST_CASES)
