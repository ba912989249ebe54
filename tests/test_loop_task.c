/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_task.c - the contract of tasks (loop/core.h): join and
 * its results, join with a timeout (asyncio's wait_for), what spawn, join
 * and cancel refuse, and the loop not re-entered from a task. On the
 * virtual clock. Also built with PT_CONFIG_SYNC, PT_CONFIG_GROUPS and
 * PT_CONFIG_BACKGROUND 0, without the parts that need them. Cancellation in
 * every kind of wait and sub-coroutines: tests/test_loop_cancel.c.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "task_fixture.h"

/* ---- join ----------------------------------------------------------------- */

/* A joins B, which sleeps 10 and returns 42 (A spawned first). */
static void join_returning(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    b->ticks = 10;
    b->n = 42;
    a->other = b;
    a->timeout = PT_FOREVER;
    spawn(a, joiner);
    spawn(b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_join_of_a_returned_task_is_ok(void) {
    struct tk a, b;
    join_returning(&a, &b);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_ENDED);
}

static void test_join_gives_the_value_the_task_returned(void) {
    struct tk a, b;
    join_returning(&a, &b);
    CHECK_EQ_INT(a.got.i, 42);
    CHECK_EQ_INT(b.task.gen.value.i, 42);
}

static void test_join_returns_once_the_task_and_its_cleanup_ran(void) {
    struct tk a, b;
    join_returning(&a, &b);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
}

/* A join with a timeout that does not pass. */
static void join_within_timeout(struct tk *a, struct tk *b) {
    join_pair(a, b, 0, 1000);
    b->ticks = 10;
    b->n = 7;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_join_within_its_timeout_gives_the_result(void) {
    struct tk a, b;
    join_within_timeout(&a, &b);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 7);
    CHECK_EQ_INT(a.woke_at, 10);
}

static void test_join_timer_goes_when_the_task_ends_first(void) {
    struct tk a, b;
    join_within_timeout(&a, &b);
    CHECK_EQ_INT(since(0), 10); /* no jump to the join's deadline */
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A joins B, which sleeps 10 and fails with -7. */
static void join_failing(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    b->ticks = 10;
    b->n = -7;
    a->other = b;
    a->timeout = PT_FOREVER;
    spawn(a, joiner);
    spawn(b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_join_of_a_failed_task_is_efailed(void) {
    struct tk a, b;
    join_failing(&a, &b);
    CHECK_EQ_INT(a.result, PT_EFAILED);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_EXITED);
    CHECK_EQ_INT(b.cleanups, 1);
}

static void test_failed_task_keeps_its_error_value_as_result(void) {
    struct tk a, b;
    join_failing(&a, &b);
    CHECK_EQ_INT(b.task.gen.value.i, -7);
    CHECK_EQ_INT(a.got.i, -7);
}

/* A joins B (sleeping 100); X cancels B at 10, twice. */
static void join_cancelled(struct tk *a, struct tk *b, struct tk *x) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    tk_init(x, "X");
    b->ticks = 100;
    a->other = b;
    a->timeout = PT_FOREVER;
    x->ticks = 10;
    x->other = b;
    spawn(a, joiner);
    spawn(b, worker);
    spawn(x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_cancel_is_ok_once_then_einval(void) {
    struct tk a, b, x;
    join_cancelled(&a, &b, &x);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.rc2, PT_EINVAL); /* cancel twice */
}

static void test_join_of_a_cancelled_task_is_ecancelled(void) {
    struct tk a, b, x;
    join_cancelled(&a, &b, &x);
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(since(0), 10);
}

static void test_cancelled_task_is_closed_and_its_wait_never_ends(void) {
    struct tk a, b, x;
    join_cancelled(&a, &b, &x);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(b.woke_at, -1);
}

static void test_cancelled_task_cleanup_runs_once_before_its_joiner(void) {
    struct tk a, b, x;
    join_cancelled(&a, &b, &x);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "X B-1 A A-1 ");
}

/* Joining a task that has finished (outcome 0: returned, 1: failed, 2:
 * cancelled): its outcome at once, no stop. */
static void join_finished(int i) {
    struct tk a, b;
    static const int outcomes[3] = {5, -5, 0};
    static const int expect[3] = {PT_OK, PT_EFAILED, PT_ECANCELLED};
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.n = outcomes[i];
    spawn(&b, worker);
    if (i == 2)
        CHECK_EQ_INT(pt_task_cancel(&lp, &b.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&b.task));
    a.other = &b;
    a.timeout = PT_FOREVER;
    spawn(&a, joiner);
    pt_loop_run_once(&lp, 0);
    CHECK(pt_task_done(&a.task)); /* all in its first turn */
    CHECK_EQ_INT(a.result, expect[i]);
    CHECK_EQ_INT(a.got.i, i == 2 ? 0 : outcomes[i]);
    if (i == 2)
        CHECK_EQ_STR(trace.buf, "A A-1 ");
    else
        CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
}

static void test_join_of_a_task_that_returned_is_ok_at_once(void) {
    join_finished(0);
}

static void test_join_of_a_task_that_failed_is_efailed_at_once(void) {
    join_finished(1);
}

static void test_join_of_a_task_that_was_cancelled_is_ecancelled_at_once(void) {
    join_finished(2);
}

/* A join of itself: PT_EBUSY, and no stop. */
static PT_THREAD(self_joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->rc = pt_task_cancel(loop, task); /* nor can it cancel itself */
    PT_TASK_END();
}

/* A and D join B (sleeping 10, returning 3); S joins itself. One
 * iteration run. */
static void join_busy(struct tk *a, struct tk *a2, struct tk *b, struct tk *s) {
    setup(0);
    tk_init(a, "A");
    tk_init(a2, "D");
    tk_init(b, "B");
    tk_init(s, "S");
    b->ticks = 10;
    b->n = 3;
    a->other = a2->other = b;
    a->timeout = a2->timeout = PT_FOREVER;
    spawn(a, joiner);
    spawn(a2, joiner);
    spawn(b, worker);
    spawn(s, self_joiner);
    pt_loop_run_once(&lp, 0);
}

/* asyncio: any number of tasks may await one task, and all get its
 * result. */
static void test_second_join_of_a_task_waits_too(void) {
    struct tk a, a2, b, s;
    join_busy(&a, &a2, &b, &s);
    CHECK_EQ_INT(a.result, 99); /* both are waiting */
    CHECK_EQ_INT(a2.result, 99);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 3);
    CHECK_EQ_INT(a2.result, PT_OK);
    CHECK_EQ_INT(a2.got.i, 3);
    CHECK_EQ_INT(a2.woke_at, 10);
}

static void test_joiners_wake_in_the_order_they_joined(void) {
    struct tk a, a2, b, s;
    join_busy(&a, &a2, &b, &s);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 D D-1 ");
}

static void test_join_of_itself_is_ebusy_at_once(void) {
    struct tk a, a2, b, s;
    join_busy(&a, &a2, &b, &s);
    CHECK_EQ_INT(s.result, PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&s.task), PT_ENDED);
}

static void test_cancel_of_itself_is_ebusy(void) {
    struct tk a, a2, b, s;
    join_busy(&a, &a2, &b, &s);
    CHECK_EQ_INT(s.rc, PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ---- join with a timeout (wait_for) ----------------------------------------- */

/* A joins B (sleeping 100) with a timeout of 30. */
static void join_timing_out(struct tk *a, struct tk *b) {
    join_pair(a, b, 0, 30);
    b->ticks = 100;
    b->n = 1;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_join_timeout_is_etimedout_at_the_deadline(void) {
    struct tk a, b;
    join_timing_out(&a, &b);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 30);
    CHECK_EQ_INT(since(0), 30);
}

static void test_join_timeout_cancels_the_task(void) {
    struct tk a, b;
    join_timing_out(&a, &b);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* The awaited task is cancelled, its cleanup runs, then the joiner sees
 * PT_ETIMEDOUT. */
static void test_join_timeout_returns_after_the_task_cleanup(void) {
    struct tk a, b;
    join_timing_out(&a, &b);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleaned_at, 30);
    CHECK_EQ_STR(trace.buf, "B-1 A A-1 ");
}

/* Its cleanup takes 5 ticks: the joiner returns once it is done. */
static void test_join_timeout_waits_for_a_cleanup_that_sleeps(void) {
    struct tk a, b;
    join_pair(&a, &b, 0, 30);
    b.ticks = 100;
    b.cleanup_ticks = 5;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 35);
    CHECK_EQ_INT(b.cleaned_at, 30);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* Added: core.h's join "left to finish if it was in its cleanup section
 * already": the task returned and sleeps in its cleanup when the deadline
 * passes; it is not cancelled, and the joiner wakes when it has finished. */
static void test_join_timeout_lets_a_task_in_its_cleanup_finish(void) {
    struct tk a, b;
    join_pair(&a, &b, 0, 5);
    b.n = 42;
    b.cleanup_ticks = 20;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 20);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleanup_result, PT_OK); /* its own result, not a cancel */
    CHECK_EQ_INT(pt_task_status(&b.task), PT_ENDED);
    CHECK_EQ_INT(b.task.gen.value.i, 42);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
}

/* A zero timeout on a task still running: timed out at once (at the next
 * iteration, at the same time), the task cancelled. */
static void test_join_zero_timeout_cancels_a_running_task_at_once(void) {
    struct tk a, b;
    join_pair(&a, &b, 0, 0);
    b.ticks = 10;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 0);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(since(0), 0);
}

