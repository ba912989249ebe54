/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop.c - the contract of the loop's scheduler (loop/core.h):
 * the ready queue's order and snapshot rule, the run modes and background
 * tasks (timers: tests/test_loop_timer.c). All on the virtual clock: time
 * jumps to the next deadline when nothing is ready, so nothing here takes
 * real time and every time seen is exact. Built a second time with
 * PT_CONFIG_SYNC, PT_CONFIG_GROUPS and PT_CONFIG_BACKGROUND 0: the parts that
 * need them are left out, the rest must hold unchanged.
 */
#include <limits.h>

#include "loop/loop.h"

#include "loop_util.h"
#include "runner.h"
#include "sched_fixture.h"

/* Notes its name once and ends. */
static PT_THREAD(once(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    note(k->name);
    PT_TASK_END();
}

/* Notes its name and spawns `other` (running once) from inside the loop. */
static PT_THREAD(spawner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note(k->name);
    k->rc = pt_loop_spawn(loop, &k->other->task, once);
    PT_TASK_END();
}

/* ---- the ready queue ---------------------------------------------------- */

/* A, B and C each note and yield three times. */
static void three_yielders(struct tk *a, struct tk *b, struct tk *c) {
    setup(0);
    tk_init(a, "A", 0);
    tk_init(b, "B", 1);
    tk_init(c, "C", 2);
    a->n = b->n = c->n = 3;
    spawn(a, yielder);
    spawn(b, yielder);
    spawn(c, yielder);
}

static void test_ready_tasks_run_in_the_order_spawned(void) {
    struct tk a, b, c;
    three_yielders(&a, &b, &c);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 ");
}

/* Each iteration runs every ready task once, in the same order. */
static void test_yielded_tasks_run_again_in_the_same_order(void) {
    struct tk a, b, c;
    three_yielders(&a, &b, &c);
    pt_loop_run_once(&lp, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 A2 B2 C2 ");
}

static void test_run_returns_when_every_task_has_ended(void) {
    struct tk a, b, c;
    three_yielders(&a, &b, &c);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&a.task) && pt_task_done(&b.task) && pt_task_done(&c.task));
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 A2 B2 C2 ");
}

/* A spawns D from inside the loop; B is queued behind A. */
static void spawn_inside(struct tk *a, struct tk *b, struct tk *d) {
    setup(0);
    tk_init(a, "A", 0);
    tk_init(b, "B", 1);
    tk_init(d, "D", 2);
    a->other = d;
    spawn(a, spawner);
    spawn(b, once);
    pt_loop_run_once(&lp, 0);
}

