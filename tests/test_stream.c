/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_stream.c - the contract of the buffered streams (loop/stream.h):
 * a reader that splits lines in its own buffer, a writer whose write never
 * waits, with water marks, drain, close and abort, and the two at once on
 * one socket. Over a Unix-domain socket pair; on the virtual clock. Built
 * once per readiness back end; each case isolated (tests/cases.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "loop/loop.h"

#include "cases.h"
#include "loop_util.h"

#define NOT_YET 99
#define BOUND 1000

static void run_once(void) {
    pt_loop_run_once(&lp, 1);
}

#define RUN_UNTIL(cond, bound)                                                                     \
    do {                                                                                           \
        long run_n_ = 0;                                                                           \
        while (!(cond) && run_n_++ < (long)(bound))                                                \
            run_once();                                                                            \
        CHECK(cond);                                                                               \
    } while (0)

/* The pair: `a` is the side under test, `b` the peer (used directly). */
static struct pt_sock a, b;
static union pt_io_slot io_table[PT_IO_SLOTS(1024)];

static void pair_open(void) {
    int sv[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    CHECK_EQ_INT(pt_sock_adopt(&a, sv[0]), PT_OK);
    CHECK_EQ_INT(pt_sock_adopt(&b, sv[1]), PT_OK);
}

static void pair_close(void) {
    pt_sock_close(&a);
    pt_sock_close(&b);
}

/* The peer's own calls are patient with what the fault shim (tests/fault/)
 * injects into every socket call: EINTR, a spurious EAGAIN (tried again a
 * few times: a real one stays), a short write. */
static ssize_t peer_recv(void *buf, size_t cap) {
    ssize_t r = -1;
    int tries;
    for (tries = 0; tries < 16; tries++) {
        r = recv(b.fd, buf, cap, MSG_DONTWAIT);
        if (r >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
            break;
    }
    return r;
}

static void peer_send_n(const char *p, size_t n) {
    size_t done = 0;
    int tries = 0;
    while (done < n && tries++ < 1000) {
        ssize_t r = send(b.fd, p + done, n - done, 0);
        if (r > 0)
            done += (size_t)r;
        else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            break;
    }
    CHECK_EQ_INT(done, n);
}

/* The peer sends s (all of it: small). */
static void peer_send(const char *s) {
    peer_send_n(s, strlen(s));
}

/* Set a's send buffer small, and b's receive buffer, so that a writer
 * fills them soon. */
static void small_buffers(void) {
    int n = 4096;
    CHECK_EQ_INT(setsockopt(a.fd, SOL_SOCKET, SO_SNDBUF, &n, sizeof n), 0);
    CHECK_EQ_INT(setsockopt(b.fd, SOL_SOCKET, SO_RCVBUF, &n, sizeof n), 0);
}

/* What the peer has received so far (non-blocking), appended to got. */
static char got[1 << 20];
static size_t ngot;
static void peer_drain(void) {
    for (;;) {
        ssize_t r = peer_recv(got + ngot, sizeof got - ngot);
        if (r <= 0)
            break;
        ngot += (size_t)r;
    }
}

/* ---- a reader's operation in a task of its own ---------------------------- */

enum { R_READ, R_EXACTLY, R_UNTIL, R_LINE };

struct rop {
    struct pt_task task;
    struct pt_reader *r;
    int kind;
    size_t n;
    pt_time_t timeout;
    int result;
    char view[256]; /* a copy of the result's bytes */
    size_t len;
    long waits; /* times it parked */
};

static PT_THREAD(rop_body(struct pt_loop *loop, struct pt_task *task)) {
    struct rop *o = (struct rop *)task;
    PT_TASK_BEGIN(loop, task);
    if (o->kind == R_READ)
        PT_READER_READ(o->r, o->n, o->timeout);
    else if (o->kind == R_EXACTLY)
        PT_READER_READ_EXACTLY(o->r, o->n, o->timeout);
    else if (o->kind == R_UNTIL)
        PT_READER_READ_UNTIL(o->r, (int)o->n, o->timeout);
    else
        PT_READER_READ_LINE(o->r, o->timeout);
    o->result = PT_WAIT_RESULT();
    o->len = o->r->len;
    memcpy(o->view, pt_reader_data(o->r), o->len < sizeof o->view ? o->len : sizeof o->view);
    o->view[o->len < sizeof o->view ? o->len : sizeof o->view - 1] = '\0';
    PT_TASK_END();
}

static struct rop rop;
static struct pt_reader reader;
static char rbuf[16];

/* Run one reader operation to its end; its result (and rop). */
static int rdo(int kind, size_t n, pt_time_t timeout) {
    memset(&rop, 0, sizeof rop);
    rop.r = &reader;
    rop.kind = kind;
    rop.n = n;
    rop.timeout = timeout;
    rop.result = NOT_YET;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &rop.task, rop_body), PT_OK);
    while (!pt_task_done(&rop.task) && rop.waits < BOUND) {
        run_once();
        if (pt__parked(&rop.task))
            rop.waits++;
    }
    CHECK(pt_task_done(&rop.task));
    return rop.result;
}

static void reader_open(size_t cap) {
    pair_open();
    pt_reader_init(&reader, &a, rbuf, cap);
}

/* ---- reader ---------------------------------------------------------------- */

/* Three lines in one segment: one recv, then the next two from the buffer
 * with no wait and no system call. */
static void test_reader_splits_lines_in_its_buffer(void) {
    reader_open(sizeof rbuf);
    peer_send("a\nbb\nccc\n");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "a\n");
    CHECK_EQ_INT(rop.waits, 1); /* the first read waited for the socket once */
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "bb\n");
    CHECK_EQ_INT(rop.waits, 0);
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "ccc\n");
    CHECK_EQ_INT(rop.waits, 0);
    CHECK_EQ_INT(pt_reader_buffered(&reader), 0);
    pair_close();
}