/* ... on a task that has not started yet: it never runs. */
static void test_join_zero_timeout_cancels_a_task_not_started(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    a.other = &b;
    a.timeout = 0;
    spawn(&a, spawn_join);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.rc, PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* ... and on a task that has finished: its result, at once. */
static void test_join_zero_timeout_of_a_finished_task_is_its_result(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.n = 9;
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    a.other = &b;
    a.timeout = 0;
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 9);
}

/* A joins B (sleeping 100) with a timeout of 30; X cancels B at `at`. */
static void join_timeout_and_cancel(struct tk *a, struct tk *b, struct tk *x, pt_time_t at) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    tk_init(x, "X");
    b->ticks = 100;
    a->other = b;
    a->timeout = 30;
    x->ticks = at;
    x->other = b;
    spawn(x, canceller);
    spawn(b, worker);
    spawn(a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The deadline passes in the same iteration as another task cancels the
 * awaited one: the timeout (processed first) wins, the cancel finds the
 * task already being cancelled, the cleanup runs once. */
static void test_join_timeout_wins_over_a_cancel_at_the_same_time(void) {
    struct tk a, b, x;
    join_timeout_and_cancel(&a, &b, &x, 30);
    CHECK_EQ_INT(x.woke_at, 30);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 30);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* The cancel one tick before the deadline: the joiner sees the
 * cancellation, and its own timer is gone. */
static void test_cancel_before_the_join_timeout_is_ecancelled(void) {
    struct tk a, b, x;
    join_timeout_and_cancel(&a, &b, &x, 29);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_INT(a.woke_at, 29);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(since(0), 29);
}

/* The awaited task's own timer fires in the same iteration as the
 * deadline: it had not run yet, so the timeout still wins. */
static void test_join_timeout_wins_over_the_task_timer_at_the_same_time(void) {
    struct tk a, b;
    join_pair(&a, &b, 0, 30);
    b.ticks = 30;
    b.n = 4;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* One tick earlier and it finished first. */
static void test_task_ending_before_the_join_timeout_gives_its_result(void) {
    struct tk a, b;
    join_pair(&a, &b, 0, 30);
    b.ticks = 29;
    b.n = 4;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 4);
    CHECK_EQ_INT(since(0), 29);
}

/* Joins `other` with `timeout`; its cleanup cancels `other` and waits for
 * it (so a cancel of this task reaches the one it awaits). */
static PT_THREAD(joiner_propagating(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_RETURN(pt_value_int(k->result));
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    k->cleaned_at = (long)pt_loop_now(loop);
    if (pt_task_cancel(loop, &k->other->task) == PT_OK) {
        PT_JOIN(&k->other->task, PT_FOREVER);
        k->rc = PT_WAIT_RESULT();
    }
    note_n(k->name, -1);
    PT_TASK_END();
}

/* Nested timeouts: A joins B with a timeout of a_timeout, B (body b_fn)
 * joins C (sleeping 1000) with b_timeout. */
static void join_nested(struct tk *a, struct tk *b, struct tk *c, pt_time_t a_timeout,
                        pt_time_t b_timeout, pt_task_fn b_fn) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    tk_init(c, "C");
    c->ticks = 1000;
    b->other = c;
    b->timeout = b_timeout;
    a->other = b;
    a->timeout = a_timeout;
    spawn(a, joiner);
    spawn(b, b_fn);
    spawn(c, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The inner one first: B times out at 50, C is cancelled; B goes on and
 * returns; A sees B's result. */
static void test_inner_join_timeout_lets_the_outer_join_see_the_result(void) {
    struct tk a, b, c;
    join_nested(&a, &b, &c, 100, 50, joiner);
    CHECK_EQ_INT(b.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.woke_at, 50);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 50);
    CHECK_EQ_INT(since(0), 50);
}

static void test_inner_join_timeout_cancels_only_the_innermost_task(void) {
    struct tk a, b, c;
    join_nested(&a, &b, &c, 100, 50, joiner);
    CHECK_EQ_INT(c.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&c.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "C-1 B B-1 A A-1 ");
}

/* The outer one first: A times out at 50 and cancels B; B's cleanup
 * cancels C and waits for it; then A sees PT_ETIMEDOUT. */
static void test_outer_join_timeout_is_etimedout(void) {
    struct tk a, b, c;
    join_nested(&a, &b, &c, 50, 100, joiner_propagating);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 50);
    CHECK_EQ_INT(b.result, 99); /* B's join never returned */
    CHECK_EQ_INT(since(0), 50);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* The cancel of B goes down to C, which B joins, and B waits for C's
 * cleanup before its own: B's cleanup finds nothing left to cancel. */
static void test_outer_join_timeout_cancels_down_the_chain_of_joins(void) {
    struct tk a, b, c;
    join_nested(&a, &b, &c, 50, 100, joiner_propagating);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.rc, 99);
    CHECK_EQ_INT(c.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&c.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "C-1 B-1 A A-1 ");
}

/* ---- what spawn, cancel and join refuse -------------------------------- */

/* Spawns `other` (already spawned and alive) again, in every state: rc is
 * what pt_loop_spawn said while other was queued, rc2 while it slept. */
static PT_THREAD(respawner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_spawn(loop, &k->other->task, worker); /* other is queued */
    PT_TASK_YIELD();                                      /* other now sleeps */
    k->rc2 = pt_loop_spawn(loop, &k->other->task, worker);
    k->result = pt_loop_spawn(loop, task, worker); /* itself: running */
    note(k->name);
    PT_TASK_END();
}

/* A task that is alive (queued, sleeping, running) is spawned again:
 * B (respawner) tries A (sleeping 10) and itself; so does the test, while
 * A is queued. */
static void spawn_alive(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    b->other = a;
    spawn(b, respawner);
    a->ticks = 10;
    spawn(a, worker);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a->task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_spawn_of_a_queued_task_is_ebusy(void) {
    struct tk a, b;
    spawn_alive(&a, &b);
    CHECK_EQ_INT(b.rc, PT_EBUSY);
}

static void test_spawn_of_a_sleeping_task_is_ebusy(void) {
    struct tk a, b;
    spawn_alive(&a, &b);
    CHECK_EQ_INT(b.rc2, PT_EBUSY);
}

static void test_spawn_of_the_running_task_is_ebusy(void) {
    struct tk a, b;
    spawn_alive(&a, &b);
    CHECK_EQ_INT(b.result, PT_EBUSY);
}

/* ... and nothing changes: it sleeps its full time, finishes once, no
 * timer is left. */
static void test_refused_spawn_changes_nothing(void) {
    struct tk a, b;
    spawn_alive(&a, &b);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_STR(trace.buf, "B A A-1 ");
}

/* In its cleanup section (sleeping there): still alive. */
static void test_spawn_of_a_task_in_its_cleanup_is_ebusy(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    a.cleanup_ticks = 10;
    spawn(&a, worker);
    pt_loop_run_once(&lp, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Task memory that held something else (here: bytes that make its fields
 * read as a task alive and running, the worst left-overs) is free: spawn
 * takes it without zeroing, and it runs as a fresh task does. */
static void test_spawn_needs_no_zeroed_memory(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    a.ticks = 10;
    a.n = 5;
    memset(&a.task, 0xA5, sizeof a.task);
    a.task.fn = worker;      /* a function, as a live task has */
    a.task.gen.state = 0x20; /* in its body */
    a.task.gen.aux = 0;
    pt__set_place(&a.task, PT__PLACE_PARKED); /* parked */
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, worker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_INT(a.task.gen.value.i, 5);
}

/* A finished task's memory, part of it overwritten since (its state byte
 * zeroed, as by a later use of the same stack), is free: a task loses its
 * mark when it finishes. */
static void test_spawn_takes_a_finished_task_whose_state_was_overwritten(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    a.task.gen.state = 0; /* (reads as a task not started) */
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, worker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 2);
}

/* A task alive is refused (its spawn wrote what left-over bytes do not
 * hold), and free again once finished. */
static void test_spawn_of_a_task_alive_here_is_ebusy_and_free_once_finished(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    a.ticks = 10;
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, joiner), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 1);
    /* Finished: free again, on this loop as on any other. */
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, worker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 2);
}