static void test_spawn_from_inside_a_task_is_ok(void) {
    struct tk a, b, d;
    spawn_inside(&a, &b, &d);
    CHECK_EQ_INT(a.rc, PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A task spawned during an iteration runs in the next one. */
static void test_task_spawned_in_an_iteration_runs_in_the_next(void) {
    struct tk a, b, d;
    spawn_inside(&a, &b, &d);
    CHECK_EQ_STR(trace.buf, "A B ");
    CHECK_EQ_INT(d.runs, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A B D ");
    CHECK_EQ_INT(d.runs, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

#if PT_CONFIG_SYNC
/* A waits on an event that `set` sets in the first iteration, queued
 * behind C, which yields three times. */
static void wake_inside(struct pt_event *ev, struct tk *a, struct tk *b, struct tk *c) {
    setup(0);
    pt_event_init(ev);
    tk_init(a, "A", 0);
    tk_init(b, "set", 1);
    tk_init(c, "C", 2);
    a->ev = b->ev = ev;
    c->n = 3;
    spawn(a, event_waiter);
    spawn(c, yielder);
    spawn(b, event_setter);
}

/* A task woken during an iteration runs in the next one, behind the tasks
 * that were already queued (here: one that yielded before the wake). */
static void test_task_woken_in_an_iteration_runs_next_behind_the_queued(void) {
    struct pt_event ev;
    struct tk a, b, c;
    wake_inside(&ev, &a, &b, &c);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set C1 A1 ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set C1 A1 C2 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_woken_task_sees_its_wait_succeed(void) {
    struct pt_event ev;
    struct tk a, b, c;
    wake_inside(&ev, &a, &b, &c);
    pt_loop_run_once(&lp, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}
/* clang-format off: one case a line */
#define WAKE_CASES(X)                                                                              \
    X(task_woken_in_an_iteration_runs_next_behind_the_queued)                                      \
    X(woken_task_sees_its_wait_succeed)
/* clang-format on */
#else
#define WAKE_CASES(X)
#endif

/* A task that yields runs once per iteration, never twice. */
static void test_yielding_task_runs_once_per_iteration(void) {
    struct tk a;
    int i;
    setup(0);
    tk_init(&a, "A", 0);
    a.n = 5;
    spawn(&a, yielder);
    for (i = 0; i < 5; i++) {
        pt_loop_run_once(&lp, 0);
        CHECK_EQ_INT(a.i, i);
    }
    pt_loop_run_once(&lp, 0);
    CHECK(pt_task_done(&a.task));
    CHECK_EQ_STR(trace.buf, "A0 A1 A2 A3 A4 ");
}

/* ---- run modes ---------------------------------------------------------- */

/* Returns `n` after sleeping `ticks`; fails if n < 0. */
static PT_THREAD(returner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    if (k->n < 0)
        PT_TASK_FAIL(pt_value_int(k->n));
    PT_TASK_RETURN(pt_value_int(k->n));
    PT_TASK_END();
}

/* a returns 5 at 10, b 6 at 100; the loop run until a has ended. */
static void run_until_a(struct tk *a, struct tk *b) {
    setup(0);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    a->ticks = 10;
    a->n = 5;
    b->ticks = 100;
    b->n = 6;
    spawn(a, returner);
    spawn(b, returner);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), PT_ENDED);
}

/* It returns when its task has ended, not waiting for the others. */
static void test_run_until_returns_when_its_task_ends(void) {
    struct tk a, b;
    run_until_a(&a, &b);
    CHECK_EQ_INT(a.task.gen.value.i, 5);
    CHECK_EQ_INT(since(0), 10); /* it does not wait for b */
    CHECK(!pt_task_done(&b.task));
    CHECK_EQ_INT(pt_loop_run_until(&lp, &b.task), PT_ENDED);
    CHECK_EQ_INT(since(0), 100);
}

/* Already finished: at once. */
static void test_run_until_a_finished_task_returns_at_once(void) {
    struct tk a, b;
    run_until_a(&a, &b);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_run_until_a_failing_task_is_exited(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "a", 0);
    a.ticks = 3;
    a.n = -3;
    spawn(&a, returner);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_EXITED);
}

static void test_run_until_a_cancelled_task_is_closed(void) {
    struct tk a, x;
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&x, "x", 1);
    a.ticks = 30;
    x.ticks = 3;
    x.other = &a;
    spawn(&a, sleeper);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_CLOSED);
    CHECK_EQ_INT(a.cleanups, 1);
}

#if PT_CONFIG_SYNC
/* One that waits on something nobody will signal: 0, at once. */
static void run_until_stuck(struct pt_event *ev, struct tk *a) {
    setup(0);
    pt_event_init(ev);
    tk_init(a, "a", 0);
    a->ev = ev;
    spawn(a, event_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), 0);
}

static void test_run_until_a_task_nobody_wakes_returns_0_at_once(void) {
    struct pt_event ev;
    struct tk a;
    run_until_stuck(&ev, &a);
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(since(0), 0);
}

/* Signalled from outside the loop, it finishes on the next run. */
static void test_task_woken_from_outside_the_loop_ends_in_the_next_run(void) {
    struct pt_event ev;
    struct tk a;
    run_until_stuck(&ev, &a);
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "a0 a1 ");
}
/* clang-format off: one case a line */
#define RUN_UNTIL_SYNC_CASES(X)                                                                    \
    X(run_until_a_task_nobody_wakes_returns_0_at_once)                                             \
    X(task_woken_from_outside_the_loop_ends_in_the_next_run)
/* clang-format on */
#else
#define RUN_UNTIL_SYNC_CASES(X)
#endif

