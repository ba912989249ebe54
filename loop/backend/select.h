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
 * It waits to the microsecond (PT__BACKEND_WAIT_UNIT 1), so the loop
 * learns the wake-up latency to ask for that much less (loop/iowait.h).
 * A report walks the descriptors that select() found ready in the order
 * of their numbers.
 */
#ifndef PT_LOOP_BACKEND_SELECT_H
#define PT_LOOP_BACKEND_SELECT_H

#if !PT_CONFIG_POSIX
#error "PT_BACKEND_SELECT needs a POSIX host (loop/config.h)"
#endif

#include <errno.h>
#include <fcntl.h>
#include <sys/select.h>

#define PT__BACKEND_FD_LIMIT FD_SETSIZE
#define PT__BACKEND_WAIT_UNIT 1

struct pt__backend {
    fd_set rd, wr;             /* waited on */
    fd_set rd_ready, wr_ready; /* what the last select() found, for the report */
    struct pt_io *rd_io[FD_SETSIZE], *wr_io[FD_SETSIZE];
    int maxfd;              /* no descriptor above it is waited on (-1: none) */
    unsigned count;         /* waits registered */
    int at;                 /* the report looks at descriptors from this one on */
    int left;               /* ... while bits found ready are left (0: it is over) */
    int closed;             /* ... for closed ones instead (select() said EBADF) */
    struct pt__ended ended; /* ... and has these to report first */
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
    b->at = b->left = b->closed = 0;
    b->ended.r = b->ended.w = NULL;
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

static inline void pt__backend_forget(struct pt__backend *b, int fd) {
    if (fd >= 0 && fd < FD_SETSIZE)
        pt__ended_set(&b->ended, b->rd_io[fd], b->wr_io[fd], PT_EBADF);
}

static inline int pt__backend_poll(struct pt__backend *b, uint64_t us) {
    struct timeval tv, *tvp = NULL;
    int n;
    b->rd_ready = b->rd;
    b->wr_ready = b->wr;
    if (us != PT__WAIT_FOREVER) {
        tv.tv_sec = (time_t)(us / 1000000u);
        tv.tv_usec = (suseconds_t)(us % 1000000u);
        tvp = &tv;
    }
    n = select(b->maxfd + 1, &b->rd_ready, &b->wr_ready, NULL, tvp);
    b->at = 0;
    b->left = n > 0 ? n : 0;
    if (n >= 0)
        return n;
    if (errno == EINTR)
        return PT__BACKEND_AGAIN;
    if (errno != EBADF) /* ENOMEM and the like */
        return PT_ESYS;
    b->left = 1; /* (the report ends at maxfd) */
    b->closed = 1;
    return PT_EBADF;
}

static inline struct pt_io *pt__backend_next(struct pt__backend *b, int *result) {
    struct pt_io *io, *r, *w;
    int fd;
    while ((io = pt__ended_take(&b->ended, result)) == NULL) {
        if (b->left <= 0 || b->at > b->maxfd) {
            b->left = b->closed = 0;
            return NULL;
        }
        fd = b->at++;
        if (b->closed) { /* the waits on descriptors no longer open */
            if ((b->rd_io[fd] || b->wr_io[fd]) && fcntl(fd, F_GETFD) < 0 && errno == EBADF)
                pt__ended_set(&b->ended, b->rd_io[fd], b->wr_io[fd], PT_EBADF);
            continue;
        }
        r = FD_ISSET(fd, &b->rd_ready) ? b->rd_io[fd] : NULL;
        w = FD_ISSET(fd, &b->wr_ready) ? b->wr_io[fd] : NULL;
        b->left -= (r != NULL) + (w != NULL);
        pt__ended_set(&b->ended, r, w, PT_OK);
    }
    return io;
}

#endif /* PT_LOOP_BACKEND_SELECT_H */