#if PT_CONFIG_BACKGROUND
/* A queued task spawned again as a background task: refused the same way,
 * and it runs as before. */
static void test_spawn_background_of_an_alive_task_is_ebusy(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    a.ticks = 10;
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &a.task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}
#define BACKGROUND_CASES(X) X(spawn_background_of_an_alive_task_is_ebusy)
#else
#define BACKGROUND_CASES(X)
#endif

/* A task never spawned (zeroed memory, or with `left_over` bytes that
 * make it look queued): A joins B with a timeout of 5, then B is spawned.
 * Returns what cancelling B said first. */
static int never_spawned_in(struct tk *a, struct tk *b, int left_over) {
    int rc;
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    if (left_over) {
        memset(&b->task, 0xA5, sizeof b->task);
        b->task.fn = worker;
        b->task.gen.state = 0x20;
        b->task.gen.aux = 0;
        pt__set_place(&b->task, PT__PLACE_QUEUED);
    }
    a->other = b;
    a->timeout = 5;
    rc = pt_task_cancel(&lp, &b->task);
    spawn(a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(0), 0);
    spawn(b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    return rc;
}

static int never_spawned(struct tk *a, struct tk *b) {
    return never_spawned_in(a, b, 0);
}

/* The same when B's memory was never zeroed: what it holds is not read. */
static void test_cancel_and_join_of_unzeroed_memory_never_spawned_are_einval(void) {
    struct tk a, b;
    CHECK_EQ_INT(never_spawned_in(&a, &b, 1), PT_EINVAL);
    CHECK_EQ_INT(a.result, PT_EINVAL);
    CHECK_EQ_INT(a.woke_at, 0);
    CHECK_EQ_INT(b.runs, 1);
}

static void test_cancel_of_a_never_spawned_task_is_einval(void) {
    struct tk a, b;
    CHECK_EQ_INT(never_spawned(&a, &b), PT_EINVAL);
}

static void test_join_of_a_never_spawned_task_is_einval_at_once(void) {
    struct tk a, b;
    never_spawned(&a, &b);
    CHECK_EQ_INT(a.result, PT_EINVAL);
    CHECK_EQ_INT(a.woke_at, 0);
}

static void test_task_refused_before_its_spawn_runs_as_usual(void) {
    struct tk a, b;
    never_spawned(&a, &b);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_STR(trace.buf, "A A-1 B B-1 ");
}

/* Added: core.h's pt_task_status is 0 while the task is alive (queued,
 * sleeping, in its cleanup section), its final status once it finished. */
static void test_task_status_is_0_while_alive(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "A");
    a.ticks = 5;
    a.n = 3;
    a.cleanup_ticks = 5;
    spawn(&a, worker);
    CHECK_EQ_INT(pt_task_status(&a.task), 0); /* queued */
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), 0); /* sleeping */
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), 0); /* sleeping in its cleanup */
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK(pt_task_done(&a.task));
}

