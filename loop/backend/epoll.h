/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/backend/epoll.h - the epoll back end (Linux). See loop/backend.h.
 *
 * Descriptors 0..n-1 can be waited on, n the size of a table the caller
 * owns (pt_loop_io_table; PT_EINVAL beyond it, and for every wait without
 * one). The table's PT_IO_SLOTS(n) cells hold rd[fd] and wr[fd], the waits
 * for reading and writing fd, and the events fd is registered for (0: not
 * registered; EPOLLONESHOT among them: armed once). A poll costs in proportion to the descriptors
 * that are ready, at most PT_CONFIG_EPOLL_BATCH of them per iteration (struct pt_loop holds that
 * many events; the rest are seen at the next iteration), not to those waited on.
 *
 * A descriptor is armed when a wait starts (EPOLL_CTL_MOD, or _ADD the
 * first time, also after a close made the kernel drop it), in one of two
 * ways:
 *  - a socket's wait (loop/net.h: io->keep) leaves the descriptor
 *    registered, level-triggered, when it ends: the next wait for the same
 *    events costs no system call. An event nobody waits for takes the
 *    event out of the registration then. pt_sock_close tells the back end
 *    (pt__backend_forget), which matters because the kernel forgets a
 *    closed descriptor silently and a new one may get its number;
 *  - any other wait (PT_IO_WAIT: a descriptor the loop cannot see closed)
 *    arms it with EPOLLONESHOT, once per wait: an event is reported once,
 *    a wait that ended without one (timeout, cancel) costs nothing more,
 *    and a descriptor nobody waits on stays silent.
 * The timeout is in whole milliseconds, rounded up: a sleep may end up to
 * 1 ms late, never early.
 *
 * Limits: a descriptor that epoll cannot wait on (a regular file) is
 * refused with PT_EINVAL; a descriptor closed before its wait starts gives
 * PT_EBADF. One closed while a task waits on it is dropped by the kernel
 * without an event: close it with pt_io_close (loop/io.h), which ends the
 * waits with PT_EBADF, or the wait lasts until its timeout.
 */
#ifndef PT_LOOP_BACKEND_EPOLL_H
#define PT_LOOP_BACKEND_EPOLL_H

#if !defined(__linux__)
#error "PT_BACKEND_EPOLL needs Linux (loop/config.h)"
#endif

#include <errno.h>
#include <sys/epoll.h>
#include <unistd.h>

union pt_io_slot {
    struct pt_io *io;
    size_t armed;
};
#define PT_IO_SLOTS(n) (3u * (size_t)(n))
#define PT__BACKEND_FD_LIMIT 0x7FFFFFFF /* (none: each loop has its table) */
#define PT__BACKEND_WAIT_UNIT 1000

struct pt__backend {
    int epfd;
    unsigned waits;
    union pt_io_slot *cells;
    size_t cap;
    int at, n;              /* the report reads ev[at..n-1] */
    int fd;                 /* ... whose waits on fd it reports (-1: none) */
    unsigned want, re;      /* ... what they asked for, and what was ready */
    struct pt__ended ended; /* ... those not yet reported */
    struct epoll_event ev[PT_CONFIG_EPOLL_BATCH];
};

#define PT__EPOLL_RD(b, fd) ((b)->cells[(size_t)(fd)].io)
#define PT__EPOLL_WR(b, fd) ((b)->cells[(b)->cap + (size_t)(fd)].io)
#define PT__EPOLL_ARMED(b, fd) ((b)->cells[2u * (b)->cap + (size_t)(fd)].armed)

static inline int pt__backend_init(struct pt__backend *b) {
    b->waits = 0;
    b->at = b->n = 0;
    b->fd = -1;
    b->ended.r = b->ended.w = NULL;
    b->cells = NULL;
    b->cap = 0;
    b->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (b->epfd >= 0)
        return PT_OK;
    return errno == EMFILE || errno == ENFILE ? PT_EMFILE : PT_ESYS;
}

static inline void pt__backend_close(struct pt__backend *b) {
    if (b->epfd >= 0)
        close(b->epfd);
    b->epfd = -1;
}

static inline int pt__backend_table(struct pt__backend *b, union pt_io_slot *s, size_t n) {
    size_t fd;
    if (b->waits)
        return PT_EBUSY;
    b->cells = s;
    b->cap = n / 3u;
    for (fd = 0; fd < b->cap; fd++) {
        PT__EPOLL_RD(b, fd) = PT__EPOLL_WR(b, fd) = NULL;
        PT__EPOLL_ARMED(b, fd) = 0;
    }
    return PT_OK;
}

static inline unsigned pt__backend_waits(const struct pt__backend *b) {
    return b->waits;
}

/* The events fd's waits ask for. */
static inline unsigned pt__epoll_want(const struct pt__backend *b, int fd) {
    return (PT__EPOLL_RD(b, fd) ? (unsigned)EPOLLIN : 0u) |
           (PT__EPOLL_WR(b, fd) ? (unsigned)EPOLLOUT : 0u);
}

/* Register fd for `events` (0: take it out): 0, or errno. */
static inline int pt__epoll_set(struct pt__backend *b, int fd, unsigned events) {
    struct epoll_event e;
    size_t armed = PT__EPOLL_ARMED(b, fd);
    e.events = events;
    e.data.u64 = 0;
    e.data.fd = fd;
    if (events == 0) {
        if (armed)
            (void)epoll_ctl(b->epfd, EPOLL_CTL_DEL, fd, NULL);
    } else if (!(armed && epoll_ctl(b->epfd, EPOLL_CTL_MOD, fd, &e) == 0) &&
               epoll_ctl(b->epfd, EPOLL_CTL_ADD, fd, &e) != 0 &&
               !(errno == EEXIST && epoll_ctl(b->epfd, EPOLL_CTL_MOD, fd, &e) == 0)) {
        return errno;
    }
    PT__EPOLL_ARMED(b, fd) = events;
    return 0;
}

