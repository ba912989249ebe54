/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/loop_util.h - what the loop tests (tests/test_loop*.c) share: one
 * loop on the virtual clock, a trace of what ran, a fixed-seed random
 * generator. Include after "loop/loop.h".
 */
#ifndef TESTS_LOOP_UTIL_H
#define TESTS_LOOP_UTIL_H

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "loop_init.h"

/* Timer slots: more than the timers any test has pending at once. */
#define HEAP_CAP CHECK_SCALE(256, 32)

static struct pt_loop lp; /* the loop of every test */
static struct pt_timer_slot heap[HEAP_CAP];

/* Events in the order they happened, as "word word ... ". */
static struct check_out trace;

static inline void trace_reset(void) {
    trace.len = 0;
    trace.buf[0] = '\0';
}

static inline void note(const char *what) {
    check_out_puts(&trace, what);
    check_out_puts(&trace, " ");
}

/* note(name followed by a number), e.g. "A3". */
static inline void note_n(const char *name, long n) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s%ld", name, n);
    note(buf);
}

/* A fresh loop whose virtual clock starts at `start`, and an empty trace. */
static inline void setup(pt_time_t start) {
    CHECK_EQ_INT(test_loop_init(&lp, heap, HEAP_CAP), PT_OK);
    pt_loop_use_virtual_clock(&lp, start);
    trace_reset();
}

/* Loop time relative to a start, as a plain number. */
static inline long since(pt_time_t start) {
    return (long)(pt_time_t)(pt_loop_now(&lp) - start);
}

/* A linear congruential generator with a fixed seed: the same numbers on
 * every host and every run (never rand()). */
static unsigned long lcg_state;

static inline void lcg_seed(unsigned long seed) {
    lcg_state = seed;
}

static inline unsigned lcg_next(unsigned bound) {
    lcg_state = (lcg_state * 1103515245ul + 12345ul) & 0x7FFFFFFFul;
    return (unsigned)((lcg_state >> 8) % bound);
}

#endif /* TESTS_LOOP_UTIL_H */
