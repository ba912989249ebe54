/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_clock.c - when the loop reads its clock (loop/core.h,
 * pt_loop_now): at most once per iteration (twice if it waited), and with
 * PT_CONFIG_LAZY_CLOCK (a host's default) only in an iteration that needs
 * the time (a deadline set or compared, or pt_loop_now called); without it
 * (a board's), once at the start of each. The clock here is a counter the
 * test moves by hand and whose reads it counts; idling moves it to the end
 * of the wait, so nothing takes real time. Built both ways.
 */
#include <stdint.h>

static uint64_t fake_now;      /* the clock, in ticks */
static unsigned long nreads;   /* PT_CONFIG_PORT_NOW calls */
static unsigned long idle_for; /* the last PT_CONFIG_PORT_IDLE's ticks */

static inline uint64_t fake_clock_read(void) {
    nreads++;
    return fake_now;
}
static inline void fake_clock_idle(uint64_t ticks) {
    idle_for = (unsigned long)ticks;
    fake_now += ticks;
}

#define PT_CONFIG_BACKEND PT_BACKEND_NONE
#define PT_CONFIG_PORT_NOW() ((pt_time_t)fake_clock_read())
#define PT_CONFIG_PORT_IDLE(ticks) fake_clock_idle(ticks)
#include "loop/loop.h"

#include "loop_init.h"
#include "runner.h"

static struct pt_loop lp;
static struct pt_timer_slot heap[4];

/* A task that (if `record`) records the loop's time at each resume,
 * moving the clock by `step` between its two reads of one resume, and
 * sleeps `sleep` ticks (or yields, if 0) `n` times. */
struct clk {
    struct pt_task task;
    pt_time_t sleep, step;
    int n, i, record;
    pt_time_t seen[8], again[8];
};

static PT_THREAD(clk_run(struct pt_loop *loop, struct pt_task *task)) {
    struct clk *c = (struct clk *)task;
    PT_TASK_BEGIN(loop, task);
    for (c->i = 0; c->i < c->n; c->i++) {
        if (c->record && c->i < 8) {
            c->seen[c->i] = pt_loop_now(loop);
            fake_now += c->step;
            c->again[c->i] = pt_loop_now(loop);
        }
        if (c->sleep)
            PT_SLEEP(c->sleep);
        else
            PT_TASK_YIELD();
    }
    PT_TASK_END();
}

static void setup(uint64_t start) {
    fake_now = start;
    CHECK_EQ_INT(test_loop_init(&lp, heap, 4), PT_OK);
    nreads = 0;
}

static void clk_start(struct clk *c, pt_time_t sleep, int n) {
    struct clk zero = {0};
    *c = zero;
    c->sleep = sleep;
    c->n = n;
    c->record = 1;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &c->task, clk_run), PT_OK);
}

#if PT_CONFIG_LAZY_CLOCK
/* One task yielding, with no timer anywhere: not a single read of the
 * clock (it is what a loop of pure yields would spend most on). */
static void test_iterations_without_timers_read_no_clock(void) {
    struct clk c;
    setup(100);
    clk_start(&c, 0, 1000);
    c.record = 0;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(nreads, 0);
}
#define CLOCK_CASES(X) X(iterations_without_timers_read_no_clock)
#else
/* Each iteration reads the clock once at its start, timers or not. */
static void test_every_iteration_reads_the_clock_once(void) {
    struct clk c;
    int i;
    setup(100);
    clk_start(&c, 0, 1000);
    c.record = 0;
    for (i = 0; i < 10; i++)
        CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    CHECK_EQ_INT(nreads, 10);
}
#define CLOCK_CASES(X) X(every_iteration_reads_the_clock_once)
#endif

/* Within one iteration the time stands still: a second pt_loop_now sees
 * the first one's value however far the clock has moved. */
static void test_time_stands_still_within_an_iteration(void) {
    struct clk c;
    setup(100);
    clk_start(&c, 0, 3);
    c.step = 7;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.seen[0], 100);
    CHECK_EQ_INT(c.again[0], 100);
    CHECK_EQ_INT(c.seen[1], 107); /* the next iteration reads it afresh */
    CHECK_EQ_INT(c.again[1], 107);
    CHECK_EQ_INT(c.seen[2], 114);
    /* once per iteration that asked; eager, in the fourth too, which ends it */
    CHECK_EQ_INT(nreads, PT_CONFIG_LAZY_CLOCK ? 3 : 4);
}

/* The first read of an iteration is fresh: time that passed between
 * iterations (here, while nothing asked for it) is seen. */
static void test_first_read_of_an_iteration_sees_the_time_that_passed(void) {
    struct clk c;
    setup(100);
    clk_start(&c, 0, 2);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    fake_now = 5000;
    CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    CHECK_EQ_INT(c.seen[0], 100);
    CHECK_EQ_INT(c.seen[1], 5000);
}

/* A deadline counts from the time the wait starts, not from the start of
 * the loop or of an earlier iteration. */
static void test_deadline_counts_from_when_the_wait_starts(void) {
    struct clk c;
    setup(100);
    clk_start(&c, 10, 1);
    fake_now = 1000; /* before the task first runs */
    CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    CHECK_EQ_INT(c.seen[0], 1000);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(idle_for, 10); /* it idled exactly to the deadline */
    CHECK_EQ_INT(fake_now, 1010);
}

/* An iteration that waits for a timer reads the clock twice: to know how
 * long to wait, and after waiting to fire what is due; never more. */
static void test_timed_iteration_reads_the_clock_at_most_twice(void) {
    struct clk c;
    unsigned long before;
    setup(0);
    clk_start(&c, 50, 3);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK); /* runs, reads, parks */
    CHECK_EQ_INT(nreads, 1);
    before = nreads;
    CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK); /* idles 50, fires, runs */
    CHECK_EQ_INT(nreads - before, 2);
    CHECK_EQ_INT(c.seen[1], 50);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(fake_now, 150);
}

/* The virtual clock reads no clock at all. */
static void test_virtual_clock_reads_no_clock(void) {
    struct clk c;
    setup(0);
    pt_loop_use_virtual_clock(&lp, 40);
    clk_start(&c, 5, 4);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.seen[3], 55);
    CHECK_EQ_INT(nreads, 0);
    CHECK_EQ_INT(fake_now, 0);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    CLOCK_CASES(X)                                                                                 \
    X(time_stands_still_within_an_iteration)                                                       \
    X(first_read_of_an_iteration_sees_the_time_that_passed)                                        \
    X(deadline_counts_from_when_the_wait_starts)                                                   \
    X(timed_iteration_reads_the_clock_at_most_twice)                                               \
    X(virtual_clock_reads_no_clock)
/* clang-format on */
TEST_MAIN(TEST_CASES)
