/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/compat/pt.h - drop-in for protothreads 1.4's "pt.h".
 *
 * Build a program written for Adam Dunkels' protothreads 1.4 with
 * `cc -I<this folder>`: "pt.h" and "pt-sem.h" resolve here and give the
 * names of 1.4 (struct pt, PT_THREAD, PT_INIT, PT_BEGIN, PT_END,
 * PT_WAIT_UNTIL, PT_WAIT_WHILE, PT_WAIT_THREAD, PT_SPAWN, PT_YIELD,
 * PT_YIELD_UNTIL, PT_EXIT, PT_RESTART, PT_SCHEDULE, the status codes 0..3,
 * PT_YIELD_FLAG, lc_t and LC_*), with 1.4's behaviour. Besides those, only private
 * pt_/PT_-prefixed helpers are defined: no function, object or type that a
 * 1.4 program could define itself (timer, clock_time, ...).
 */
#ifndef PT_COMPAT_PT_H
#define PT_COMPAT_PT_H

#include "lc.h"

#include "../thread.h"

/* 1.4's dispatch: a resume point it does not hold (inside a switch of
 * the program's) leaves it, and the function ends as at PT_END. */
#undef PT_BEGIN
#define PT_BEGIN(pt) PT__BEGIN((pt), pt__kind_plain, PT_LC_RESUME((pt)->lc))

/* 1.4 names the yield flag PT_YIELD_FLAG; the core calls it pt__yf. */
#define PT_YIELD_FLAG pt__yf

#endif /* PT_COMPAT_PT_H */
