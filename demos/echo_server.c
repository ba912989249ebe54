/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/echo_server.c - the echo server of "Castelino" (docs/demos.md, "The
 * articles"), in C: it answers every message with "Got: " and the message,
 * while a countdown task (every 4 ticks, from 6) and a countup task (every
 * tick) keep printing on the same thread. Talk to it with a real client:
 *
 *   build/demos/echo_server &         (listens on 127.0.0.1:3000)
 *   nc 127.0.0.1 3000                  (type lines; each comes back)
 *
 *   echo_server [--port N] [--seconds S] [--idle S] [--tick MS] [--client]
 *               [--timeline] [--trace FILE]
 *     --port N     listen on port N (0: a free port; the first line says which)
 *     --seconds S  stop after S seconds (default 0: run until killed)
 *     --idle S     close a connection that sends nothing for S seconds
 *                  (default 30: a stalled client does not hold its slot)
 *     --tick MS    the countup period (default 1000; countdown every 4 ticks)
 *     --client     also run a client task in this process that talks to the
 *                  server over TCP: three messages, a pause between them
 *     --timeline   at the end, chart which task ran when
 *     --trace FILE write which task ran when to FILE (Chrome trace-event JSON)
 * (each also has a short form: --help lists them).
 *
 * Where the article's server handles one client with callbacks, each
 * connection here is a task of its own, reading through a buffered reader
 * and answering through a writer (loop/stream.h): up to MAX_CONN at once;
 * more wait in the listen backlog until one leaves (the acceptor waits on
 * a semaphore for a free slot, it does not refuse or drop them), which an
 * idle one does after --idle seconds.
 *
 * The loop waits on its sockets through the readiness back end that
 * PT_CONFIG_BACKEND chooses (loop/config.h): select() unless the build says
 * otherwise; meson builds echo_server-poll and echo_server-epoll too. poll
 * and epoll want a table for the descriptors they may wait on, which the
 * caller owns: here one for descriptors below DEMO_MAX_FD, the same bound
 * select() has.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracing.h" /* first: it hooks the loop (--timeline, --trace) */

#include "lifetime.h"
#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

#define MAX_CONN 16
#define MSG_MAX 1024
#define OUT_MAX (16 * 1024) /* replies not sent yet: then it waits (drain) */
#define DEMO_MAX_FD 1024    /* the descriptors poll and epoll can wait on */

static double start_ms;
static unsigned tick_ms = 1000;
static long idle_s = 30;

/* A line of output, with the milliseconds since the start. */
static void say(const char *fmt, ...) {
    va_list ap;
    printf("%8.1f ms  ", wall_ms() - start_ms);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* ---- the counters ------------------------------------------------------- */

struct counter {
    struct pt_task task;
    long n;
};

static PT_THREAD(countdown(struct pt_loop *loop, struct pt_task *task)) {
    struct counter *c = (struct counter *)task;
    PT_TASK_BEGIN(loop, task);
    for (c->n = 6; c->n > 0; c->n--) {
        say("Down %ld", c->n);
        PT_SLEEP(PT_MS(4 * tick_ms));
    }
    PT_TASK_END();
}

static PT_THREAD(countup(struct pt_loop *loop, struct pt_task *task)) {
    struct counter *c = (struct counter *)task;
    PT_TASK_BEGIN(loop, task);
    for (c->n = 0;; c->n++) {
        say("Up %ld", c->n);
        PT_SLEEP(PT_MS(tick_ms));
    }
    PT_TASK_END();
}

/* ---- the server ---------------------------------------------------------- */

struct conn {
    struct pt_task task;
    struct pt_sock sock;
    struct pt_reader in;
    struct pt_writer out;
    char inbuf[MSG_MAX], outbuf[OUT_MAX];
    char peer[64];
    int why;  /* what ended it */
    int busy; /* the slot holds a connection */
};

static struct pt_semaphore free_slots;
static struct conn conns[MAX_CONN];

/* Print a message without its line end. */
static void say_message(const struct conn *c) {
    const char *m = pt_reader_data(&c->in);
    size_t n = c->in.len;
    while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == '\r'))
        n--;
    say("Received from %s: %.*s", c->peer, (int)n, m);
}

