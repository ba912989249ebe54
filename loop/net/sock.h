/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/net/sock.h - a stream socket of loop/net.h: its state, opening and
 * closing it, the machinery every operation runs on (a step function
 * called until it is done, waiting for readiness between calls), and the
 * operations that open a connection: connect and accept.
 */
#ifndef PT_LOOP_NET_SOCK_H
#define PT_LOOP_NET_SOCK_H

#include "../io.h"
#include "addr.h"

#if PT_CONFIG_IO

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <unistd.h>

/*
 * PT_CONFIG_ACCEPT_BATCH: PT_SOCK_ACCEPT takes connections without waiting as
 * long as some are pending; after this many in a row it goes once around
 * the loop first, so a flood of connections cannot starve other tasks.
 */
#ifndef PT_CONFIG_ACCEPT_BATCH
#define PT_CONFIG_ACCEPT_BATCH 64
#endif

/* PT_CONFIG_SOCK_BUDGET: system calls in a row that move bytes without waiting
 * before a direction of a socket lets the loop run once (see above). */
#ifndef PT_CONFIG_SOCK_BUDGET
#define PT_CONFIG_SOCK_BUDGET 16
#endif

/* Out of descriptors, an accept waits before trying again: from
 * PT_CONFIG_ACCEPT_BACKOFF_MIN ticks, doubling up to PT_CONFIG_ACCEPT_BACKOFF_MAX. */
#ifndef PT_CONFIG_ACCEPT_BACKOFF_MIN
#define PT_CONFIG_ACCEPT_BACKOFF_MIN PT_MS(10)
#endif
#ifndef PT_CONFIG_ACCEPT_BACKOFF_MAX
#define PT_CONFIG_ACCEPT_BACKOFF_MAX PT_MS(1000)
#endif

/* The wait after the n-th PT_EMFILE in a row: PT_CONFIG_ACCEPT_BACKOFF_MIN doubled
 * n - 1 times, at most PT_CONFIG_ACCEPT_BACKOFF_MAX (a count, not a time, in each
 * socket: the same byte whatever a tick is). */
static inline pt_time_t pt__accept_pause(unsigned n) {
    pt_time_t p = PT_CONFIG_ACCEPT_BACKOFF_MIN;
    for (; n > 1 && p < PT_CONFIG_ACCEPT_BACKOFF_MAX; n--)
        p *= 2u;
    return p < PT_CONFIG_ACCEPT_BACKOFF_MAX ? p : PT_CONFIG_ACCEPT_BACKOFF_MAX;
}

/* One direction of a socket: the operation in progress there, or the
 * last one. */
struct pt_sock_dir {
    size_t done; /* bytes moved by the current or last operation */
    size_t want; /* its size argument, read once when it starts */
    pt_time_t deadline;
    unsigned char flags; /* PT__S_* */
    unsigned char spent; /* system calls in a row without a wait (fairness) */
    struct pt_io io;
};

/* A stream socket: caller-owned; reads and accepts in rd, writes and
 * connects in wr, one operation in each at a time. */
struct pt_sock {
    int fd;  /* -1 when closed */
    int err; /* errno behind the last PT_ESYS */
    struct pt_sock_dir rd, wr;
    unsigned char backoff; /* listener: PT_EMFILEs in a row (pt__accept_pause) */
    unsigned char batch;   /* listener: accepts since it last waited */
};

#define PT__S_DEADLINE 0x01u   /* the operation has a deadline */
#define PT__S_WAITED 0x02u     /* woke from a wait: try the system call */
#define PT__S_READ_MORE 0x04u  /* rd: the last read filled its buffer: try first */
#define PT__S_CONNECTING 0x08u /* wr: connect() returned EINPROGRESS */
#define PT__S_BACKOFF 0x10u    /* rd of a listener: wait `backoff` before accepting */
#define PT__S_PAUSE 0x20u      /* go once around the loop first */

/* Internal: "not yet; wait and call the step again". Not a result. */
#define PT__AGAIN 1

/* ---- opening and closing ------------------------------------------------ */

