/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_cancel.c - the contract of cancellation (loop/core.h's
 * pt_task_cancel) in every kind of wait: before a task starts, in the ready
 * queue, on an event, a semaphore or a queue, inside sub-coroutines
 * (PT_SUB_BEGIN / PT_AWAIT), in a cleanup section; and a task's result
 * kept through its cleanup. On the virtual clock. Also built with
 * PT_CONFIG_SYNC, PT_CONFIG_GROUPS and PT_CONFIG_BACKGROUND 0, without the sync
 * objects' part.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "task_fixture.h"

/* ---- before it starts, and queued ------------------------------------------ */

/* B (a worker) and its joiner J are spawned, then B is cancelled before
 * it ever ran. */
static void cancel_before_start(struct tk *b, struct tk *j) {
    setup(0);
    tk_init(b, "B");
    tk_init(j, "J");
    j->other = b;
    j->timeout = PT_FOREVER;
    spawn(b, worker);
    spawn(j, joiner);
    CHECK_EQ_INT(pt_task_cancel(&lp, &b->task), PT_OK);
}

/* It finishes when its turn in the ready queue comes: until then it is
 * not done, and being cancelled already, it cannot be cancelled again. */
static void test_task_cancelled_before_start_is_not_done_until_its_turn(void) {
    struct tk b, j;
    cancel_before_start(&b, &j);
    CHECK_EQ_INT(pt_task_cancel(&lp, &b.task), PT_EINVAL);
    CHECK(!pt_task_done(&b.task));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

/* Its body never runs, nor its cleanup. */
static void test_task_cancelled_before_start_never_runs(void) {
    struct tk b, j;
    cancel_before_start(&b, &j);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
}

/* A joiner then sees PT_ECANCELLED, and joining it afterwards gives that
 * at once. */
static void test_join_of_a_task_cancelled_before_start_is_ecancelled(void) {
    struct tk a, b, j;
    cancel_before_start(&b, &j);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(j.result, PT_ECANCELLED);
    tk_init(&a, "A");
    a.other = &b;
    a.timeout = PT_FOREVER;
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "J J-1 A A-1 ");
}

/* Cancelled, not yet started, with a joiner already waiting on it. */
static void test_cancel_before_start_wakes_a_joiner_already_waiting(void) {
    struct tk b, j;
    setup(0);
    tk_init(&b, "B");
    tk_init(&j, "J");
    j.other = &b;
    j.timeout = PT_FOREVER;
    spawn(&j, spawn_join);
    pt_loop_run_once(&lp, 0); /* j spawned b and waits on it */
    CHECK_EQ_INT(j.rc, PT_OK);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &b.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(j.result, PT_ECANCELLED);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
    CHECK_EQ_STR(trace.buf, "J J-1 ");
}

/* A and B queued (workers), A cancelled before it ever ran. */
static void cancel_first_of_two(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "A");
    tk_init(b, "B");
    spawn(a, worker);
    spawn(b, worker);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a->task), PT_OK);
}

/* Not done until its turn in the ready queue comes (as in asyncio), so it
 * cannot be spawned again meanwhile. */
static void test_spawn_of_a_task_cancelled_before_start_is_ebusy(void) {
    struct tk a, b;
    cancel_first_of_two(&a, &b);
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 0);
}

/* The tasks queued after it still run. */
static void test_tasks_queued_after_a_cancelled_one_still_run(void) {
    struct tk a, b;
    cancel_first_of_two(&a, &b);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 0);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_STR(trace.buf, "B B-1 ");
}

/* Finished now: it may be spawned again, and runs. */
static void test_task_cancelled_before_start_may_be_spawned_once_done(void) {
    struct tk a, b;
    cancel_first_of_two(&a, &b);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
}

/* Notes y0, yields, notes y1. */
static PT_THREAD(yield_then(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note("y0");
    PT_TASK_YIELD();
    note("y1");
    CLEANUP_SECTION(k);
}

/* Y (yield_then, with a cleanup sleeping 20) is cancelled after it
 * yielded (it is in the ready queue); one more iteration is run. */
static void cancel_queued(struct tk *a) {
    setup(0);
    tk_init(a, "Y");
    a->cleanup_ticks = 20;
    spawn(a, yield_then);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a->task), PT_OK);
    pt_loop_run_once(&lp, 0);
}

