/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/config.h - COMPILE-TIME OPTIONS: every macro of pt/ and loop/ that a
 * program may define, with its default, its range (and what a value
 * outside it does) and where it must be set. Define one with -D on the
 * command line, or with #define before the first #include of the library.
 * tests/manifests/options.py fails when a header reads a settable macro
 * that this table lacks, or when an entry is read nowhere.
 *
 * Each entry: the name, then where it is set:
 *   agreed    the same in every file of the program; pt_loop_init records
 *             it and loop/agree.h refuses (PT_ECONFIG) a file that differs
 *   alike     the same in every file; nothing checks it
 *   per-file  each file may choose: it changes only that file's code
 *   one-file  defined in exactly one file of the program
 *   port      set by the port (a header of loop/port/ or the board's own),
 *             the same in every file
 * then "; default ...; range ..." (the range says what a value outside it
 * does), then what it chooses.
 *
 *   PT_CONFIG_LC_ADDRLABELS
 *       agreed; default 0; range 0 or 1 (nonzero is 1; 1 without labels as
 *       values: #error)
 *       Resume points: 0 switch/case (any C99), 1 GCC/Clang labels as
 *       values (pt/lc.h).
 *   PT_CONFIG_LC_NO_COUNTER
 *       per-file; default 0; range 0 or 1 (nonzero is 1)
 *       1: the switch back end names resume points by __LINE__ even where
 *       __COUNTER__ exists.
 *   PT_CONFIG_GEN_AUX32
 *       agreed; default 1 if pointers are wider than 32 bits, else 0; range 0
 *       or 1 (nonzero is 1)
 *       1: struct pt_gen has aux32, a second word for the driver (pt/gen.h).
 *   PT_CONFIG_POSIX
 *       alike; default detected: 1 on a hosted build whose <unistd.h> says
 *       _POSIX_VERSION >= 200112L, else 0; range 0 or 1 (nonzero is 1)
 *       Define it only where the detection is wrong.
 *   PT_CONFIG_BACKEND
 *       agreed; default PT_BACKEND_SELECT on a POSIX host, else
 *       PT_BACKEND_NONE; range PT_BACKEND_NONE, _SELECT, _POLL, _EPOLL (Linux)
 *       (other values, or one the platform lacks: #error)
 *       How the loop waits for descriptors (loop/backend.h).
 *   PT_CONFIG_EPOLL_BATCH
 *       agreed; default 32; range 1 and up (0: the build fails)
 *       Readiness events one epoll_wait takes (struct pt_loop holds them;
 *       agreed by the struct's size).
 *   PT_CONFIG_SYNC, PT_CONFIG_GROUPS, PT_CONFIG_BACKGROUND, PT_CONFIG_CALLBACKS
 *       agreed; default 1; range 0 or 1 (nonzero is 1)
 *       At 0 the core leaves out the code that serves the feature, and its
 *       header refuses to compile: SYNC events, semaphores, queues
 *       (sync.h), lock and condition (lock.h), barrier (barrier.h); GROUPS
 *       task groups (group.h); BACKGROUND pt_loop_spawn_background (and a
 *       writer's sending task, stream.h); CALLBACKS callbacks (call.h) and
 *       timeout scopes (timeout.h).
 *   PT_CONFIG_TIMERS
 *       agreed; default PT_TIMERS_HEAP on a POSIX host, else PT_TIMERS_LIST;
 *       range those two (other values: #error)
 *       How pending timers are kept (loop/timers.h): a 4-ary heap (O(log n)
 *       each way) or a sorted list (least code; O(n) to set one out of
 *       order).
 *   PT_CONFIG_WIDE
 *       agreed; default 1 if pointers are wider than 32 bits, else 0; range 0
 *       or 1 (nonzero is 1)
 *       32-bit (1) or 16-bit (0) counts, timer sequence numbers and heap
 *       indices; at 0 pt_loop_init refuses more than 65,535 timers.
 *   PT_CONFIG_LAZY_CLOCK
 *       agreed; default 1 on a POSIX host, else 0; range 0 or 1 (nonzero is 1)
 *       1: the clock is read when an iteration first needs it (a system
 *       call saved when none does); 0: every iteration.
 *   PT_CONFIG_PREFETCH
 *       per-file; default 320 on a POSIX host with GCC or Clang, else 0; range
 *       0 and up, in bytes (0: none; past the task's state it prefetches what
 *       follows, which never faults)
 *       Bytes from a woken task's start the loop asks the cache for ahead
 *       of its turn (see below).
 *   PT_CONFIG_STALL_CHECK
 *       agreed; default 1 on a POSIX host or with PT_CONFIG_PORT_VIRTUAL, else 0;
 *       range 0 or 1 (nonzero is 1)
 *       1: on the virtual clock, when only polls of waits the loop cannot
 *       see are left, jump to the next timer, or end PT_ESTALL (agreed by
 *       the size of struct pt_loop).
 *   PT_CONFIG_ON_RUN(loop, task), PT_CONFIG_AFTER_RUN(loop, task)
 *       per-file; default nothing; range any statement (loop/trace.h defines
 *       both unless PT_CONFIG_TRACE_HOOKS is 0; defined already: #error there)
 *       Called before each task resumes, and after each resume returns, in
 *       the file that runs the loop.
 *   PT_CONFIG_WAKE_AHEAD_MAX
 *       per-file; default 250 (us) with ticks of 10 us or less, else 0; range
 *       0 and up (0: none)
 *       The most wake-up latency the loop learns to wait less by,
 *       with the select back end (loop/iowait.h).
 *   PT_CONFIG_SPIN_US
 *       per-file; default 20; range 0 and up (0: every wait is slept)
 *       A wait this short (us) is polled for, not slept (loop/iowait.h).
 *   PT_CONFIG_POLL_BACKOFF_MIN, PT_CONFIG_POLL_BACKOFF_MAX
 *       per-file; default PT_MS(1), PT_MS(100); range 1 tick and up, MIN <=
 *       MAX (0 or MIN > MAX: every sleep is MAX)
 *       A failing poll call (ENOMEM): the first sleep, doubling up to MAX
 *       (loop/iowait.h).
 *   PT_CONFIG_ACCEPT_BATCH
 *       per-file; default 64; range 1 to 255 (a count in an unsigned char:
 *       above 255 no pause; 0: the listener never accepts)
 *       Accepts in a row before the loop runs once (loop/net.h).
 *   PT_CONFIG_ACCEPT_BACKOFF_MIN, PT_CONFIG_ACCEPT_BACKOFF_MAX
 *       per-file; default PT_MS(10), PT_MS(1000); range 1 tick and up, MIN <=
 *       MAX (MIN > MAX: every wait is MAX)
 *       Out of descriptors, the first wait of an accept, doubling up to MAX
 *       (loop/net.h).
 *   PT_CONFIG_SOCK_BUDGET
 *       per-file; default 16; range 1 to 255 (a count in an unsigned char:
 *       above 255 no pause; 0: a turn of the loop before every call)
 *       System calls in a row that move bytes without waiting before a
 *       direction of a socket lets the loop run once (loop/net.h).
 *   PT_CONFIG_DEBUG
 *       agreed; default 0; range 0 or 1 (other values: #error)
 *       1: the debug mode (loop/debug.h): misuse refused, task names, the
 *       walk over live tasks, slow-resume warnings; 0: none of it, nothing
 *       added to any struct or to the code.
 *   PT_CONFIG_DEBUG_SLOW_US
 *       per-file; default 100000 (100 ms); range 0 to 2^32 - 1 microseconds
 *       (the value of the file that calls pt_loop_init counts)
 *       A loop's first slow-resume threshold (pt_loop_set_slow_duration).
 *   PT_CONFIG_DEBUG_NOW_US()
 *       port; default CLOCK_MONOTONIC in us on a POSIX host; micros() on
 *       Arduino; else PT_CONFIG_PORT_NOW() times 1000000 / PT_CONFIG_TICKS_PER_SEC (0
 *       without a clock; ticks shorter than 1 us: #error); range a uint32_t
 *       expression, microseconds, wrapping
 *       What times a resume in the debug mode.
 *   PT_CONFIG_TICKS_PER_SEC
 *       agreed; default 1000000 on a POSIX host's own clock, else 1000; range
 *       a positive integer constant (else #error; on the POSIX clock it must
 *       divide 1000000, on Arduino be 1000: else #error)
 *       What a tick is (loop/ticks.h; agreed by the size check).
 *   PT_CONFIG_TIME_BITS
 *       agreed; default 64 on a POSIX host, else 32; range 32 or 64 (else
 *       #error)
 *       The width of pt_time_t: 32-bit ticks wrap (loop/ticks.h).
 *   PT_CONFIG_PORT_NOW()
 *       port; default CLOCK_MONOTONIC in us on a POSIX host; millis() with
 *       loop/port/arduino.h; the tick counter with loop/port/cortex_m.h,
 *       avr.h, riscv.h; none elsewhere (#error unless PT_CONFIG_PORT_VIRTUAL); range
 *       a pt_time_t expression, in ticks, that never goes back
 *       The clock (loop/port.h).
 *   PT_CONFIG_PORT_IDLE(ticks)
 *       port; default nothing (the ports: sleep to the next interrupt;
 *       Arduino: yield(), then on AVR sleep to the next tick); range any
 *       statement
 *       How to idle for at most `ticks` without a back end (loop/port.h).
 *   PT_CONFIG_PORT_VIRTUAL
 *       port; default 0; range 0 or 1 (nonzero is 1)
 *       1: no clock; every loop runs on its virtual clock from
 *       pt_loop_init.
 *   PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION, PT_CONFIG_PORT_AVR_IMPLEMENTATION,
 *   PT_CONFIG_PORT_RISCV_IMPLEMENTATION
 *       one-file; default undefined; range defined or not (defined in two
 *       files: the link fails on the duplicate definitions)
 *       Defined before including the port's header (loop/port/), it
 *       provides the port's tick counter and interrupt handler there.
 *   PT_CONFIG_PORT_RISCV_MTIME, PT_CONFIG_PORT_RISCV_MTIMECMP
 *       port; default 0x0200BFF8u, 0x02004000u (the CLINT of QEMU's virt
 *       board, hart 0); range the addresses of the board's mtime and mtimecmp
 *       (else the tick never comes)
 *       Where loop/port/riscv.h finds the machine timer.
 *   PT_CONFIG_TRACE_HOOKS
 *       per-file; default 1; range 0 or 1 (nonzero is 1)
 *       1: loop/trace.h defines PT_CONFIG_ON_RUN and PT_CONFIG_AFTER_RUN; 0: a
 *       program with hooks of its own calls pt_trace_run_begin and
 *       pt_trace_run_end from them.
 *   PT_CONFIG_TRACE_STDIO
 *       per-file; default 1 in a hosted build, else 0; range 0 or 1 (nonzero
 *       is 1)
 *       1: loop/trace.h's outputs (the chart, the JSON), over <stdio.h>.
 *   PT_CONFIG_TRACE_NOW_US()
 *       per-file; default CLOCK_MONOTONIC in us on a POSIX host, else none
 *       (#error); range a uint64_t expression, microseconds
 *       loop/trace.h's clock.
 *   PT_CONFIG_TRACE_CHART_ROWS
 *       per-file; default 24; range 1 and up (0: the build fails)
 *       Task names the chart shows; the resumes of further tasks share its
 *       last row.
 *   LC_INCLUDE, LC_CONF_INCLUDE
 *       per-file; default undefined; range a header name, as protothreads 1.4
 *       takes it (pt/compat/lc.h includes it instead of the default back end)
 *       Kept by their 1.4 names for 1.4 programs.
 *
 * Derived, not to be set: PT_CONFIG_IO (1 unless the back end is NONE; set:
 * #error), PT_CONFIG_BACKEND_NAME ("select", "poll", "epoll" or "none"),
 * pt_seq_t / pt_index_t / PT_INDEX_MAX. The values of the selectors:
 * PT_BACKEND_NONE, _SELECT, _POLL, _EPOLL; PT_TIMERS_HEAP, _LIST.
 *
 * On a POSIX host define _POSIX_C_SOURCE=200809L (or build with -std=gnu99)
 * before any #include. A loop must have a clock: where none is known (not
 * POSIX, no PT_CONFIG_PORT_NOW, no port header from loop/port/) the build stops
 * with an #error unless PT_CONFIG_PORT_VIRTUAL is 1, which makes every loop run
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
#ifndef PT_CONFIG_POSIX
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
#define PT_CONFIG_POSIX 1
#endif
#endif
#ifndef PT_CONFIG_POSIX
#define PT_CONFIG_POSIX 0
#endif
#endif

/* ---- the clock ---------------------------------------------------------- */

#ifndef PT_CONFIG_LAZY_CLOCK
#define PT_CONFIG_LAZY_CLOCK PT_CONFIG_POSIX
#endif

/* ---- the readiness back end (loop/backend.h) --------------------------- */

#define PT_BACKEND_NONE 0   /* no descriptors: idle through PT_CONFIG_PORT_IDLE */
#define PT_BACKEND_SELECT 1 /* select(): any POSIX; descriptors < FD_SETSIZE */
#define PT_BACKEND_POLL 2   /* poll(): any POSIX; no descriptor limit */
#define PT_BACKEND_EPOLL 3  /* epoll: Linux; cost by the ready, not the watched */

#ifdef PT_CONFIG_IO
#error "PT_CONFIG_IO is derived from PT_CONFIG_BACKEND: set that instead (loop/config.h)"
#endif
#ifndef PT_CONFIG_BACKEND
#if PT_CONFIG_POSIX
#define PT_CONFIG_BACKEND PT_BACKEND_SELECT
#else
#define PT_CONFIG_BACKEND PT_BACKEND_NONE
#endif
#endif
#define PT_CONFIG_IO (PT_CONFIG_BACKEND != PT_BACKEND_NONE)

/* The back end's name, for messages: "select", "poll", "epoll", "none". */
#if PT_CONFIG_BACKEND == PT_BACKEND_SELECT
#define PT_CONFIG_BACKEND_NAME "select"
#elif PT_CONFIG_BACKEND == PT_BACKEND_POLL
#define PT_CONFIG_BACKEND_NAME "poll"
#elif PT_CONFIG_BACKEND == PT_BACKEND_EPOLL
#define PT_CONFIG_BACKEND_NAME "epoll"
#else
#define PT_CONFIG_BACKEND_NAME "none"
#endif

#ifndef PT_CONFIG_EPOLL_BATCH
#define PT_CONFIG_EPOLL_BATCH 32
#endif

/* ---- what the core carries --------------------------------------------- */

/* Each is 1 (the default) or 0; at 0 the core leaves out the code that
 * serves it, and the header that provides it refuses to compile. The
 * README's size report gives what each costs in flash. */
#ifndef PT_CONFIG_SYNC
#define PT_CONFIG_SYNC 1
#endif
#ifndef PT_CONFIG_GROUPS
#define PT_CONFIG_GROUPS 1
#endif
#ifndef PT_CONFIG_BACKGROUND
#define PT_CONFIG_BACKGROUND 1
#endif
#ifndef PT_CONFIG_CALLBACKS
#define PT_CONFIG_CALLBACKS 1
#endif

/* ---- the timers (loop/timers.h) ---------------------------------------- */

#define PT_TIMERS_HEAP 1 /* a 4-ary heap in the caller's array: for many timers */
#define PT_TIMERS_LIST 2 /* a sorted list through the tasks: for a few, least code */

#ifndef PT_CONFIG_TIMERS
#if PT_CONFIG_POSIX
#define PT_CONFIG_TIMERS PT_TIMERS_HEAP
#else
#define PT_CONFIG_TIMERS PT_TIMERS_LIST
#endif
#endif

/* Widths of the counts (live tasks, pending timers), the heap's sequence
 * number and index: 32 bits on 64-bit hosts, else 16 bits, which bounds
 * the timers to 65,535 (pt_loop_init refuses more) and keeps a task small
 * on a Cortex-M0. */
#ifndef PT_CONFIG_WIDE
#if UINTPTR_MAX > 0xFFFFFFFFu
#define PT_CONFIG_WIDE 1
#else
#define PT_CONFIG_WIDE 0
#endif
#endif

/* ---- cache (loop/core.h: pt__wake) ------------------------------------ */

/* A task is woken (a descriptor ready, a timer due, an event set) some
 * time before it runs: the rest of its batch is woken first. Where its
 * state has left the cache meanwhile, as with a thousand connections
 * between which the kernel's work passes, each of its cache lines is a
 * miss when it runs. At the wake the loop prefetches the cache lines after
 * the first (which the wake itself reads) up to PT_CONFIG_PREFETCH bytes from
 * the start of its struct pt_task: its own state, which a task
 * keeps right after it (a connection's socket, reader and writer in the
 * demos). Prefetching never faults; 320 bytes are five 64-byte lines.
 * Off (0) where there is no data cache to fill, or no __builtin_prefetch. */
#ifndef PT_CONFIG_PREFETCH
#if PT_CONFIG_POSIX && (defined(__GNUC__) || defined(__clang__))
#define PT_CONFIG_PREFETCH 320
#else
#define PT_CONFIG_PREFETCH 0
#endif
#endif

/* ---- waits the loop cannot see (loop/core.h: pt__polls_check) ----------- */

/* 1: on the virtual clock, a run whose tasks only poll conditions the
 * loop cannot see (PT_WAIT_UNTIL on a flag) jumps to the next timer, or
 * ends PT_ESTALL, instead of spinning. About 270 bytes of flash on a
 * Cortex-M0: on where the virtual clock is the usual one (a POSIX host's
 * tests and simulations, a board without a clock), off on a board with a
 * clock, which then spins as on a real clock. */
#ifndef PT_CONFIG_STALL_CHECK
#if PT_CONFIG_POSIX || (defined(PT_CONFIG_PORT_VIRTUAL) && PT_CONFIG_PORT_VIRTUAL)
#define PT_CONFIG_STALL_CHECK 1
#else
#define PT_CONFIG_STALL_CHECK 0
#endif
#endif

/* ---- the debug mode (loop/debug.h) ------------------------------------- */

/* 0 (the default) leaves every struct and every function as it is without
 * the debug mode: the size report's figures are those of PT_CONFIG_DEBUG 0. */
#ifndef PT_CONFIG_DEBUG
#define PT_CONFIG_DEBUG 0
#endif
#if PT_CONFIG_DEBUG != 0 && PT_CONFIG_DEBUG != 1
#error "PT_CONFIG_DEBUG: 0 or 1 (loop/config.h)"
#endif
#ifndef PT_CONFIG_DEBUG_SLOW_US
#define PT_CONFIG_DEBUG_SLOW_US 100000u
#endif

#endif /* PT_LOOP_CONFIG_H */
