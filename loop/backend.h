/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/backend.h - the seam between the loop and the readiness back end:
 * what a back end provides, and which one a program gets.
 *
 * PT_CONFIG_BACKEND (loop/config.h) chooses one header of loop/backend/:
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
 *   PT_BACKEND_NONE    (none)    no descriptors, no back end file: PT_CONFIG_IO
 *                                is 0 and the loop idles through
 *                                PT_CONFIG_PORT_IDLE (a board)
 * A back end the platform lacks stops the build with an #error.
 *
 * The interface. One back end file defines all of it, and calls nothing
 * of the loop's: it reports, the loop (loop/core.h) wakes the tasks, and
 * the loop decides how long to wait (loop/iowait.h). Every name private:
 *
 *   union pt_io_slot       one cell of the caller-owned table
 *   PT_IO_SLOTS(n)         cells for descriptors 0..n-1
 *   PT__BACKEND_FD_LIMIT   no loop holds a descriptor at or above it,
 *                          whatever its table (0x7FFFFFFF: no fixed limit)
 *   PT__BACKEND_WAIT_UNIT  the step of its timeouts in microseconds: 1, or
 *                          1000 (whole milliseconds, rounded up: never early)
 *   struct pt__backend     its state, a member of struct pt_loop that only
 *                          the back end reads: the waits by descriptor, and
 *                          where its report has got to
 *   int  pt__backend_init(b)          PT_OK, or an error value
 *   void pt__backend_close(b)         release what init took
 *   int  pt__backend_table(b, s, n)   adopt the cells s[0..n-1]: PT_OK, or
 *                                     PT_EBUSY while waits are registered
 *   unsigned pt__backend_waits(b)     waits registered
 *   int  pt__backend_holds(b, fd)     nonzero if fd can be waited on
 *   int  pt__backend_watch(b, io)     register io: PT_OK, PT_EINVAL (a
 *                                     descriptor it cannot hold), PT_EBUSY
 *                                     (another wait for the same), PT_EBADF
 *   void pt__backend_unwatch(b, io)   drop io (it is registered), also
 *                                     while a report is being read
 *   int  pt__backend_poll(b, us)      wait up to `us` microseconds (0: not
 *                                     at all; PT__WAIT_FOREVER: no limit)
 *                                     for a registered descriptor to be
 *                                     ready. Returns how many the system
 *                                     found ready (0: the time passed),
 *                                     PT__BACKEND_AGAIN if a signal
 *                                     interrupted it (the loop calls again
 *                                     with the time that is left), or an
 *                                     error: PT_EBADF (closed descriptors,
 *                                     whose waits it reports) or PT_ESYS
 *                                     (a failure that may last: the loop
 *                                     backs off if nothing is reported)
 *   struct pt_io *pt__backend_next(b, &result)
 *                                     the report: the next wait that has
 *                                     ended, with its result in `result`
 *                                     and, on PT_OK, what was ready in
 *                                     io->revents; NULL at the end. The
 *                                     loop reads it to the end after each
 *                                     poll and forget, waking each wait's
 *                                     task, which takes the wait off
 *                                     (pt__backend_unwatch) before the
 *                                     next is read
 *   void pt__backend_forget(b, fd)    fd is being closed: its waits end
 *                                     with PT_EBADF (the report), and
 *                                     nothing of fd stays registered
 *
 * A poll reports at most what one system call found (epoll: at most
 * PT_CONFIG_EPOLL_BATCH descriptors; the rest at the next iteration). One wait
 * for reading and writing is reported once, with both bits. Nothing
 * allocates: a back end's tables are in its struct or the caller's cells.
 * A new back end is one file of loop/backend/ defining the above (the
 * helpers below hold a descriptor's ended waits for its report), a value
 * of PT_CONFIG_BACKEND (loop/config.h) and its #include here.
 */
#ifndef PT_LOOP_BACKEND_H
#define PT_LOOP_BACKEND_H

#include "config.h"
#include "port.h"
#include "result.h"

#if PT_CONFIG_IO

#include <stddef.h>
#include <stdint.h>

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

/* pt__backend_poll: a signal interrupted the wait. Not a result. */
#define PT__BACKEND_AGAIN (-64)

/* pt__backend_poll: a wait with no time limit. */
#define PT__WAIT_FOREVER UINT64_MAX

/*
 * For a back end's report: the waits on one descriptor that have ended and
 * are not yet reported, r (reading) and w (writing), with `result`.
 */
struct pt__ended {
    struct pt_io *r, *w;
    int result;
};

/* Hold r and w (NULL: none) as ended with `result`; on PT_OK each learns
 * what was ready (io->revents). One wait for both is held once, with both
 * bits. */
static inline void pt__ended_set(struct pt__ended *e, struct pt_io *r, struct pt_io *w,
                                 int result) {
    if (result == PT_OK) {
        if (r)
            r->revents |= PT_READABLE;
        if (w)
            w->revents |= PT_WRITABLE;
    }
    e->r = r;
    e->w = w != r ? w : NULL;
    e->result = result;
}

/* The next wait held, no longer held, with its result; NULL if none. */
static inline struct pt_io *pt__ended_take(struct pt__ended *e, int *result) {
    struct pt_io *io = e->r;
    if (io)
        e->r = NULL;
    else if ((io = e->w) != NULL)
        e->w = NULL;
    *result = e->result;
    return io;
}

#if PT_CONFIG_BACKEND == PT_BACKEND_SELECT
#include "backend/select.h"
#elif PT_CONFIG_BACKEND == PT_BACKEND_POLL
#include "backend/poll.h"
#elif PT_CONFIG_BACKEND == PT_BACKEND_EPOLL
#include "backend/epoll.h"
#else
#error "PT_CONFIG_BACKEND: PT_BACKEND_NONE, _SELECT, _POLL or _EPOLL (loop/config.h)"
#endif

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_BACKEND_H */
