/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/uv_echo_server.c - the libuv server of workload W6 (TCP echo
 * ping-pong, bench/WORKLOADS.md), anchor=libuv: one thread, one
 * uv_loop_t, written as libuv's own examples write an echo server.
 *
 *   uv_echo_server <port> <max seconds>
 *
 * Listens on 127.0.0.1:<port> (backlog 4096), prints a READY line, sets
 * TCP_NODELAY on every accepted connection and echoes every byte as soon as
 * it is read: uv_read_start, then uv_write of what was read. Exits at the
 * end of its lifetime (a uv_timer_t) or on SIGTERM / SIGINT (uv_signal_t).
 * Driven by bench/echo_client; bench/run_net.py runs the procedure.
 *
 * Memory: a reuse scheme, as uvloop and Node.js do on libuv. Reads go into
 * one loop-wide 64 KiB buffer (the alloc callback hands it out, and the
 * read callback is done with it before libuv reads again: one thread), and
 * the echo is uv_try_write of what was read, straight from that buffer.
 * Only what the socket cannot take at once (rare here: 64-byte messages) is
 * copied into a malloc'ed write request for uv_write, freed in its write
 * callback; while one is queued, uv_try_write returns UV_EAGAIN, so the
 * order of the bytes is kept. The connection handles are malloc'ed per
 * accept and freed in their close callback.
 *
 * Why not the per-read malloc of libuv's test/echo-server.c and the
 * uvbook (a 64 KiB buffer per read, freed in the write callback): with
 * glibc's default malloc tuning that churns the heap top (trim and regrow),
 * and the page faults and brk calls it costs, not libuv, would dominate the
 * figures (about 30 % fewer round trips per second at C=1000, measured).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "bench_common.h"
#include "net_common.h"

struct write_req {
    uv_write_t req; /* first member: the callback's request is the struct */
    uv_buf_t buf;
};

static uv_loop_t *g_loop;
static uv_tcp_t g_server;
static uv_timer_t g_lifetime;
static uv_signal_t g_sigterm, g_sigint;

static void check(int rc, const char *what) {
    if (rc < 0) {
        fprintf(stderr, "uv_echo_server: %s: %s\n", what, uv_strerror(rc));
        exit(1);
    }
}

static void free_handle(uv_handle_t *h) {
    free(h);
}

static char g_readbuf[65536];

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)h;
    (void)suggested;
    *buf = uv_buf_init(g_readbuf, sizeof g_readbuf);
}

static void on_written(uv_write_t *req, int status) {
    (void)status; /* an error here shows up as a read error on the stream */
    free(req);
}

static void on_read(uv_stream_t *client, ssize_t nread, const uv_buf_t *buf) {
    if (nread > 0) {
        uv_buf_t data = uv_buf_init(buf->base, (unsigned)nread);
        int sent = uv_try_write(client, &data, 1);
        if (sent == nread)
            return;
        if (sent < 0 && sent != UV_EAGAIN)
            nread = sent; /* the connection is broken: close it below */
        else {
            /* The rest, queued: the request and a copy of the bytes in one
             * block, as the read buffer is reused at the next read. */
            size_t done = sent > 0 ? (size_t)sent : 0, left = (size_t)nread - done;
            struct write_req *w = malloc(sizeof *w + left);
            if (!w) {
                fprintf(stderr, "uv_echo_server: out of memory\n");
                exit(1);
            }
            memcpy(w + 1, buf->base + done, left);
            w->buf = uv_buf_init((char *)(w + 1), (unsigned)left);
            if (uv_write(&w->req, client, &w->buf, 1, on_written) == 0)
                return;
            free(w);
            nread = UV_EPIPE;
        }
    }
    if (nread < 0 && !uv_is_closing((uv_handle_t *)client))
        uv_close((uv_handle_t *)client, free_handle); /* EOF or error */
}

static void on_connection(uv_stream_t *server, int status) {
    uv_tcp_t *client;
    if (status < 0) {
        fprintf(stderr, "uv_echo_server: accept: %s\n", uv_strerror(status));
        return;
    }
    client = malloc(sizeof *client);
    if (!client) {
        fprintf(stderr, "uv_echo_server: out of memory\n");
        exit(1);
    }
    uv_tcp_init(g_loop, client);
    if (uv_accept(server, (uv_stream_t *)client) != 0) {
        uv_close((uv_handle_t *)client, free_handle);
        return;
    }
    uv_tcp_nodelay(client, 1);
    uv_read_start((uv_stream_t *)client, on_alloc, on_read);
}

static void close_one(uv_handle_t *h, void *arg) {
    (void)arg;
    if (uv_is_closing(h))
        return;
    /* The loop's own handles are static; the connections were malloc'ed. */
    if (h->type == UV_TCP && h != (uv_handle_t *)&g_server)
        uv_close(h, free_handle);
    else
        uv_close(h, NULL);
}

static void stop(void) {
    uv_walk(g_loop, close_one, NULL);
}

static void on_lifetime(uv_timer_t *t) {
    (void)t;
    stop();
}

static void on_signal(uv_signal_t *s, int signum) {
    (void)s;
    (void)signum;
    stop();
}

int main(int argc, char **argv) {
    struct sockaddr_in addr;
    char *e1, *e2;
    long port;
    double lifetime;

    if (argc != 3) {
        fprintf(stderr, "usage: %s <port> <max seconds>\n", argv[0]);
        return 2;
    }
    port = strtol(argv[1], &e1, 10);
    lifetime = strtod(argv[2], &e2);
    if (*e1 || e1 == argv[1] || port < 1 || port > 65535 || *e2 || e2 == argv[2] ||
        !(lifetime > 0 && lifetime <= 86400)) {
        fprintf(stderr, "uv_echo_server: bad arguments\n");
        return 2;
    }
    net_raise_nofile();
    g_loop = uv_default_loop();

    check(uv_tcp_init(g_loop, &g_server), "uv_tcp_init");
    check(uv_ip4_addr("127.0.0.1", (int)port, &addr), "uv_ip4_addr");
    check(uv_tcp_bind(&g_server, (const struct sockaddr *)&addr, 0), "bind");
    check(uv_listen((uv_stream_t *)&g_server, 4096, on_connection), "listen");
    check(uv_timer_init(g_loop, &g_lifetime), "uv_timer_init");
    check(uv_timer_start(&g_lifetime, on_lifetime, (uint64_t)(lifetime * 1000.0), 0),
          "uv_timer_start");
    /* A client that resets a connection with replies unsent must not kill
     * the server: the write then fails with EPIPE instead. */
    signal(SIGPIPE, SIG_IGN);
    check(uv_signal_init(g_loop, &g_sigterm), "uv_signal_init");
    check(uv_signal_start(&g_sigterm, on_signal, SIGTERM), "uv_signal_start");
    check(uv_signal_init(g_loop, &g_sigint), "uv_signal_init");
    check(uv_signal_start(&g_sigint, on_signal, SIGINT), "uv_signal_start");

    printf("NOTE anchor=libuv workload=W6 reads into one loop-wide buffer, echo = uv_try_write, "
           "malloc'ed uv_write only for what the socket does not take at once; libuv %s\n",
           uv_version_string());
    printf("NOTE anchor=libuv workload=W6 cc=\"%s\"\n", BENCH_CC);
    printf("READY uv_echo_server 127.0.0.1:%ld libuv %s\n", port, uv_version_string());
    fflush(stdout);
    uv_run(g_loop, UV_RUN_DEFAULT);
    uv_loop_close(g_loop);
    return 0;
}
