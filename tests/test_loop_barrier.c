/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_barrier.c - the contract of the loop's barrier
 * (loop/barrier.h): arrival indices, the last not stopping, wake order,
 * rounds, timeouts and cancels leaving the round, abort and reset. On the
 * virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

/* A task of these tests: the fixture's, and its barrier. */
struct bk {
    struct tk k; /* first member: the task */
    struct pt_barrier *bar;
    int rounds, round;   /* rounds to go through, and the one it is in */
    pt_index_t index[2]; /* arrival index, per round */
    int results[2];      /* wait result, per round */
};

static void bk_init(struct bk *w, const char *name, int id) {
    memset(w, 0, sizeof *w);
    tk_init(&w->k, name, id);
    w->rounds = 1;
    w->index[0] = w->index[1] = 99;
    w->results[0] = w->results[1] = 99;
}

#define BK(task) ((struct bk *)(task))

#define BK_CLEANUP_SECTION(w)                                                                      \
    PT_TASK_CLEANUP();                                                                             \
    (w)->k.cleanups++;                                                                             \
    (w)->k.cleanup_result = PT_WAIT_RESULT();                                                      \
    note_n((w)->k.name, -(long)(w)->k.cleanups);                                                   \
    PT_TASK_END()

/* A fresh loop; T counts iterations (stopped: the wait stopped). The
 * virtual clock stands still while T runs (something is always ready), so
 * `stopped` tells only of waits begun at the start. */
static void fresh_with_ticker(struct tk *t) {
    fresh(0);
    tk_init(t, "t", 8);
    t->n = 1000;
    spawn(t, ticker);
}

/* Sleeps `ticks`, then waits at the barrier `rounds` times with
 * `timeout` (index and result of each round kept); notes its name after
 * each. */
static PT_THREAD(bar_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct bk *w = BK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    for (w->round = 0; w->round < w->rounds; w->round++) {
        k->i = (int)iterations;
        PT_BARRIER_WAIT(w->bar, &w->index[w->round], k->timeout);
        if (w->round == 0)
            k->stopped = (int)iterations != k->i;
        w->results[w->round] = PT_WAIT_RESULT();
        AFTER_WAIT(k);
        note(k->name);
    }
    BK_CLEANUP_SECTION(w);
}

static void bar_waiters_init(struct bk *w, int count, struct pt_barrier *b) {
    static const char *const names[] = {"a", "b", "c", "d"};
    int i;
    for (i = 0; i < count; i++) {
        bk_init(&w[i], names[i], i);
        w[i].bar = b;
    }
}

/* Three parties arrive at 3, 1, 2 (in the order B, C, A), `rounds`
 * rounds each; not run yet. */
static void barrier_of_three_spawned(struct pt_barrier *b, struct bk w[3], int rounds) {
    static const pt_time_t start[3] = {3, 1, 2};
    int i;
    fresh(0);
    pt_barrier_init(b, 3);
    bar_waiters_init(w, 3, b);
    for (i = 0; i < 3; i++) {
        w[i].k.ticks = start[i];
        w[i].rounds = rounds;
        spawn(&w[i].k, bar_waiter);
    }
}

/* ... and run to the end. */
static void barrier_of_three(struct pt_barrier *b, struct bk w[3], int rounds) {
    barrier_of_three_spawned(b, w, rounds);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Each gets its index in the order of arrival, and PT_OK. */
static void test_barrier_index_is_the_order_of_arrival(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_of_three(&b, w, 1);
    CHECK_EQ_INT(w[1].index[0], 0);
    CHECK_EQ_INT(w[2].index[0], 1);
    CHECK_EQ_INT(w[0].index[0], 2);
    CHECK_EQ_INT(w[0].results[0], PT_OK);
    CHECK_EQ_INT(w[1].results[0], PT_OK);
    CHECK_EQ_INT(w[2].results[0], PT_OK);
}

/* All go on when the last arrives; the last does not stop: it goes on in
 * the iteration it arrived in, the others at the next (same time). */
static void test_barrier_last_to_arrive_does_not_stop(void) {
    struct pt_barrier b;
    struct bk w[3];
    int i;
    barrier_of_three_spawned(&b, w, 1);
    pt_loop_run_once(&lp, 0);
    for (i = 1; i <= 3; i++) /* at 1, 2, 3: b, c, a arrive */
        pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 3);
    CHECK_EQ_INT(w[0].results[0], PT_OK);
    CHECK_EQ_INT(w[1].results[0], 99);
    CHECK_EQ_INT(w[2].results[0], 99);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 3);
    CHECK_EQ_INT(w[1].results[0], PT_OK);
    CHECK_EQ_INT(w[2].results[0], PT_OK);
    CHECK_EQ_INT(w[1].k.woke_at, 3);
    CHECK_EQ_INT(w[2].k.woke_at, 3);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... the others wake in the order they arrived. */