/* Arm fd for the waits it has, kept (level-triggered) or once: 0, or
 * errno. A kept registration that covers them already needs no call. */
static inline int pt__epoll_arm(struct pt__backend *b, int fd, int keep) {
    unsigned want = pt__epoll_want(b, fd);
    size_t armed = PT__EPOLL_ARMED(b, fd);
    if (!keep)
        return pt__epoll_set(b, fd, want | EPOLLONESHOT);
    if (armed && !(armed & EPOLLONESHOT) && (armed & want) == want)
        return 0;
    return pt__epoll_set(b, fd, want);
}

static inline int pt__backend_holds(const struct pt__backend *b, int fd) {
    return fd >= 0 && (size_t)fd < b->cap;
}

static inline int pt__backend_watch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd, e;
    if (fd < 0 || (size_t)fd >= b->cap)
        return PT_EINVAL;
    if (((io->events & PT_READABLE) && PT__EPOLL_RD(b, fd)) ||
        ((io->events & PT_WRITABLE) && PT__EPOLL_WR(b, fd)))
        return PT_EBUSY;
    if (io->events & PT_READABLE)
        PT__EPOLL_RD(b, fd) = io;
    if (io->events & PT_WRITABLE)
        PT__EPOLL_WR(b, fd) = io;
    e = pt__epoll_arm(b, fd, io->keep);
    if (e != 0) { /* as it was */
        if (PT__EPOLL_RD(b, fd) == io)
            PT__EPOLL_RD(b, fd) = NULL;
        if (PT__EPOLL_WR(b, fd) == io)
            PT__EPOLL_WR(b, fd) = NULL;
        return e == EBADF ? PT_EBADF : e == EPERM ? PT_EINVAL : PT_ESYS;
    }
    b->waits++;
    return PT_OK;
}

/* (The registration stays: kept, or one-shot, which reports at most one
 * event; an event nobody waits for is dealt with in the poll.) */
static inline void pt__backend_unwatch(struct pt__backend *b, struct pt_io *io) {
    if ((io->events & PT_READABLE) && PT__EPOLL_RD(b, io->fd) == io)
        PT__EPOLL_RD(b, io->fd) = NULL;
    if ((io->events & PT_WRITABLE) && PT__EPOLL_WR(b, io->fd) == io)
        PT__EPOLL_WR(b, io->fd) = NULL;
    b->waits--;
}

/* Hold fd's waits that `re` concerns as ended with `result`. */
static inline void pt__epoll_ended(struct pt__backend *b, int fd, unsigned re, int result) {
    struct pt_io *r = (re & (EPOLLIN | EPOLLHUP | EPOLLERR)) ? PT__EPOLL_RD(b, fd) : NULL;
    struct pt_io *w = (re & (EPOLLOUT | EPOLLHUP | EPOLLERR)) ? PT__EPOLL_WR(b, fd) : NULL;
    pt__ended_set(&b->ended, r, w, result);
}

static inline void pt__backend_forget(struct pt__backend *b, int fd) {
    if (fd < 0 || (size_t)fd >= b->cap)
        return;
    pt__epoll_ended(b, fd, EPOLLHUP, PT_EBADF);
    (void)pt__epoll_set(b, fd, 0);
}

static inline int pt__backend_poll(struct pt__backend *b, uint64_t us) {
    int ms = -1;
    if (us != PT__WAIT_FOREVER) {
        uint64_t m = (us + 999u) / 1000u;
        ms = m > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)m;
    }
    b->at = 0;
    b->n = epoll_wait(b->epfd, b->ev, PT_CONFIG_EPOLL_BATCH, ms);
    if (b->n >= 0)
        return b->n;
    b->n = 0;
    return errno == EINTR ? PT__BACKEND_AGAIN : PT_ESYS; /* ENOMEM and the like */
}

/* fd's waits found ready (`want` what they asked for, `re` what was) have
 * been woken: make its registration fit the waits it has now. */
static inline void pt__epoll_settle(struct pt__backend *b, int fd, unsigned want, unsigned re) {
    if (PT__EPOLL_ARMED(b, fd) & EPOLLONESHOT) {
        /* Disarmed by the event: the other direction may still wait. */
        PT__EPOLL_ARMED(b, fd) = EPOLLONESHOT; /* (added, armed for nothing) */
        if (pt__epoll_want(b, fd) && pt__epoll_arm(b, fd, 0) != 0)
            pt__epoll_ended(b, fd, EPOLLHUP, PT_EBADF);
    } else if (!want || (re & ~want & (EPOLLIN | EPOLLOUT))) {
        /* Kept, and ready for what nobody waits for (a hang-up, say): not
         * again. */
        (void)pt__epoll_set(b, fd, want);
    }
}

static inline struct pt_io *pt__backend_next(struct pt__backend *b, int *result) {
    struct pt_io *io;
    while ((io = pt__ended_take(&b->ended, result)) == NULL) {
        int fd = b->fd;
        if (fd >= 0) { /* its waits are woken */
            b->fd = -1;
            pt__epoll_settle(b, fd, b->want, b->re);
            continue;
        }
        if (b->at >= b->n)
            return NULL;
        fd = b->ev[b->at].data.fd;
        b->re = b->ev[b->at++].events;
        if ((size_t)fd >= b->cap)
            continue;
        b->fd = fd;
        b->want = pt__epoll_want(b, fd); /* (before the wakes take the waits off) */
        pt__epoll_ended(b, fd, b->re, PT_OK);
    }
    return io;
}

#endif /* PT_LOOP_BACKEND_EPOLL_H */
