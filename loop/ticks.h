/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/ticks.h - loop time: a tick counter that may wrap.
 *
 * The loop counts time in ticks of pt_time_t. On a POSIX host a tick is a
 * microsecond in 64 bits (PT_TIME_BITS 64: it wraps after 584,000 years);
 * on a board it is whatever the port's clock counts (PT_TICKS_PER_SEC says
 * how many make a second; 1000 by default) in 32 bits (PT_TIME_BITS 32:
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
#ifndef PT_TIME_BITS
#if PT_POSIX
#define PT_TIME_BITS 64
#else
#define PT_TIME_BITS 32
#endif
#endif

#if PT_TIME_BITS == 64
typedef uint64_t pt_time_t;
#define PT_TIME_MAX_DELAY ((pt_time_t)0x7FFFFFFFFFFFFFFFu)
#elif PT_TIME_BITS == 32
typedef uint32_t pt_time_t;
#define PT_TIME_MAX_DELAY ((pt_time_t)0x7FFFFFFFu)
#else
#error "PT_TIME_BITS: 32 or 64 (loop/config.h)"
#endif
#define PT_FOREVER ((pt_time_t)-1) /* as a timeout: no deadline */

/* A tick: a microsecond on a POSIX host's own clock, else a millisecond
 * unless the port says otherwise. */
#ifndef PT_TICKS_PER_SEC
#if PT_POSIX && !defined(PT_PORT_NOW)
#define PT_TICKS_PER_SEC 1000000u
#else
#define PT_TICKS_PER_SEC 1000u
#endif
#endif

/* pt_time_t PT_US(us), PT_MS(ms), PT_SEC(s): a duration in ticks, rounded
 * up (a wait is never shorter than asked). The argument is converted to
 * uint64_t: at most 2^64 / PT_TICKS_PER_SEC of it. */
#define PT_US(us) ((pt_time_t)(((uint64_t)(us)*PT_TICKS_PER_SEC + 999999u) / 1000000u))
#define PT_MS(ms) ((pt_time_t)(((uint64_t)(ms)*PT_TICKS_PER_SEC + 999u) / 1000u))
#define PT_SEC(s) ((pt_time_t)((uint64_t)(s)*PT_TICKS_PER_SEC))

/* uint64_t PT_TO_MS(ticks), PT_TO_US(ticks): a number of ticks (a
 * duration, or pt_loop_now's time) in whole milliseconds or microseconds,
 * rounded down: for printing, and for talking to other clocks. */
#define PT_TO_MS(t)                                                                                \
    ((uint64_t)(t) / PT_TICKS_PER_SEC * 1000u +                                                    \
     (uint64_t)(t) % PT_TICKS_PER_SEC * 1000u / PT_TICKS_PER_SEC)
#define PT_TO_US(t)                                                                                \
    ((uint64_t)(t) / PT_TICKS_PER_SEC * 1000000u +                                                 \
     (uint64_t)(t) % PT_TICKS_PER_SEC * 1000000u / PT_TICKS_PER_SEC)

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
    /* (Past the maximum, the top bit set: all ones, then the maximum; no
     * branch and no constant to load.) */
    pt_time_t over = (pt_time_t)0 - (delay >> (PT_TIME_BITS - 1));
    return (pt_time_t)(now + ((delay | over) & PT_TIME_MAX_DELAY));
}

#endif /* PT_LOOP_TICKS_H */