static PT_THREAD(serve(struct pt_loop *loop, struct pt_task *task)) {
    struct conn *c = (struct conn *)task;
    PT_TASK_BEGIN(loop, task);
    say("Connected to %s", c->peer);
    for (;;) {
        PT_READER_READ(&c->in, MSG_MAX, PT_MS(1000 * idle_s));
        if ((c->why = PT_WAIT_RESULT()) != PT_OK)
            break; /* PT_ECLOSED: it left; PT_ERESET: it vanished; PT_ETIMEDOUT: idle */
        say_message(c);
        if (pt_writer_buffered(&c->out) + 5 + c->in.len > OUT_MAX) {
            PT_WRITER_DRAIN(&c->out, PT_MS(1000 * idle_s)); /* it does not read: wait */
            if ((c->why = PT_WAIT_RESULT()) != PT_OK)
                break;
        }
        if ((c->why = pt_writer_write(&c->out, "Got: ", 5)) != PT_OK ||
            (c->why = pt_writer_write(&c->out, pt_reader_data(&c->in), c->in.len)) != PT_OK)
            break;
    }
    if (c->why == PT_ETIMEDOUT)
        say("Connection closed: %s (idle for %ld s)", c->peer, idle_s);
    else
        say("Connection closed: %s (%s)", c->peer, pt_err_string(c->why));
    PT_TASK_CLEANUP();                     /* also when the server stops: cancelled */
    PT_WRITER_CLOSE(&c->out, PT_MS(1000)); /* the replies not sent yet */
    pt_sock_close(&c->sock);
    c->busy = 0;
    pt_semaphore_release(loop, &free_slots);
    PT_TASK_END();
}

struct acceptor {
    struct pt_task task;
    struct pt_sock listener;
    struct conn *c;
};

static PT_THREAD(accept_loop(struct pt_loop *loop, struct pt_task *task)) {
    struct acceptor *a = (struct acceptor *)task;
    struct pt_addr peer;
    int i;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SEMAPHORE_ACQUIRE(&free_slots, PT_FOREVER);
        for (i = 0; conns[i].busy; i++) /* the semaphore says one is free */
            continue;
        a->c = &conns[i];
        pt_sock_init(&a->c->sock); /* accept wants a closed socket */
        PT_SOCK_ACCEPT(&a->listener, &a->c->sock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK) {
            say("accept: %s", pt_err_string(PT_WAIT_RESULT()));
            pt_semaphore_release(loop, &free_slots);
            if (PT_WAIT_RESULT() == PT_EMFILE)
                continue; /* the next accept waits a back-off first */
            break;        /* the listener is broken: stop accepting */
        }
        (void)pt_sock_nodelay(&a->c->sock, 1);
        if (pt_sock_peer_addr(&a->c->sock, &peer) == PT_OK)
            pt_addr_format(&peer, a->c->peer, sizeof a->c->peer);
        pt_reader_init(&a->c->in, &a->c->sock, a->c->inbuf, sizeof a->c->inbuf);
        (void)pt_writer_open(loop, &a->c->out, &a->c->sock, a->c->outbuf, sizeof a->c->outbuf);
        a->c->busy = 1;
        (void)pt_loop_spawn_background(loop, &a->c->task, serve);
        demo_trace_name(&a->c->task, "connection");
        demo_trace_name(&a->c->out.task, "writer"); /* the writer's sending task */
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&a->listener);
    PT_TASK_END();
}

/* ---- the client (--client) ----------------------------------------------- */

struct client {
    struct pt_task task;
    struct pt_sock sock;
    struct pt_addr addr;
    int i;
    char reply[5 + MSG_MAX];
};