static void test_barrier_waiters_wake_in_the_order_they_arrived(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_of_three(&b, w, 1);
    CHECK_EQ_INT(norder, 3);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 1);
    CHECK_EQ_INT(order[2], 2);
    CHECK_EQ_INT(pt_barrier_waiting(&b), 0);
}

/* The barrier is ready for the next round at once: the last of round 1,
 * which did not stop, is the first of round 2. */
static void test_barrier_next_round_reuses_it(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_of_three(&b, w, 2);
    CHECK_EQ_INT(norder, 6);
    CHECK_EQ_INT(w[0].index[1], 0);
    CHECK_EQ_INT(w[1].index[1], 1);
    CHECK_EQ_INT(w[2].index[1], 2);
    CHECK_EQ_INT(w[0].results[1], PT_OK);
    CHECK_EQ_INT(w[1].results[1], PT_OK);
    CHECK_EQ_INT(w[2].results[1], PT_OK);
    CHECK_EQ_INT(w[0].k.woke_at, 3);
    CHECK_EQ_INT(w[1].k.woke_at, 3);
    CHECK_EQ_INT(pt_barrier_waiting(&b), 0);
    CHECK_EQ_STR(trace.buf, "a b c c c-1 a a-1 b b-1 ");
}

/* Three parties: A arrives at 0; B at 1 with a timeout of 5; C at 10, D
 * at 12. */
