/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/config.h - COMPILE-TIME OPTIONS: every configuration macro of pt/ and
 * loop/, its default, and where it must be set. Define any of them (-D on
 * the command line, or #define before the first #include of the library).
 * Each must have the same value in every file of a program: the structures
 * and the code that walks them change with them.
 *
 *   macro                   default                  what it chooses
 *   ---------------------   ----------------------   -----------------------------------
 *   PT_LC_ADDRLABELS        0                        resume points: 0 switch/case (any
 *                                                    C99), 1 GCC/Clang labels as values
 *                                                    (pt/lc.h)
 *   PT_LC_NO_COUNTER        0                        1: name resume points by __LINE__
 *                                                    even where __COUNTER__ exists
 *   PT_LOOP_BACKEND         PT_BACKEND_SELECT on a   how the loop waits for descriptors
 *                           POSIX host, else         (loop/backend.h): PT_BACKEND_NONE,
 *                           PT_BACKEND_NONE          _SELECT, _POLL, _EPOLL (Linux)
 *   PT_LOOP_SYNC            1                        events, semaphores, queues (sync.h),
 *                                                    lock and condition (lock.h),
 *                                                    barrier (barrier.h)
 *   PT_LOOP_GROUPS          1                        task groups (group.h)
 *   PT_LOOP_BACKGROUND      1                        pt_spawn_background
 *   PT_LOOP_CALLBACKS       1                        callbacks (call.h) and timeout
 *                                                    scopes (timeout.h)
 *   PT_LOOP_TIMERS          PT_TIMERS_HEAP on a      how pending timers are kept
 *                           POSIX host, else         (loop/timers.h): a 4-ary heap
 *                           PT_TIMERS_LIST           (O(log n) each way) or a sorted
 *                                                    list (least code; O(n) to set
 *                                                    one out of order)
 *   PT_LOOP_WIDE            1 if pointers are 64-    32-bit (1) or 16-bit (0) counts,
 *                           bit, else 0              timer sequence numbers and heap
 *                                                    indices
 *   PT_LOOP_LAZY_CLOCK      1 on a POSIX host,       1: the clock is read when an
 *                           else 0                   iteration first needs it (a
 *                                                    system call saved when none
 *                                                    does); 0: every iteration
 *   PT_LOOP_PREFETCH        320 on a POSIX host      bytes from a woken task's start
 *                           with GCC or Clang,       the loop asks the cache for ahead
 *                           else 0                   of its turn (0: none; see below)
 *   PT_LOOP_ON_RUN(l, t)    nothing                  called before each task resumes
 *   PT_LOOP_AFTER_RUN(l, t) nothing                  called after each resume returns
 *   PT_LOOP_STALL_CHECK     1 on a POSIX host or     1: on the virtual clock, only
 *                           with PT_PORT_VIRTUAL,    polls of waits the loop cannot
 *                           else 0                   see left: jump to the next
 *                                                    timer, or end PT_ESTALL
 *   PT_DEBUG                0                        1: the debug mode (loop/debug.h):
 *                                                    misuse refused, task names, the
 *                                                    walk over live tasks, slow-resume
 *                                                    warnings; 0: none of it, nothing
 *                                                    added to any struct or to the code
 *   PT_DEBUG_SLOW_US        100000 (100 ms)          a loop's first slow-resume
 *                                                    threshold, in microseconds
 *                                                    (pt_loop_set_slow_duration)
 *   PT_DEBUG_NOW_US()       CLOCK_MONOTONIC in us    what times a resume (uint32_t
 *                           on a POSIX host, else    microseconds, wrapping): the
 *                           PT_PORT_NOW() in us      port's ticks times 1000000 /
 *                           (micros() on Arduino;    PT_TICKS_PER_SEC elsewhere
 *                           0 without a clock)
 *   PT_TICKS_PER_SEC        1000000 on a POSIX       what a tick is (loop/ticks.h)
 *                           host's clock, else 1000
 *   PT_TIME_BITS            64 on a POSIX host,      the width of pt_time_t: 32-bit
 *                           else 32                  ticks wrap (loop/ticks.h)
 *   PT_PORT_NOW()           CLOCK_MONOTONIC in us    the clock, in ticks (loop/port.h)
 *                           on a POSIX host;
 *                           millis() on Arduino
 *                           (loop/port/arduino.h)
 *   PT_PORT_IDLE(ticks)     nothing (Arduino:        how to idle without a back end
 *                           yield(), then on AVR
 *                           sleep to the next tick)
 *   PT_PORT_VIRTUAL         0                        1: no clock; the loop runs on its
 *                                                    virtual clock only
 *   PT_EPOLL_BATCH          32                       readiness events one epoll_wait
 *                                                    takes (struct pt_loop holds them)
 *   PT_ACCEPT_BATCH         64                       accepts in a row before one
 *                                                    iteration of the loop (net.h)
 *   PT_ACCEPT_BACKOFF_MIN   PT_MS(10)                out of descriptors, first wait
 *   PT_ACCEPT_BACKOFF_MAX   PT_MS(1000)              ... doubling up to this
 *   PT_POLL_BACKOFF_MIN     PT_MS(1)                 a poll call failing (ENOMEM):
 *                                                    the first sleep (iowait.h)
 *   PT_POLL_BACKOFF_MAX     PT_MS(100)               ... doubling up to this
 *   PT_LOOP_WAKE_AHEAD_MAX  250 (us) with ticks of   the most wake-up latency the
 *                           10 us or less, else 0    loop learns to wait less by,
 *                                                    with select (iowait.h; 0: none)
 *   PT_LOOP_SPIN_US         20                       a wait this short (us) is polled
 *                                                    for, not slept (iowait.h)
 *
 * Derived, not to be set: PT_LOOP_IO (1 unless the back end is NONE),
 * PT_LOOP_BACKEND_NAME ("select", "poll", "epoll" or "none"),
 * pt_seq_t / pt_index_t / PT_INDEX_MAX. Detected: PT_POSIX (1 on a POSIX
 * host: a hosted C library whose <unistd.h> says _POSIX_VERSION >=
 * 200112L); define it to 0 or 1 only where the detection is wrong.
 *
 * On a POSIX host define _POSIX_C_SOURCE=200809L (or build with -std=gnu99)
 * before any #include. A loop must have a clock: where none is known (not
 * POSIX, no PT_PORT_NOW, no port header from loop/port/) the build stops
 * with an #error unless PT_PORT_VIRTUAL is 1, which makes every loop run
 * on its virtual clock from pt_loop_init.
 */