/* A line in two segments: it waits for the rest. */
static void test_reader_line_waits_for_its_end(void) {
    reader_open(sizeof rbuf);
    peer_send("hel");
    memset(&rop, 0, sizeof rop);
    rop.r = &reader;
    rop.kind = R_LINE;
    rop.timeout = PT_MS(5000);
    rop.result = NOT_YET;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &rop.task, rop_body), PT_OK);
    RUN_UNTIL(pt_reader_buffered(&reader) == 3 && pt__parked(&rop.task), 10);
    peer_send("lo\nrest");
    RUN_UNTIL(pt_task_done(&rop.task), 10);
    CHECK_EQ_INT(rop.result, PT_OK);
    CHECK_EQ_STR(rop.view, "hello\n");
    CHECK_EQ_INT(pt_reader_buffered(&reader), 4); /* "rest" waits for the next read */
    pair_close();
}

/* A line longer than the buffer: PT_EFULL with the buffer-full, consumed. */
static void test_reader_line_longer_than_the_buffer_is_efull(void) {
    reader_open(8);
    peer_send("0123456789\n");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_EFULL);
    CHECK_EQ_STR(rop.view, "01234567");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "89\n");
    pair_close();
}

/* Any delimiter. */
static void test_reader_reads_until_a_delimiter(void) {
    reader_open(sizeof rbuf);
    peer_send("key=value;");
    CHECK_EQ_INT(rdo(R_UNTIL, '=', PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "key=");
    CHECK_EQ_INT(rdo(R_UNTIL, ';', PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "value;");
    pair_close();
}

/* Exactly n across segments; what is beyond stays buffered. */
static void test_reader_reads_exactly_n_across_segments(void) {
    reader_open(sizeof rbuf);
    peer_send("abc");
    memset(&rop, 0, sizeof rop);
    rop.r = &reader;
    rop.kind = R_EXACTLY;
    rop.n = 6;
    rop.timeout = PT_MS(5000);
    rop.result = NOT_YET;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &rop.task, rop_body), PT_OK);
    RUN_UNTIL(pt_reader_buffered(&reader) == 3 && pt__parked(&rop.task), 10);
    peer_send("defgh");
    RUN_UNTIL(pt_task_done(&rop.task), 10);
    CHECK_EQ_INT(rop.result, PT_OK);
    CHECK_EQ_STR(rop.view, "abcdef");
    CHECK_EQ_INT(pt_reader_buffered(&reader), 2);
    pair_close();
}