static inline void pt_sock_init(struct pt_sock *s) {
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* errno as a result (and s->err). */
static inline int pt__sock_errno(struct pt_sock *s, int e) {
    s->err = e;
    switch (e) {
    case ECONNREFUSED:
        return PT_EREFUSED;
    case ECONNRESET:
        return PT_ERESET;
    case EPIPE:
        return PT_ECLOSED;
    case EMFILE:
    case ENFILE:
        return PT_EMFILE;
    case ETIMEDOUT:
        return PT_ETIMEDOUT;
    case EBADF:
    case ENOTSOCK:
        return PT_EINVAL;
    default:
        return PT_ESYS;
    }
}

/* Make fd s's descriptor: non-blocking, close-on-exec, no SIGPIPE. A
 * descriptor that no loop could wait on (pt_loop_io_fits: select's
 * FD_SETSIZE) is closed and refused (PT_EMFILE). (Connect and accept also
 * ask their loop: with poll and epoll the limit is the loop's table.) */
static inline int pt__sock_setup(struct pt_sock *s, int fd) {
    int one = 1;
    (void)one;
    if (!pt_loop_io_fits(NULL, fd)) {
        close(fd);
        s->err = EMFILE;
        return PT_EMFILE;
    }
    if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        int e = errno;
        close(fd);
        return pt__sock_errno(s, e);
    }
#if !defined(MSG_NOSIGNAL) && defined(SO_NOSIGPIPE)
    (void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    s->fd = fd;
    return PT_OK;
}

/* Adopt an open stream descriptor (from socketpair(), say). With select,
 * PT_EMFILE if no loop could wait on it (it is then closed); with poll and
 * epoll, a descriptor beyond the loop's table is refused by its first wait
 * (PT_EINVAL). */
static inline int pt_sock_adopt(struct pt_sock *s, int fd) {
    pt_sock_init(s);
    return pt__sock_setup(s, fd);
}

/* A new socket of a's family. */
static inline int pt__sock_open(struct pt_sock *s, const struct pt_addr *a) {
    int fd = socket(a->u.sa.sa_family, SOCK_STREAM, 0);
    if (fd < 0)
        return pt__sock_errno(s, errno);
    return pt__sock_setup(s, fd);
}

/*
 * Open s listening on a (port 0: a free one; pt_sock_local_addr tells
 * which) with a backlog of `backlog` connections. SO_REUSEADDR is set for
 * IP addresses. Synchronous: PT_OK or an error (s is then closed).
 */
static inline int pt_sock_listen(struct pt_sock *s, const struct pt_addr *a, int backlog) {
    int rc, one = 1;
    pt_sock_init(s);
    rc = pt__sock_open(s, a);
    if (rc != PT_OK)
        return rc;
    if (a->u.sa.sa_family != AF_UNIX)
        (void)setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(s->fd, &a->u.sa, a->len) != 0 || listen(s->fd, backlog) != 0) {
        rc = pt__sock_errno(s, errno);
        close(s->fd);
        s->fd = -1;
    }
    return rc;
}

/* The address s is bound to (PT_OK), e.g. to learn a listener's port. */
static inline int pt_sock_local_addr(struct pt_sock *s, struct pt_addr *a) {
    a->len = (socklen_t)sizeof a->u;
    return getsockname(s->fd, &a->u.sa, &a->len) == 0 ? PT_OK : pt__sock_errno(s, errno);
}

/* The address of s's peer (PT_OK). */
static inline int pt_sock_peer_addr(struct pt_sock *s, struct pt_addr *a) {
    a->len = (socklen_t)sizeof a->u;
    return getpeername(s->fd, &a->u.sa, &a->len) == 0 ? PT_OK : pt__sock_errno(s, errno);
}

/* TCP_NODELAY on or off: send small writes at once (PT_OK). */
static inline int pt_sock_nodelay(struct pt_sock *s, int on) {
    return setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == 0
               ? PT_OK
               : pt__sock_errno(s, errno);
}

/* Send end-of-file to the peer and keep reading (shutdown SHUT_WR). */
static inline int pt_sock_shutdown(struct pt_sock *s) {
    if (s->fd < 0)
        return PT_EINVAL;
    return shutdown(s->fd, SHUT_WR) == 0 ? PT_OK : pt__sock_errno(s, errno);
}

/* Close s; closing a closed socket does nothing. The loop it last waited
 * on is told first: a task still waiting on s (in either direction) wakes
 * with PT_EBADF, and no back end keeps the descriptor registered. (Closing
 * s->fd with close() instead skips that: with epoll a later wait on a
 * socket that gets the same number might never wake.) */
