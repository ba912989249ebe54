/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/stream.h - buffered streams over a struct pt_sock (loop/net.h), as
 * asyncio's StreamReader and StreamWriter: the buffers are the caller's,
 * nothing allocates. A reader and a writer of one socket work at the same
 * time (its two directions: full duplex).
 *
 * A reader reads into its buffer and hands out what was asked for from
 * there: a view, pt_reader_data(r) and r->len, valid until its next read.
 * Lines are split in the buffer: one recv per buffer-full, not a system
 * call per line.
 *
 *   void pt_reader_init(struct pt_reader *r, struct pt_sock *s, void *buf,
 *                       size_t cap)
 *   void PT_READER_READ(struct pt_reader *r, size_t n, pt_time_t timeout)
 *       what is there, 1..n bytes (read(n))
 *   void PT_READER_READ_EXACTLY(struct pt_reader *r, size_t n, pt_time_t timeout)
 *       exactly n bytes, n <= cap (readexactly(n))
 *   void PT_READER_READ_UNTIL(struct pt_reader *r, int delim, pt_time_t timeout)
 *       up to and with the first byte delim, at most cap bytes (readuntil)
 *   void PT_READER_READ_LINE(struct pt_reader *r, pt_time_t timeout)
 *       READ_UNTIL '\n' (readline)
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_ECLOSED | PT_ERESET | PT_EFULL
 *        | PT_EINVAL
 *        | PT_ESYS
 *   PT_ECLOSED: end of file first; the view holds what came (READ: none),
 *   as asyncio's IncompleteReadError.partial. PT_EFULL (READ_UNTIL): cap
 *   bytes and no delimiter; the view holds them, consumed (asyncio raises
 *   LimitOverrunError). PT_EINVAL: READ_EXACTLY of more than cap, or a
 *   closed socket. On PT_ETIMEDOUT or a cancel nothing is consumed: what
 *   came stays buffered for the next read.
 *
 * A writer copies what is written into its buffer; a task of its own (in
 * the struct, started by pt_writer_open: a background task) sends it from
 * there, as asyncio's transport does. A write into an empty buffer tries
 * the socket at once and buffers only what it does not take.
 *
 *   int pt_writer_open(struct pt_loop *l, struct pt_writer *w,
 *                      struct pt_sock *s, void *buf, size_t cap)
 *   int pt_writer_write(struct pt_writer *w, const void *data, size_t n)
 *       never waits: PT_OK (all taken); PT_EFULL if the bytes buffered
 *       would pass the high-water mark (nothing is taken: the caller
 *       decides, e.g. drops a slow peer); the error that ended the sending
 *       (PT_ECLOSED, PT_ERESET, PT_ESYS); PT_ECLOSED after a close or
 *       an abort, and after the sending task has ended (pt_loop_run's end
 *       cancels it) unless the socket takes all of it at once (then what
 *       it took at once is sent, the rest not)
 *   int pt_writer_limits(struct pt_writer *w, size_t high, size_t low)
 *       the water marks, low <= high <= cap (default: cap and cap / 4)
 *   size_t pt_writer_buffered(const struct pt_writer *w)
 *   void PT_WRITER_DRAIN(struct pt_writer *w, pt_time_t timeout)
 *       wait until at most `low` bytes are buffered (drain())
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EFULL | the sending's error
 *   void PT_WRITER_CLOSE(struct pt_writer *w, pt_time_t timeout)
 *       send what is buffered, then shut the socket's sending side down
 *       (the peer reads end of file) and stop the sending task; at the
 *       timeout, drop what is left (close() then wait_closed())
 *     -> PT_OK | PT_ETIMEDOUT | the sending's error
 *   void PT_WRITER_ABORT(struct pt_writer *w)
 *       drop what is buffered and stop the sending task (abort()); for a
 *       connection being torn down. Then w may be opened again. (With
 *       PT_CONFIG_DEBUG, misuse leaves w as it is and PT_WAIT_RESULT() is
 *       PT_EINVAL.)
 * A drain or close with a timeout holds a timer from its start until it
 * returns or its deadline passes (as a queue's wait: loop/sync.h).
 * The socket itself stays open: its owner closes it (pt_sock_close) after
 * the reader and writer are done with it. Both need PT_CONFIG_SYNC and
 * PT_CONFIG_BACKGROUND.
 */
#ifndef PT_LOOP_STREAM_H
#define PT_LOOP_STREAM_H

#include "net.h"
#include "sync.h"

#if PT_CONFIG_IO

#if !PT_CONFIG_BACKGROUND
#error "loop/stream.h: a writer's sending task needs PT_CONFIG_BACKGROUND 1 (loop/config.h)"
#endif

/* ---- reader ---------------------------------------------------------------- */

struct pt_reader {
    struct pt_sock *sock;
    char *buf;
    size_t cap;
    size_t start, end; /* the bytes buffered: buf[start..end) */
    size_t pos, len;   /* the last result: buf[pos..pos+len) */
    size_t want;       /* the operation in progress: its n (or delim) */
};

static inline void pt_reader_init(struct pt_reader *r, struct pt_sock *s, void *buf, size_t cap) {
    r->sock = s;
    r->buf = (char *)buf;
    r->cap = cap;
    r->start = r->end = r->pos = r->len = r->want = 0;
}

/* The last result (r->len bytes). */
static inline const char *pt_reader_data(const struct pt_reader *r) {
    return r->buf + r->pos;
}

/* Bytes buffered and not handed out yet. */
static inline size_t pt_reader_buffered(const struct pt_reader *r) {
    return r->end - r->start;
}

/* Internal: hand out n buffered bytes as the result. */
static inline int pt__reader_take(struct pt_reader *r, size_t n, int result) {
    r->sock->rd.spent++;
    r->pos = r->start;
    r->len = n;
    r->start += n;
    return result;
}

/* Internal: what the reads want from the buffer. */
enum { PT__RD_SOME, PT__RD_EXACTLY, PT__RD_UNTIL };

/*
 * Internal: one step of a read of kind `kind` (n: a count, or the
 * delimiter): serve it from the buffer if it can be, else receive more
 * into the room after what is buffered (moving that to the front first),
 * and look again. A result, or PT__AGAIN to wait.
 */
static inline int pt__reader_step(struct pt_reader *r, int kind) {
    struct pt_sock *s = r->sock;
    size_t scanned = 0;
    /* Reads served from the buffer count against the budget too: a task
     * handing out line after line never waits otherwise. */
    if (!(s->rd.flags & PT__S_WAITED) && pt__sock_spent(&s->rd))
        return PT__AGAIN;
    for (;;) {
        size_t have = r->end - r->start, got = 0;
        int rc;
        if (kind == PT__RD_SOME && have > 0)
            return pt__reader_take(r, have < r->want ? have : r->want, PT_OK);
        if (kind == PT__RD_EXACTLY && have >= r->want)
            return pt__reader_take(r, r->want, PT_OK);
        if (kind == PT__RD_UNTIL) {
            const char *hit =
                (const char *)memchr(r->buf + r->start + scanned, (int)r->want, have - scanned);
            if (hit)
                return pt__reader_take(r, (size_t)(hit - (r->buf + r->start)) + 1, PT_OK);
            scanned = have;
            if (have == r->cap)
                return pt__reader_take(r, have, PT_EFULL);
        }
        if (r->start > 0 && r->end == r->cap) { /* no room at the end: to the front */
            memmove(r->buf, r->buf + r->start, have);
            r->start = 0;
            r->end = have;
        }
        rc = pt__sock_recv(s, r->buf + r->end, r->cap - r->end, &got, 0);
        if (rc == PT_ECLOSED)
            return pt__reader_take(r, kind == PT__RD_SOME ? 0 : have, PT_ECLOSED);
        if (rc != PT_OK)
            return rc; /* (PT__AGAIN: wait, and look again) */
        r->end += got;
    }
}

/* Internal: start a read: PT__AGAIN to go on, or its result at once
 * (PT_EINVAL for what cannot be; PT_OK for nothing asked). */
static inline int pt__reader_begin(struct pt_reader *r, int kind, size_t want) {
    r->want = want;
    r->pos = r->start;
    r->len = 0;
    if (r->start == r->end) /* empty: from the front */
        r->start = r->end = r->pos = 0;
    if (kind == PT__RD_EXACTLY && want > r->cap)
        return PT_EINVAL;
    if (kind != PT__RD_UNTIL && want == 0)
        return PT_OK;
    return PT__AGAIN;
}

#define PT__READER_RUN(r, kind, want, timeout)                                                     \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        pt__gen->value.i = pt__reader_begin((r), (kind), (want));                                  \
        if (pt__gen->value.i == PT__AGAIN)                                                         \
            PT__SOCK_RUN((r)->sock, &(r)->sock->rd, (timeout), 0, PT_READABLE,                     \
                         pt__reader_step((r), (kind)));                                            \
    } while (0)