#ifndef PT_LOOP_CONFIG_H
#define PT_LOOP_CONFIG_H

#include <stdint.h>

/* ---- the platform ------------------------------------------------------ */

/* POSIX: decided by <unistd.h>'s _POSIX_VERSION (macOS compilers, for one,
 * do not define __unix__), and only in a hosted build: a freestanding one
 * has no system calls. 200112L is the first POSIX with a monotonic clock
 * and poll() in the base; newlib's <unistd.h> (a board's C library) says
 * 199009L and is rightly not POSIX here. */
#ifndef PT_POSIX
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#if defined(__has_include)
#if __has_include(<unistd.h>)
#define PT__HAS_UNISTD 1
#endif
#elif defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#define PT__HAS_UNISTD 1
#endif
#endif
#if defined(PT__HAS_UNISTD)
#include <unistd.h>
#if defined(_POSIX_VERSION) && _POSIX_VERSION >= 200112L
#define PT_POSIX 1
#endif
#endif
#ifndef PT_POSIX
#define PT_POSIX 0
#endif
#endif

/* ---- the clock ---------------------------------------------------------- */

#ifndef PT_LOOP_LAZY_CLOCK
#define PT_LOOP_LAZY_CLOCK PT_POSIX
#endif

/* ---- the readiness back end (loop/backend.h) --------------------------- */

#define PT_BACKEND_NONE 0   /* no descriptors: idle through PT_PORT_IDLE */
#define PT_BACKEND_SELECT 1 /* select(): any POSIX; descriptors < FD_SETSIZE */
#define PT_BACKEND_POLL 2   /* poll(): any POSIX; no descriptor limit */
#define PT_BACKEND_EPOLL 3  /* epoll: Linux; cost by the ready, not the watched */

#ifdef PT_LOOP_IO
#error "PT_LOOP_IO is derived from PT_LOOP_BACKEND: set that instead (loop/config.h)"
#endif
#ifndef PT_LOOP_BACKEND
#if PT_POSIX
#define PT_LOOP_BACKEND PT_BACKEND_SELECT
#else
#define PT_LOOP_BACKEND PT_BACKEND_NONE
#endif
#endif
#define PT_LOOP_IO (PT_LOOP_BACKEND != PT_BACKEND_NONE)

