/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/stopwatch.h - what the demos measure with: wall-clock milliseconds
 * (CLOCK_MONOTONIC) and the process's CPU milliseconds.
 */
#ifndef DEMOS_STOPWATCH_H
#define DEMOS_STOPWATCH_H

#include <time.h>

static inline double wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline double cpu_ms(void) {
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
}

#endif /* DEMOS_STOPWATCH_H */
