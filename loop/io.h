/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/io.h - waiting for a file descriptor to be readable or writable
 * (POSIX hosts: PT_CONFIG_IO), and waking the loop from another thread. The
 * waiting itself is the readiness back end's (loop/backend.h: select, poll
 * or epoll, chosen by PT_CONFIG_BACKEND); what a task sees is the same with
 * each.
 *
 * Limits and errors, as values:
 *  - a descriptor the back end cannot hold (< 0; >= FD_SETSIZE with select;
 *    beyond the table given to pt_loop_io_table with poll and epoll:
 *    pt_loop_io_fits) is refused with PT_EINVAL;
 *  - one task at a time may wait to read a descriptor, and one to write
 *    it (as in asyncio); a second gets PT_EBUSY;
 *  - a descriptor closed while waited on wakes its waiter with PT_EBADF
 *    (with epoll only if it is closed with pt_io_close: loop/backend/epoll.h);
 *  - a wait interrupted by a signal (EINTR) is retried with the time left.
 */
#ifndef PT_LOOP_IO_H
#define PT_LOOP_IO_H

#include "core.h"

#if PT_CONFIG_IO

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/*
 * Nonzero if loop l can wait on descriptor fd: fd >= 0, below FD_SETSIZE
 * with select, inside the table given to pt_loop_io_table with poll and
 * epoll. With l NULL: if a loop of this build could, whatever its table
 * (select's FD_SETSIZE; poll and epoll have no fixed limit).
 */
static inline int pt_loop_io_fits(const struct pt_loop *l, int fd) {
    if (l)
        return pt__backend_holds(&l->io, fd);
    return fd >= 0 && fd < PT__BACKEND_FD_LIMIT;
}

/* fd is being closed: its waits end with PT_EBADF now, and the back end
 * keeps nothing of it. */
static inline void pt__io_forget(struct pt_loop *l, int fd) {
    pt__backend_forget(&l->io, fd);
    (void)pt__io_dispatch(l);
}

static inline int pt__io_start(struct pt_loop *l, struct pt_task *task, struct pt_gen *g,
                               struct pt_io *io, int fd, unsigned events, pt_time_t timeout) {
    int rc = PT_EINVAL;
    if (pt__not_running(l, task, g))
        return 0;
    io->revents = 0;
    io->fd = fd;
    io->events = (unsigned char)events;
    io->task = task;
    io->loop = l;
    if ((events & (PT_READABLE | PT_WRITABLE)) && !(events & ~(PT_READABLE | PT_WRITABLE)))
        rc = pt__backend_watch(&l->io, io);
    if (rc != PT_OK) {
        g->value.i = rc;
        return 0;
    }
    if (!pt__park(l, task, g, timeout, PT__WAIT_IO, io)) {
        pt__backend_unwatch(&l->io, io);
        return 0;
    }
    return 1;
}

/*
 * void PT_IO_WAIT(struct pt_io *io, int fd, unsigned events, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EINVAL | PT_EBUSY | PT_EBADF | PT_EFULL
 * Wait until fd is ready for `events` (PT_READABLE, PT_WRITABLE or both);
 * io (a struct pt_io that outlives the wait) then says which: io->revents.
 * PT_EINVAL: a descriptor the back end cannot hold, or bad events;
 * PT_EBUSY: another task waits for the same on fd; PT_EBADF: closed;
 * PT_EFULL: the timers were full (pt_loop_init's cap).
 */
#define PT_IO_WAIT(io, fd, events, timeout)                                                        \
    PT__PARK_IF(((io)->keep = 0,                                                                   \
                 pt__io_start(pt__loop, pt__task, pt__gen, (io), (fd), (events), (timeout))))

/* Close fd, ending the waits on it with PT_EBADF at once (asyncio's
 * remove_reader/remove_writer, then close). Needed with epoll for a
 * descriptor that a task may be waiting on; right with every back end.
 * Returns close()'s result. */
static inline int pt_io_close(struct pt_loop *l, int fd) {
    pt__io_forget(l, fd);
    return close(fd);
}

/* ---- waking the loop from another thread (or a signal handler) --------- */

/*
 * A self-pipe: pt_wakeup_signal() may be called from any thread or signal
 * handler; a task waiting in PT_WAKEUP_WAIT wakes on the loop's thread.
 * Signals that arrive before the wait, or several at once, are not lost:
 * the wait returns at once and drains them all.
 */
struct pt_wakeup {
    int fds[2];
    struct pt_io io;
};

/* PT_OK, or PT_EINVAL if no pipe could be made (errno says why). */
static inline int pt_wakeup_init(struct pt_wakeup *w) {
    if (pipe(w->fds) != 0)
        return PT_EINVAL;
    if (fcntl(w->fds[0], F_SETFL, O_NONBLOCK) != 0 || fcntl(w->fds[1], F_SETFL, O_NONBLOCK) != 0) {
        close(w->fds[0]);
        close(w->fds[1]);
        return PT_EINVAL;
    }
    return PT_OK;
}

static inline void pt_wakeup_close(struct pt_wakeup *w) {
    close(w->fds[0]);
    close(w->fds[1]);
}

/* Async-signal-safe and thread-safe. A full pipe already means "wake". */
static inline void pt_wakeup_signal(struct pt_wakeup *w) {
    int saved = errno;
    char c = 1;
    ssize_t r = write(w->fds[1], &c, 1);
    (void)r;
    errno = saved;
}

/* Internal: drain; nonzero if anything had been signalled. */
static inline int pt__wakeup_drain(struct pt_wakeup *w) {
    char buf[64];
    int any = 0;
    while (read(w->fds[0], buf, sizeof buf) > 0)
        any = 1;
    return any;
}

/* void PT_WAKEUP_WAIT(struct pt_wakeup *w, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EINVAL | PT_EFULL
 * Wait until signalled, or the timeout passes. */
#define PT_WAKEUP_WAIT(w, timeout)                                                                 \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        if (!pt__wakeup_drain(w)) {                                                                \
            PT_IO_WAIT(&(w)->io, (w)->fds[0], PT_READABLE, (timeout));                             \
            if (PT_WAIT_RESULT() == PT_OK)                                                         \
                (void)pt__wakeup_drain(w);                                                         \
        } else {                                                                                   \
            pt__gen->value.i = PT_OK;                                                              \
        }                                                                                          \
    } while (0)

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_IO_H */