#define PT_READER_READ(r, n, timeout) PT__READER_RUN((r), PT__RD_SOME, (n), (timeout))
#define PT_READER_READ_EXACTLY(r, n, timeout) PT__READER_RUN((r), PT__RD_EXACTLY, (n), (timeout))
#define PT_READER_READ_UNTIL(r, delim, timeout)                                                    \
    PT__READER_RUN((r), PT__RD_UNTIL, (size_t)(unsigned char)(delim), (timeout))
#define PT_READER_READ_LINE(r, timeout) PT_READER_READ_UNTIL((r), '\n', (timeout))

/* ---- writer ---------------------------------------------------------------- */

struct pt_writer {
    /* What a write reads comes first (one cache line on a 64-bit host): a
     * server with many connections pays a cache miss per line touched. */
    struct pt_sock *sock; /* NULL before the first open */
    char *buf;
    size_t start, end; /* the bytes buffered: buf[start..end) */
    size_t high;
    int error;             /* what ended the sending; PT_OK while it goes on */
    unsigned char closing; /* PT__W_*: writes are refused unless PT__W_OPEN */
    struct pt_loop *loop;
    size_t cap, low;
    struct pt__wlist more;      /* the sending task, while there is nothing to send */
    struct pt__wlist listeners; /* PT_WRITER_DRAIN and PT_WRITER_CLOSE */
    struct pt_task task;        /* the task that sends */
};
enum {
    PT__W_OPEN = 0,
    PT__W_CLOSING = 1, /* PT_WRITER_CLOSE: send the rest, then stop */
    PT__W_STOPPED = 2  /* aborted, or the sending task has ended */
};