/* More than the buffer holds cannot be read exactly. */
static void test_reader_exactly_more_than_its_buffer_is_einval(void) {
    reader_open(8);
    CHECK_EQ_INT(rdo(R_EXACTLY, 9, PT_FOREVER), PT_EINVAL);
    CHECK_EQ_INT(rop.waits, 0);
    pair_close();
}

/* read(n) hands out what is buffered, up to n, without a system call. */
static void test_reader_read_gives_what_is_buffered_up_to_n(void) {
    reader_open(sizeof rbuf);
    peer_send("abcdefgh");
    CHECK_EQ_INT(rdo(R_READ, 3, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "abc");
    CHECK_EQ_INT(rdo(R_READ, 100, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "defgh");
    CHECK_EQ_INT(rop.waits, 0);
    CHECK_EQ_INT(rdo(R_READ, 0, PT_FOREVER), PT_OK); /* nothing asked: at once */
    CHECK_EQ_INT(rop.len, 0);
    CHECK_EQ_INT(rop.waits, 0);
    pair_close();
}

/* End of file in the middle of a line: PT_ECLOSED with what came. */
static void test_reader_end_of_file_mid_line_is_eclosed_with_the_partial(void) {
    reader_open(sizeof rbuf);
    peer_send("no end");
    CHECK_EQ_INT(pt_sock_shutdown(&b), PT_OK);
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_ECLOSED);
    CHECK_EQ_STR(rop.view, "no end");
    CHECK_EQ_INT(rdo(R_READ, 4, PT_FOREVER), PT_ECLOSED);
    CHECK_EQ_INT(rop.len, 0);
    pair_close();
}

/* A timeout consumes nothing: the next read gets the bytes. */
static void test_reader_timeout_keeps_what_came(void) {
    reader_open(sizeof rbuf);
    peer_send("par");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_MS(50)), PT_ETIMEDOUT);
    CHECK_EQ_INT(pt_reader_buffered(&reader), 3);
    peer_send("tial\n");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_MS(50)), PT_OK);
    CHECK_EQ_STR(rop.view, "partial\n");
    pair_close();
}

/* Lines that wrap around the buffer's end are moved to the front. */
static void test_reader_moves_a_partial_line_to_the_front(void) {
    reader_open(8);
    peer_send("abcde\nfg");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "abcde\n");
    peer_send("hijk\n");
    CHECK_EQ_INT(rdo(R_LINE, 0, PT_FOREVER), PT_OK);
    CHECK_EQ_STR(rop.view, "fghijk\n");
    pair_close();
}

/* ---- writer ---------------------------------------------------------------- */

static struct pt_writer writer;
static char wbuf[64 * 1024];
static char pattern_buf[256 * 1024];

static void writer_open(size_t cap) {
    pair_open();
    small_buffers();
    CHECK_EQ_INT(pt_writer_open(&lp, &writer, &a, wbuf, cap), PT_OK);
    ngot = 0;
}

/* A writer task's operation: drain, close or abort. */
enum { W_DRAIN, W_CLOSE, W_ABORT };
struct wop {
    struct pt_task task;
    int kind;
    pt_time_t timeout;
    int result;
};

static PT_THREAD(wop_body(struct pt_loop *loop, struct pt_task *task)) {
    struct wop *o = (struct wop *)task;
    PT_TASK_BEGIN(loop, task);
    if (o->kind == W_DRAIN)
        PT_WRITER_DRAIN(&writer, o->timeout);
    else if (o->kind == W_CLOSE)
        PT_WRITER_CLOSE(&writer, o->timeout);
    else
        PT_WRITER_ABORT(&writer);
    o->result = o->kind == W_ABORT ? PT_OK : PT_WAIT_RESULT();
    PT_TASK_END();
}

static struct wop wop;
static void wop_start(int kind, pt_time_t timeout) {
    memset(&wop, 0, sizeof wop);
    wop.kind = kind;
    wop.timeout = timeout;
    wop.result = NOT_YET;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &wop.task, wop_body), PT_OK);
}

