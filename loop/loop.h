/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/loop.h - the event loop: include this one.
 *
 *   loop/config.h     every configuration macro, its default (start here)
 *   loop/ticks.h      ticks, wrap-safe deadlines
 *   loop/result.h     results: PT_OK, PT_E*
 *   loop/port.h       the clock and idle hooks (ports in loop/port/)
 *   loop/backend.h    the readiness back end's interface; the back ends in
 *                     loop/backend/: select.h, poll.h, epoll.h
 *   loop/types.h      struct pt_task, struct pt_loop
 *   loop/iowait.h     how long the loop asks the back end to wait
 *   loop/timers.h     the timers' interface; loop/timers/heap.h (a 4-ary
 *                     heap) and loop/timers/list.h (a sorted list)
 *   loop/core.h       the scheduler: its layers in loop/sched/ (hooks.h,
 *                     the features' seam; queue.h, the ready queue; park.h,
 *                     waits and wake-ups, cancel; task.h, spawn and finish;
 *                     body.h, a task's macros, sleep and join; run.h, the
 *                     iteration and run modes), and the features' side of
 *                     the hooks in loop/features/
 *   loop/sync.h       event, semaphore, bounded queue
 *   loop/lock.h       lock and condition
 *   loop/barrier.h    barrier
 *   loop/group.h      task groups (TaskGroup / gather / as_completed)
 *   loop/call.h       callbacks: call soon / later / at, cancellable
 *   loop/timeout.h    timeout scopes (asyncio.timeout)
 *   loop/io.h         waiting for descriptors, cross-thread wakeup
 *   loop/net.h        awaitable sockets: connect, accept, read, write
 *                     (loop/net/: addr.h, sock.h, read_write.h)
 *   loop/stream.h     buffered reader and writer over a socket
 *   loop/debug.h      the debug mode (PT_CONFIG_DEBUG): task names, the live
 *                     tasks and what each waits on, slow resumes
 *
 * Header-only: every function is static inline, so any number of files may
 * include it; there is no implementation file to compile. On a POSIX host
 * define _POSIX_C_SOURCE=200809L (or build with -std=gnu99) before any
 * #include.
 */
#ifndef PT_LOOP_LOOP_H
#define PT_LOOP_LOOP_H

#include "core.h"
#include "debug.h"
#include "io.h"
#include "net.h"
#if PT_CONFIG_GROUPS
#include "group.h"
#endif
#if PT_CONFIG_SYNC
#include "barrier.h"
#include "lock.h"
#include "sync.h"
#if PT_CONFIG_BACKGROUND
#include "stream.h"
#endif
#endif
#if PT_CONFIG_CALLBACKS
#include "call.h"
#include "timeout.h"
#endif

#endif /* PT_LOOP_LOOP_H */
