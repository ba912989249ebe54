/*
 * loop/io.h - readiness of file descriptors, the select() back end (POSIX
 * hosts, PT_LOOP_IO). A task waits until a descriptor is readable and/or
 * writable (the documents' read_wait / write_wait), with a timeout.
 *
 * The back end is three functions the core calls, so another (poll, epoll,
 * kqueue) can replace this file: pt__io_poll (wait up to a timeout and wake
 * what is ready), pt__io_unlink (drop a wait), and the table of waits in
 * the loop (struct pt__io_table, loop/types.h): the descriptor sets are
 * kept between polls and each descriptor's wait is found by its number, so
 * starting, waking or cancelling a wait is O(1) and a poll copies two
 * fd_sets instead of walking every wait (Redis' ae_select does the same).
 *
 * Limits and errors, as values:
 *  - a descriptor < 0 or >= FD_SETSIZE is refused with PT_EINVAL (select()
 *    cannot hold it; never an out-of-bounds FD_SET);
 *  - one task at a time may wait to read a descriptor, and one to write
 *    it (as in asyncio); a second gets PT_EBUSY;
 *  - a descriptor closed while waited on wakes its waiter with PT_EBADF;
 *  - select() interrupted by a signal (EINTR) is retried with the time left;
 *  - the wait is computed to the microsecond from the POSIX clock (see
 *    pt__io_wait_us): a sleep is within +-0.5 ms of its length in real time.
 *
 * The table makes struct pt_loop about 16 KiB on a 64-bit host
 * (2 x FD_SETSIZE pointers); the freestanding core (PT_LOOP_IO 0) has none.
 */
#ifndef PT_LOOP_IO_H
#define PT_LOOP_IO_H

#include "core.h"

#if PT_LOOP_IO

#include <errno.h>
#include <fcntl.h>
#include <sys/select.h>
#include <unistd.h>

#define PT_READABLE 0x01u
#define PT_WRITABLE 0x02u

/* One descriptor wait: caller-owned, typically beside the task's state. */
struct pt_io {
    struct pt_task *task;
    int fd;
    unsigned char events;  /* PT_READABLE | PT_WRITABLE asked for */
    unsigned char revents; /* what was found ready */
};

static inline void pt__io_unlink(struct pt_loop *l, struct pt_io *io) {
    struct pt__io_table *t = &l->io;
    if ((io->events & PT_READABLE) && t->rd_io[io->fd] == io) {
        t->rd_io[io->fd] = NULL;
        FD_CLR(io->fd, &t->rd);
    }
    if ((io->events & PT_WRITABLE) && t->wr_io[io->fd] == io) {
        t->wr_io[io->fd] = NULL;
        FD_CLR(io->fd, &t->wr);
    }
    if (--t->count == 0)
        t->maxfd = -1; /* (otherwise it stays: select looks a little further) */
}

static inline int pt__io_start(struct pt_loop *l, struct pt_task *task, struct pt_gen *g,
                               struct pt_io *io, int fd, unsigned events, pt_time_t timeout) {
    struct pt__io_table *t = &l->io;
    io->revents = 0;
    if (fd < 0 || fd >= FD_SETSIZE || !(events & (PT_READABLE | PT_WRITABLE))) {
        g->value.i = PT_EINVAL;
        return 0;
    }
    if (((events & PT_READABLE) && t->rd_io[fd]) || ((events & PT_WRITABLE) && t->wr_io[fd])) {
        g->value.i = PT_EBUSY;
        return 0;
    }
    if (!pt__park(l, task, g, timeout, PT__WAIT_IO, io))
        return 0;
    io->fd = fd;
    io->events = (unsigned char)events;
    io->task = task;
    if (events & PT_READABLE) {
        t->rd_io[fd] = io;
        FD_SET(fd, &t->rd);
    }
    if (events & PT_WRITABLE) {
        t->wr_io[fd] = io;
        FD_SET(fd, &t->wr);
    }
    if (fd > t->maxfd)
        t->maxfd = fd;
    t->count++;
    return 1;
}

/* The number of descriptor waits registered (for tests). */
static inline unsigned pt_loop_io_waits(const struct pt_loop *l) {
    return l->io.count;
}

/*
 * Wait until fd is ready for `events` (PT_READABLE, PT_WRITABLE or both).
 * io (a struct pt_io that outlives the wait) then says what: io->revents.
 * Result: PT_OK, PT_ETIMEDOUT, PT_EINVAL (bad descriptor or events),
 * PT_EBUSY (another task waits for the same on fd), PT_EBADF (closed while
 * waited on), PT_EFULL (timer heap full).
 */