/* Joins `other` (no timeout). */
static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* Nothing at all. */
static void test_run_with_nothing_to_do_returns_at_once(void) {
    setup(0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_loop_run_once(&lp, 1); /* nothing to wait for: returns */
    CHECK_EQ_INT(since(0), 0);
}

#if PT_CONFIG_SYNC
/* a waits on an event nobody sets, beside b, which sleeps 40 and ends. */
static void run_with_a_task_stuck(struct pt_event *ev, struct tk *a, struct tk *b) {
    setup(0);
    pt_event_init(ev);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    a->ev = ev;
    b->ticks = 40;
    spawn(a, event_waiter);
    spawn(b, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
}

/* The run ends when nothing can go on, and says so. */
static void test_run_with_a_task_nobody_wakes_is_ebusy(void) {
    struct pt_event ev;
    struct tk a, b;
    run_with_a_task_stuck(&ev, &a, &b);
    CHECK_EQ_INT(b.woke, 1);
    CHECK_EQ_INT(since(0), 40);
    CHECK(!pt_task_done(&a.task));
}

static void test_task_left_waiting_ends_in_the_next_run(void) {
    struct pt_event ev;
    struct tk a, b;
    run_with_a_task_stuck(&ev, &a, &b);
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&a.task));
}
/* clang-format off: one case a line */
#define DEADLOCK_SYNC_CASES(X)                                                                     \
    X(run_with_a_task_nobody_wakes_is_ebusy)                                                       \
    X(task_left_waiting_ends_in_the_next_run)
/* clang-format on */
#else
#define DEADLOCK_SYNC_CASES(X)
#endif

static void test_tasks_joining_each_other_are_ebusy(void) {
    struct tk a, b, c;
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    a.other = &b;
    b.other = &a;
    c.ticks = 7;
    spawn(&a, joiner);
    spawn(&b, joiner);
    spawn(&c, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(since(0), 7);
    CHECK(!pt_task_done(&a.task) && !pt_task_done(&b.task));
}

/* a sleeps 100 from 50; run_once(loop, 0) five times. */
static void run_once_0_five_times(struct tk *a) {
    int i;
    setup(50);
    tk_init(a, "a", 0);
    a->ticks = 100;
    spawn(a, sleeper);
    for (i = 0; i < 5; i++)
        pt_loop_run_once(&lp, 0);
}

/* run_once(loop, 0) never blocks, even with a timer far away and with
 * nothing ready; on the virtual clock time does not move either. */
static void test_run_once_0_never_blocks_on_the_virtual_clock(void) {
    struct tk a;
    run_once_0_five_times(&a);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(since(50), 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* run_once(loop, 1) may block: time jumps to the deadline. */
static void test_run_once_1_jumps_the_virtual_clock_to_the_deadline(void) {
    struct tk a;
    run_once_0_five_times(&a);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(a.woke, 1);
    CHECK_EQ_INT(since(50), 100);
}

/* The real clock: a sleep of 24.8 days; run_once(0) must return at once
 * (were it to block, this test would time out). */
static void test_run_once_0_never_blocks_on_the_real_clock(void) {
    struct tk a;
    int i;
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, heap, HEAP_CAP), PT_OK);
    tk_init(&a, "a", 0);
    a.ticks = PT_FOREVER;
    spawn(&a, sleeper);
    for (i = 0; i < 3; i++)
        pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
}

/* Stops the loop in its second run, then goes on. */
static PT_THREAD(stopper(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note("S0");
    PT_TASK_YIELD();
    pt_loop_stop(loop);
    note("S1");
    PT_TASK_YIELD();
    note("S2");
    PT_SLEEP(k->ticks);
    note("S3");
    PT_TASK_END();
}

/* S stops the loop in its second turn; Y yields four times beside it. */
static void stop_a_run(struct tk *s, struct tk *y) {
    setup(0);
    tk_init(s, "S", 0);
    tk_init(y, "Y", 1);
    y->n = 4;
    s->ticks = 10;
    spawn(s, stopper);
    spawn(y, yielder);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EINVAL);
}

/* The iteration in which it stopped ran to its end. */
static void test_stop_ends_the_run_after_its_iteration(void) {
    struct tk s, y;
    stop_a_run(&s, &y);
    CHECK_EQ_STR(trace.buf, "S0 Y0 S1 Y1 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_run_after_a_stop_goes_on(void) {
    struct tk s, y;
    stop_a_run(&s, &y);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "S0 Y0 S1 Y1 S2 Y2 Y3 S3 ");
    CHECK_EQ_INT(since(0), 10);
}

/* pt_loop_run_until: 0 when stopped. */
static void run_until_stopped(struct tk *s) {
    setup(0);
    tk_init(s, "S", 0);
    s->ticks = 10;
    spawn(s, stopper);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &s->task), 0);
}