static inline void pt_sock_close(struct pt_sock *s) {
    struct pt_loop *l = s->rd.io.loop ? s->rd.io.loop : s->wr.io.loop;
    if (s->fd >= 0) {
        if (l) /* the back end may keep it registered: tell it */
            pt__io_forget(l, s->fd);
        close(s->fd);
    }
    s->fd = -1;
    s->rd.flags = s->wr.flags = 0;
}

/* ---- the operations: a step function each, run until it is done -------- */

/* Internal: start an operation in direction d. */
static inline int pt__sock_begin(struct pt_loop *l, struct pt_sock_dir *d, pt_time_t timeout,
                                 size_t want) {
    d->want = want; /* (read before `done` is reset: n may be d->done) */
    d->done = 0;
    /* (CONNECTING too: a connect cancelled half-way is not resumed; the
     * socket is open, so a new connect on it gets PT_EBUSY.) */
    d->flags &= (unsigned char)~(PT__S_DEADLINE | PT__S_WAITED | PT__S_CONNECTING);
    if (timeout == 0)
        d->flags |= PT__S_WAITED; /* a poll: a read looks once before its verdict */
    if (timeout != PT_FOREVER) {
        d->deadline = pt_time_after(pt_loop_now(l), timeout);
        d->flags |= PT__S_DEADLINE;
    }
    return PT__AGAIN;
}

/* Internal: before a system call that may move bytes without waiting:
 * nonzero (and a pause set) once PT_CONFIG_SOCK_BUDGET of them came in a row. */
static inline int pt__sock_spent(struct pt_sock_dir *d) {
    if (d->spent < PT_CONFIG_SOCK_BUDGET)
        return 0;
    d->spent = 0;
    d->flags |= PT__S_PAUSE;
    return 1;
}

/*
 * Internal: park until s's descriptor is ready for `events` (d's), or
 * sleep through a listener's back-off or a pause, within the operation's
 * deadline. 0 with the result in g if it could not park (timed out, timers
 * full).
 */
static inline int pt__sock_wait(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                struct pt_sock *s, struct pt_sock_dir *d, unsigned events) {
    pt_time_t left = PT_FOREVER;
    if (d->flags & PT__S_DEADLINE) {
        left = pt_time_until(pt_loop_now(l), d->deadline);
        if (left == 0) {
            g->value.i = PT_ETIMEDOUT;
            return 0;
        }
    }
    d->flags |= PT__S_WAITED;
    /* The task goes around the loop here: the budget of both directions
     * starts again (a reply sent at once after a read that waited is no
     * run of calls without a wait). */
    s->rd.spent = s->wr.spent = 0;
    if (d->flags & (PT__S_BACKOFF | PT__S_PAUSE)) {
        pt_time_t pause = (d->flags & PT__S_BACKOFF) ? pt__accept_pause(s->backoff) : 0;
        d->flags &= (unsigned char)~(PT__S_BACKOFF | PT__S_PAUSE);
        return pt__park(l, t, g, pause < left ? pause : left, PT__WAIT_NONE, NULL);
    }
    d->io.keep = 1; /* closed by pt_sock_close, which tells the loop */
    return pt__io_start(l, t, g, &d->io, s->fd, events, left);
}

/* Internal: the operation loop in direction d. `step` returns a result or
 * PT__AGAIN. */
#define PT__SOCK_RUN(s, d, timeout, want, events, step)                                            \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        pt__gen->value.i = pt__sock_begin(pt__loop, (d), (timeout), (want));                       \
        while ((pt__gen->value.i = (step)) == PT__AGAIN) {                                         \
            PT__PARK_IF(pt__sock_wait(pt__loop, pt__task, pt__gen, (s), (d), (events)));           \
            if (pt__gen->value.i != PT_OK)                                                         \
                break;                                                                             \
        }                                                                                          \
    } while (0)

static inline int pt__sock_connect_step(struct pt_loop *l, struct pt_sock *s,
                                        const struct pt_addr *a) {
    struct pt_sock_dir *d = &s->wr;
    int e = 0, rc;
    socklen_t len = (socklen_t)sizeof e;
    if (!(d->flags & PT__S_CONNECTING)) {
        if (s->fd >= 0)
            return PT_EBUSY; /* never leak the descriptor it has */
        if ((rc = pt__sock_open(s, a)) != PT_OK)
            return rc;
        if (!pt_loop_io_fits(l, s->fd)) { /* beyond what the loop can wait on */
            close(s->fd);
            s->fd = -1;
            s->err = EMFILE;
            return PT_EMFILE;
        }
        if (connect(s->fd, &a->u.sa, a->len) == 0)
            return PT_OK;
        if (errno == EINPROGRESS || errno == EINTR) {
            d->flags |= PT__S_CONNECTING;
            return PT__AGAIN;
        }
        return pt__sock_errno(s, errno);
    }
    if (!(d->flags & PT__S_WAITED))
        return PT__AGAIN;
    if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
        return pt__sock_errno(s, errno);
    d->flags &= (unsigned char)~PT__S_CONNECTING;
    return e == 0 ? PT_OK : pt__sock_errno(s, e);
}