/* The code after the yield never runs. */
static void test_cancel_after_a_yield_skips_the_rest_of_the_body(void) {
    struct tk a;
    cancel_queued(&a);
    CHECK_EQ_STR(trace.buf, "y0 Y-1 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_STR(trace.buf, "y0 Y-1 ");
}

/* Cancelled while its cleanup waits: PT_EINVAL, and the cleanup goes on
 * to its end. */
static void test_cancel_in_a_cleanup_is_einval_and_leaves_its_wait(void) {
    struct tk a;
    cancel_queued(&a);
    CHECK(!pt_task_done(&a.task)); /* its cleanup sleeps */
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_EINVAL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1); /* and the second cancel left it */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(0), 20);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
}

/* Sleeps 100; its cleanup returns 7 (or fails with 9 if `n`). */
static PT_THREAD(returns_in_cleanup(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(100);
    note("woke");
    PT_TASK_CLEANUP();
    k->cleanups++;
    if (k->n)
        PT_TASK_FAIL(pt_value_int(9));
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_END();
}

/* A cancelled task whose cleanup returns ends with that result, not
 * cancelled, and its joiner sees PT_OK: a `return` in a `finally`
 * suppresses asyncio's CancelledError. */
static void test_return_in_a_cancelled_tasks_cleanup_replaces_the_cancel(void) {
    struct tk a, j;
    setup(0);
    tk_init(&a, "A");
    tk_init(&j, "J");
    j.other = &a;
    j.timeout = PT_FOREVER;
    spawn(&a, returns_in_cleanup);
    spawn(&j, joiner);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_INT((int)a.task.gen.value.i, 7);
    CHECK_EQ_INT(j.result, PT_OK);
}

/* A failure there replaces it too, as a `raise` in a `finally` does. */
static void test_fail_in_a_cancelled_tasks_cleanup_replaces_the_cancel(void) {
    struct tk a, j;
    setup(0);
    tk_init(&a, "A");
    tk_init(&j, "J");
    a.n = 1;
    j.other = &a;
    j.timeout = PT_FOREVER;
    spawn(&a, returns_in_cleanup);
    spawn(&j, joiner);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_EXITED);
    CHECK_EQ_INT(pt_task_error(&a.task), 9);
    CHECK_EQ_INT(j.result, PT_EFAILED);
}

static void test_cancel_of_a_finished_task_is_einval(void) {
    struct tk a;
    cancel_queued(&a);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&a.task));
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_EINVAL); /* finished */
}

/* ---- waiting on an event, a semaphore, a queue ------------------------- */

#if PT_CONFIG_SYNC
/* Waits on its event, semaphore or queue (whichever is set), no timeout. */
static PT_THREAD(sync_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    if (k->ev)
        PT_EVENT_WAIT(k->ev, PT_FOREVER);
    else if (k->sem)
        PT_SEMAPHORE_ACQUIRE(k->sem, PT_FOREVER);
    else
        PT_QUEUE_GET(k->q, &k->item, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    CLEANUP_SECTION(k);
}

enum { ON_EVENT, ON_SEMAPHORE, ON_QUEUE };

struct sync_fixture {
    struct pt_event ev;
    struct pt_semaphore sem;
    struct pt_queue q;
    pt_value slots[2];
    struct tk w1, w2, w3, j;
};

/* W, V and U wait on one object of `kind`; J joins V; V is cancelled
 * (twice) and one more iteration is run. */
static void cancel_sync_waiter(struct sync_fixture *f, int kind) {
    setup(0);
    pt_event_init(&f->ev);
    pt_semaphore_init(&f->sem, 0);
    pt_queue_init(&f->q, f->slots, 2);
    tk_init(&f->w1, "W");
    tk_init(&f->w2, "V");
    tk_init(&f->w3, "U");
    tk_init(&f->j, "J");
    f->w1.ev = f->w2.ev = f->w3.ev = kind == ON_EVENT ? &f->ev : NULL;
    f->w1.sem = f->w2.sem = f->w3.sem = kind == ON_SEMAPHORE ? &f->sem : NULL;
    f->w1.q = f->w2.q = f->w3.q = &f->q;
    f->j.other = &f->w2;
    f->j.timeout = PT_FOREVER;
    spawn(&f->w1, sync_waiter);
    spawn(&f->w2, sync_waiter);
    spawn(&f->w3, sync_waiter);
    spawn(&f->j, joiner);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &f->w2.task), PT_OK);
    CHECK_EQ_INT(pt_task_cancel(&lp, &f->w2.task), PT_EINVAL);
    pt_loop_run_once(&lp, 0);
}