static void barrier_with_a_timeout(struct pt_barrier *b, struct bk w[4]) {
    static const pt_time_t start[4] = {0, 1, 10, 12};
    int i;
    fresh(0);
    pt_barrier_init(b, 3);
    bar_waiters_init(w, 4, b);
    for (i = 0; i < 4; i++) {
        w[i].k.ticks = start[i];
        spawn(&w[i].k, bar_waiter);
    }
    w[1].k.timeout = 5;
    pt_loop_run_once(&lp, 0);
    pt_loop_run_once(&lp, 1); /* b arrives */
    CHECK_EQ_INT(pt_barrier_waiting(b), 2);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The waiter times out at its deadline ... */
static void test_barrier_wait_times_out(void) {
    struct pt_barrier b;
    struct bk w[4];
    barrier_with_a_timeout(&b, w);
    CHECK_EQ_INT(w[1].results[0], PT_ETIMEDOUT);
    CHECK_EQ_INT(w[1].k.woke_at, 6);
}

/* ... and leaves the round: C takes its place (index 1), D completes it. */
static void test_barrier_waiter_that_timed_out_leaves_the_round(void) {
    struct pt_barrier b;
    struct bk w[4];
    barrier_with_a_timeout(&b, w);
    CHECK_EQ_INT(w[0].index[0], 0);
    CHECK_EQ_INT(w[2].index[0], 1);
    CHECK_EQ_INT(w[3].index[0], 2);
    CHECK_EQ_INT(w[0].results[0], PT_OK);
    CHECK_EQ_INT(w[2].results[0], PT_OK);
    CHECK_EQ_INT(w[0].k.woke_at, 12);
    CHECK_EQ_INT(w[2].k.woke_at, 12);
    CHECK_EQ_STR(trace.buf, "b b-1 d d-1 a a-1 c c-1 ");
}

/* A cancelled waiter leaves the round as well. */
static void test_barrier_cancelled_waiter_leaves_the_round(void) {
    struct pt_barrier b;
    struct bk w[4];
    int i;
    fresh(0);
    pt_barrier_init(&b, 3);
    bar_waiters_init(w, 4, &b);
    for (i = 0; i < 4; i++)
        w[i].k.ticks = (pt_time_t)(i + 1);
    for (i = 0; i < 2; i++)
        spawn(&w[i].k, bar_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* a, b wait */
    CHECK_EQ_INT(pt_barrier_waiting(&b), 2);
    CHECK_EQ_INT(pt_task_cancel(&lp, &w[0].k.task), PT_OK);
    CHECK_EQ_INT(pt_barrier_waiting(&b), 1);
    spawn(&w[2].k, bar_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* b, c wait */
    CHECK_EQ_INT(w[2].index[0], 1);
    spawn(&w[3].k, bar_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(w[0].results[0], 99);
    CHECK_EQ_INT(w[1].results[0], PT_OK);
    CHECK_EQ_INT(w[2].results[0], PT_OK);
    CHECK_EQ_INT(w[3].index[0], 2);
}

/* Sleeps `ticks`, then aborts (n == 1) or resets (n == 0) the barrier. */
static PT_THREAD(bar_breaker(struct pt_loop *loop, struct pt_task *task)) {
    struct bk *w = BK(task);
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(w->k.ticks);
    note(w->k.name);
    if (w->k.n)
        pt_barrier_abort(loop, w->bar);
    else
        pt_barrier_reset(loop, w->bar);
    PT_TASK_END();
}

/* Three parties: A and B wait (from 1 and 2); at 5, X aborts (abort 1)
 * or resets (0) the barrier; C arrives at 8. */
static void barrier_broken(struct pt_barrier *b, struct bk w[3], int abort) {
    struct bk x;
    int i;
    fresh(0);
    pt_barrier_init(b, 3);
    bar_waiters_init(w, 3, b);
    w[2].k.ticks = 8;
    for (i = 0; i < 3; i++) {
        if (i < 2)
            w[i].k.ticks = (pt_time_t)(i + 1);
        spawn(&w[i].k, bar_waiter);
    }
    bk_init(&x, "x", 9);
    x.bar = b;
    x.k.ticks = 5;
    x.k.n = abort;
    spawn(&x.k, bar_breaker);
    CHECK_EQ_INT(pt_loop_run(&lp), abort ? PT_OK : PT_EBUSY);
}

/* The two waiters of the round woke at 5 with PT_EBROKEN, in order. */
static void check_round_broken_at_5(const struct bk w[2]) {
    CHECK_EQ_INT(w[0].results[0], PT_EBROKEN);
    CHECK_EQ_INT(w[1].results[0], PT_EBROKEN);
    CHECK_EQ_INT(w[0].k.woke_at, 5);
    CHECK_EQ_INT(w[1].k.woke_at, 5);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 1);
}

/* Abort ends the waits with PT_EBROKEN ... */
static void test_barrier_abort_breaks_the_waits(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_broken(&b, w, 1);
    check_round_broken_at_5(w);
}

/* ... and every later wait, at once, until a reset. */
static void test_barrier_aborted_breaks_later_waits(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_broken(&b, w, 1);
    CHECK(pt_barrier_broken(&b));
    CHECK_EQ_INT(w[2].results[0], PT_EBROKEN);
    CHECK_EQ_INT(w[2].k.woke_at, 8);
    CHECK_EQ_INT(pt_barrier_waiting(&b), 0);
}

/* Reset ends the waits of the round with PT_EBROKEN ... */
static void test_barrier_reset_breaks_the_waits_of_the_round(void) {
    struct pt_barrier b;
    struct bk w[3];
    barrier_broken(&b, w, 0);
    check_round_broken_at_5(w);
    CHECK(!pt_barrier_broken(&b));
    pt_task_cancel(&lp, &w[2].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... and leaves it empty and whole: a later wait counts from 0, and a
 * full round passes. */
static void test_barrier_reset_leaves_it_usable(void) {
    struct pt_barrier b;
    struct bk w[3], more[2];
    int i;
    barrier_broken(&b, w, 0);
    CHECK_EQ_INT(w[2].index[0], 0); /* the first of a new round */
    CHECK_EQ_INT(pt_barrier_waiting(&b), 1);
    bar_waiters_init(more, 2, &b);
    for (i = 0; i < 2; i++)
        spawn(&more[i].k, bar_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(w[2].results[0], PT_OK);
    CHECK_EQ_INT(more[0].results[0], PT_OK);
    CHECK_EQ_INT(more[1].results[0], PT_OK);
    CHECK_EQ_INT(more[1].index[0], 2);
}

/* A barrier of one party never stops. */
static void test_barrier_of_one_never_stops(void) {
    struct pt_barrier b;
    struct bk w;
    struct tk t;
    fresh_with_ticker(&t);
    pt_barrier_init(&b, 1);
    bar_waiters_init(&w, 1, &b);
    w.rounds = 2;
    spawn(&w.k, bar_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w.k.task), PT_ENDED);
    CHECK_EQ_INT(w.k.stopped, 0);
    CHECK_EQ_INT(w.index[0], 0);
    CHECK_EQ_INT(w.index[1], 0);
    CHECK_EQ_INT(w.results[1], PT_OK);
    CHECK_EQ_INT(iterations, 1);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(barrier_index_is_the_order_of_arrival)                                                       \
    X(barrier_last_to_arrive_does_not_stop)                                                        \
    X(barrier_waiters_wake_in_the_order_they_arrived)                                              \
    X(barrier_next_round_reuses_it)                                                                \
    X(barrier_wait_times_out)                                                                      \
    X(barrier_waiter_that_timed_out_leaves_the_round)                                              \
    X(barrier_cancelled_waiter_leaves_the_round)                                                   \
    X(barrier_abort_breaks_the_waits)                                                              \
    X(barrier_aborted_breaks_later_waits)                                                          \
    X(barrier_reset_breaks_the_waits_of_the_round)                                                 \
    X(barrier_reset_leaves_it_usable)                                                              \
    X(barrier_of_one_never_stops)
/* clang-format on */
TEST_MAIN(TEST_CASES)