static void test_run_until_stopped_returns_0(void) {
    struct tk s;
    run_until_stopped(&s);
    CHECK_EQ_STR(trace.buf, "S0 S1 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... and goes on when called again. */
static void test_run_until_after_a_stop_goes_on(void) {
    struct tk s;
    run_until_stopped(&s);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &s.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "S0 S1 S2 S3 ");
}

#if PT_CONFIG_BACKGROUND
/* ---- background tasks ---------------------------------------------------- */

/* Wakes every `ticks` forever (or n times if n > 0); its cleanup may itself
 * sleep `other_ticks` (kept in t0). */
static PT_THREAD(ticker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    for (k->i = 0; k->n <= 0 || k->i < k->n; k->i++) {
        PT_SLEEP(k->ticks);
        k->woke++;
    }
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    note_n(k->name, (long)pt_loop_now(loop));
    if (k->t0) {
        PT_SLEEP(k->t0);
        note_n(k->name, (long)pt_loop_now(loop));
    }
    PT_TASK_END();
}

/* Tries to join `other`, then sleeps `ticks`. */
static PT_THREAD(join_then_sleep(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->t0 = pt_loop_now(loop);
    PT_SLEEP(k->ticks);
    PT_TASK_END();
}

/* Background tasks: bg wakes every 10 forever, bh every 7 forever (its
 * cleanup takes 5 ticks), bd 4 once; fg tries to join bg, then sleeps 35.
 * Run to the end. */
struct bgs {
    struct tk bg, bh, bd, fg;
};

static void background_run(struct bgs *b) {
    setup(0);
    tk_init(&b->bg, "bg", 0);
    tk_init(&b->bh, "bh", 1);
    tk_init(&b->fg, "fg", 2);
    tk_init(&b->bd, "bd", 3);
    b->bg.ticks = 10;
    b->bg.n = 0; /* forever */
    b->bh.ticks = 7;
    b->bh.n = 0;
    b->bh.t0 = 5; /* its cleanup takes 5 ticks */
    b->bd.ticks = 4;
    b->bd.n = 1; /* finishes by itself */
    b->fg.ticks = 35;
    b->fg.other = &b->bg;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &b->bg.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &b->bh.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &b->bd.task, ticker), PT_OK);
    spawn(&b->fg, join_then_sleep);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_background_task_cannot_be_joined(void) {
    struct bgs b;
    background_run(&b);
    CHECK_EQ_INT(b.fg.result, PT_EBUSY); /* a background task cannot be joined */
    CHECK_EQ_INT(b.fg.t0, 0);            /* and the join did not stop */
}

static void test_background_tasks_run_while_a_task_runs(void) {
    struct bgs b;
    background_run(&b);
    CHECK_EQ_INT(b.bg.woke, 3); /* 10, 20, 30 */
    CHECK_EQ_INT(b.bh.woke, 5); /* 7 ... 35 */
}

/* Cancelled when the last task (fg) ended at 35 (bh woke at 35 too and
 * ran before the cancel); one that ended by itself is not. */
static void test_background_tasks_are_cancelled_when_the_last_task_ends(void) {
    struct bgs b;
    background_run(&b);
    CHECK_EQ_INT(b.bg.cleanups, 1);
    CHECK_EQ_INT(b.bh.cleanups, 1);
    CHECK_EQ_INT(b.bd.cleanups, 1);
    CHECK_EQ_INT(b.bg.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&b.bg.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&b.bh.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&b.bd.task), PT_ENDED);
}

/* bh's cleanup took until 40, and the run waited for it. */
static void test_run_waits_for_the_background_cleanups(void) {
    struct bgs b;
    background_run(&b);
    CHECK_EQ_STR(trace.buf, "bd4 bh35 bg35 bh40 ");
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Only background tasks: the run returns at once, cancelling them before
 * they ever ran: their bodies never run. */
static void test_only_background_tasks_are_cancelled_before_they_run(void) {
    struct tk bg;
    setup(0);
    tk_init(&bg, "bg", 0);
    bg.ticks = 10;
    bg.n = 0;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &bg.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.runs, 0);
    CHECK_EQ_INT(bg.cleanups, 0);
    CHECK_EQ_INT(pt_task_status(&bg.task), PT_CLOSED);
    CHECK_EQ_INT(since(0), 0);
}