#define PT_IO_WAIT(io, fd, events, timeout)                                                        \
    PT__PARK_IF(pt__io_start(pt__loop, pt__task, pt__gen, (io), (fd), (events), (timeout)))

/* Wake the waits on descriptors that are no longer open (select: EBADF). */
static inline int pt__io_wake_closed(struct pt_loop *l) {
    int woke = 0, fd;
    struct pt__io_table *t = &l->io;
    for (fd = 0; fd <= t->maxfd; fd++) {
        if (!t->rd_io[fd] && !t->wr_io[fd])
            continue;
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            if (t->rd_io[fd]) {
                pt__wake(l, t->rd_io[fd]->task, PT_EBADF);
                woke++;
            }
            if (t->wr_io[fd]) {
                pt__wake(l, t->wr_io[fd]->task, PT_EBADF);
                woke++;
            }
        }
    }
    return woke;
}

/*
 * Microseconds from now until tick `end` is due. With the POSIX clock this
 * comes from one precise reading and aims at the middle of the deadline's
 * millisecond: deadlines count from the start's whole millisecond, so this
 * keeps a sleep within +-0.5 ms of its length in real time (aiming at the
 * millisecond's start made sleeps up to 1 ms short; a whole-ms select()
 * timeout made them up to 1 ms long).
 */
static inline uint64_t pt__io_wait_us(pt_time_t end) {
#ifdef PT__PORT_POSIX_CLOCK
    uint64_t now_us = pt__posix_now_us();
    pt_time_t left = pt_time_until((pt_time_t)(now_us / 1000u), end);
    return left ? (uint64_t)left * 1000u - now_us % 1000u + 500u : 0;
#else
    return (uint64_t)pt_time_until(PT_PORT_NOW(), end) * 1000000u / PT_TICKS_PER_SEC;
#endif
}

static inline int pt__io_poll(struct pt_loop *l, pt_time_t timeout) {
    struct pt__io_table *t = &l->io;
    fd_set rd, wr;
    struct timeval tv, *tvp = NULL;
    int n, fd, woke = 0;
    pt_time_t end = (pt_time_t)(l->now + timeout); /* the tick to wake at */

    for (;;) {
        rd = t->rd;
        wr = t->wr;
        if (timeout != PT_FOREVER) {
            /* (A zero timeout is a pure poll, also on the virtual clock.) */
            uint64_t us = timeout ? pt__io_wait_us(end) : 0;
            tv.tv_sec = (time_t)(us / 1000000u);
            tv.tv_usec = (suseconds_t)(us % 1000000u);
            tvp = &tv;
        }
        n = select(t->maxfd + 1, &rd, &wr, NULL, tvp);
        if (n >= 0)
            break;
        if (errno == EBADF)
            return pt__io_wake_closed(l);
        if (errno != EINTR)
            return 0; /* ENOMEM and the like: try again next iteration */
        /* EINTR: again, with the time that is left until `end`. */
    }
    for (fd = 0; fd <= t->maxfd && n > 0; fd++) {
        struct pt_io *r = FD_ISSET(fd, &rd) ? t->rd_io[fd] : NULL;
        struct pt_io *w = FD_ISSET(fd, &wr) ? t->wr_io[fd] : NULL;
        n -= (r != NULL) + (w != NULL);
        if (r) {
            r->revents |= PT_READABLE;
            pt__wake(l, r->task, PT_OK);
            woke++;
        }
        if (w) {
            w->revents |= PT_WRITABLE;
            if (w != r) {
                pt__wake(l, w->task, PT_OK);
                woke++;
            }
        }
    }
    return woke;
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
    if (fcntl(w->fds[0], F_SETFL, O_NONBLOCK) != 0 || fcntl(w->fds[1], F_SETFL, O_NONBLOCK) != 0 ||
        w->fds[0] >= FD_SETSIZE) {
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

/* Wait until signalled (result PT_OK) or the timeout passes. */
#define PT_WAKEUP_WAIT(w, timeout)                                                                 \
    do {                                                                                           \
        if (!pt__wakeup_drain(w)) {                                                                \
            PT_IO_WAIT(&(w)->io, (w)->fds[0], PT_READABLE, (timeout));                             \
            if (PT_WAIT_RESULT() == PT_OK)                                                         \
                (void)pt__wakeup_drain(w);                                                         \
        } else {                                                                                   \
            pt__gen->value.i = PT_OK;                                                              \
        }                                                                                          \
    } while (0)

#endif /* PT_LOOP_IO */
#endif /* PT_LOOP_IO_H */