/* Tear the writer down (an abort, from a task) and close the pair. */
static void writer_done(void) {
    wop_start(W_ABORT, 0);
    RUN_UNTIL(pt_task_done(&wop.task) && pt_task_done(&writer.task), 10);
    pair_close();
}

static void fill_pattern(void) {
    size_t i;
    for (i = 0; i < sizeof pattern_buf; i++)
        pattern_buf[i] = (char)('a' + i % 23);
}

/* A write takes everything at once, never waits, and the socket takes it
 * in its own time, in order. */
static void test_writer_write_never_waits_and_everything_arrives(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 40000), PT_OK);
    CHECK(pt_writer_buffered(&writer) > 0); /* more than the socket took */
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf + 40000, 20000), PT_OK);
    RUN_UNTIL((peer_drain(), ngot == 60000), 1000);
    CHECK(memcmp(got, pattern_buf, 60000) == 0);
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    writer_done();
}

/* A write into an empty buffer that the socket takes whole is sent at
 * once: nothing buffered, no wait. */
static void test_writer_write_into_an_empty_buffer_is_sent_at_once(void) {
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, "now\n", 4), PT_OK);
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    peer_drain();
    CHECK_EQ_INT(ngot, 4);
    writer_done();
}

/* Past the high-water mark a write is refused whole: PT_EFULL. */
static void test_writer_write_past_the_high_water_mark_is_efull(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_limits(&writer, 30000, 1000), PT_OK);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 25000), PT_OK);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, sizeof wbuf), PT_EFULL);
    CHECK(pt_writer_buffered(&writer) <= 25000);
    CHECK_EQ_INT(pt_writer_limits(&writer, sizeof wbuf + 1, 0), PT_EINVAL);
    CHECK_EQ_INT(pt_writer_limits(&writer, 100, 200), PT_EINVAL);
    writer_done();
}

/* drain waits until at most `low` bytes are buffered. */
static void test_writer_drain_waits_for_the_low_water_mark(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_limits(&writer, sizeof wbuf, 1000), PT_OK);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_OK);
    wop_start(W_DRAIN, PT_FOREVER);
    run_once();
    run_once();
    CHECK(!pt_task_done(&wop.task)); /* the peer reads nothing yet */
    RUN_UNTIL((peer_drain(), pt_task_done(&wop.task)), 1000);
    CHECK_EQ_INT(wop.result, PT_OK);
    CHECK(pt_writer_buffered(&writer) <= 1000);
    writer_done();
}

/* drain with a timeout and a peer that does not read: PT_ETIMEDOUT. */
static void test_writer_drain_times_out(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_OK);
    wop_start(W_DRAIN, PT_MS(100));
    RUN_UNTIL(pt_task_done(&wop.task), 100);
    CHECK_EQ_INT(wop.result, PT_ETIMEDOUT);
    writer_done();
}

/* close sends what is buffered first, then the peer reads end of file. */
static void test_writer_close_flushes_then_shuts_down(void) {
    char c;
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 50000), PT_OK);
    wop_start(W_CLOSE, PT_MS(5000));
    RUN_UNTIL((peer_drain(), pt_task_done(&wop.task)), 1000);
    CHECK_EQ_INT(wop.result, PT_OK);
    peer_drain();
    CHECK_EQ_INT(ngot, 50000);
    CHECK(memcmp(got, pattern_buf, 50000) == 0);
    CHECK_EQ_INT(peer_recv(&c, 1), 0); /* end of file */
    CHECK(pt_task_done(&writer.task));
    CHECK_EQ_INT(pt_writer_write(&writer, "x", 1), PT_ECLOSED);
    pair_close();
}

/* A close whose flush cannot end in time drops the rest: PT_ETIMEDOUT,
 * and the sending task is stopped. */
static void test_writer_close_that_times_out_drops_the_rest(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_OK);
    wop_start(W_CLOSE, PT_MS(100));
    RUN_UNTIL(pt_task_done(&wop.task), 100);
    CHECK_EQ_INT(wop.result, PT_ETIMEDOUT);
    CHECK(pt_task_done(&writer.task));
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    CHECK_EQ_INT(pt_loop_io_waits(&lp), 0);
    pair_close();
}

/* abort drops what is buffered and stops the sending task; the writer
 * can be opened again. */
