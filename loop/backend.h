/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/backend.h - the seam between the core and the readiness back end:
 * what a back end provides, and which one a program gets.
 *
 * PT_LOOP_BACKEND (loop/config.h) chooses one header of loop/backend/:
 *   PT_BACKEND_SELECT  select.h  any POSIX host (the default there); a
 *                                descriptor must be below FD_SETSIZE; the
 *                                tables live in struct pt_loop (16 KiB on
 *                                x86-64); the cost of a poll grows with the
 *                                highest descriptor waited on
 *   PT_BACKEND_POLL    poll.h    any POSIX host; no FD_SETSIZE: descriptors
 *                                below the size of a table the caller owns;
 *                                the cost grows with the descriptors waited on
 *   PT_BACKEND_EPOLL   epoll.h   Linux; a caller-owned table as for poll;
 *                                the cost grows with the descriptors that are
 *                                ready, not with those waited on
 *   PT_BACKEND_NONE    (none)    no descriptors: the core idles through
 *                                PT_PORT_IDLE (a board)
 * A back end the platform lacks stops the build with an #error.
 *
 * The interface, every function private (pt__), each back end's state in
 * its own struct pt__backend, a member of struct pt_loop that only the back
 * end reads:
 *
 *   union pt_io_slot                   one cell of the caller-owned table
 *   PT_IO_SLOTS(n)                     cells for descriptors 0..n-1
 *   int  pt__backend_init(b)           PT_OK, or an error value
 *   void pt__backend_close(b)          release what init took
 *   int  pt__backend_table(b, s, n)    adopt the cells s[0..n-1]
 *   unsigned pt__backend_waits(b)      waits registered
 *   int  pt__backend_holds(b, fd)      nonzero if fd can be waited on
 *   int  pt__backend_watch(b, io)      register io: PT_OK, PT_EINVAL (a
 *                                      descriptor it cannot hold), PT_EBUSY
 *                                      (another wait for the same), PT_EBADF
 *   void pt__backend_unwatch(b, io)    drop io (it is registered)
 *   int  pt__backend_poll(l, b, now, timeout)
 *                                      wait up to `timeout` ticks from `now`
 *                                      (0: not at all, PT_FOREVER: no limit;
 *                                      `now` is meaningful only between);
 *                                      for each ready wait set io->revents and
 *                                      call pt__io_ready; return how many. A
 *                                      poll call that fails (not EINTR) goes
 *                                      through pt__backend_failed (below)
 *   void pt__backend_forget(l, b, fd)  end the waits on fd with PT_EBADF
 *
 * pt__io_ready takes the wait off (through pt__backend_unwatch, while the
 * back end is in its poll: a back end's scan must allow that) and makes
 * its task ready with the result given.
 */
#ifndef PT_LOOP_BACKEND_H
#define PT_LOOP_BACKEND_H

#include "config.h"
#include "port.h"
#include "result.h"

#if PT_LOOP_IO

#include <stddef.h>

#define PT_READABLE 0x01u
#define PT_WRITABLE 0x02u

struct pt_loop;
struct pt_task;

/* One descriptor wait: caller-owned, typically beside the task's state. */
struct pt_io {
    struct pt_task *task;
    struct pt_loop *loop; /* where it last waited (pt_sock_close tells it) */
    int fd;
    unsigned char events;  /* PT_READABLE | PT_WRITABLE asked for */
    unsigned char revents; /* what was found ready */
    unsigned char keep;    /* 1: fd is closed through the loop (a pt_sock):
                              the back end may keep it registered */
};

/* The core's side (loop/core.h): io is ready; wake its task with result. */
static inline void pt__io_ready(struct pt_loop *l, struct pt_io *io, int result);

/* A back end's side of it: end the waits found ready, r for reading and w
 * for writing (NULL: not ready), with `result`; on PT_OK each learns what
 * was ready (io->revents). One wait for both is ended once, with both
 * bits. Returns how many ended. */
static inline int pt__io_end(struct pt_loop *l, struct pt_io *r, struct pt_io *w, int result) {
    int woke = 0;
    if (result == PT_OK) {
        if (r)
            r->revents |= PT_READABLE;
        if (w)
            w->revents |= PT_WRITABLE;
    }
    if (r) {
        pt__io_ready(l, r, result);
        woke++;
    }
    if (w && w != r) {
        pt__io_ready(l, w, result);
        woke++;
    }
    return woke;
}

/*
 * Microseconds left until tick `end`, from a fresh reading of the clock
 * (time has passed since the loop's own). A wait longer than 2^64 / 10^6
 * ticks is cut to that: the loop then just polls again.
 */
static inline uint64_t pt__wait_us(pt_time_t end) {
    pt_time_t left = pt_time_until(PT_PORT_NOW(), end);
#if PT_TICKS_PER_SEC == 1000000
    return (uint64_t)left;
#else
    const uint64_t most = UINT64_MAX / 1000000u;
    return ((uint64_t)left > most ? most : (uint64_t)left) * 1000000u / PT_TICKS_PER_SEC;
#endif
}

/*
 * What the kernel may add to a wait of `us` microseconds: Linux lets a
 * select, poll or epoll timeout end up to a thousandth late, and at least
 * the thread's timer slack (50 us unless changed), which made a 700 ms
 * sleep 0.3 ms late.
 */
static inline uint64_t pt__slack_us(uint64_t us) {
    uint64_t slack = us / 1000u;
#ifdef __linux__
    if (slack < 50u)
        slack = 50u;
#endif
    return slack;
}

/*
 * PT_LOOP_WAKE_AHEAD_MAX: the most microseconds of wake-up latency the
 * select back end anticipates (0: none). A woken thread runs some time
 * after its timer fired: 5-50 us on hardware, 0.1 ms and more in a virtual
 * machine. Each timed wait asks that much less again; how late (or early)
 * it then ends moves the estimate (pt__ahead_learn). With ticks of a
 * millisecond or more there is nothing to gain: 0 by default.
 */
#ifndef PT_LOOP_WAKE_AHEAD_MAX
#if PT_TICKS_PER_SEC >= 100000
#define PT_LOOP_WAKE_AHEAD_MAX 250u
#else
#define PT_LOOP_WAKE_AHEAD_MAX 0u
#endif
#endif

/*
 * PT_LOOP_SPIN_US: a wait this short (microseconds) or shorter is not
 * slept but polled for, without blocking, until its deadline: the kernel
 * could not end it on time. The waits left after an early end are mostly
 * that short.
 */
#ifndef PT_LOOP_SPIN_US
#define PT_LOOP_SPIN_US 20u
#endif

/*
 * What to ask the kernel for, for a wait of `us` microseconds: less by the
 * slack and by `ahead`, the latency expected, so that the wait ends about
 * on time, or a little early. Then the deadline has not passed, and the
 * loop waits again for what is left. A wait within the slack and the
 * latency asks for the least, 1 us (it ends as soon as the kernel can,
 * late), unless it is within PT_LOOP_SPIN_US: then 0, a poll. Never early:
 * only a due deadline fires.
 */
static inline uint64_t pt__wait_ask(uint64_t us, unsigned ahead) {
    uint64_t less = pt__slack_us(us) + ahead;
    if (us <= PT_LOOP_SPIN_US)
        return 0;
    return us > less + 1u ? us - less : 1u;
}

/*
 * The latency estimate after a wait for tick `end` that ended at `now`,
 * between 0 and PT_LOOP_WAKE_AHEAD_MAX. Down by all of an early end; up by
 * an eighth of a late one, or by half if it is more than half the
 * estimate (the first waits, or the latency grew): learned in a few
 * waits, it settles low in the latency's spread, where most waits end a
 * little late and some a little early (each of those polls on for what is
 * left, a spin as long as it was early). A long stall (a stopped process)
 * raises it at most to the maximum, which the next early end undoes.
 */
static inline unsigned pt__ahead_learn(unsigned ahead, pt_time_t end, pt_time_t now) {
    int early = pt_time_before(now, end);
    uint64_t d = (uint64_t)(early ? end - now : now - end); /* ticks */
#if PT_TICKS_PER_SEC != 1000000
    const uint64_t most = UINT64_MAX / 1000000u;
    d = (d > most ? most : d) * 1000000u / PT_TICKS_PER_SEC;
#endif
    if (early)
        return d >= ahead ? 0u : ahead - (unsigned)d;
    d = d > ahead / 2u ? d / 2u : d / 8u;
    return d >= PT_LOOP_WAKE_AHEAD_MAX - ahead ? PT_LOOP_WAKE_AHEAD_MAX : ahead + (unsigned)d;
}

/* The same as a poll()/epoll_wait() timeout: whole milliseconds, rounded
 * up (never early), -1 for none. */
static inline int pt__wait_ms(pt_time_t now, pt_time_t timeout) {
    uint64_t ms;
    if (timeout == PT_FOREVER)
        return -1;
    if (timeout == 0)
        return 0;
    ms = (pt__wait_ask(pt__wait_us((pt_time_t)(now + timeout)), 0) + 999u) / 1000u;
    return ms > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)ms;
}