/* Its cleanup runs once, at once, and it is closed. */
static void cancelled_waiter_cleanup(int kind) {
    struct sync_fixture f;
    cancel_sync_waiter(&f, kind);
    CHECK_EQ_INT(f.w2.cleanups, 1);
    CHECK_EQ_INT(f.w2.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&f.w2.task), PT_CLOSED);
    CHECK_EQ_INT(f.w2.result, 99);
}

/* It left the waiter list at once: signalled twice afterwards, exactly
 * the two others get it; the joiner sees PT_ECANCELLED. */
static void signal_after_cancel(struct sync_fixture *f, int kind) {
    cancel_sync_waiter(f, kind);
    if (kind == ON_EVENT) {
        pt_event_set(&lp, &f->ev);
    } else if (kind == ON_SEMAPHORE) {
        pt_semaphore_release(&lp, &f->sem);
        pt_semaphore_release(&lp, &f->sem);
    } else {
        CHECK(pt_queue_try_put(&lp, &f->q, pt_value_int(11)));
        CHECK(pt_queue_try_put(&lp, &f->q, pt_value_int(12)));
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f->j.result, PT_ECANCELLED);
    CHECK_EQ_INT(f->w1.result, PT_OK);
    CHECK_EQ_INT(f->w3.result, PT_OK);
    CHECK_EQ_INT(f->w2.result, 99);
    CHECK_EQ_STR(trace.buf, "V-1 J J-1 W W-1 U U-1 ");
}

static void test_cancelled_event_waiter_runs_its_cleanup_at_once(void) {
    cancelled_waiter_cleanup(ON_EVENT);
}

static void test_event_set_after_a_cancel_wakes_only_the_others(void) {
    struct sync_fixture f;
    signal_after_cancel(&f, ON_EVENT);
}

static void test_cancelled_semaphore_waiter_runs_its_cleanup_at_once(void) {
    cancelled_waiter_cleanup(ON_SEMAPHORE);
}

static void test_semaphore_units_after_a_cancel_go_to_the_others(void) {
    struct sync_fixture f;
    signal_after_cancel(&f, ON_SEMAPHORE);
    CHECK_EQ_INT(f.sem.count, 0);
}

static void test_cancelled_queue_getter_runs_its_cleanup_at_once(void) {
    cancelled_waiter_cleanup(ON_QUEUE);
}

static void test_queue_values_after_a_cancel_go_to_the_others(void) {
    struct sync_fixture f;
    signal_after_cancel(&f, ON_QUEUE);
    CHECK_EQ_INT(f.w1.item.i, 11);
    CHECK_EQ_INT(f.w3.item.i, 12);
    CHECK_EQ_INT(f.w2.item.i, 0);
    CHECK_EQ_INT(f.q.count, 0);
}

#define SYNC_CASES(X)                                                                              \
    X(cancelled_event_waiter_runs_its_cleanup_at_once)                                             \
    X(event_set_after_a_cancel_wakes_only_the_others)                                              \
    X(cancelled_semaphore_waiter_runs_its_cleanup_at_once)                                         \
    X(semaphore_units_after_a_cancel_go_to_the_others)                                             \
    X(cancelled_queue_getter_runs_its_cleanup_at_once)                                             \
    X(queue_values_after_a_cancel_go_to_the_others)
#else
#define SYNC_CASES(X)
#endif

/* ---- sub-coroutines ---------------------------------------------------------- */

/* A sub-coroutine that sleeps `ticks`, then returns 7; and one that awaits
 * it (two levels). */