static inline size_t pt_writer_buffered(const struct pt_writer *w) {
    return w->end - w->start;
}

static inline int pt_writer_limits(struct pt_writer *w, size_t high, size_t low) {
    if (low > high || high > w->cap)
        return PT_EINVAL;
    w->high = high;
    w->low = low;
    return PT_OK;
}

/* Internal: wake every task on q (each looks again when it runs). */
static inline void pt__writer_wake(struct pt_loop *l, struct pt__wlist *q) {
    while (pt__waitq_wake_one(l, &q->q))
        ;
}

/* Internal: what a drain waits for: few enough bytes, or no more sending. */
static inline int pt__writer_drained(const struct pt_writer *w) {
    return pt_writer_buffered(w) <= w->low || w->error != PT_OK || pt_task_done(&w->task);
}

/* Internal: the sending ended with `error` (not PT_OK): the bytes left
 * are dropped, the listeners told, and the sending task, if it waits for
 * something to send, ends. */
static inline int pt__writer_fail(struct pt_writer *w, int error) {
    w->error = error;
    w->start = w->end = 0;
    pt__writer_wake(w->loop, &w->listeners);
    pt__writer_wake(w->loop, &w->more);
    return error;
}

/* Internal: the sending task's step: send what is buffered (appended
 * meanwhile too) until none is left. */
static inline int pt__writer_step(struct pt_writer *w) {
    int rc = pt__sock_send(w->sock, w->buf, w->end, &w->start);
    if (w->listeners.q.head && pt__writer_drained(w))
        pt__writer_wake(w->loop, &w->listeners);
    return rc;
}

