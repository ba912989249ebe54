/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/ticks.h - loop time: a tick counter that may wrap.
 *
 * The loop counts time in ticks of pt_time_t. On a POSIX host a tick is a
 * microsecond in 64 bits (PT_CONFIG_TIME_BITS 64: it wraps after 584,000 years);
 * on a board it is whatever the port's clock counts (PT_CONFIG_TICKS_PER_SEC says
 * how many make a second; 1000 by default) in 32 bits (PT_CONFIG_TIME_BITS 32:
 * 49.7 days at 1 ms). Write durations with PT_MS, PT_US and PT_SEC, never
 * as bare numbers: they are the same on every target.
 *
 * Deadlines are compared by their difference, so they stay right across
 * the wrap as long as no delay exceeds PT_TIME_MAX_DELAY ticks (half the
 * counter: about 24.8 days at 1 ms in 32 bits): a longer delay is cut to
 * PT_TIME_MAX_DELAY.
 */
#ifndef PT_LOOP_TICKS_H
#define PT_LOOP_TICKS_H

#include <stdint.h>

#include "config.h"

/* The counter's width: 64 on a POSIX host (microseconds need it: 32 bits
 * of them wrap every 71 minutes), 32 elsewhere (a board's 32-bit CPU does
 * one word, and 1 ms ticks last 49.7 days). */
#ifndef PT_CONFIG_TIME_BITS
#if PT_CONFIG_POSIX
#define PT_CONFIG_TIME_BITS 64
#else
#define PT_CONFIG_TIME_BITS 32
#endif
#endif

#if PT_CONFIG_TIME_BITS == 64
typedef uint64_t pt_time_t;
#define PT_TIME_MAX_DELAY ((pt_time_t)0x7FFFFFFFFFFFFFFFu)
#elif PT_CONFIG_TIME_BITS == 32
typedef uint32_t pt_time_t;
#define PT_TIME_MAX_DELAY ((pt_time_t)0x7FFFFFFFu)
#else
#error "PT_CONFIG_TIME_BITS: 32 or 64 (loop/config.h)"
#endif
#define PT_FOREVER ((pt_time_t)-1) /* as a timeout: no deadline */

/* A tick: a microsecond on a POSIX host's own clock, else a millisecond
 * unless the port says otherwise. */
#ifndef PT_CONFIG_TICKS_PER_SEC
#if PT_CONFIG_POSIX && !defined(PT_CONFIG_PORT_NOW)
#define PT_CONFIG_TICKS_PER_SEC 1000000u
#else
#define PT_CONFIG_TICKS_PER_SEC 1000u
#endif
#endif
#if !(PT_CONFIG_TICKS_PER_SEC > 0)
#error "PT_CONFIG_TICKS_PER_SEC: a positive integer constant that #if can read (1000u, 32768u, ...)"
#endif

/* T / unit reduced to A / B. 10^3 and 10^6 have no factors but 2 and 5,
 * so gcd(T, 10^k) is the powers of 2 and of 5 that T and 10^k share. All
 * usable in #if. */
#define PT__GCD2(t, k)                                                                             \
    ((k) >= 6 && (t) % 64 == 0   ? 64                                                              \
     : (k) >= 5 && (t) % 32 == 0 ? 32                                                              \
     : (k) >= 4 && (t) % 16 == 0 ? 16                                                              \
     : (t) % 8 == 0              ? 8                                                               \
     : (t) % 4 == 0              ? 4                                                               \
     : (t) % 2 == 0              ? 2                                                               \
                                 : 1)
#define PT__GCD5(t, k)                                                                             \
    ((k) >= 6 && (t) % 15625 == 0  ? 15625                                                         \
     : (k) >= 5 && (t) % 3125 == 0 ? 3125                                                          \
     : (k) >= 4 && (t) % 625 == 0  ? 625                                                           \
     : (t) % 125 == 0              ? 125                                                           \
     : (t) % 25 == 0               ? 25                                                            \
     : (t) % 5 == 0                ? 5                                                             \
                                   : 1)
#define PT__MS_GCD (PT__GCD2(PT_CONFIG_TICKS_PER_SEC, 3) * PT__GCD5(PT_CONFIG_TICKS_PER_SEC, 3))
#define PT__MS_A (PT_CONFIG_TICKS_PER_SEC / PT__MS_GCD)
#define PT__MS_B (1000u / PT__MS_GCD)
#define PT__US_GCD (PT__GCD2(PT_CONFIG_TICKS_PER_SEC, 6) * PT__GCD5(PT_CONFIG_TICKS_PER_SEC, 6))
#define PT__US_A (PT_CONFIG_TICKS_PER_SEC / PT__US_GCD)
#define PT__US_B (1000000u / PT__US_GCD)

/* The type of the general forms' remainder products (below A * B, plus
 * A + B): pt_time_t where that fits, else 64 bits. */