#if PT_POSIX
#include <errno.h>
#include <time.h>

/* A poll call that fails with ENOMEM or the like fails again if called at
 * once: the back end sleeps instead, PT_POLL_BACKOFF_MIN ticks the first
 * time, doubling up to PT_POLL_BACKOFF_MAX, never past the wait it had. */
#ifndef PT_POLL_BACKOFF_MIN
#define PT_POLL_BACKOFF_MIN PT_MS(1)
#endif
#ifndef PT_POLL_BACKOFF_MAX
#define PT_POLL_BACKOFF_MAX PT_MS(100)
#endif

/*
 * The poll call failed with an error other than EINTR, one that may last:
 * sleep for what the loop was going to wait, `timeout` ticks from `now`,
 * but at most *backoff (0: the last poll succeeded; the MIN then), and
 * double *backoff. With timeout 0 (tasks are ready) it does not sleep:
 * they run, and the next iteration polls again. Returns 0: no wait is
 * woken; a ready descriptor is seen by the first poll that succeeds, at
 * most a back-off late. The sleep ends by the deadline the wait had, so
 * no timer is late for it.
 */
static inline int pt__backend_failed(pt_time_t *backoff, pt_time_t now, pt_time_t timeout) {
    pt_time_t t = *backoff ? *backoff : PT_POLL_BACKOFF_MIN;
    struct timespec ts;
    uint64_t us;
    if (timeout == 0)
        return 0;
    *backoff = t >= PT_POLL_BACKOFF_MAX / 2u ? PT_POLL_BACKOFF_MAX : (pt_time_t)(t * 2u);
    /* (`now` holds only for a timeout that is neither 0 nor PT_FOREVER) */
    us = pt__wait_ask(
        pt__wait_us(timeout < t ? (pt_time_t)(now + timeout) : (pt_time_t)(PT_PORT_NOW() + t)), 0);
    ts.tv_sec = (time_t)(us / 1000000u);
    ts.tv_nsec = (long)(us % 1000000u) * 1000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ; /* (a signal: sleep the time that is left) */
    return 0;
}
#endif /* PT_POSIX */

#if PT_LOOP_BACKEND == PT_BACKEND_SELECT
#include "backend/select.h"
#elif PT_LOOP_BACKEND == PT_BACKEND_POLL
#include "backend/poll.h"
#elif PT_LOOP_BACKEND == PT_BACKEND_EPOLL
#include "backend/epoll.h"
#else
#error "PT_LOOP_BACKEND: PT_BACKEND_NONE, _SELECT, _POLL or _EPOLL (loop/config.h)"
#endif

#endif /* PT_LOOP_IO */
#endif /* PT_LOOP_BACKEND_H */