static PT_THREAD(client_run(struct pt_loop *loop, struct pt_task *task)) {
    static const char *const lines[3] = {"hello\n", "how are the counters doing?\n", "bye\n"};
    struct client *c = (struct client *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(tick_ms / 2));
    PT_SOCK_CONNECT(&c->sock, &c->addr, PT_MS(1000));
    if (PT_WAIT_RESULT() != PT_OK) {
        say("client: connect: %s", pt_err_string(PT_WAIT_RESULT()));
        PT_EXIT(&task->gen);
    }
    for (c->i = 0; c->i < 3; c->i++) {
        say("client: sends \"%.*s\"", (int)strlen(lines[c->i]) - 1, lines[c->i]);
        PT_SOCK_WRITE(&c->sock, lines[c->i], strlen(lines[c->i]), PT_MS(1000));
        PT_SOCK_READ_UNTIL(&c->sock, c->reply, sizeof c->reply, '\n', PT_MS(1000));
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        c->reply[c->sock.rd.done - 1] = '\0';
        say("client: got \"%s\"", c->reply);
        PT_SLEEP(PT_MS(tick_ms * 3 / 2));
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&c->sock);
    PT_TASK_END();
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[MAX_CONN + 8];
    static struct acceptor acc;
    static struct counter down, up;
    static struct client client;
    static struct lifetime life;
    static union pt_io_slot io_table[PT_IO_SLOTS(DEMO_MAX_FD)]; /* poll, epoll */
    struct pt_addr addr;
    char where[64];
    static long port = 3000, seconds = 0, tick = 1000;
    static int with_client;
    static const struct demo_opt opts[] = {
        DEMO_NUM('p', "port", "N", &port, 0, 65535, "listen on 127.0.0.1:N, 0: a free port"),
        DEMO_NUM('s', "seconds", "S", &seconds, 0, DEMO_MAX_SECONDS,
                 "stop after S seconds, 0: never"),
        DEMO_NUM('i', "idle", "S", &idle_s, 1, DEMO_MAX_SECONDS,
                 "close a connection idle for S seconds"),
        DEMO_NUM('t', "tick", "MS", &tick, 1, 3600000,
                 "the countup period; countdown every 4 ticks"),
        DEMO_FLAG('c', "client", &with_client, "also run a client task that talks to the server"),
        DEMO_TRACE_OPTS,
    };
    int rc;

    demo_options(argc, argv, "The echo server beside countdown and countup (Castelino).", opts,
                 DEMO_N(opts));
    demo_trace_open(argv);
    tick_ms = (unsigned)tick;
    rc = pt_addr_ip(&addr, "127.0.0.1", (unsigned)port);
    if (rc != PT_OK) {
        fprintf(stderr, "echo_server: 127.0.0.1:%ld: %s\n", port, pt_err_string(rc));
        return 1;
    }
    rc = pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    if (rc != PT_OK) {
        fprintf(stderr, "echo_server: pt_loop_init: %s\n", pt_err_string(rc));
        return 1;
    }
    (void)pt_loop_io_table(&loop, io_table, sizeof io_table / sizeof io_table[0]);
    rc = pt_sock_listen(&acc.listener, &addr, 128);
    if (rc != PT_OK) {
        fprintf(stderr, "echo_server: cannot listen on 127.0.0.1:%ld: %s (%s)\n", port,
                pt_err_string(rc), strerror(acc.listener.err));
        pt_loop_close(&loop);
        return 1;
    }
    (void)pt_sock_local_addr(&acc.listener, &addr);
    printf("listening on %s\n", pt_addr_format(&addr, where, sizeof where));
    fflush(stdout);

    start_ms = wall_ms();
    pt_semaphore_init(&free_slots, MAX_CONN);
    lifetime_start(&loop, &life, (pt_time_t)(seconds * 1000));
    (void)pt_loop_spawn_background(&loop, &acc.task, accept_loop);
    (void)pt_loop_spawn_background(&loop, &down.task, countdown);
    (void)pt_loop_spawn_background(&loop, &up.task, countup);
    demo_trace_name(&life.task, "main");
    demo_trace_name(&acc.task, "acceptor");
    demo_trace_name(&down.task, "countdown");
    demo_trace_name(&up.task, "countup");
    if (with_client) {
        pt_sock_init(&client.sock);
        client.addr = addr;
        (void)pt_loop_spawn_background(&loop, &client.task, client_run);
        demo_trace_name(&client.task, "client");
    }
    demo_trace_start();

    rc = pt_loop_run(&loop);
    pt_loop_close(&loop);
    printf("%8.1f ms  server stopped (%s)\n", wall_ms() - start_ms, pt_err_string(rc));
    if (demo_trace_end() != 0)
        return 1;
    return rc == PT_OK ? 0 : 1;
}
