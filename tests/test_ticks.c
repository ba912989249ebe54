/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_ticks.c - durations to ticks and back (loop/ticks.h) at one
 * tick rate, built once per rate and counter width (tests/meson.build:
 * -DPT_CONFIG_TICKS_PER_SEC=..., -DPT_CONFIG_TIME_BITS=32 or 64). PT_US, PT_MS and
 * PT_SEC round up to whole ticks, PT_TO_MS and PT_TO_US round down to
 * whole units, each exactly, in whichever form the rate selects (the tick
 * itself, a multiply, a division, or the general ratio); a duration whose
 * ticks do not fit in pt_time_t saturates to PT_FOREVER's value instead of
 * wrapping; all are constant expressions. Then every value of a sweep
 * against a plain model of the same contract.
 */
#include <stdint.h>

#include "loop/ticks.h"

#include "runner.h"

/* Both sides as unsigned long long, shown as written (not expanded); on a
 * host, their values if they differ (a board's printf may not print long
 * long). */
#if defined(__AVR__)
#define CHECK_TICKS(a, b) check_at(CHECK_SITE(#a, #b), (unsigned long long)(a) == (b))
#elif CHECK_SMALL
#define CHECK_TICKS(a, b)                                                                          \
    check_result((unsigned long long)(a) == (b), __FILE__, __LINE__, #a " == " #b)
#else
#define CHECK_TICKS(a, b)                                                                          \
    do {                                                                                           \
        unsigned long long check_a_ = (unsigned long long)(a), check_b_ = (b);                     \
        check_result(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);                      \
        if (check_a_ != check_b_)                                                                  \
            printf("#     left:  %llu\n#     right: %llu\n", check_a_, check_b_);                  \
    } while (0)
#endif

#define FOREVER ((unsigned long long)PT_FOREVER)

static void test_exact_values_at_this_rate(void) {
#if PT_CONFIG_TICKS_PER_SEC == 1000
    /* A board's default: PT_MS is the tick itself, PT_US a division. */
    CHECK_TICKS(PT_MS(0u), 0u);
    CHECK_TICKS(PT_MS(1u), 1u);
    CHECK_TICKS(PT_MS(999u), 999u);
    CHECK_TICKS(PT_MS(4294967295u), 4294967295u);
    CHECK_TICKS(PT_US(0u), 0u);
    CHECK_TICKS(PT_US(1u), 1u); /* rounded up: never no wait */
    CHECK_TICKS(PT_US(999u), 1u);
    CHECK_TICKS(PT_US(1000u), 1u);
    CHECK_TICKS(PT_US(1001u), 2u);
    CHECK_TICKS(PT_US(4294967295u), 4294968u);
    CHECK_TICKS(PT_SEC(0u), 0u);
    CHECK_TICKS(PT_SEC(3u), 3000u);
    CHECK_TICKS(PT_TO_MS(1u), 1u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 4294967295u);
    CHECK_TICKS(PT_TO_US(1u), 1000u);
    CHECK_TICKS(PT_TO_US(4294967295u), 4294967295000ull); /* more than 32 bits */
#elif PT_CONFIG_TICKS_PER_SEC == 1000000
    /* A POSIX host's default: PT_US is the tick itself, PT_MS a multiply. */
    CHECK_TICKS(PT_US(0u), 0u);
    CHECK_TICKS(PT_US(1u), 1u);
    CHECK_TICKS(PT_US(4294967295u), 4294967295u);
    CHECK_TICKS(PT_MS(1u), 1000u);
    CHECK_TICKS(PT_MS(1500u), 1500000u);
    CHECK_TICKS(PT_SEC(3u), 3000000u);
    CHECK_TICKS(PT_TO_MS(999u), 0u); /* rounded down */
    CHECK_TICKS(PT_TO_MS(1000u), 1u);
    CHECK_TICKS(PT_TO_MS(1999u), 1u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 4294967u);
    CHECK_TICKS(PT_TO_US(4294967295u), 4294967295u);
#elif PT_CONFIG_TICKS_PER_SEC == 32768
    /* A watch crystal: 32768 / 1000 = 4096 / 125, 32768 / 10^6 = 512 / 15625. */
    CHECK_TICKS(PT_MS(0u), 0u);
    CHECK_TICKS(PT_MS(1u), 33u); /* 32.768 */
    CHECK_TICKS(PT_MS(124u), 4064u);
    CHECK_TICKS(PT_MS(125u), 4096u); /* exact */
    CHECK_TICKS(PT_MS(126u), 4129u); /* 4128.768 */
    CHECK_TICKS(PT_MS(1000u), 32768u);
    CHECK_TICKS(PT_US(1u), 1u);
    CHECK_TICKS(PT_US(30u), 1u); /* 0.983 */
    CHECK_TICKS(PT_US(31u), 2u); /* 1.016 */
    CHECK_TICKS(PT_US(15625u), 512u);
    CHECK_TICKS(PT_US(15626u), 513u);
    CHECK_TICKS(PT_US(1000000u), 32768u);
    CHECK_TICKS(PT_US(4294967295u), 140737489u);
    CHECK_TICKS(PT_SEC(3u), 98304u);
    CHECK_TICKS(PT_TO_MS(1u), 0u);
    CHECK_TICKS(PT_TO_MS(32767u), 999u);
    CHECK_TICKS(PT_TO_MS(32768u), 1000u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 131071999u);
    CHECK_TICKS(PT_TO_US(1u), 30u);
    CHECK_TICKS(PT_TO_US(511u), 15594u);
    CHECK_TICKS(PT_TO_US(512u), 15625u);
    CHECK_TICKS(PT_TO_US(4294967295u), 131071999969ull);
#elif PT_CONFIG_TICKS_PER_SEC == 100
    /* A coarse tick: PT_MS and PT_US divisions, the way back multiplies. */
    CHECK_TICKS(PT_MS(1u), 1u);
    CHECK_TICKS(PT_MS(10u), 1u);
    CHECK_TICKS(PT_MS(11u), 2u);
    CHECK_TICKS(PT_MS(1000u), 100u);
    CHECK_TICKS(PT_MS(4294967295u), 429496730u);
    CHECK_TICKS(PT_US(1u), 1u);
    CHECK_TICKS(PT_US(9999u), 1u);
    CHECK_TICKS(PT_US(10000u), 1u);
    CHECK_TICKS(PT_US(10001u), 2u);
    CHECK_TICKS(PT_US(4294967295u), 429497u);
    CHECK_TICKS(PT_SEC(3u), 300u);
    CHECK_TICKS(PT_TO_MS(1u), 10u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 42949672950ull);
    CHECK_TICKS(PT_TO_US(1u), 10000u);
    CHECK_TICKS(PT_TO_US(4294967295u), 42949672950000ull);
#elif PT_CONFIG_TICKS_PER_SEC == 1024
    /* 1024 / 1000 = 128 / 125, 1024 / 10^6 = 16 / 15625. */
    CHECK_TICKS(PT_MS(1u), 2u); /* 1.024 */
    CHECK_TICKS(PT_MS(124u), 127u);
    CHECK_TICKS(PT_MS(125u), 128u);
    CHECK_TICKS(PT_MS(126u), 130u); /* 129.024 */
    CHECK_TICKS(PT_MS(1000u), 1024u);
    CHECK_TICKS(PT_US(1u), 1u);
    CHECK_TICKS(PT_US(976u), 1u); /* 0.999 */
    CHECK_TICKS(PT_US(977u), 2u); /* 1.0004 */
    CHECK_TICKS(PT_US(15625u), 16u);
    CHECK_TICKS(PT_US(4294967295u), 4398047u);
    CHECK_TICKS(PT_SEC(3u), 3072u);
    CHECK_TICKS(PT_TO_MS(1023u), 999u);
    CHECK_TICKS(PT_TO_MS(1024u), 1000u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 4194303999u);
    CHECK_TICKS(PT_TO_US(1u), 976u);
    CHECK_TICKS(PT_TO_US(63u), 61523u);
    CHECK_TICKS(PT_TO_US(64u), 62500u);
    CHECK_TICKS(PT_TO_US(4294967295u), 4194303999023ull);
#elif PT_CONFIG_TICKS_PER_SEC == 4999
    /* A prime rate: 4999 / 10^6 does not reduce, and 4999 * 10^6 needs
     * more than 32 bits (the one place a 32-bit counter computes in 64). */
    CHECK_TICKS(PT_US(1u), 1u);
    CHECK_TICKS(PT_US(200u), 1u); /* 0.9998 */
    CHECK_TICKS(PT_US(201u), 2u);
    CHECK_TICKS(PT_US(1000000u), 4999u);
    CHECK_TICKS(PT_US(4294967295u), 21470542u);
    CHECK_TICKS(PT_MS(1u), 5u);
    CHECK_TICKS(PT_MS(1000u), 4999u);
    CHECK_TICKS(PT_SEC(3u), 14997u);
    CHECK_TICKS(PT_TO_MS(4998u), 999u);
    CHECK_TICKS(PT_TO_MS(4999u), 1000u);
    CHECK_TICKS(PT_TO_MS(4294967295u), 859165292u);
    CHECK_TICKS(PT_TO_US(1u), 200u);
    CHECK_TICKS(PT_TO_US(4998u), 999799u);
    CHECK_TICKS(PT_TO_US(4294967295u), 859165292058ull);
#else
#error "tests/test_ticks.c: no table for this PT_CONFIG_TICKS_PER_SEC"
#endif
    CHECK_TICKS(PT_MS(0u), 0u);
    CHECK_TICKS(PT_US(0u), 0u);
    CHECK_TICKS(PT_SEC(0u), 0u);
    CHECK_TICKS(PT_SEC(1u), PT_CONFIG_TICKS_PER_SEC);
    CHECK_TICKS(PT_TO_MS(0u), 0u);
    CHECK_TICKS(PT_TO_US(0u), 0u);
}

/* The largest argument whose ticks fit gives them exactly; one more gives
 * the largest pt_time_t (PT_FOREVER's value), never a wrapped count. */
static void test_saturates_where_the_ticks_do_not_fit(void) {
#if PT_CONFIG_TIME_BITS == 32
#if PT_CONFIG_TICKS_PER_SEC == 1000
    CHECK_TICKS(PT_SEC(4294967u), 4294967000u);
    CHECK_TICKS(PT_SEC(4294968u), FOREVER); /* not 704 */
#elif PT_CONFIG_TICKS_PER_SEC == 1000000
    CHECK_TICKS(PT_MS(4294967u), 4294967000u);
    CHECK_TICKS(PT_MS(4294968u), FOREVER);
    CHECK_TICKS(PT_SEC(4294u), 4294000000u);
    CHECK_TICKS(PT_SEC(4295u), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 32768
    CHECK_TICKS(PT_MS(131071999u), 4294967264u);
    CHECK_TICKS(PT_MS(131072000u), FOREVER);
    CHECK_TICKS(PT_SEC(131071u), 4294934528u);
    CHECK_TICKS(PT_SEC(131072u), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 100
    CHECK_TICKS(PT_SEC(42949672u), 4294967200u);
    CHECK_TICKS(PT_SEC(42949673u), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 1024
    CHECK_TICKS(PT_MS(4194303999u), 4294967295u);
    CHECK_TICKS(PT_MS(4194304000u), FOREVER);
    CHECK_TICKS(PT_SEC(4194303u), 4294966272u);
    CHECK_TICKS(PT_SEC(4194304u), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 4999
    CHECK_TICKS(PT_MS(859165292u), 4294967295u);
    CHECK_TICKS(PT_MS(859165293u), FOREVER);
    CHECK_TICKS(PT_SEC(859165u), 4294965835u);
    CHECK_TICKS(PT_SEC(859166u), FOREVER);
#endif
    CHECK_TICKS(PT_SEC(4294967295u), FOREVER);
#else
#if PT_CONFIG_TICKS_PER_SEC == 1000000
    CHECK_TICKS(PT_MS(18446744073709551ull), 18446744073709551000ull);
    CHECK_TICKS(PT_MS(18446744073709552ull), FOREVER);
    CHECK_TICKS(PT_SEC(18446744073709ull), 18446744073709000000ull);
    CHECK_TICKS(PT_SEC(18446744073710ull), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 1000
    CHECK_TICKS(PT_SEC(18446744073709551ull), 18446744073709551000ull);
    CHECK_TICKS(PT_SEC(18446744073709552ull), FOREVER);
#elif PT_CONFIG_TICKS_PER_SEC == 32768
    CHECK_TICKS(PT_MS(562949953421311999ull), 18446744073709551584ull);
    CHECK_TICKS(PT_MS(562949953421312000ull), FOREVER);
    CHECK_TICKS(PT_SEC(562949953421311ull), 18446744073709518848ull);
    CHECK_TICKS(PT_SEC(562949953421312ull), FOREVER);
#endif
    CHECK_TICKS(PT_SEC(18446744073709551615ull), FOREVER);
#endif
    /* A wait cuts the saturated value to the longest delay. */
    CHECK_TICKS(pt_time_after(0u, PT_FOREVER), PT_TIME_MAX_DELAY);
}

/* Usable where C wants a constant: an array size, a case label. */
static const char three_seconds_of_ms[PT_TO_MS(PT_SEC(3)) == 3000u ? 1 : -1] = {1};

static int is_a_tenth_of_a_second(pt_time_t t) {
    switch (t) {
    case PT_MS(100):
        return 1;
    default:
        return 0;
    }
}

static void test_constant_expressions(void) {
    CHECK(three_seconds_of_ms[0] == 1);
    CHECK(is_a_tenth_of_a_second(PT_US(100000)));
    CHECK(!is_a_tenth_of_a_second(PT_MS(100) + 1u));
}

/* The model: the contract as plain arithmetic, for arguments below 2^32
 * (times any rate of at most 2^32, below 2^64). */
static unsigned long long model_ticks(unsigned long long n, unsigned long long unit) {
    unsigned long long t = (n * PT_CONFIG_TICKS_PER_SEC + unit - 1) / unit;
    return t > FOREVER ? FOREVER : t;
}

static unsigned long long model_units(unsigned long long t, unsigned long long unit) {
    return t * unit / PT_CONFIG_TICKS_PER_SEC;
}

static unsigned sweep_failures;

static void sweep_one(uint32_t n) {
    unsigned long long us = PT_US(n), ms = PT_MS(n), s = PT_SEC(n), to_ms = PT_TO_MS(n),
                       to_us = PT_TO_US(n);
    if (us != model_ticks(n, 1000000u) || ms != model_ticks(n, 1000u) || s != model_ticks(n, 1u) ||
        to_ms != model_units(n, 1000u) || to_us != model_units(n, 1000000u)) {
        sweep_failures++;
#if !CHECK_SMALL
        if (sweep_failures <= 5)
            printf("# at %lu: PT_US %llu, PT_MS %llu, PT_SEC %llu, PT_TO_MS %llu, PT_TO_US %llu\n",
                   (unsigned long)n, us, ms, s, to_ms, to_us);
#endif
    }
}

static void test_agrees_with_the_model(void) {
    uint32_t n, x = 12345u;
    int i;
    sweep_failures = 0;
    for (n = 0; n < CHECK_SCALE(70000u, 3000u); n++) /* the first tick boundaries */
        sweep_one(n);
    for (i = 0; i < 32; i++) { /* around each power of two */
        sweep_one(((uint32_t)1 << i) - 1u);
        sweep_one((uint32_t)1 << i);
        sweep_one(((uint32_t)1 << i) + 1u);
    }
    for (i = 0; i < CHECK_SCALE(200000, 2000); i++) { /* and spread over the whole range */
        x = x * 1664525u + 1013904223u;
        sweep_one(x);
    }
    sweep_one(0xFFFFFFFFu);
    CHECK_EQ_INT(sweep_failures, 0);
}

#define TEST_CASES(X)                                                                              \
    X(exact_values_at_this_rate)                                                                   \
    X(saturates_where_the_ticks_do_not_fit)                                                        \
    X(constant_expressions)                                                                        \
    X(agrees_with_the_model)
TEST_MAIN(TEST_CASES)
