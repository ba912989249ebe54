/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/net/read_write.h - reading from and writing to a stream socket of
 * loop/net.h: PT_SOCK_READ, _READ_EXACT, _READ_UNTIL and PT_SOCK_WRITE.
 */
#ifndef PT_LOOP_NET_READ_WRITE_H
#define PT_LOOP_NET_READ_WRITE_H

#include "sock.h"

#if PT_CONFIG_IO

/*
 * Internal: one recv into buf[0..cap), as a result; *n gets the count.
 * Unless the last read filled its buffer, recv is called only after a
 * wait: a read that came back short emptied the socket, so trying again
 * before select() says so would only return EAGAIN. After PT_CONFIG_SOCK_BUDGET
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
#define PT_SOCK_READ_EXACTLY(s, buf, n, timeout)                                                   \
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
 * PT_CONFIG_SOCK_BUDGET sends in a row without a wait), or an error. */
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

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_NET_READ_WRITE_H */
