/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/uv_delay_client.c - the libuv client of workload W7 (concurrent
 * delayed requests, bench/WORKLOADS.md), anchor=libuv.
 *
 *   uv_delay_client <port>
 *
 * Runs against a fresh bench/delay_server on 127.0.0.1:<port> the phases
 * W7.serial10 (10 requests one after another), W7.conc10 (10 at once) and
 * W7.conc1000 (1,000 at once), and prints total_s and overhead_ms of each.
 * A request is: uv_tcp_connect, uv_write of `request`, uv_read_start until
 * exactly the 8 bytes `response` are in, uv_close. Each request is one
 * malloc'ed struct (handle + connect and write requests + read buffer),
 * allocated when the request starts and freed in its close callback, as
 * libuv users do; the timed region of a phase runs from before its first
 * connect to the close callback of its last request. A wrong or short
 * response prints INVALID and exits 1; a phase that takes over 60 s, or a
 * failed connect, exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "bench_common.h"
#include "net_common.h"

#define PHASE_LIMIT_MS 60000

struct request {
    uv_tcp_t tcp; /* first member: the callbacks' handle is the request */
    uv_connect_t connect;
    uv_write_t write;
    char buf[2 * NET_RESPONSE_LEN]; /* room for a byte too many, to see it */
    size_t got;
};

static uv_loop_t *g_loop;
static uv_timer_t g_watchdog;
static struct sockaddr_in g_addr;
static const struct net_phase *g_phase;
static unsigned g_done;
static uint64_t g_t_end;

static void fail(const char *what, int rc) {
    fprintf(stderr, "uv_delay_client: %s %s: %s\n", g_phase ? g_phase->id : "", what,
            uv_strerror(rc));
    exit(1);
}

static void invalid(const char *what) {
    printf("INVALID anchor=%s workload=%s %s\n", bench_anchor, g_phase->id, what);
    fflush(stdout);
    exit(1);
}

static void start_request(void);

static void on_closed(uv_handle_t *h) {
    free(h);
    if (++g_done == g_phase->count)
        g_t_end = bench_now_ns();
    else if (!g_phase->concurrent)
        start_request();
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    struct request *r = (struct request *)h;
    (void)suggested;
    *buf = uv_buf_init(r->buf + r->got, (unsigned)(sizeof r->buf - r->got));
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    struct request *r = (struct request *)s;
    (void)buf;
    if (nread == UV_EOF)
        invalid("connection closed before the 8 bytes of the response");
    if (nread < 0)
        fail("read", (int)nread);
    r->got += (size_t)nread;
    if (r->got > NET_RESPONSE_LEN)
        invalid("more than the 8 bytes of the response");
    if (r->got < NET_RESPONSE_LEN)
        return;
    if (memcmp(r->buf, NET_RESPONSE, NET_RESPONSE_LEN) != 0)
        invalid("response differs from `response`");
    uv_read_stop(s);
    uv_close((uv_handle_t *)s, on_closed);
}

static void on_written(uv_write_t *w, int status) {
    if (status < 0)
        fail("write", status);
    (void)w;
}

static void on_connect(uv_connect_t *c, int status) {
    struct request *r = (struct request *)c->handle;
    uv_buf_t req = uv_buf_init(NET_REQUEST, NET_REQUEST_LEN);
    int rc;
    if (status < 0)
        fail("connect", status);
    if ((rc = uv_write(&r->write, c->handle, &req, 1, on_written)) < 0)
        fail("uv_write", rc);
    if ((rc = uv_read_start(c->handle, on_alloc, on_read)) < 0)
        fail("uv_read_start", rc);
}

static void start_request(void) {
    struct request *r = malloc(sizeof *r);
    int rc;
    if (!r) {
        fprintf(stderr, "uv_delay_client: out of memory\n");
        exit(1);
    }
    r->got = 0;
    if ((rc = uv_tcp_init(g_loop, &r->tcp)) < 0)
        fail("uv_tcp_init", rc);
    rc = uv_tcp_connect(&r->connect, &r->tcp, (const struct sockaddr *)&g_addr, on_connect);
    if (rc < 0)
        fail("uv_tcp_connect", rc);
}

static void on_watchdog(uv_timer_t *t) {
    (void)t;
    fprintf(stderr, "uv_delay_client: %s: %u of %u requests done after %d s; giving up\n",
            g_phase->id, g_done, g_phase->count, PHASE_LIMIT_MS / 1000);
    exit(1);
}

int main(int argc, char **argv) {
    char *end;
    long port;
    unsigned p, i;

    bench_anchor = "libuv";
    if (argc != 2) {
        fprintf(stderr, "usage: %s <port>\n", argv[0]);
        return 2;
    }
    port = strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || port < 1 || port > 65535) {
        fprintf(stderr, "uv_delay_client: bad port '%s'\n", argv[1]);
        return 2;
    }
    net_raise_nofile();
    g_loop = uv_default_loop();
    uv_ip4_addr("127.0.0.1", (int)port, &g_addr);
    /* The bound on a phase; unref'ed, so that it keeps no uv_run alive. */
    uv_timer_init(g_loop, &g_watchdog);
    uv_unref((uv_handle_t *)&g_watchdog);

    for (p = 0; p < 3; p++) {
        uint64_t t0;
        double total_s;
        g_phase = &net_phases[p];
        g_done = 0;
        uv_timer_start(&g_watchdog, on_watchdog, PHASE_LIMIT_MS, 0);
        t0 = bench_now_ns();
        for (i = 0; i < (g_phase->concurrent ? g_phase->count : 1); i++)
            start_request();
        uv_run(g_loop, UV_RUN_DEFAULT);
        uv_timer_stop(&g_watchdog);
        bench_check(g_phase->id, "requests completed", g_done, g_phase->count);
        total_s = (double)(g_t_end - t0) / 1e9;
        bench_result(g_phase->id, "total_s", total_s, "s");
        bench_result(g_phase->id, "overhead_ms",
                     total_s * 1000.0 - (double)net_phase_delay_ms(g_phase), "ms");
    }
    bench_note("W7", "request = malloc'ed struct (uv_tcp_t + connect/write requests), "
                     "freed in its close callback");
    bench_note("W7", "cc=\"" BENCH_CC "\"");
    uv_close((uv_handle_t *)&g_watchdog, NULL);
    uv_run(g_loop, UV_RUN_DEFAULT);
    uv_loop_close(g_loop);
    return 0;
}
