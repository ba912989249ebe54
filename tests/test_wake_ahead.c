/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_wake_ahead.c - how much less than a wait the loop asks the
 * kernel for (loop/iowait.h): less by the kernel's slack, and on a host
 * with sub-millisecond ticks by the wake-up latency it learns, with the
 * select back end, from the waits that went before. The rule's arithmetic, and the
 * estimate it settles on for a latency that is steady or spread, on the
 * latencies given here (the real clock's only check is that no sleep ends
 * early: test_io). POSIX hosts.
 */
#include "loop/loop.h"

#include "runner.h"

#define END ((pt_time_t)PT_SEC(1000)) /* a deadline, far from 0 */

static void test_a_wait_asks_less_by_the_kernels_slack(void) {
    CHECK_EQ_INT((long)pt__wait_ask(700000u, 0), 700000 - 700); /* a thousandth */
#ifdef __linux__
    CHECK_EQ_INT((long)pt__wait_ask(10000u, 0), 10000 - 50); /* at least 50 us */
#endif
}

static void test_a_wait_asks_less_again_by_the_learned_latency(void) {
    CHECK_EQ_INT((long)pt__wait_ask(700000u, 120u), 700000 - 700 - 120);
}

static void test_a_wait_within_slack_and_latency_asks_the_least(void) {
    unsigned slack = (unsigned)pt__slack_us(200u);
    CHECK_EQ_INT((long)pt__wait_ask(slack + 60u, 60u), 1);
    CHECK_EQ_INT((long)pt__wait_ask(slack + 61u, 60u), 1);
    CHECK_EQ_INT((long)pt__wait_ask(slack + 62u, 60u), 2);
    CHECK_EQ_INT((long)pt__wait_ask(PT_CONFIG_SPIN_US + 1u, 60u), 1);
}

static void test_a_wait_of_a_few_microseconds_is_polled_for(void) {
    CHECK_EQ_INT((long)pt__wait_ask(PT_CONFIG_SPIN_US, 0u), 0);
    CHECK_EQ_INT((long)pt__wait_ask(1u, 0u), 0);
    CHECK_EQ_INT((long)pt__wait_ask(0u, 0u), 0);
}

static void test_an_end_on_time_leaves_the_estimate(void) {
    CHECK_EQ_INT((long)pt__ahead_learn(100u, END, END), 100);
}

static void test_a_late_end_near_the_estimate_raises_it_by_an_eighth(void) {
    CHECK_EQ_INT((long)pt__ahead_learn(100u, END, END + PT_US(40)), 105);
    CHECK_EQ_INT((long)pt__ahead_learn(100u, END, END + PT_US(7)), 100);
}

static void test_a_late_end_beyond_half_the_estimate_raises_it_by_half(void) {
    CHECK_EQ_INT((long)pt__ahead_learn(100u, END, END + PT_US(80)), 140);
    CHECK_EQ_INT((long)pt__ahead_learn(0u, END, END + PT_US(100)), 50);
}

static void test_an_early_end_lowers_the_estimate_by_all_of_it(void) {
    CHECK_EQ_INT((long)pt__ahead_learn(100u, END, END - PT_US(30)), 70);
    CHECK_EQ_INT((long)pt__ahead_learn(20u, END, END - PT_US(30)), 0);
}

static void test_the_estimate_stops_at_its_maximum(void) {
    CHECK_EQ_INT((long)pt__ahead_learn(PT_CONFIG_WAKE_AHEAD_MAX - 10u, END, END + PT_SEC(5)),
                 PT_CONFIG_WAKE_AHEAD_MAX);
    CHECK_EQ_INT((long)pt__ahead_learn(0u, END, END + PT_SEC(100000)), PT_CONFIG_WAKE_AHEAD_MAX);
}

/* Waits whose wake-up comes latency(i) us after the time asked, each
 * asking less by the estimate, over the waits after the first 200: how
 * many end early, the us they were early in all, and the us the others
 * were late in all. */
struct outcome {
    int early;
    unsigned long early_us, late_us;
};

static struct outcome simulate(unsigned (*latency)(int), int n) {
    struct outcome o = {0, 0, 0};
    unsigned ahead = 0;
    int i;
    for (i = 0; i < n; i++) {
        pt_time_t woke = END - PT_US(ahead) + PT_US(latency(i));
        if (i >= 200) {
            if (pt_time_before(woke, END)) {
                o.early++;
                o.early_us += (unsigned long)PT_TO_US(END - woke);
            } else {
                o.late_us += (unsigned long)PT_TO_US(woke - END);
            }
        }
        ahead = pt__ahead_learn(ahead, END, woke);
    }
    return o;
}

static unsigned steady(int i) {
    (void)i;
    return 100u;
}

/* 80..120 us, in an order with no period shorter than 41. */
static unsigned spread(int i) {
    return 80u + (unsigned)(i * 37 % 41);
}

static void test_a_steady_latency_is_learned_in_a_few_waits(void) {
    unsigned ahead = 0;
    int i;
    for (i = 0; i < 3; i++) /* 100, 50, then 25 us late */
        ahead = pt__ahead_learn(ahead, END, END - PT_US(ahead) + PT_US(100));
    CHECK(100u - ahead <= 25u); /* the fourth is late by 25 us at most */
}

static void test_a_steady_latency_is_learned_whole(void) {
    struct outcome o = simulate(steady, 1200);
    CHECK_EQ_INT(o.early, 0);
    CHECK(o.late_us <= 1000u * 8u); /* each within 8 us of its deadline */
}

/* Without the estimate each wait would end 80-120 us late. */
static void test_a_spread_latency_is_learned_low_in_its_spread(void) {
    struct outcome o = simulate(spread, 1200);
    CHECK(o.late_us <= 1000u * 15u);                   /* late by 15 us on average, */
    CHECK(o.early <= 1000 * 2 / 5);                    /* early less often than not, */
    CHECK(o.early_us <= (unsigned long)o.early * 10u); /* by 10 us on average */
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(a_wait_asks_less_by_the_kernels_slack)                                                       \
    X(a_wait_asks_less_again_by_the_learned_latency)                                               \
    X(a_wait_within_slack_and_latency_asks_the_least)                                              \
    X(a_wait_of_a_few_microseconds_is_polled_for)                                                  \
    X(an_end_on_time_leaves_the_estimate)                                                          \
    X(a_late_end_near_the_estimate_raises_it_by_an_eighth)                                         \
    X(a_late_end_beyond_half_the_estimate_raises_it_by_half)                                       \
    X(an_early_end_lowers_the_estimate_by_all_of_it)                                               \
    X(the_estimate_stops_at_its_maximum)                                                           \
    X(a_steady_latency_is_learned_in_a_few_waits)                                                  \
    X(a_steady_latency_is_learned_whole)                                                           \
    X(a_spread_latency_is_learned_low_in_its_spread)
/* clang-format on */
TEST_MAIN(TEST_CASES)
