/*
 * loop/loop.h - the event loop: include this one.
 *
 *   loop/time.h    ticks, wrap-safe deadlines
 *   loop/types.h   struct pt_task, struct pt_loop, results (PT_OK, PT_E*)
 *   loop/heap.h    the timer min-heap
 *   loop/port.h    the clock and idle hooks (ports in loop/port/: Cortex-M, AVR)
 *   loop/core.h    ready queue, spawn, cancel, join, sleep, run modes
 *   loop/sync.h    event, semaphore, bounded queue
 *   loop/group.h   task groups (TaskGroup / gather)
 *   loop/io.h      descriptor readiness with select(), cross-thread wakeup
 *   loop/net.h     awaitable sockets: connect, accept, read, write
 *
 * Header-only: every function is static inline, so any number of files may
 * include it; there is no implementation file to compile. On a POSIX host
 * define _POSIX_C_SOURCE=200809L (or build with -std=gnu99) before any
 * #include. Configuration macros: PT_LOOP_IO, PT_LOOP_SYNC, PT_LOOP_GROUPS,
 * PT_LOOP_BACKGROUND, PT_LOOP_WIDE (types.h),
 * PT_TICKS_PER_SEC (time.h), PT_PORT_NOW / PT_PORT_IDLE (port.h), and those
 * of pt/ (pt/lc.h).
 */
#ifndef PT_LOOP_LOOP_H
#define PT_LOOP_LOOP_H

#include "core.h"
#include "io.h"
#include "net.h"
#if PT_LOOP_GROUPS
#include "group.h"
#endif
#if PT_LOOP_SYNC
#include "sync.h"
#endif

#endif /* PT_LOOP_LOOP_H */