static void test_writer_abort_drops_and_the_writer_opens_again(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_OK);
    CHECK_EQ_INT(pt_writer_open(&lp, &writer, &a, wbuf, sizeof wbuf), PT_EBUSY);
    wop_start(W_ABORT, 0);
    RUN_UNTIL(pt_task_done(&wop.task), 10);
    CHECK(pt_task_done(&writer.task));
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    CHECK_EQ_INT(pt_loop_io_waits(&lp), 0);
    CHECK_EQ_INT(pt_writer_open(&lp, &writer, &a, wbuf, sizeof wbuf), PT_OK);
    writer_done();
}

/* Once an abort has begun, writes are refused (PT_ECLOSED), even before
 * the sending task has ended: nothing written then is sent, or lost. */
static void test_writer_write_is_refused_once_an_abort_begins(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_OK);
    wop_start(W_ABORT, 0);
    run_once(); /* the abort cancels the sending task and waits for its end */
    CHECK(!pt_task_done(&wop.task) && !pt_task_done(&writer.task));
    CHECK_EQ_INT(pt_writer_write(&writer, "x", 1), PT_ECLOSED);
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    RUN_UNTIL(pt_task_done(&wop.task), 10);
    CHECK_EQ_INT(pt_writer_write(&writer, "x", 1), PT_ECLOSED);
    pair_close();
}

/* The loop's end cancels the sending task, here before it ever ran (so
 * no cleanup of its own marks the writer): a write that the socket does
 * not take whole is then PT_ECLOSED, never buffered for nobody. */
static void test_writer_write_after_the_loops_end_is_not_buffered(void) {
    fill_pattern();
    writer_open(sizeof wbuf);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&writer.task));
    CHECK_EQ_INT(pt_writer_write(&writer, pattern_buf, 60000), PT_ECLOSED);
    CHECK_EQ_INT(pt_writer_buffered(&writer), 0);
    pair_close();
}

/* A task opens a writer and ends it in the same resume, before its
 * sending task ever ran (which then ends at its turn without a cleanup of
 * its own): the abort, or a close whose deadline has passed, still ends. */
struct open_end {
    struct pt_task task;
    int kind; /* W_ABORT or W_CLOSE */
    int result;
};
static PT_THREAD(open_then_end(struct pt_loop *loop, struct pt_task *task)) {
    struct open_end *o = (struct open_end *)task;
    PT_TASK_BEGIN(loop, task);
    o->result = pt_writer_open(loop, &writer, &a, wbuf, sizeof wbuf);
    if (o->kind == W_ABORT) {
        PT_WRITER_ABORT(&writer);
    } else {
        PT_WRITER_CLOSE(&writer, 0);
        o->result = PT_WAIT_RESULT();
    }
    PT_TASK_END();
}

/* Runs open_then_end (kind) until it ends; its result. The sending task
 * has ended too. */
static int open_and_end(int kind) {
    static struct open_end o;
    pair_open();
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.result = NOT_YET;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &o.task, open_then_end), PT_OK);
    RUN_UNTIL(pt_task_done(&o.task), 10);
    CHECK(pt_task_done(&writer.task));
    pair_close();
    return o.result;
}

static void test_writer_abort_before_its_task_ran_ends(void) {
    CHECK_EQ_INT(open_and_end(W_ABORT), PT_OK);
}

static void test_writer_close_past_its_deadline_before_its_task_ran_ends(void) {
    int rc = open_and_end(W_CLOSE);
    CHECK(rc == PT_OK || rc == PT_ETIMEDOUT);
}

/* A writer never opened (zeroed) refuses writes: PT_ECLOSED. */
static void test_writer_never_opened_refuses_writes(void) {
    struct pt_writer w;
    memset(&w, 0, sizeof w);
    CHECK_EQ_INT(pt_writer_write(&w, "x", 1), PT_ECLOSED);
}

/* A peer gone: the sending ends with the error, and the next write says it. */
static void test_writer_write_after_the_peer_left_reports_the_error(void) {
    int i, rc = PT_OK;
    fill_pattern();
    writer_open(sizeof wbuf);
    pt_sock_close(&b);
    for (i = 0; i < 100 && rc == PT_OK; i++) {
        rc = pt_writer_write(&writer, pattern_buf, 1000);
        run_once();
    }
    CHECK(rc == PT_ECLOSED || rc == PT_ERESET);
    RUN_UNTIL(pt_task_done(&writer.task), 10);
    pt_sock_close(&a);
}

