/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/backend/select.h - the select() back end (POSIX). See loop/backend.h.
 *
 * The descriptor sets waited on are kept from one poll to the next, and
 * each descriptor's waits are found by its number, so starting, waking or
 * dropping a wait is O(1) and a poll copies two fd_sets instead of walking
 * the waits. Its limits: a descriptor must be below FD_SETSIZE (1,024 on
 * Linux; PT_EINVAL beyond), the tables make struct pt_loop about 16 KiB on
 * a 64-bit host, and each poll costs in proportion to the highest
 * descriptor waited on. It needs no caller-owned table (PT_IO_SLOTS is 1).
 * It waits to the microsecond, and learns the wake-up latency to ask for
 * that much less (PT_LOOP_WAKE_AHEAD_MAX, loop/backend.h): a sleep ends
 * within some tens of microseconds of its deadline, never before it.
 */
#ifndef PT_LOOP_BACKEND_SELECT_H
#define PT_LOOP_BACKEND_SELECT_H

#if !PT_POSIX
#error "PT_BACKEND_SELECT needs a POSIX host (loop/config.h)"
#endif

#include <errno.h>
#include <fcntl.h>
#include <sys/select.h>

struct pt__backend {
    fd_set rd, wr;
    struct pt_io *rd_io[FD_SETSIZE], *wr_io[FD_SETSIZE];
    int maxfd;         /* no descriptor above it is waited on (-1: none) */
    unsigned count;    /* waits registered */
    pt_time_t backoff; /* after a failed select() (pt__backend_failed) */
    unsigned ahead;    /* the wake-up latency expected, us (pt__ahead_learn) */
};

union pt_io_slot {
    char unused;
};
#define PT_IO_SLOTS(n) 1

static inline int pt__backend_init(struct pt__backend *b) {
    int fd;
    FD_ZERO(&b->rd);
    FD_ZERO(&b->wr);
    for (fd = 0; fd < FD_SETSIZE; fd++)
        b->rd_io[fd] = b->wr_io[fd] = NULL;
    b->maxfd = -1;
    b->count = 0;
    b->backoff = 0;
    b->ahead = 0;
    return PT_OK;
}

static inline void pt__backend_close(struct pt__backend *b) {
    (void)b;
}

static inline int pt__backend_table(struct pt__backend *b, union pt_io_slot *s, size_t n) {
    (void)b;
    (void)s;
    (void)n;
    return PT_OK;
}

static inline unsigned pt__backend_waits(const struct pt__backend *b) {
    return b->count;
}

static inline int pt__backend_holds(const struct pt__backend *b, int fd) {
    (void)b;
    return fd >= 0 && fd < FD_SETSIZE;
}

static inline int pt__backend_watch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd;
    if (fd < 0 || fd >= FD_SETSIZE)
        return PT_EINVAL;
    if (((io->events & PT_READABLE) && b->rd_io[fd]) ||
        ((io->events & PT_WRITABLE) && b->wr_io[fd]))
        return PT_EBUSY;
    if (io->events & PT_READABLE) {
        b->rd_io[fd] = io;
        FD_SET(fd, &b->rd);
    }
    if (io->events & PT_WRITABLE) {
        b->wr_io[fd] = io;
        FD_SET(fd, &b->wr);
    }
    if (fd > b->maxfd)
        b->maxfd = fd;
    b->count++;
    return PT_OK;
}

static inline void pt__backend_unwatch(struct pt__backend *b, struct pt_io *io) {
    if ((io->events & PT_READABLE) && b->rd_io[io->fd] == io) {
        b->rd_io[io->fd] = NULL;
        FD_CLR(io->fd, &b->rd);
    }
    if ((io->events & PT_WRITABLE) && b->wr_io[io->fd] == io) {
        b->wr_io[io->fd] = NULL;
        FD_CLR(io->fd, &b->wr);
    }
    if (--b->count == 0)
        b->maxfd = -1; /* (otherwise it stays: select looks a little further) */
}

/* End the waits on fd (if any) with `result`; how many ended. */
static inline int pt__select_end(struct pt_loop *l, struct pt__backend *b, int fd, int result) {
    return pt__io_end(l, b->rd_io[fd], b->wr_io[fd], result);
}

static inline void pt__backend_forget(struct pt_loop *l, struct pt__backend *b, int fd) {
    if (fd >= 0 && fd < FD_SETSIZE)
        (void)pt__select_end(l, b, fd, PT_EBADF);
}

/* select() said EBADF: end the waits on descriptors no longer open. */
static inline int pt__select_closed(struct pt_loop *l, struct pt__backend *b) {
    int woke = 0, fd;
    for (fd = 0; fd <= b->maxfd; fd++)
        if ((b->rd_io[fd] || b->wr_io[fd]) && fcntl(fd, F_GETFD) < 0 && errno == EBADF)
            woke += pt__select_end(l, b, fd, PT_EBADF);
    return woke;
}

static inline int pt__backend_poll(struct pt_loop *l, struct pt__backend *b, pt_time_t now,
                                   pt_time_t timeout) {
    fd_set rd, wr;
    struct timeval tv, *tvp = NULL;
    int n, fd, e, woke = 0;
    pt_time_t end = (pt_time_t)(now + timeout); /* the tick to wake at */
    uint64_t us = 0;

    for (;;) {
        rd = b->rd;
        wr = b->wr;
        if (timeout != PT_FOREVER) {
            us = timeout ? pt__wait_ask(pt__wait_us(end), b->ahead) : 0;
            tv.tv_sec = (time_t)(us / 1000000u);
            tv.tv_usec = (suseconds_t)(us % 1000000u);
            tvp = &tv;
        }
        n = select(b->maxfd + 1, &rd, &wr, NULL, tvp);
        if (n >= 0)
            break;
        e = errno; /* (pt__select_closed changes it) */
        if (e == EBADF && (woke = pt__select_closed(l, b)) != 0)
            return woke;
        if (e != EINTR) /* ENOMEM and the like, or EBADF with none closed */
            return pt__backend_failed(&b->backoff, now, timeout);
        /* EINTR: again, with the time that is left until `end`. */
    }
    b->backoff = 0;
#if PT_LOOP_WAKE_AHEAD_MAX > 0
    if (n == 0 && us != 0) /* (it waited for the time asked: how late did it end?) */
        b->ahead = pt__ahead_learn(b->ahead, end, PT_PORT_NOW());
#endif
    for (fd = 0; fd <= b->maxfd && n > 0; fd++) {
        struct pt_io *r = FD_ISSET(fd, &rd) ? b->rd_io[fd] : NULL;
        struct pt_io *w = FD_ISSET(fd, &wr) ? b->wr_io[fd] : NULL;
        n -= (r != NULL) + (w != NULL);
        woke += pt__io_end(l, r, w, PT_OK);
    }
    return woke;
}

#endif /* PT_LOOP_BACKEND_SELECT_H */
