/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/net.h - awaitable stream sockets on the readiness check (POSIX hosts,
 * PT_LOOP_IO): TCP over IPv4 and IPv6, and Unix-domain stream sockets.
 *
 * A struct pt_sock is a non-blocking descriptor plus the state of an
 * operation in progress in each direction: one task may read (or accept)
 * while another writes (or connects), full duplex, each operation with its
 * own deadline and cancel. The operations are macros used inside a task or
 * PT_SUB body, like PT_SLEEP; each ends with a result in PT_WAIT_RESULT()
 * and a byte count in its direction's `done`: s->rd.done for a read,
 * s->wr.done for a write. One operation per direction at a time: a second
 * task reading (or writing) the same socket meanwhile is a programming
 * error, as two readers of one stream are in asyncio. A struct pt_sock is
 * not copied while an operation is in progress (the loop holds pointers
 * into it); between operations it may be.
 *
 *   void PT_SOCK_CONNECT(struct pt_sock *s, const struct pt_addr *addr,
 *                       pt_time_t timeout)     open s and connect it
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EREFUSED | PT_EMFILE | PT_EBUSY
 *        | PT_EINVAL | PT_EFULL | PT_ESYS
 *   void PT_SOCK_ACCEPT(struct pt_sock *listener, struct pt_sock *s,
 *                      pt_time_t timeout)      accept one connection into s
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EMFILE | PT_EBUSY | PT_EINVAL | PT_EFULL
 *        | PT_ESYS
 *   void PT_SOCK_READ(struct pt_sock *s, void *buf, size_t cap,
 *                    pt_time_t timeout)        read what is there (1..cap)
 *   void PT_SOCK_READ_EXACT(struct pt_sock *s, void *buf, size_t n,
 *                          pt_time_t timeout)  read exactly n bytes
 *   void PT_SOCK_READ_UNTIL(struct pt_sock *s, void *buf, size_t cap, int c,
 *                          pt_time_t timeout)  read up to and with byte c
 *   void PT_SOCK_WRITE(struct pt_sock *s, const void *buf, size_t n,
 *                     pt_time_t timeout)       write all n bytes
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_ECLOSED | PT_ERESET | PT_EINVAL | PT_EFULL
 *        | PT_ESYS (READ_UNTIL also PT_EFULL: cap bytes, no delimiter)
 *
 * The size argument is read once, when the operation starts (so it may be
 * s->rd.done of the last read). The others are evaluated again after every
 * wait, so, as for every wait, they must not be locals of the body: use
 * the task's own struct.
 * `timeout` (ticks; PT_FOREVER for none) bounds the whole operation, not
 * each wait. Results, as values (never a signal, never a crash):
 *
 *   PT_OK          done
 *   PT_ETIMEDOUT   the timeout passed first (`done` says how far it got)
 *   PT_ECLOSED     the peer closed: end of file before the bytes asked
 *                  for, or a write on a connection that is gone or was
 *                  shut down here (EPIPE)
 *   PT_ERESET      the peer reset the connection
 *   PT_EREFUSED    connect: nobody listens at that address
 *   PT_EMFILE      out of descriptors, or a descriptor the loop cannot wait on
 *   PT_EFULL       READ_UNTIL: cap bytes and no delimiter; the timers were
 *                  full (a wait with a timeout)
 *   PT_EBUSY       connect or accept into a socket that is open
 *   PT_EINVAL      a socket that is not open, a bad address
 *   PT_ESYS        another error; s->err holds errno (e.g. EAGAIN for a
 *                  Unix-domain listener whose backlog is full: Linux
 *                  refuses at once rather than letting the connect wait)
 *
 * Writes never raise SIGPIPE (MSG_NOSIGNAL, or SO_NOSIGPIPE where that is
 * what the system has). Nothing allocates: buffers belong to the caller.
 *
 * Fairness: an operation that finds data (or room) at every call could keep
 * its task running, and the loop from everything else, for as long as a
 * busy peer keeps the connection full. After PT_SOCK_BUDGET system calls
 * in a row that moved bytes without waiting (and, for a buffered reader,
 * reads it served from its buffer), a direction goes once around the loop
 * (as a zero sleep) before its next call: one busy connection costs the
 * others at most one budget of work per iteration.
 *
 * Cancelling a task inside any of these removes its descriptor wait and
 * timer at once (pt_cancel) and leaves the socket open, as it was: `done`
 * says how many bytes the cancelled operation had moved (and the other
 * direction's operation goes on), and for a connect
 * the descriptor exists with the connection perhaps still in progress. The
 * task's PT_TASK_CLEANUP section decides: usually pt_sock_close(s).
 * After a timeout the socket stays open too, except for a connect, which is
 * abandoned and closed (as for any failed connect).
 */
#ifndef PT_LOOP_NET_H
#define PT_LOOP_NET_H

#include "io.h"

#if PT_LOOP_IO

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>

/*
 * PT_ACCEPT_BATCH: PT_SOCK_ACCEPT takes connections without waiting as
 * long as some are pending; after this many in a row it goes once around
 * the loop first, so a flood of connections cannot starve other tasks.
 */
#ifndef PT_ACCEPT_BATCH
#define PT_ACCEPT_BATCH 64
#endif

/* PT_SOCK_BUDGET: system calls in a row that move bytes without waiting
 * before a direction of a socket lets the loop run once (see above). */
#ifndef PT_SOCK_BUDGET
#define PT_SOCK_BUDGET 16
#endif

/* Out of descriptors, an accept waits before trying again: from
 * PT_ACCEPT_BACKOFF_MIN ticks, doubling up to PT_ACCEPT_BACKOFF_MAX. */
#ifndef PT_ACCEPT_BACKOFF_MIN
#define PT_ACCEPT_BACKOFF_MIN PT_MS(10)
#endif
#ifndef PT_ACCEPT_BACKOFF_MAX
#define PT_ACCEPT_BACKOFF_MAX PT_MS(1000)
#endif

/* The wait after the n-th PT_EMFILE in a row: PT_ACCEPT_BACKOFF_MIN doubled
 * n - 1 times, at most PT_ACCEPT_BACKOFF_MAX (a count, not a time, in each
 * socket: the same byte whatever a tick is). */
static inline pt_time_t pt__accept_pause(unsigned n) {
    pt_time_t p = PT_ACCEPT_BACKOFF_MIN;
    for (; n > 1 && p < PT_ACCEPT_BACKOFF_MAX; n--)
        p *= 2u;
    return p < PT_ACCEPT_BACKOFF_MAX ? p : PT_ACCEPT_BACKOFF_MAX;
}

/* An address of any family the sockets here speak. */
struct pt_addr {
    union {
        struct sockaddr sa;
        struct sockaddr_in in;
        struct sockaddr_in6 in6;
        struct sockaddr_un un;
    } u;
    socklen_t len;
};

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

/* ---- addresses ----------------------------------------------------------- */

/* An IPv4 ("127.0.0.1") or IPv6 ("::1") address and port. PT_EINVAL if ip
 * is neither. */
static inline int pt_addr_ip(struct pt_addr *a, const char *ip, unsigned port) {
    memset(a, 0, sizeof *a);
    if (inet_pton(AF_INET, ip, &a->u.in.sin_addr) == 1) {
        a->u.in.sin_family = AF_INET;
        a->u.in.sin_port = htons((uint16_t)port);
        a->len = (socklen_t)sizeof a->u.in;
    } else if (inet_pton(AF_INET6, ip, &a->u.in6.sin6_addr) == 1) {
        a->u.in6.sin6_family = AF_INET6;
        a->u.in6.sin6_port = htons((uint16_t)port);
        a->len = (socklen_t)sizeof a->u.in6;
    } else {
        return PT_EINVAL;
    }
    return port > 0xFFFFu ? PT_EINVAL : PT_OK;
}

/* A Unix-domain socket path. PT_EINVAL if it does not fit sun_path. */
static inline int pt_addr_unix(struct pt_addr *a, const char *path) {
    size_t n = strlen(path);
    memset(a, 0, sizeof *a);
    if (n == 0 || n >= sizeof a->u.un.sun_path)
        return PT_EINVAL;
    a->u.un.sun_family = AF_UNIX;
    memcpy(a->u.un.sun_path, path, n + 1);
    a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
    return PT_OK;
}

/* The port of an IP address (0 for other families). */
static inline unsigned pt_addr_port(const struct pt_addr *a) {
    if (a->u.sa.sa_family == AF_INET)
        return ntohs(a->u.in.sin_port);
    if (a->u.sa.sa_family == AF_INET6)
        return ntohs(a->u.in6.sin6_port);
    return 0;
}

/* "127.0.0.1:3000", "[::1]:3000" or the path, into buf (always
 * terminated). */
static inline const char *pt_addr_format(const struct pt_addr *a, char *buf, size_t cap) {
    char ip[INET6_ADDRSTRLEN];
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    if (a->u.sa.sa_family == AF_INET && inet_ntop(AF_INET, &a->u.in.sin_addr, ip, sizeof ip))
        (void)snprintf(buf, cap, "%s:%u", ip, pt_addr_port(a));
    else if (a->u.sa.sa_family == AF_INET6 &&
             inet_ntop(AF_INET6, &a->u.in6.sin6_addr, ip, sizeof ip))
        (void)snprintf(buf, cap, "[%s]:%u", ip, pt_addr_port(a));
    else if (a->u.sa.sa_family == AF_UNIX) { /* (truncated to fit, as snprintf would) */
        size_t n = strnlen(a->u.un.sun_path, sizeof a->u.un.sun_path);
        n = n < cap ? n : cap - 1;
        memcpy(buf, a->u.un.sun_path, n);
        buf[n] = '\0';
    }
    return buf;
}

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
 * nonzero (and a pause set) once PT_SOCK_BUDGET of them came in a row. */
static inline int pt__sock_spent(struct pt_sock_dir *d) {
    if (d->spent < PT_SOCK_BUDGET)
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
    if (ls->batch >= PT_ACCEPT_BATCH) {
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
            if (pt__accept_pause(ls->backoff) < PT_ACCEPT_BACKOFF_MAX)
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
 * PT_ACCEPT_BATCH). PT_EMFILE when out of descriptors: the connection
 * stays pending and the next PT_SOCK_ACCEPT on ls first waits a back-off
 * (PT_ACCEPT_BACKOFF_MIN, doubling), so an accept loop does not spin.
 */
#define PT_SOCK_ACCEPT(ls, s, timeout)                                                             \
    PT__SOCK_RUN((ls), &(ls)->rd, (timeout), 0, PT_READABLE,                                       \
                 pt__sock_accept_step(pt__loop, (ls), (s)))

/*
 * Internal: one recv into buf[0..cap), as a result; *n gets the count.
 * Unless the last read filled its buffer, recv is called only after a
 * wait: a read that came back short emptied the socket, so trying again
 * before select() says so would only return EAGAIN. After PT_SOCK_BUDGET
 * reads in a row without a wait, it goes once around the loop first.
 */
static inline int pt__sock_recv(struct pt_sock *s, void *buf, size_t cap, size_t *n, int flags) {
    struct pt_sock_dir *d = &s->rd;
    ssize_t r;
    if (s->fd < 0)
        return PT_EINVAL;
    if (!(d->flags & (PT__S_WAITED | PT__S_READ_MORE)))
        return PT__AGAIN;
    if (!(d->flags & PT__S_WAITED) && pt__sock_spent(d))
        return PT__AGAIN; /* (after the pause it reads: WAITED) */
    d->flags &= (unsigned char)~(PT__S_WAITED | PT__S_READ_MORE);
    do
        r = recv(s->fd, buf, cap, flags);
    while (r < 0 && errno == EINTR);
    if (r > 0) {
        *n = (size_t)r;
        if ((size_t)r == cap)
            d->flags |= PT__S_READ_MORE;
        if (!(flags & MSG_PEEK))
            d->spent++;
        return PT_OK;
    }
    if (r == 0)
        return PT_ECLOSED;
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return PT__AGAIN;
    return pt__sock_errno(s, errno);
}

static inline int pt__sock_read_step(struct pt_sock *s, void *buf) {
    if (s->rd.want == 0)
        return PT_OK;
    return pt__sock_recv(s, buf, s->rd.want, &s->rd.done, 0);
}

/*
 * Read what is there, 1 to cap bytes, into buf; s->rd.done says how many.
 * PT_ECLOSED at end of file. A read that comes back short makes the next
 * one wait for readiness before calling recv (nothing is left now), so a
 * request-reply exchange costs one recv per message.
 */
#define PT_SOCK_READ(s, buf, cap, timeout)                                                         \
    PT__SOCK_RUN((s), &(s)->rd, (timeout), (cap), PT_READABLE, pt__sock_read_step((s), (buf)))

static inline int pt__sock_read_exact_step(struct pt_sock *s, void *buf) {
    struct pt_sock_dir *d = &s->rd;
    size_t got = 0, n = d->want;
    int rc;
    while (d->done < n) {
        rc = pt__sock_recv(s, (char *)buf + d->done, n - d->done, &got, 0);
        if (rc != PT_OK)
            return rc;
        d->done += got;
    }
    return PT_OK;
}

/* Read exactly n bytes into buf. PT_ECLOSED if the peer closes first
 * (s->rd.done says how many came). */
#define PT_SOCK_READ_EXACT(s, buf, n, timeout)                                                     \
    PT__SOCK_RUN((s), &(s)->rd, (timeout), (n), PT_READABLE, pt__sock_read_exact_step((s), (buf)))

static inline int pt__sock_read_until_step(struct pt_sock *s, void *buf, int delim) {
    struct pt_sock_dir *d = &s->rd;
    char *p = (char *)buf;
    size_t cap = d->want;
    const char *hit;
    ssize_t r;
    while (d->done < cap) {
        size_t got = 0;
        /* Peek, then take only up to the delimiter: what follows it stays
         * in the socket for the next read; nothing is buffered here. */
        int rc = pt__sock_recv(s, p + d->done, cap - d->done, &got, MSG_PEEK);
        if (rc != PT_OK)
            return rc;
        hit = (const char *)memchr(p + d->done, delim, got);
        if (hit && (size_t)(hit - (p + d->done)) + 1 < got) {
            got = (size_t)(hit - (p + d->done)) + 1;
            d->flags |= PT__S_READ_MORE; /* the rest is still there */
        }
        do
            r = recv(s->fd, p + d->done, got, 0);
        while (r < 0 && errno == EINTR);
        if (r != (ssize_t)got) /* the bytes just peeked at are there */
            return r < 0 ? pt__sock_errno(s, errno) : PT_ESYS;
        d->spent++;
        d->done += got;
        if (hit)
            return PT_OK;
    }
    return PT_EFULL;
}

/*
 * Read into buf up to and including the first byte equal to delim;
 * s->rd.done is the length with the delimiter. Bytes after it stay in the
 * socket for the next read (they may also have been copied into
 * buf[done..cap) by the peek: only buf[0..done) is the result). PT_EFULL
 * if cap bytes came without it (they are in buf, consumed); PT_ECLOSED if
 * the peer closed first. (A peek and a read per call: a struct pt_reader,
 * loop/stream.h, splits lines in its own buffer instead.)
 */
#define PT_SOCK_READ_UNTIL(s, buf, cap, delim, timeout)                                            \
    PT__SOCK_RUN((s), &(s)->rd, (timeout), (cap), PT_READABLE,                                     \
                 pt__sock_read_until_step((s), (buf), (delim)))

#ifdef MSG_NOSIGNAL
#define PT__SEND_FLAGS MSG_NOSIGNAL
#else
#define PT__SEND_FLAGS 0 /* SO_NOSIGPIPE, set by pt__sock_setup */
#endif

/* Internal: send from buf[0..n) as much as the socket takes now; *sent
 * grows by it. PT_OK when all is sent, PT__AGAIN to wait (or pause: after
 * PT_SOCK_BUDGET sends in a row without a wait), or an error. */
static inline int pt__sock_send(struct pt_sock *s, const char *buf, size_t n, size_t *sent) {
    struct pt_sock_dir *d = &s->wr;
    ssize_t r;
    if (s->fd < 0)
        return PT_EINVAL;
    if (d->flags & PT__S_PAUSE) /* (set by a send of another caller: a writer's) */
        return PT__AGAIN;
    while (*sent < n) {
        if (pt__sock_spent(d))
            return PT__AGAIN;
        r = send(s->fd, buf + *sent, n - *sent, PT__SEND_FLAGS);
        if (r > 0) {
            *sent += (size_t)r;
            d->spent++;
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return PT__AGAIN;
        } else {
            return r < 0 ? pt__sock_errno(s, errno) : PT_ESYS;
        }
    }
    return PT_OK;
}

static inline int pt__sock_write_step(struct pt_sock *s, const void *buf) {
    return pt__sock_send(s, (const char *)buf, s->wr.want, &s->wr.done);
}

/*
 * Write all n bytes of buf, waiting for the socket to be writable as often
 * as it takes. PT_ECLOSED or PT_ERESET if the peer is gone (s->wr.done
 * says how many bytes the kernel took).
 */
#define PT_SOCK_WRITE(s, buf, n, timeout)                                                          \
    PT__SOCK_RUN((s), &(s)->wr, (timeout), (n), PT_WRITABLE, pt__sock_write_step((s), (buf)))

#endif /* PT_LOOP_IO */
#endif /* PT_LOOP_NET_H */
