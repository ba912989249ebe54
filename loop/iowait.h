/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/iowait.h - how long the loop asks its readiness back end to wait
 * (loop/backend.h), and what it does when a wait fails: timing policy,
 * the loop's, whichever back end waits. POSIX hosts (PT_CONFIG_IO).
 */
#ifndef PT_LOOP_IOWAIT_H
#define PT_LOOP_IOWAIT_H

#include "types.h"

#if PT_CONFIG_IO

#include <errno.h>
#include <stdint.h>
#include <time.h>

/*
 * Microseconds left until tick `end`, from a fresh reading of the clock
 * (time has passed since the loop's own). A wait longer than 2^64 / 10^6
 * ticks is cut to that: the loop then just polls again.
 */
static inline uint64_t pt__wait_us(pt_time_t end) {
    pt_time_t left = pt_time_until(PT_CONFIG_PORT_NOW(), end);
#if PT_CONFIG_TICKS_PER_SEC == 1000000
    return (uint64_t)left;
#else
    const uint64_t most = UINT64_MAX / 1000000u;
    return ((uint64_t)left > most ? most : (uint64_t)left) * 1000000u / PT_CONFIG_TICKS_PER_SEC;
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
 * PT_CONFIG_WAKE_AHEAD_MAX: the most microseconds of wake-up latency the
 * loop anticipates (0: none), with a back end that waits to the
 * microsecond (select). A woken thread runs some time
 * after its timer fired: 5-50 us on hardware, 0.1 ms and more in a virtual
 * machine. Each timed wait asks that much less again; how late (or early)
 * it then ends moves the estimate (pt__ahead_learn). With ticks of a
 * millisecond or more there is nothing to gain: 0 by default.
 */
#ifndef PT_CONFIG_WAKE_AHEAD_MAX
#if PT_CONFIG_TICKS_PER_SEC >= 100000
#define PT_CONFIG_WAKE_AHEAD_MAX 250u
#else
#define PT_CONFIG_WAKE_AHEAD_MAX 0u
#endif
#endif

/*
 * PT_CONFIG_SPIN_US: a wait this short (microseconds) or shorter is not
 * slept but polled for, without blocking, until its deadline: the kernel
 * could not end it on time. The waits left after an early end are mostly
 * that short.
 */
#ifndef PT_CONFIG_SPIN_US
#define PT_CONFIG_SPIN_US 20u
#endif

/*
 * What to ask the kernel for, for a wait of `us` microseconds: less by the
 * slack and by `ahead`, the latency expected, so that the wait ends about
 * on time, or a little early. Then the deadline has not passed, and the
 * loop waits again for what is left. A wait within the slack and the
 * latency asks for the least, 1 us (it ends as soon as the kernel can,
 * late), unless it is within PT_CONFIG_SPIN_US: then 0, a poll. Never early:
 * only a due deadline fires.
 */
static inline uint64_t pt__wait_ask(uint64_t us, unsigned ahead) {
    uint64_t less = pt__slack_us(us) + ahead;
    if (us <= PT_CONFIG_SPIN_US)
        return 0;
    return us > less + 1u ? us - less : 1u;
}

/*
 * The latency estimate after a wait for tick `end` that ended at `now`,
 * between 0 and PT_CONFIG_WAKE_AHEAD_MAX. Down by all of an early end; up by
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
#if PT_CONFIG_TICKS_PER_SEC != 1000000
    const uint64_t most = UINT64_MAX / 1000000u;
    d = (d > most ? most : d) * 1000000u / PT_CONFIG_TICKS_PER_SEC;
#endif
    if (early)
        return d >= ahead ? 0u : ahead - (unsigned)d;
    d = d > ahead / 2u ? d / 2u : d / 8u;
    return d >= PT_CONFIG_WAKE_AHEAD_MAX - ahead ? PT_CONFIG_WAKE_AHEAD_MAX : ahead + (unsigned)d;
}

/* A poll call that fails with ENOMEM or the like fails again if called at
 * once: the loop sleeps instead, PT_CONFIG_POLL_BACKOFF_MIN ticks the first
 * time, doubling up to PT_CONFIG_POLL_BACKOFF_MAX, never past the wait it had. */
#ifndef PT_CONFIG_POLL_BACKOFF_MIN
#define PT_CONFIG_POLL_BACKOFF_MIN PT_MS(1)
#endif
#ifndef PT_CONFIG_POLL_BACKOFF_MAX
#define PT_CONFIG_POLL_BACKOFF_MAX PT_MS(100)
#endif

/*
 * The back end's poll failed with an error that may last and reported
 * nothing: sleep for what the loop was going to wait, `timeout` ticks from
 * `now`, but at most *backoff (0: the last poll succeeded; the MIN then),
 * and double *backoff. With timeout 0 (tasks are ready) it does not sleep:
 * they run, and the next iteration polls again. A ready descriptor is seen
 * by the first poll that succeeds, at most a back-off late. The sleep ends
 * by the deadline the wait had, so no timer is late for it.
 */
static inline void pt__io_backoff(pt_time_t *backoff, pt_time_t now, pt_time_t timeout) {
    pt_time_t t = *backoff ? *backoff : PT_CONFIG_POLL_BACKOFF_MIN;
    struct timespec ts;
    uint64_t us;
    if (timeout == 0)
        return;
    *backoff =
        t >= PT_CONFIG_POLL_BACKOFF_MAX / 2u ? PT_CONFIG_POLL_BACKOFF_MAX : (pt_time_t)(t * 2u);
    /* (`now` holds only for a timeout that is neither 0 nor PT_FOREVER) */
    us = pt__wait_ask(pt__wait_us(timeout < t ? (pt_time_t)(now + timeout)
                                              : (pt_time_t)(PT_CONFIG_PORT_NOW() + t)),
                      0);
    ts.tv_sec = (time_t)(us / 1000000u);
    ts.tv_nsec = (long)(us % 1000000u) * 1000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ; /* (a signal: sleep the time that is left) */
}
/* Ready the back end of loop l and the loop's part in its waits. */
static inline int pt__io_init(struct pt_loop *l) {
    l->io_backoff = 0;
    l->io_ahead = 0;
    return pt__backend_init(&l->io);
}

/*
 * Let the back end wait for at most `timeout` ticks from l->now (0: not at
 * all; PT_FOREVER: no limit), asking for the time that is left each time a
 * signal interrupts it. Returns its answer: how many descriptors it found
 * ready, or an error; its report follows either way (pt__backend_next).
 * A wait that ended with nothing ready tells how late the kernel woke the
 * thread, if the back end waits to the microsecond (pt__ahead_learn).
 */
static inline int pt__io_wait(struct pt_loop *l, pt_time_t timeout) {
    pt_time_t end = (pt_time_t)(l->now + timeout); /* the tick to wake at */
    uint64_t us;
    int n;
    do {
        us = timeout == PT_FOREVER ? PT__WAIT_FOREVER
             : timeout == 0        ? 0
                                   : pt__wait_ask(pt__wait_us(end), l->io_ahead);
        n = pt__backend_poll(&l->io, us);
    } while (n == PT__BACKEND_AGAIN);
    if (n < 0)
        return n;
    l->io_backoff = 0;
#if PT_CONFIG_WAKE_AHEAD_MAX > 0 && PT__BACKEND_WAIT_UNIT == 1
    if (n == 0 && us != 0 && us != PT__WAIT_FOREVER) /* (it waited for the time asked) */
        l->io_ahead = pt__ahead_learn(l->io_ahead, end, PT_CONFIG_PORT_NOW());
#endif
    return n;
}

/* After pt__io_wait returned rc and the loop woke `woke` tasks from the
 * report: a failure that reported nothing backs off (pt__io_backoff). */
static inline void pt__io_waited(struct pt_loop *l, int rc, int woke, pt_time_t timeout) {
    if (rc < 0 && woke == 0)
        pt__io_backoff(&l->io_backoff, l->now, timeout);
}

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_IOWAIT_H */
