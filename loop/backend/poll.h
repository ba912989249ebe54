/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/backend/poll.h - the poll() back end (POSIX). See loop/backend.h.
 *
 * No FD_SETSIZE: descriptors 0..n-1 can be waited on, where n is the size
 * of a table the caller owns (pt_loop_io_table); a descriptor beyond it is
 * refused with PT_EINVAL, and without a table every wait is. The table's
 * PT_IO_SLOTS(n) cells hold, in three runs of n, by descriptor:
 *   pfd[fd]          the pollfd handed to poll() (fd -1: not waited on;
 *                    poll() passes over it), reading and writing share it;
 *   rd[fd], wr[fd]   the wait for reading / writing fd, or NULL.
 * poll() is given pfd[0..top-1], top being one above the highest
 * descriptor waited on: as with select(), a poll costs in proportion to
 * that, and the waits are woken in the order of their descriptors, which
 * keeps memory accesses in order for a server whose connections were
 * opened in turn. Starting or dropping a wait is O(1). The timeout is in
 * whole milliseconds, rounded up: a sleep may end up to 1 ms late, never
 * early. A descriptor closed while waited on ends its waits with PT_EBADF
 * (POLLNVAL).
 */
#ifndef PT_LOOP_BACKEND_POLL_H
#define PT_LOOP_BACKEND_POLL_H

#if !PT_CONFIG_POSIX
#error "PT_BACKEND_POLL needs a POSIX host (loop/config.h)"
#endif

#include <errno.h>
#include <poll.h>

/* A cell is the size of a struct pollfd, so that the first run of cells is
 * an array of them (checked below). */
union pt_io_slot {
    struct pollfd pfd;
    struct pt_io *io;
};
typedef char pt__poll_cell_check[sizeof(union pt_io_slot) == sizeof(struct pollfd) ? 1 : -1];
#define PT_IO_SLOTS(n) (3u * (size_t)(n))
#define PT__BACKEND_FD_LIMIT 0x7FFFFFFF /* (none: each loop has its table) */
#define PT__BACKEND_WAIT_UNIT 1000

struct pt__backend {
    union pt_io_slot *cells;
    size_t cap;             /* descriptors the table holds */
    size_t top;             /* highest descriptor waited on + 1 */
    unsigned waits;         /* waits registered */
    size_t at;              /* the report looks at descriptors from this one on */
    int left;               /* ... while some found ready are left (0: it is over) */
    struct pt__ended ended; /* ... and has these to report first */
};

#define PT__POLL_PFD(b, fd) ((b)->cells[(size_t)(fd)].pfd)
#define PT__POLL_RD(b, fd) ((b)->cells[(b)->cap + (size_t)(fd)].io)
#define PT__POLL_WR(b, fd) ((b)->cells[2u * (b)->cap + (size_t)(fd)].io)

static inline int pt__backend_init(struct pt__backend *b) {
    b->cells = NULL;
    b->cap = b->top = 0;
    b->waits = 0;
    b->at = 0;
    b->left = 0;
    b->ended.r = b->ended.w = NULL;
    return PT_OK;
}

static inline void pt__backend_close(struct pt__backend *b) {
    (void)b;
}

static inline int pt__backend_table(struct pt__backend *b, union pt_io_slot *s, size_t n) {
    size_t fd;
    if (b->waits)
        return PT_EBUSY;
    b->cells = s;
    b->cap = n / 3u;
    b->top = 0;
    for (fd = 0; fd < b->cap; fd++) {
        PT__POLL_PFD(b, fd).fd = -1;
        PT__POLL_PFD(b, fd).events = PT__POLL_PFD(b, fd).revents = 0;
        PT__POLL_RD(b, fd) = PT__POLL_WR(b, fd) = NULL;
    }
    return PT_OK;
}

static inline unsigned pt__backend_waits(const struct pt__backend *b) {
    return b->waits;
}

static inline int pt__backend_holds(const struct pt__backend *b, int fd) {
    return fd >= 0 && (size_t)fd < b->cap;
}

static inline int pt__backend_watch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd;
    struct pollfd *p;
    if (!pt__backend_holds(b, fd))
        return PT_EINVAL;
    if (((io->events & PT_READABLE) && PT__POLL_RD(b, fd)) ||
        ((io->events & PT_WRITABLE) && PT__POLL_WR(b, fd)))
        return PT_EBUSY;
    p = &PT__POLL_PFD(b, fd);
    p->fd = fd;
    if (io->events & PT_READABLE) {
        PT__POLL_RD(b, fd) = io;
        p->events |= POLLIN;
    }
    if (io->events & PT_WRITABLE) {
        PT__POLL_WR(b, fd) = io;
        p->events |= POLLOUT;
    }
    if ((size_t)fd >= b->top)
        b->top = (size_t)fd + 1u;
    b->waits++;
    return PT_OK;
}

static inline void pt__backend_unwatch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd;
    struct pollfd *p = &PT__POLL_PFD(b, fd);
    if ((io->events & PT_READABLE) && PT__POLL_RD(b, fd) == io) {
        PT__POLL_RD(b, fd) = NULL;
        p->events &= (short)~POLLIN;
    }
    if ((io->events & PT_WRITABLE) && PT__POLL_WR(b, fd) == io) {
        PT__POLL_WR(b, fd) = NULL;
        p->events &= (short)~POLLOUT;
    }
    b->waits--;
    if (p->events)
        return;
    p->fd = -1;
    while (b->top && PT__POLL_PFD(b, b->top - 1u).fd < 0)
        b->top--;
}

/* Hold fd's waits that `re` concerns as ended with `result`. */
static inline void pt__poll_ended(struct pt__backend *b, int fd, int re, int result) {
    struct pt_io *r = (re & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) ? PT__POLL_RD(b, fd) : NULL;
    struct pt_io *w = (re & (POLLOUT | POLLHUP | POLLERR | POLLNVAL)) ? PT__POLL_WR(b, fd) : NULL;
    pt__ended_set(&b->ended, r, w, result);
}

static inline void pt__backend_forget(struct pt__backend *b, int fd) {
    if (pt__backend_holds(b, fd) && PT__POLL_PFD(b, fd).fd >= 0)
        pt__poll_ended(b, fd, POLLNVAL, PT_EBADF);
}

static inline int pt__backend_poll(struct pt__backend *b, uint64_t us) {
    int n, ms = -1;
    if (us != PT__WAIT_FOREVER) {
        uint64_t m = (us + 999u) / 1000u;
        ms = m > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)m;
    }
    n = poll(b->top ? &PT__POLL_PFD(b, 0) : NULL, (nfds_t)b->top, ms);
    b->at = 0;
    b->left = n > 0 ? n : 0;
    if (n >= 0)
        return n;
    return errno == EINTR ? PT__BACKEND_AGAIN : PT_ESYS; /* ENOMEM and the like */
}

/* (A woken wait may lower top: the report reads it each time.) */
static inline struct pt_io *pt__backend_next(struct pt__backend *b, int *result) {
    struct pt_io *io;
    while ((io = pt__ended_take(&b->ended, result)) == NULL) {
        int re;
        size_t fd;
        if (b->left <= 0 || b->at >= b->top) {
            b->left = 0;
            return NULL;
        }
        fd = b->at++;
        re = PT__POLL_PFD(b, fd).revents;
        if (!re)
            continue;
        PT__POLL_PFD(b, fd).revents = 0;
        b->left--;
        pt__poll_ended(b, (int)fd, re, (re & POLLNVAL) ? PT_EBADF : PT_OK);
    }
    return io;
}

#endif /* PT_LOOP_BACKEND_POLL_H */