static PT_THREAD(pt__writer_run(struct pt_loop *loop, struct pt_task *task)) {
    struct pt_writer *w =
        (struct pt_writer *)(void *)((char *)task - offsetof(struct pt_writer, task));
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        if (w->error != PT_OK) /* (a write that tried the socket at once saw it) */
            break;
        if (w->start == w->end) { /* all sent */
            w->start = w->end = 0;
            if (w->closing)
                break;
            PT__WAIT_UNTIL_TRUE(w->start != w->end || w->closing || w->error, &w->more, PT_FOREVER);
            continue;
        }
        PT__SOCK_RUN(w->sock, &w->sock->wr, PT_FOREVER, 0, PT_WRITABLE, pt__writer_step(w));
        if (PT_WAIT_RESULT() != PT_OK) {
            (void)pt__writer_fail(w, PT_WAIT_RESULT());
            break;
        }
    }
    if (w->closing == PT__W_CLOSING && w->error == PT_OK && w->sock->fd >= 0)
        (void)pt_sock_shutdown(w->sock);
    PT_TASK_CLEANUP(); /* (also when aborted, or when the loop ends) */
    w->closing = PT__W_STOPPED;
    w->start = w->end = 0;
    pt__writer_wake(loop, &w->listeners);
    PT_TASK_END();
}

/*
 * Start w, a writer of socket s with buffer buf[0..cap): its sending task
 * is spawned (in the background: it does not keep pt_loop_run going).
 * w's memory must be zeroed before its first open (unlike a task's): the
 * open reads the state of w's sending task to refuse a writer whose task
 * is still running, with PT_EBUSY (abort or close it first).
 */
static inline int pt_writer_open(struct pt_loop *l, struct pt_writer *w, struct pt_sock *s,
                                 void *buf, size_t cap) {
    int rc;
    if (w->task.fn && !pt_task_done(&w->task))
        return PT_EBUSY;
    memset(&w->task, 0, sizeof w->task);
    w->loop = l;
    w->sock = s;
    w->buf = (char *)buf;
    w->cap = w->high = cap;
    w->low = cap / 4;
    w->start = w->end = 0;
    w->error = PT_OK;
    w->closing = PT__W_OPEN;
    pt__wlist_init(&w->more, PT__WL_KEEP);
    pt__wlist_init(&w->listeners, PT__WL_KEEP);
    rc = pt_loop_spawn_background(l, &w->task, pt__writer_run);
    return rc;
}

static inline int pt_writer_write(struct pt_writer *w, const void *data, size_t n) {
    const char *p = (const char *)data;
    size_t have = w->end - w->start;
    if (w->error != PT_OK)
        return w->error;
    if (w->closing != PT__W_OPEN || !w->sock) /* (the sending task's end sets closing) */
        return PT_ECLOSED;
    if (have + n > w->high)
        return PT_EFULL;
    if (have == 0 && n > 0 && !(w->sock->wr.flags & PT__S_PAUSE)) {
        size_t sent = 0; /* nothing waits to go first: try the socket now */
        int rc = pt__sock_send(w->sock, p, n, &sent);
        if (rc != PT_OK && rc != PT__AGAIN)
            return pt__writer_fail(w, rc);
        p += sent;
        n -= sent;
        if (n == 0)
            return PT_OK;
    }
    /* To be buffered: only for a sending task that is there. (One the
     * loop's end cancelled before it ever ran did not set closing.) */
    if (pt_task_done(&w->task))
        return PT_ECLOSED;
    if (w->end + n > w->cap) { /* no room at the end: to the front */
        memmove(w->buf, w->buf + w->start, have);
        w->start = 0;
        w->end = have;
    }
    memcpy(w->buf + w->end, p, n);
    w->end += n;
    pt__writer_wake(w->loop, &w->more);
    return PT_OK;
}

/* Internal: a drain's or close's result once its wait has ended. */
static inline int pt__writer_result(const struct pt_writer *w, int waited) {
    if (waited != PT_OK)
        return waited;
    return w->error;
}

#define PT_WRITER_DRAIN(w, timeout)                                                                \
    do {                                                                                           \
        PT__WAIT_UNTIL_TRUE(pt__writer_drained(w), &(w)->listeners, (timeout));                    \
        pt__gen->value.i = pt__writer_result((w), (int)pt__gen->value.i);                          \
    } while (0)