#if PT_CONFIG_TIME_BITS == 64
#define PT__MS_WIDE_T pt_time_t
#define PT__US_WIDE_T pt_time_t
#else
#if PT__MS_A * PT__MS_B + PT__MS_A + PT__MS_B > 0xFFFFFFFFu
#define PT__MS_WIDE_T uint64_t
#else
#define PT__MS_WIDE_T pt_time_t
#endif
#if PT__US_A * PT__US_B + PT__US_A + PT__US_B > 0xFFFFFFFFu
#define PT__US_WIDE_T uint64_t
#else
#define PT__US_WIDE_T pt_time_t
#endif
#endif

/*
 * pt_time_t PT_US(us), PT_MS(ms), PT_SEC(s): a duration in ticks, rounded
 * up (a wait is never shorter than asked). Integer constant expressions
 * when the argument is one.
 *
 * The argument is converted to pt_time_t first (an unsigned type: a
 * negative or wider value wraps there). The result is exact when it fits
 * in pt_time_t; a duration whose ticks do not fit saturates to the largest
 * pt_time_t (the value of PT_FOREVER: a wait cuts it to PT_TIME_MAX_DELAY,
 * a timeout takes it as no deadline). It never wraps.
 *
 * The form is chosen here for PT_CONFIG_TICKS_PER_SEC (T), so that the usual
 * ticks cost nothing and no target calls a helper for 64-bit arithmetic:
 *   T counts the unit         the argument itself (PT_MS at 1000 Hz, PT_US
 *                             at 1 MHz);
 *   a unit is m whole ticks   a multiply, saturated (PT_MS at 1 MHz, PT_SEC);
 *   a tick is k whole units   a division rounded up (PT_US at 1000 Hz, PT_MS
 *                             at 100 Hz);
 *   else (32768 Hz, 1024 Hz)  n * A / B rounded up, with A / B = T / unit
 *                             reduced, as (n / B) * A + ceil((n % B) * A / B)
 *                             (saturated if A > B). (n % B) * A stays below
 *                             A * B, which fits in pt_time_t except at a few
 *                             odd T (PT_US at 4999 Hz: about 5e9): there,
 *                             and only there, that product is in 64 bits.
 * All but the first read the argument more than once: give none with a
 * side effect.
 */
#if PT_CONFIG_TICKS_PER_SEC == 1000000
#define PT_US(us) ((pt_time_t)(us))
#elif PT_CONFIG_TICKS_PER_SEC % 1000000 == 0
#define PT_US(us) PT__TICKS_MUL(us, PT_CONFIG_TICKS_PER_SEC / 1000000u)
#elif 1000000 % PT_CONFIG_TICKS_PER_SEC == 0
#define PT_US(us) PT__TICKS_DIV(us, 1000000u / PT_CONFIG_TICKS_PER_SEC)
#elif PT__US_A > PT__US_B
#define PT_US(us) PT__TICKS_RATIO_SAT(us, PT__US_A, PT__US_B, PT__US_WIDE_T)
#else
#define PT_US(us) PT__TICKS_RATIO(us, PT__US_A, PT__US_B, PT__US_WIDE_T)
#endif

#if PT_CONFIG_TICKS_PER_SEC == 1000
#define PT_MS(ms) ((pt_time_t)(ms))
#elif PT_CONFIG_TICKS_PER_SEC % 1000 == 0
#define PT_MS(ms) PT__TICKS_MUL(ms, PT_CONFIG_TICKS_PER_SEC / 1000u)
#elif 1000 % PT_CONFIG_TICKS_PER_SEC == 0
#define PT_MS(ms) PT__TICKS_DIV(ms, 1000u / PT_CONFIG_TICKS_PER_SEC)
#elif PT__MS_A > PT__MS_B
#define PT_MS(ms) PT__TICKS_RATIO_SAT(ms, PT__MS_A, PT__MS_B, PT__MS_WIDE_T)
#else
#define PT_MS(ms) PT__TICKS_RATIO(ms, PT__MS_A, PT__MS_B, PT__MS_WIDE_T)
#endif

#if PT_CONFIG_TICKS_PER_SEC == 1
#define PT_SEC(s) ((pt_time_t)(s))
#else
#define PT_SEC(s) PT__TICKS_MUL(s, PT_CONFIG_TICKS_PER_SEC)
#endif

/*
 * uint64_t PT_TO_MS(ticks), PT_TO_US(ticks): a number of ticks (a
 * duration, or pt_loop_now's time) in whole milliseconds or microseconds,
 * rounded down: for printing, and for talking to other clocks. Exact for
 * every pt_time_t (with 64-bit ticks, up to a result of 2^64 - 1). The
 * same choice the other way: the value itself, a division where a unit is
 * whole ticks, and the general form in pt_time_t where the unit is longer
 * than a tick. Where a tick is longer than the unit the result needs more
 * than pt_time_t (2^32 ms is 42 bits of microseconds): that multiply is
 * in 64 bits.
 */