/* Started ones get their cleanup, once, even over several runs. */
static void test_started_background_task_is_cleaned_up_once(void) {
    struct tk bg;
    setup(0);
    tk_init(&bg, "bg", 0);
    bg.ticks = 10;
    bg.n = 0;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &bg.task, ticker), PT_OK);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(bg.runs, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.cleanups, 1);
    CHECK_EQ_INT(bg.woke, 0);
    CHECK_EQ_STR(trace.buf, "bg0 ");
}
/* clang-format off: one case a line */
#define BACKGROUND_CASES(X)                                                                        \
    X(background_task_cannot_be_joined)                                                            \
    X(background_tasks_run_while_a_task_runs)                                                      \
    X(background_tasks_are_cancelled_when_the_last_task_ends)                                      \
    X(run_waits_for_the_background_cleanups)                                                       \
    X(only_background_tasks_are_cancelled_before_they_run)                                         \
    X(started_background_task_is_cleaned_up_once)
/* clang-format on */
#else
#define BACKGROUND_CASES(X)
#endif

#if !defined(__AVR__) /* (its string tables would take ~500 B of the 2 KiB of RAM) */
/* Every result has its code's name (pt_err_name) and a phrase for
 * messages (pt_err_string), as libuv's uv_err_name and uv_strerror. */
static void test_every_result_has_a_name_and_a_phrase(void) {
    int rc;
    CHECK_EQ_STR(pt_err_name(PT_OK), "PT_OK");
    CHECK_EQ_STR(pt_err_name(PT_ETIMEDOUT), "PT_ETIMEDOUT");
    CHECK_EQ_STR(pt_err_name(PT_EBROKEN), "PT_EBROKEN");
    CHECK_EQ_STR(pt_err_name(PT_ESTALL), "PT_ESTALL");
    CHECK_EQ_STR(pt_err_string(PT_ETIMEDOUT), "timed out");
    CHECK_EQ_STR(pt_err_string(PT_EREFUSED), "connection refused");
    for (rc = PT_ESTALL; rc <= PT_OK; rc++) {
        CHECK(strncmp(pt_err_name(rc), "PT_", 3) == 0);
        CHECK(strlen(pt_err_string(rc)) >= 6 && strcmp(pt_err_string(rc), pt_err_name(rc)) != 0);
    }
}

/* A value that is no result says so, never reads out of the tables. */
static void test_an_unknown_result_is_said_unknown(void) {
    CHECK_EQ_STR(pt_err_name(1), "?");
    CHECK_EQ_STR(pt_err_name(PT_ESTALL - 1), "?");
    CHECK_EQ_STR(pt_err_string(PT_ESTALL - 1), "unknown result");
    CHECK_EQ_STR(pt_err_string(1000), "unknown result");
    CHECK_EQ_STR(pt_err_name(INT_MIN), "?"); /* (no -INT_MIN on the way) */
    CHECK_EQ_STR(pt_err_string(INT_MIN), "unknown result");
}
/* clang-format off: one case a line */
#define RESULT_CASES(X)                                                                            \
    X(every_result_has_a_name_and_a_phrase)                                                        \
    X(an_unknown_result_is_said_unknown)
/* clang-format on */
#else
#define RESULT_CASES(X)
#endif

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(ready_tasks_run_in_the_order_spawned)                                                        \
    X(yielded_tasks_run_again_in_the_same_order)                                                   \
    X(run_returns_when_every_task_has_ended)                                                       \
    X(spawn_from_inside_a_task_is_ok)                                                              \
    X(task_spawned_in_an_iteration_runs_in_the_next)                                               \
    WAKE_CASES(X)                                                                                  \
    X(yielding_task_runs_once_per_iteration)                                                       \
    X(run_until_returns_when_its_task_ends)                                                        \
    X(run_until_a_finished_task_returns_at_once)                                                   \
    X(run_until_a_failing_task_is_exited)                                                          \
    X(run_until_a_cancelled_task_is_closed)                                                        \
    RUN_UNTIL_SYNC_CASES(X)                                                                        \
    X(run_with_nothing_to_do_returns_at_once)                                                      \
    DEADLOCK_SYNC_CASES(X)                                                                         \
    X(tasks_joining_each_other_are_ebusy)                                                          \
    X(run_once_0_never_blocks_on_the_virtual_clock)                                                \
    X(run_once_1_jumps_the_virtual_clock_to_the_deadline)                                          \
    X(run_once_0_never_blocks_on_the_real_clock)                                                   \
    X(stop_ends_the_run_after_its_iteration)                                                       \
    X(run_after_a_stop_goes_on)                                                                    \
    X(run_until_stopped_returns_0)                                                                 \
    X(run_until_after_a_stop_goes_on)                                                              \
    RESULT_CASES(X)                                                                                \
    BACKGROUND_CASES(X)
/* clang-format on */
TEST_MAIN(TEST_CASES)