/* core.h's cancel, as asyncio's: a cancel of a task that joins another
 * cancels that one too, and the joiner's cleanup runs once it has
 * finished. A joins B (sleeping 20, returning 5); X cancels A at 5; C,
 * joining B afterwards, learns that B was cancelled. */
static void test_cancel_of_a_joiner_cancels_the_joined_task(void) {
    struct tk a, b, x, c;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&x, "X");
    tk_init(&c, "C");
    b.ticks = 20;
    b.n = 5;
    a.other = &b;
    a.timeout = PT_FOREVER;
    x.ticks = 5;
    x.other = &a;
    spawn(&a, joiner);
    spawn(&b, worker);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_CLOSED);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(a.result, 99);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK(pt_task_done(&b.task));
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "X B-1 A-1 "); /* B's cleanup before A's */
    c.other = &b;
    c.timeout = PT_FOREVER;
    spawn(&c, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_ECANCELLED);
    CHECK_EQ_INT(since(0), 5);
}

/* ---- the loop is not re-entered ---------------------------------------- */

static PT_THREAD(reenter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_run(loop);
    k->rc2 = pt_loop_run_until(loop, &k->other->task);
    k->result = pt_loop_run_once(loop, 1);
    note(k->name);
    PT_TASK_END();
}

/* Running the loop from inside one of its tasks: A tries all three ways;
 * B sleeps 2. */
