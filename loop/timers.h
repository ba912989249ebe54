/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/timers.h - the seam between the core and the structure that keeps
 * the pending timers in the order they fire: by deadline, equal deadlines
 * in the order they were set.
 *
 * PT_CONFIG_TIMERS (loop/config.h) chooses one header of loop/timers/:
 *   PT_TIMERS_HEAP  heap.h  a 4-ary heap in the array given to
 *                           pt_loop_init: O(log n) to set a timer or take
 *                           one out, for any number (the default on a
 *                           POSIX host); a task carries its slot in the
 *                           heap, the slot its deadline and sequence number
 *   PT_TIMERS_LIST  list.h  a sorted list linked through the tasks: O(1)
 *                           to set a timer not earlier than the others and
 *                           to fire the earliest, O(n) otherwise; the least
 *                           code (the default elsewhere: a microcontroller
 *                           has few timers); a task carries one pointer;
 *                           the array given to pt_loop_init is not used
 *                           (it may be NULL)
 * Either way pt_loop_init's `cap` bounds the timers pending at once (one
 * more is PT_EFULL), and struct pt_loop counts them (ntimers).
 *
 * The interface, every function private (pt__):
 *
 *   void pt__timers_init(l, heap)      an empty set, in `heap` if it uses one
 *   void pt__timer_init(t)             t has no timer
 *   int  pt__timer_add(l, t, when)     t's timer (it has none), due at
 *                                      `when`: PT_OK, or PT_EFULL (cap timers
 *                                      pending; nothing changed)
 *   void pt__timer_remove(l, t)        take t's timer out (none: nothing)
 *   int  pt__timer_pending(t)          nonzero if t has a timer
 *   struct pt_task *pt__timer_first(l) the one that fires first, or NULL
 *   pt_time_t pt__timer_first_when(l)  when that one fires (there is one)
 *   pt_time_t pt__timer_when(l, t)     when t's fires (t has a timer)
 * The deadline is the timers' to keep: a heap's slot holds it, a task
 * does not (a task that must remember it past its timer keeps it itself).
 */
#ifndef PT_LOOP_TIMERS_H
#define PT_LOOP_TIMERS_H

#include "config.h"

#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
#include "timers/heap.h"
#elif PT_CONFIG_TIMERS == PT_TIMERS_LIST
#include "timers/list.h"
#else
#error "PT_CONFIG_TIMERS: PT_TIMERS_HEAP or PT_TIMERS_LIST (loop/config.h)"
#endif

#endif /* PT_LOOP_TIMERS_H */