static PT_THREAD(sub_sleep(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    note("s2");
    PT_SLEEP(k->ticks);
    k->sub_result = PT_WAIT_RESULT();
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_CLEANUP();
    k->sub2_cleanups++;
    note("s2-c");
    PT_SUB_END();
}

static PT_THREAD(sub_outer(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    note("s1");
    PT_AWAIT(g, &k->sub2, sub_sleep(loop, task, &k->sub2));
    PT_TASK_RETURN(pt_value_int(k->sub2.value.i * 10));
    PT_TASK_CLEANUP();
    k->sub_cleanups++;
    note("s1-c");
    PT_SUB_END();
}

/* Awaits sub_outer (or sub_sleep directly if n == 1); keeps its result. */
static PT_THREAD(sub_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->n == 1)
        PT_AWAIT(&task->gen, &k->sub, sub_sleep(loop, task, &k->sub));
    else
        PT_AWAIT(&task->gen, &k->sub, sub_outer(loop, task, &k->sub));
    k->got = k->sub.value;
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_RETURN(k->got);
    CLEANUP_SECTION(k);
}

/* T awaits two levels of sub-coroutines, run to the end. */
static void sub_to_the_end(struct tk *a) {
    setup(0);
    tk_init(a, "T");
    a->ticks = 10;
    spawn(a, sub_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), PT_ENDED);
}

static void test_sub_coroutine_results_travel_up(void) {
    struct tk a;
    sub_to_the_end(&a);
    CHECK_EQ_INT(a.sub_result, PT_OK);
    CHECK_EQ_INT(a.got.i, 70);
    CHECK_EQ_INT(a.task.gen.value.i, 70);
    CHECK_EQ_INT(a.woke_at, 10);
}

static void test_sub_coroutine_cleanups_run_innermost_first_on_return(void) {
    struct tk a;
    sub_to_the_end(&a);
    CHECK_EQ_STR(trace.buf, "s1 s2 s2-c s1-c T T-1 ");
}

/* T awaits `depth` levels of sub-coroutines; J joins it; X cancels it at
 * 10 while the innermost sleeps. One iteration run. */
static void cancel_in_sub_start(int depth, struct tk *a, struct tk *j, struct tk *x) {
    setup(0);
    tk_init(a, "T");
    tk_init(j, "J");
    tk_init(x, "X");
    a->n = depth == 1 ? 1 : 0;
    a->ticks = 100;
    x->ticks = 10;
    x->other = a;
    j->other = a;
    j->timeout = PT_FOREVER;
    spawn(a, sub_task);
    spawn(j, joiner);
    spawn(x, canceller);
    pt_loop_run_once(&lp, 1);
}

