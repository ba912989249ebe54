/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/ticks.h - loop time: a 32-bit tick counter that may wrap.
 *
 * The loop counts time in ticks of pt_time_t (uint32_t). On a POSIX host a
 * tick is a millisecond (the clock wraps after 49.7 days); on a board it is
 * whatever the port's clock counts (PT_TICKS_PER_SEC says how many make a
 * second). Deadlines are compared by their difference, so they stay right
 * across the wrap as long as no delay exceeds PT_TIME_MAX_DELAY ticks (about
 * 24.8 days at 1 ms): a longer delay is cut to PT_TIME_MAX_DELAY.
 */
#ifndef PT_LOOP_TICKS_H
#define PT_LOOP_TICKS_H

#include <stdint.h>

typedef uint32_t pt_time_t;

#ifndef PT_TICKS_PER_SEC
#define PT_TICKS_PER_SEC 1000u
#endif

#define PT_TIME_MAX_DELAY 0x7FFFFFFFu
#define PT_FOREVER 0xFFFFFFFFu /* as a timeout: no deadline */

/* Milliseconds to ticks (rounded up, so a wait is never shorter). */
#define PT_MS(ms) ((pt_time_t)(((uint64_t)(ms)*PT_TICKS_PER_SEC + 999u) / 1000u))

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
    return (pt_time_t)(now + (delay > PT_TIME_MAX_DELAY ? PT_TIME_MAX_DELAY : delay));
}

#endif /* PT_LOOP_TICKS_H */