static void run_inside_task(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    a->other = b;
    b->ticks = 2;
    spawn(a, reenter);
    spawn(b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_run_inside_a_task_is_ebusy(void) {
    struct tk a, b;
    run_inside_task(&a, &b);
    CHECK_EQ_INT(a.rc, PT_EBUSY);
}

static void test_run_until_inside_a_task_is_0(void) {
    struct tk a, b;
    run_inside_task(&a, &b);
    CHECK_EQ_INT(a.rc2, 0);
}

static void test_run_once_inside_a_task_is_ebusy(void) {
    struct tk a, b;
    run_inside_task(&a, &b);
    CHECK_EQ_INT(a.result, PT_EBUSY);
}

/* ... and changes nothing: the other task still runs, in its turn. */
static void test_refused_run_inside_a_task_changes_nothing(void) {
    struct tk a, b;
    run_inside_task(&a, &b);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_INT(b.woke_at, 2);
    CHECK_EQ_STR(trace.buf, "A B B-1 ");
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(join_of_a_returned_task_is_ok)                                                               \
    X(join_gives_the_value_the_task_returned)                                                      \
    X(join_returns_once_the_task_and_its_cleanup_ran)                                              \
    X(join_within_its_timeout_gives_the_result)                                                    \
    X(join_timer_goes_when_the_task_ends_first)                                                    \
    X(join_of_a_failed_task_is_efailed)                                                            \
    X(failed_task_keeps_its_error_value_as_result)                                                 \
    X(cancel_is_ok_once_then_einval)                                                               \
    X(join_of_a_cancelled_task_is_ecancelled)                                                      \
    X(cancelled_task_is_closed_and_its_wait_never_ends)                                            \
    X(cancelled_task_cleanup_runs_once_before_its_joiner)                                          \
    X(join_of_a_task_that_returned_is_ok_at_once)                                                  \
    X(join_of_a_task_that_failed_is_efailed_at_once)                                               \
    X(join_of_a_task_that_was_cancelled_is_ecancelled_at_once)                                     \
    X(second_join_of_a_task_waits_too)                                                             \
    X(joiners_wake_in_the_order_they_joined)                                                       \
    X(join_of_itself_is_ebusy_at_once)                                                             \
    X(cancel_of_itself_is_ebusy)                                                                   \
    X(join_timeout_is_etimedout_at_the_deadline)                                                   \
    X(join_timeout_cancels_the_task)                                                               \
    X(join_timeout_returns_after_the_task_cleanup)                                                 \
    X(join_timeout_waits_for_a_cleanup_that_sleeps)                                                \
    X(join_timeout_lets_a_task_in_its_cleanup_finish)                                              \
    X(join_zero_timeout_cancels_a_running_task_at_once)                                            \
    X(join_zero_timeout_cancels_a_task_not_started)                                                \
    X(join_zero_timeout_of_a_finished_task_is_its_result)                                          \
    X(join_timeout_wins_over_a_cancel_at_the_same_time)                                            \
    X(cancel_before_the_join_timeout_is_ecancelled)                                                \
    X(join_timeout_wins_over_the_task_timer_at_the_same_time)                                      \
    X(task_ending_before_the_join_timeout_gives_its_result)                                        \
    X(inner_join_timeout_lets_the_outer_join_see_the_result)                                       \
    X(inner_join_timeout_cancels_only_the_innermost_task)                                          \
    X(outer_join_timeout_is_etimedout)                                                             \
    X(outer_join_timeout_cancels_down_the_chain_of_joins)                                          \
    X(spawn_of_a_queued_task_is_ebusy)                                                             \
    X(spawn_of_a_sleeping_task_is_ebusy)                                                           \
    X(spawn_of_the_running_task_is_ebusy)                                                          \
    X(refused_spawn_changes_nothing)                                                               \
    X(spawn_of_a_task_in_its_cleanup_is_ebusy)                                                     \
    X(spawn_needs_no_zeroed_memory)                                                                \
    X(spawn_takes_a_finished_task_whose_state_was_overwritten)                                     \
    X(spawn_of_a_task_alive_here_is_ebusy_and_free_once_finished)                                  \
    BACKGROUND_CASES(X)                                                                            \
    X(cancel_of_a_never_spawned_task_is_einval)                                                    \
    X(join_of_a_never_spawned_task_is_einval_at_once)                                              \
    X(cancel_and_join_of_unzeroed_memory_never_spawned_are_einval)                                 \
    X(task_refused_before_its_spawn_runs_as_usual)                                                 \
    X(task_status_is_0_while_alive)                                                                \
    X(cancel_of_a_joiner_cancels_the_joined_task)                                                  \
    X(run_inside_a_task_is_ebusy)                                                                  \
    X(run_until_inside_a_task_is_0)                                                                \
    X(run_once_inside_a_task_is_ebusy)                                                             \
    X(refused_run_inside_a_task_changes_nothing)
/* clang-format on */
TEST_MAIN(TEST_CASES)