/* ... run to the end. */
static void cancel_in_sub(int depth, struct tk *a, struct tk *j, struct tk *x) {
    cancel_in_sub_start(depth, a, j, x);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The innermost sleep's timer is gone at once. */
static void test_cancel_in_a_sub_coroutine_drops_its_timer_at_once(void) {
    struct tk a, j, x;
    int depth;
    for (depth = 1; depth <= 2; depth++) {
        cancel_in_sub_start(depth, &a, &j, &x);
        CHECK_EQ_INT(pt_loop_timers(&lp), 2);
        pt_loop_run_once(&lp, 1);
        CHECK_EQ_INT(x.rc, PT_OK);
        CHECK_EQ_INT(x.rc2, PT_EINVAL);
        CHECK_EQ_INT(pt_loop_timers(&lp), 0);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(since(0), 10);
    }
}

/* Every cleanup runs once, the sub-coroutine's first; the sleep never
 * ended. */
static void test_cancel_in_a_sub_coroutine_runs_its_cleanup_then_the_task(void) {
    struct tk a, j, x;
    cancel_in_sub(1, &a, &j, &x);
    CHECK_EQ_INT(a.sub2_cleanups, 1);
    CHECK_EQ_INT(a.sub_cleanups, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(a.sub_result, 99); /* the sleep never ended */
    CHECK_EQ_INT(a.woke_at, -1);
    CHECK_EQ_STR(trace.buf, "s2 X s2-c T-1 J J-1 ");
}

/* Two levels: every cleanup runs once, innermost first. */
static void test_cancel_in_nested_sub_coroutines_runs_cleanups_innermost_first(void) {
    struct tk a, j, x;
    cancel_in_sub(2, &a, &j, &x);
    CHECK_EQ_INT(a.sub2_cleanups, 1);
    CHECK_EQ_INT(a.sub_cleanups, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(a.sub_result, 99);
    CHECK_EQ_INT(a.woke_at, -1);
    CHECK_EQ_STR(trace.buf, "s1 s2 X s2-c s1-c T-1 J J-1 ");
}

static void test_join_of_a_task_cancelled_in_a_sub_coroutine_is_ecancelled(void) {
    struct tk a, j, x;
    int depth;
    for (depth = 1; depth <= 2; depth++) {
        cancel_in_sub(depth, &a, &j, &x);
        CHECK_EQ_INT(j.result, PT_ECANCELLED);
        CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    }
}

/* A sub-coroutine that fails: the awaiting task goes on, and finds the
 * failure and its value in the sub's generator. */
static PT_THREAD(sub_fail(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    PT_SLEEP(k->ticks);
    PT_TASK_FAIL(pt_value_int(-33));
    PT_TASK_CLEANUP();
    k->sub_cleanups++;
    PT_SUB_END();
}

static PT_THREAD(sub_fail_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &k->sub, sub_fail(loop, task, &k->sub));
    k->rc = pt_gen_status(&k->sub);
    k->got = k->sub.value;
    PT_TASK_FAIL(k->got);
    PT_TASK_END();
}

/* T awaits sub_fail, then fails with the sub's value. */
static void sub_failing(struct tk *a) {
    setup(0);
    tk_init(a, "T");
    a->ticks = 3;
    spawn(a, sub_fail_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), PT_EXITED);
}

static void test_sub_coroutine_failure_and_value_reach_the_awaiting_task(void) {
    struct tk a;
    sub_failing(&a);
    CHECK_EQ_INT(a.rc, PT_EXITED);
    CHECK_EQ_INT(a.got.i, -33);
    CHECK_EQ_INT(a.task.gen.value.i, -33);
}

static void test_failed_sub_coroutine_runs_its_cleanup(void) {
    struct tk a;
    sub_failing(&a);
    CHECK_EQ_INT(a.sub_cleanups, 1);
}

/* A sub-coroutine that returns 5, then sleeps in its cleanup and keeps
 * the wait's result. */
static PT_THREAD(sub_slow_cleanup(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    PT_TASK_RETURN(pt_value_int(5));
    PT_TASK_CLEANUP();
    PT_SLEEP(k->cleanup_ticks);
    k->sub_result = PT_WAIT_RESULT();
    k->sub_cleanups++;
    PT_SUB_END();
}

static PT_THREAD(sub_slow_cleanup_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &k->sub, sub_slow_cleanup(loop, task, &k->sub));
    k->got = k->sub.value;
    PT_TASK_RETURN(k->got);
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* The task is cancelled while its sub-coroutine's cleanup sleeps: that
 * sleep ends at once with PT_ECANCELLED, then both cleanups finish. */
static void test_cancel_ends_a_sub_coroutine_cleanup_wait_with_ecancelled(void) {
    struct tk a, x;
    setup(0);
    tk_init(&a, "T");
    tk_init(&x, "X");
    a.cleanup_ticks = 10;
    x.ticks = 3;
    x.other = &a;
    spawn(&a, sub_slow_cleanup_task);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(a.sub_result, PT_ECANCELLED);
    CHECK_EQ_INT(a.sub_cleanups, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(since(0), 3);
}

/* Not cancelled: the sub's result reaches the task after the sleep. */
static void test_sub_coroutine_result_survives_its_cleanup_wait(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "T");
    a.cleanup_ticks = 10;
    spawn(&a, sub_slow_cleanup_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.sub_result, PT_OK);
    CHECK_EQ_INT(a.got.i, 5);
    CHECK_EQ_INT(a.task.gen.value.i, 5);
    CHECK_EQ_INT(since(0), 10);
}

/* ---- a result survives the cleanup section ----------------------------- */

/* B returns (or fails with) n, then its cleanup sleeps: the joiner sees
 * PT_OK and the value, or PT_EFAILED and the error value. */
static void result_through_cleanup_wait(int n) {
    struct tk a, b;
    join_pair(&a, &b, 0, PT_FOREVER);
    b.n = n;
    b.ticks = 1;
    b.cleanup_ticks = 5;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.cleanup_result, PT_OK);
    CHECK_EQ_INT(pt_task_status(&b.task), n > 0 ? PT_ENDED : PT_EXITED);
    CHECK_EQ_INT(b.task.gen.value.i, n);
    CHECK_EQ_INT(a.result, n > 0 ? PT_OK : PT_EFAILED);
    CHECK_EQ_INT(a.got.i, n);
    CHECK_EQ_INT(a.woke_at, 6);
}

static void test_returned_result_survives_a_cleanup_that_waits(void) {
    result_through_cleanup_wait(42);
}

static void test_failed_result_survives_a_cleanup_that_waits(void) {
    result_through_cleanup_wait(-42);
}

/* A returns 42, then its cleanup's sleep finds the timer heap (one slot,
 * C's) full. */
static void cleanup_on_a_full_heap(struct tk *a, struct tk *c) {
    setup(0);
    CHECK_EQ_INT(pt_loop_init(&lp, heap, 1), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(c, "C");
    tk_init(a, "A");
    c->ticks = 100; /* holds the only timer slot */
    a->n = 42;
    a->cleanup_ticks = 5;
    spawn(c, worker);
    spawn(a, worker);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), PT_ENDED);
}

static void test_cleanup_sleep_on_a_full_heap_is_efull(void) {
    struct tk a, c;
    cleanup_on_a_full_heap(&a, &c);
    CHECK_EQ_INT(a.result, PT_EFULL);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... and the result stays the one returned. */
static void test_result_survives_a_cleanup_sleep_on_a_full_heap(void) {
    struct tk a, c;
    cleanup_on_a_full_heap(&a, &c);
    CHECK_EQ_INT(a.task.gen.value.i, 42);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A joins B, which returns 42 and sleeps 10 in its cleanup; X cancels B at
 * 3. */
static void cancel_in_cleanup_after_return(struct tk *a, struct tk *b, struct tk *x) {
    join_pair(a, b, 0, PT_FOREVER);
    tk_init(x, "X");
    b->n = 42;
    b->cleanup_ticks = 10;
    x->ticks = 3;
    x->other = b;
    spawn(x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* PT_EINVAL: it is finishing. */
static void test_cancel_in_a_cleanup_after_a_return_is_einval(void) {
    struct tk a, b, x;
    cancel_in_cleanup_after_return(&a, &b, &x);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
}

/* The sleep runs its full length, the result is kept. */
static void test_cancel_in_a_cleanup_after_a_return_keeps_the_result(void) {
    struct tk a, b, x;
    cancel_in_cleanup_after_return(&a, &b, &x);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 42);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_ENDED);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(task_cancelled_before_start_is_not_done_until_its_turn)                                      \
    X(return_in_a_cancelled_tasks_cleanup_replaces_the_cancel)                                     \
    X(fail_in_a_cancelled_tasks_cleanup_replaces_the_cancel)                                       \
    X(task_cancelled_before_start_never_runs)                                                      \
    X(join_of_a_task_cancelled_before_start_is_ecancelled)                                         \
    X(cancel_before_start_wakes_a_joiner_already_waiting)                                          \
    X(spawn_of_a_task_cancelled_before_start_is_ebusy)                                             \
    X(tasks_queued_after_a_cancelled_one_still_run)                                                \
    X(task_cancelled_before_start_may_be_spawned_once_done)                                        \
    X(cancel_after_a_yield_skips_the_rest_of_the_body)                                             \
    X(cancel_in_a_cleanup_is_einval_and_leaves_its_wait)                                           \
    X(cancel_of_a_finished_task_is_einval)                                                         \
    SYNC_CASES(X)                                                                                  \
    X(sub_coroutine_results_travel_up)                                                             \
    X(sub_coroutine_cleanups_run_innermost_first_on_return)                                        \
    X(cancel_in_a_sub_coroutine_drops_its_timer_at_once)                                           \
    X(cancel_in_a_sub_coroutine_runs_its_cleanup_then_the_task)                                    \
    X(cancel_in_nested_sub_coroutines_runs_cleanups_innermost_first)                               \
    X(join_of_a_task_cancelled_in_a_sub_coroutine_is_ecancelled)                                   \
    X(sub_coroutine_failure_and_value_reach_the_awaiting_task)                                     \
    X(failed_sub_coroutine_runs_its_cleanup)                                                       \
    X(cancel_ends_a_sub_coroutine_cleanup_wait_with_ecancelled)                                    \
    X(sub_coroutine_result_survives_its_cleanup_wait)                                              \
    X(returned_result_survives_a_cleanup_that_waits)                                               \
    X(failed_result_survives_a_cleanup_that_waits)                                                 \
    X(cleanup_sleep_on_a_full_heap_is_efull)                                                       \
    X(result_survives_a_cleanup_sleep_on_a_full_heap)                                              \
    X(cancel_in_a_cleanup_after_a_return_is_einval)                                                \
    X(cancel_in_a_cleanup_after_a_return_keeps_the_result)
/* clang-format on */
TEST_MAIN(TEST_CASES)