/*
 * Internal: park t until w's sending task has ended (nonzero: parked; 0:
 * it has). On the listeners, which its cleanup wakes; but a task
 * cancelled before it ever ran ends at its turn without running its
 * cleanup: then t goes once around the loop (a zero sleep), behind it.
 */
static inline int pt__writer_end_wait(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                      struct pt_writer *w) {
    int never_ran = pt__gen_life(w->task.gen.state) == PT__GEN_NEW;
    if (pt_task_done(&w->task))
        return 0;
    if (!pt__park(l, t, g, never_ran ? 0 : PT_FOREVER, never_ran ? PT__WAIT_NONE : PT__WAIT_LIST,
                  never_ran ? NULL : &w->listeners.q))
        return 0;
    if (!never_ran)
        pt__waitq_push(&w->listeners.q, t);
    return 1;
}

/* Internal: PT_WRITER_ABORT's start: drop what is buffered, refuse writes,
 * cancel the sending task; nonzero if it is to be waited for. (With
 * PT_CONFIG_DEBUG, another loop's writer is left as it is: PT_EINVAL.) */
static inline int pt__writer_abort_begin(struct pt_loop *l, struct pt_gen *g, struct pt_writer *w) {
    g->value.i = PT_OK;
#if PT_CONFIG_DEBUG
    if (w->task.loop != l) {
        g->value.i = PT_EINVAL;
        return 0;
    }
#endif
    w->start = w->end = 0;
    w->closing = PT__W_STOPPED;
    return pt_task_cancel(l, &w->task) == PT_OK;
}

#define PT_WRITER_ABORT(w)                                                                         \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        if (pt__writer_abort_begin(pt__loop, pt__gen, (w)))                                        \
            while (pt__writer_end_wait(pt__loop, pt__task, pt__gen, (w)))                          \
                PT__PARKED_HERE();                                                                 \
    } while (0)

/* Internal: PT_WRITER_CLOSE's start: no more writes; the sending task
 * sends the rest, then ends. */
static inline void pt__writer_close_begin(struct pt_loop *l, struct pt_writer *w) {
    if (w->closing == PT__W_OPEN)
        w->closing = PT__W_CLOSING;
    pt__writer_wake(l, &w->more);
}

/*
 * Internal: PT_WRITER_CLOSE's wait, one resume point: park on the
 * listeners until the sending task has ended (nonzero: parked), `left`
 * ticks at most (a retrying wait: its first deadline is kept as the
 * timer, pt__retry_left). At the deadline the rest is dropped
 * (PT_ETIMEDOUT) and the task cancelled; the close waits on for it to
 * end, without a deadline.
 */
static inline int pt__writer_close_wait(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                        struct pt_writer *w, pt_time_t left) {
    if (pt_task_done(&w->task))
        return 0;
    if (w->error == PT_OK && left == 0) {
        w->error = PT_ETIMEDOUT;
        w->start = w->end = 0;
        (void)pt_task_cancel(l, &w->task);
    }
    if (w->error != PT_OK) /* timed out, or the sending failed: it ends */
        return pt__writer_end_wait(l, t, g, w);
    if (!pt__park(l, t, g, left, PT__WAIT_RETRY, &w->listeners.q)) {
        if (w->error == PT_OK) /* (timers full) */
            w->error = (int)g->value.i;
        (void)pt_task_cancel(l, &w->task);
        return 0;
    }
    pt__waitq_push(&w->listeners.q, t);
    return 1;
}

#define PT_WRITER_CLOSE(w, timeout)                                                                \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        pt__writer_close_begin(pt__loop, (w));                                                     \
        if (pt__writer_close_wait(pt__loop, pt__task, pt__gen, (w), (timeout)))                    \
            do                                                                                     \
                PT__PARKED_HERE();                                                                 \
            while (pt__writer_close_wait(pt__loop, pt__task, pt__gen, (w),                         \
                                         pt__retry_left(pt__loop, pt__task, (timeout))));          \
        pt__gen->value.i = (w)->error;                                                             \
    } while (0)

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_STREAM_H */