/* The back end's name, for messages: "select", "poll", "epoll", "none". */
#if PT_LOOP_BACKEND == PT_BACKEND_SELECT
#define PT_LOOP_BACKEND_NAME "select"
#elif PT_LOOP_BACKEND == PT_BACKEND_POLL
#define PT_LOOP_BACKEND_NAME "poll"
#elif PT_LOOP_BACKEND == PT_BACKEND_EPOLL
#define PT_LOOP_BACKEND_NAME "epoll"
#else
#define PT_LOOP_BACKEND_NAME "none"
#endif

#ifndef PT_EPOLL_BATCH
#define PT_EPOLL_BATCH 32
#endif

/* ---- what the core carries --------------------------------------------- */

/* Each is 1 (the default) or 0; at 0 the core leaves out the code that
 * serves it, and the header that provides it refuses to compile. The
 * README's size report gives what each costs in flash. */
#ifndef PT_LOOP_SYNC
#define PT_LOOP_SYNC 1
#endif
#ifndef PT_LOOP_GROUPS
#define PT_LOOP_GROUPS 1
#endif
#ifndef PT_LOOP_BACKGROUND
#define PT_LOOP_BACKGROUND 1
#endif
#ifndef PT_LOOP_CALLBACKS
#define PT_LOOP_CALLBACKS 1
#endif

/* ---- the timers (loop/timers.h) ---------------------------------------- */

#define PT_TIMERS_HEAP 1 /* a 4-ary heap in the caller's array: for many timers */
#define PT_TIMERS_LIST 2 /* a sorted list through the tasks: for a few, least code */

#ifndef PT_LOOP_TIMERS
#if PT_POSIX
#define PT_LOOP_TIMERS PT_TIMERS_HEAP
#else
#define PT_LOOP_TIMERS PT_TIMERS_LIST
#endif
#endif

/* Widths of the counts (live tasks, pending timers), the heap's sequence
 * number and index: 32 bits on 64-bit hosts, else 16 bits, which bounds
 * the timers to 65,535 (pt_loop_init refuses more) and keeps a task small
 * on a Cortex-M0. */
#ifndef PT_LOOP_WIDE
#if UINTPTR_MAX > 0xFFFFFFFFu
#define PT_LOOP_WIDE 1
#else
#define PT_LOOP_WIDE 0
#endif
#endif

/* ---- cache (loop/core.h: pt__wake) ------------------------------------ */

/* A task is woken (a descriptor ready, a timer due, an event set) some
 * time before it runs: the rest of its batch is woken first. Where its
 * state has left the cache meanwhile, as with a thousand connections
 * between which the kernel's work passes, each of its cache lines is a
 * miss when it runs. At the wake the loop prefetches the cache lines after
 * the first (which the wake itself reads) up to PT_LOOP_PREFETCH bytes from
 * the start of its struct pt_task: its own state, which a task
 * keeps right after it (a connection's socket, reader and writer in the
 * demos). Prefetching never faults; 320 bytes are five 64-byte lines.
 * Off (0) where there is no data cache to fill, or no __builtin_prefetch. */
#ifndef PT_LOOP_PREFETCH
#if PT_POSIX && (defined(__GNUC__) || defined(__clang__))
#define PT_LOOP_PREFETCH 320
#else
#define PT_LOOP_PREFETCH 0
#endif
#endif

/* ---- waits the loop cannot see (loop/core.h: pt__polls_check) ----------- */

/* 1: on the virtual clock, a run whose tasks only poll conditions the
 * loop cannot see (PT_WAIT_UNTIL on a flag) jumps to the next timer, or
 * ends PT_ESTALL, instead of spinning. About 270 bytes of flash on a
 * Cortex-M0: on where the virtual clock is the usual one (a POSIX host's
 * tests and simulations, a board without a clock), off on a board with a
 * clock, which then spins as on a real clock. */
#ifndef PT_LOOP_STALL_CHECK
#if PT_POSIX || (defined(PT_PORT_VIRTUAL) && PT_PORT_VIRTUAL)
#define PT_LOOP_STALL_CHECK 1
#else
#define PT_LOOP_STALL_CHECK 0
#endif
#endif

/* ---- the debug mode (loop/debug.h) ------------------------------------- */

/* 0 (the default) leaves every struct and every function as it is without
 * the debug mode: the size report's figures are those of PT_DEBUG 0. */
#ifndef PT_DEBUG
#define PT_DEBUG 0
#endif
#if PT_DEBUG != 0 && PT_DEBUG != 1
#error "PT_DEBUG: 0 or 1 (loop/config.h)"
#endif
#ifndef PT_DEBUG_SLOW_US
#define PT_DEBUG_SLOW_US 100000u
#endif

#endif /* PT_LOOP_CONFIG_H */