#if PT_CONFIG_TICKS_PER_SEC == 1000
#define PT_TO_MS(t) ((uint64_t)(pt_time_t)(t))
#elif PT_CONFIG_TICKS_PER_SEC % 1000 == 0
#define PT_TO_MS(t) ((uint64_t)((pt_time_t)(t) / (PT_CONFIG_TICKS_PER_SEC / 1000u)))
#elif 1000 % PT_CONFIG_TICKS_PER_SEC == 0
#define PT_TO_MS(t) ((uint64_t)(pt_time_t)(t) * (1000u / PT_CONFIG_TICKS_PER_SEC))
#elif PT__MS_A > PT__MS_B
#define PT_TO_MS(t) PT__UNITS_RATIO(t, PT__MS_A, PT__MS_B, pt_time_t, PT__MS_WIDE_T)
#else
#define PT_TO_MS(t) PT__UNITS_RATIO(t, PT__MS_A, PT__MS_B, uint64_t, PT__MS_WIDE_T)
#endif

#if PT_CONFIG_TICKS_PER_SEC == 1000000
#define PT_TO_US(t) ((uint64_t)(pt_time_t)(t))
#elif PT_CONFIG_TICKS_PER_SEC % 1000000 == 0
#define PT_TO_US(t) ((uint64_t)((pt_time_t)(t) / (PT_CONFIG_TICKS_PER_SEC / 1000000u)))
#elif 1000000 % PT_CONFIG_TICKS_PER_SEC == 0
#define PT_TO_US(t) ((uint64_t)(pt_time_t)(t) * (1000000u / PT_CONFIG_TICKS_PER_SEC))
#elif PT__US_A > PT__US_B
#define PT_TO_US(t) PT__UNITS_RATIO(t, PT__US_A, PT__US_B, pt_time_t, PT__US_WIDE_T)
#else
#define PT_TO_US(t) PT__UNITS_RATIO(t, PT__US_A, PT__US_B, uint64_t, PT__US_WIDE_T)
#endif

/* The forms. n and t are converted to pt_time_t first; m, k, a, b are
 * constants: m and k at least 2, a and b coprime. */
#define PT__TICKS_MUL(n, m)                                                                        \
    (PT__ABOVE(n, PT_FOREVER / (m)) ? PT_FOREVER : (pt_time_t)((pt_time_t)(n) * (m)))
#define PT__TICKS_DIV(n, k) ((pt_time_t)((pt_time_t)(n) / (k) + ((pt_time_t)(n) % (k) != 0)))
/* ceil(n * a / b), for a <= b (never more than n). */
#define PT__TICKS_RATIO(n, a, b, wide_t)                                                           \
    ((pt_time_t)((pt_time_t)(n) / (b) * (a) +                                                      \
                 (pt_time_t)(((wide_t)((pt_time_t)(n) % (b)) * (a) + ((b)-1u)) / (b))))
/* The same for a > b, saturated above the largest n whose ticks fit:
 * floor(PT_FOREVER * b / a), in the same two parts. */
#define PT__TICKS_RATIO_SAT(n, a, b, wide_t)                                                       \
    (PT__ABOVE(n, (pt_time_t)(PT_FOREVER / (a) * (b) +                                             \
                              (pt_time_t)((wide_t)(PT_FOREVER % (a)) * (b) / (a))))                \
         ? PT_FOREVER                                                                              \
         : PT__TICKS_RATIO(n, a, b, wide_t))
/* n > limit, as n - (limit + 1) < PT_FOREVER - limit (modulo the counter):
 * the same test, but one that compilers do not flag as always false
 * (-Wtype-limits) where n's own type or value cannot pass the limit. */
#define PT__ABOVE(n, limit)                                                                        \
    ((pt_time_t)((pt_time_t)(n) - (limit)-1u) < (pt_time_t)(PT_FOREVER - (limit)))
/* floor(t * b / a): the quotient part in quot_t (pt_time_t if b < a: it
 * is at most t), the remainder part below a * b. */
#define PT__UNITS_RATIO(t, a, b, quot_t, wide_t)                                                   \
    ((uint64_t)((quot_t)((pt_time_t)(t) / (a)) * (b)) +                                            \
     (uint64_t)((wide_t)((pt_time_t)(t) % (a)) * (b) / (a)))

/* Nonzero if tick a comes before tick b (wrap-safe). */
static inline int pt_time_before(pt_time_t a, pt_time_t b) {
    return (pt_time_t)(a - b) > PT_TIME_MAX_DELAY;
}

/* b - a, or 0 if b is not after a. */
static inline pt_time_t pt_time_until(pt_time_t a, pt_time_t b) {
    return pt_time_before(a, b) ? (pt_time_t)(b - a) : 0;
}

/* The deadline `delay` ticks after now, the delay cut to the maximum. */
static inline pt_time_t pt_time_after(pt_time_t now, pt_time_t delay) {
    /* A delay past the maximum has its top bit set: `over` is then all
     * ones and the mask leaves the maximum; otherwise `over` is 0 and the
     * delay is kept as it is. */
    pt_time_t over = (pt_time_t)0 - (delay >> (PT_CONFIG_TIME_BITS - 1));
    return (pt_time_t)(now + ((delay | over) & PT_TIME_MAX_DELAY));
}

#endif /* PT_LOOP_TICKS_H */