/* Internal: a connect that failed (or timed out) leaves nothing open. */
static inline int pt__sock_connect_end(struct pt_sock *s, int result) {
    s->wr.flags &= (unsigned char)~PT__S_CONNECTING;
    if (result != PT_OK && result != PT_EBUSY)
        pt_sock_close(s);
    return result;
}

/*
 * Open s (a struct pt_sock, closed: pt_sock_init) and connect it to *addr.
 * PT_OK, or PT_EREFUSED, PT_ERESET, PT_ETIMEDOUT, PT_EMFILE, PT_EFULL,
 * PT_ESYS; after a failure s is closed. PT_EBUSY if s is open.
 */
#define PT_SOCK_CONNECT(s, addr, timeout)                                                          \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        PT__SOCK_RUN((s), &(s)->wr, (timeout), 0, PT_WRITABLE,                                     \
                     pt__sock_connect_step(pt__loop, (s), (addr)));                                \
        pt__gen->value.i = pt__sock_connect_end((s), (int)pt__gen->value.i);                       \
    } while (0)

static inline int pt__sock_accept_step(struct pt_loop *l, struct pt_sock *ls, struct pt_sock *s) {
    struct pt_sock_dir *d = &ls->rd;
    int fd;
    if (ls->fd < 0)
        return PT_EINVAL;
    if (s->fd >= 0)
        return PT_EBUSY; /* never leak the descriptor it has */
    if (d->flags & (PT__S_BACKOFF | PT__S_PAUSE))
        return PT__AGAIN; /* pt__sock_wait sleeps first */
    if (ls->batch >= PT_CONFIG_ACCEPT_BATCH) {
        ls->batch = 0;
        d->flags |= PT__S_PAUSE;
        return PT__AGAIN;
    }
    for (;;) {
        fd = accept(ls->fd, NULL, NULL);
        if (fd >= 0)
            break;
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            ls->batch = 0;
            return PT__AGAIN;
        }
        if (errno == EMFILE || errno == ENFILE) {
            /* Next time, wait before trying: the pending connection stays
             * in the backlog (and the listener readable) meanwhile. */
            if (pt__accept_pause(ls->backoff) < PT_CONFIG_ACCEPT_BACKOFF_MAX)
                ls->backoff++;
            d->flags |= PT__S_BACKOFF;
        }
        return pt__sock_errno(ls, errno);
    }
    ls->batch++;
    pt_sock_init(s);
    if (!pt_loop_io_fits(l, fd)) { /* beyond what the loop can wait on */
        close(fd);
        ls->backoff = 1;
        d->flags |= PT__S_BACKOFF;
        ls->err = EMFILE;
        return PT_EMFILE;
    }
    if (pt__sock_setup(s, fd) == PT_EMFILE) {
        ls->backoff = 1;
        d->flags |= PT__S_BACKOFF;
        ls->err = EMFILE;
        return PT_EMFILE;
    }
    if (s->fd < 0)
        return PT_ESYS; /* fcntl failed: s->err has errno */
    ls->backoff = 0;
    return PT_OK;
}

/*
 * Accept one connection on listener ls into s (a struct pt_sock, closed:
 * pt_sock_init; PT_EBUSY if it is open).
 * It takes a pending connection at once if there is one (see
 * PT_CONFIG_ACCEPT_BATCH). PT_EMFILE when out of descriptors: the connection
 * stays pending and the next PT_SOCK_ACCEPT on ls first waits a back-off
 * (PT_CONFIG_ACCEPT_BACKOFF_MIN, doubling), so an accept loop does not spin.
 */
#define PT_SOCK_ACCEPT(ls, s, timeout)                                                             \
    PT__SOCK_RUN((ls), &(ls)->rd, (timeout), 0, PT_READABLE,                                       \
                 pt__sock_accept_step(pt__loop, (ls), (s)))

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_NET_SOCK_H */