/* ---- both at once ------------------------------------------------------------ */

/* An echo through a reader and a writer on one socket: each line read is
 * written back, while the writer still sends the earlier ones. */
struct echo {
    struct pt_task task;
    int lines;
};

static PT_THREAD(echo_body(struct pt_loop *loop, struct pt_task *task)) {
    struct echo *e = (struct echo *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_READER_READ_LINE(&reader, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        CHECK_EQ_INT(pt_writer_write(&writer, pt_reader_data(&reader), reader.len), PT_OK);
        e->lines++;
    }
    PT_WRITER_CLOSE(&writer, PT_MS(5000));
    PT_TASK_END();
}

static void test_a_reader_and_a_writer_share_one_socket(void) {
    static struct echo e;
    static char line[32];
    int i;
    size_t sent = 0;
    memset(&e, 0, sizeof e);
    pair_open();
    pt_reader_init(&reader, &a, rbuf, sizeof rbuf);
    CHECK_EQ_INT(pt_writer_open(&lp, &writer, &a, wbuf, sizeof wbuf), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &e.task, echo_body), PT_OK);
    ngot = 0;
    for (i = 0; i < 500; i++) {
        int n = snprintf(line, sizeof line, "line %d\n", i);
        peer_send_n(line, (size_t)n);
        sent += (size_t)n;
        run_once();
        peer_drain();
    }
    CHECK_EQ_INT(pt_sock_shutdown(&b), PT_OK);
    RUN_UNTIL((peer_drain(), pt_task_done(&e.task)), 1000);
    peer_drain();
    CHECK_EQ_INT(e.lines, 500);
    CHECK_EQ_INT(ngot, sent);
    CHECK(strncmp(got, "line 0\nline 1\n", 14) == 0);
    pair_close();
}

/* Every case starts on a fresh loop, its virtual clock at 1000. */
static void fresh_loop(void) {
    setup(1000);
    (void)pt_loop_io_table(&lp, io_table, sizeof io_table / sizeof io_table[0]);
}

static void init(void) {
    cases_init(&lp, fresh_loop);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(reader_splits_lines_in_its_buffer)                                                           \
    X(reader_line_waits_for_its_end)                                                               \
    X(reader_line_longer_than_the_buffer_is_efull)                                                 \
    X(reader_reads_until_a_delimiter)                                                              \
    X(reader_reads_exactly_n_across_segments)                                                      \
    X(reader_exactly_more_than_its_buffer_is_einval)                                               \
    X(reader_read_gives_what_is_buffered_up_to_n)                                                  \
    X(reader_end_of_file_mid_line_is_eclosed_with_the_partial)                                     \
    X(reader_timeout_keeps_what_came)                                                              \
    X(reader_moves_a_partial_line_to_the_front)                                                    \
    X(writer_write_never_waits_and_everything_arrives)                                             \
    X(writer_write_into_an_empty_buffer_is_sent_at_once)                                           \
    X(writer_write_past_the_high_water_mark_is_efull)                                              \
    X(writer_drain_waits_for_the_low_water_mark)                                                   \
    X(writer_drain_times_out)                                                                      \
    X(writer_close_flushes_then_shuts_down)                                                        \
    X(writer_close_that_times_out_drops_the_rest)                                                  \
    X(writer_abort_drops_and_the_writer_opens_again)                                               \
    X(writer_write_is_refused_once_an_abort_begins)                                                \
    X(writer_never_opened_refuses_writes)                                                          \
    X(writer_write_after_the_loops_end_is_not_buffered)                                            \
    X(writer_abort_before_its_task_ran_ends)                                                       \
    X(writer_close_past_its_deadline_before_its_task_ran_ends)                                     \
    X(writer_write_after_the_peer_left_reports_the_error)                                          \
    X(a_reader_and_a_writer_share_one_socket)
/* clang-format on */
TEST_MAIN_INIT(TEST_CASES, init)
