/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/chat_server.c - a chat server: every line a client sends goes, as
 * it is and in order, to every other client connected at that moment.
 * Each connection is one task that reads lines (a struct pt_reader) and
 * hands each to the others' writers (struct pt_writer: a write copies into
 * the writer's buffer and never waits; the writer's own task sends it). A
 * client that does not keep up, whose unsent lines pass its writer's
 * high-water mark, is disconnected with a log line; nobody else waits for
 * it. Talk to it with real clients:
 *
 *   build/demos/chat_server &          (listens on 127.0.0.1:3010)
 *   nc 127.0.0.1 3010                   (in two terminals; type lines)
 *
 *   chat_server [--port N] [--seconds S] [--demo]
 *     --port N     listen on port N (0: a free port; the first line says which)
 *     --seconds S  stop after S seconds (default 0: run until killed)
 *     --demo       also run three clients in this process, which say hello
 *                  and print what they hear (the tour runs it so)
 * (each also has a short form: --help lists them).
 *
 * Limits: MAX_CLIENTS connections at once (more wait in the listen
 * backlog until one leaves); a line longer than LINE_MAX bytes ends its
 * connection; each client's writer buffers up to OUT_MAX bytes (its
 * high-water mark) beyond what the kernel holds, which is SNDBUF (set on
 * each connection, which also stops Linux from growing it to megabytes):
 * a client that falls about OUT_MAX + 2 * SNDBUF bytes behind is dropped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "lifetime.h"
#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

#define MAX_CLIENTS 64
#define LINE_MAX 1024
#define OUT_MAX (64 * 1024)
#define SNDBUF (64 * 1024)

static const int sndbuf = SNDBUF;

static double start_ms;

static void say(const char *fmt, ...) {
    va_list ap;
    printf("%8.1f ms  ", wall_ms() - start_ms);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

struct client {
    struct pt_task task; /* reads its lines and hands them to the others */
    struct pt_sock sock;
    struct pt_reader in;
    struct pt_writer out;
    int on; /* connected: lines go to it */
    char name[64];
    char inbuf[LINE_MAX], outbuf[OUT_MAX];
};

static struct client clients[MAX_CLIENTS];
static struct pt_semaphore free_slots;
static int connected;

/* ---- a connection: the whole of it -------------------------------------------- */

/* Disconnect o, which cannot keep up: its task's cleanup closes it. */
static void drop(struct pt_loop *loop, struct client *o) {
    say("%s disconnected: too slow (%zu bytes unsent)", o->name, pt_writer_buffered(&o->out));
    o->on = 0;
    (void)pt_task_cancel(loop, &o->task);
}

static PT_THREAD(chat(struct pt_loop *loop, struct pt_task *task)) {
    struct client *c = (struct client *)task, *o;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_READER_READ_LINE(&c->in, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break; /* PT_ECLOSED: it left; PT_EFULL: a line too long */
        for (o = clients; o < clients + MAX_CLIENTS; o++)
            if (o->on && o != c &&
                pt_writer_write(&o->out, pt_reader_data(&c->in), c->in.len) == PT_EFULL)
                drop(loop, o);
    }
    say("%s left (%s)", c->name, pt_err_string(PT_WAIT_RESULT()));
    PT_TASK_CLEANUP(); /* also when dropped, and when the server stops */
    c->on = 0;
    connected--;
    PT_WRITER_ABORT(&c->out);
    pt_sock_close(&c->sock);
    pt_semaphore_release(loop, &free_slots);
    PT_TASK_END();
}

/* ---- accepting ------------------------------------------------------------------- */

struct acceptor {
    struct pt_task task;
    struct pt_sock listener;
    struct client *c;
};

static PT_THREAD(accept_loop(struct pt_loop *loop, struct pt_task *task)) {
    struct acceptor *a = (struct acceptor *)task;
    struct pt_addr peer;
    int i;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SEMAPHORE_ACQUIRE(&free_slots, PT_FOREVER);
        for (i = 0; clients[i].task.fn && !pt_task_done(&clients[i].task); i++)
            continue; /* the semaphore says one is free */
        a->c = &clients[i];
        pt_sock_init(&a->c->sock); /* accept wants a closed socket */
        PT_SOCK_ACCEPT(&a->listener, &a->c->sock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK) {
            say("accept: %s", pt_err_string(PT_WAIT_RESULT()));
            pt_semaphore_release(loop, &free_slots);
            if (PT_WAIT_RESULT() == PT_EMFILE)
                continue; /* the next accept waits a back-off first */
            break;
        }
        (void)pt_sock_nodelay(&a->c->sock, 1);
        (void)setsockopt(a->c->sock.fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
        if (pt_sock_peer_addr(&a->c->sock, &peer) == PT_OK)
            pt_addr_format(&peer, a->c->name, sizeof a->c->name);
        pt_reader_init(&a->c->in, &a->c->sock, a->c->inbuf, sizeof a->c->inbuf);
        (void)pt_writer_open(loop, &a->c->out, &a->c->sock, a->c->outbuf, sizeof a->c->outbuf);
        a->c->on = 1;
        connected++;
        (void)pt_loop_spawn_background(loop, &a->c->task, chat);
        say("%s joined (%d connected)", a->c->name, connected);
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&a->listener);
    PT_TASK_END();
}

/* ---- the demo's own clients (--demo) ------------------------------------------------ */

struct talker {
    struct pt_task task;
    const char *who;
    struct pt_addr addr;
    struct pt_sock sock;
    struct pt_reader in;
    char buf[LINE_MAX], line[64];
    int heard;
};

static PT_THREAD(talk(struct pt_loop *loop, struct pt_task *task)) {
    struct talker *t = (struct talker *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SOCK_CONNECT(&t->sock, &t->addr, PT_MS(1000));
    if (PT_WAIT_RESULT() != PT_OK)
        PT_EXIT(&task->gen);
    pt_reader_init(&t->in, &t->sock, t->buf, sizeof t->buf);
    PT_SLEEP(PT_MS(200)); /* until all three are in */
    snprintf(t->line, sizeof t->line, "%s: hello from %s\n", t->who, t->who);
    PT_SOCK_WRITE(&t->sock, t->line, strlen(t->line), PT_MS(1000));
    while (t->heard < 2) { /* the other two */
        PT_READER_READ_LINE(&t->in, PT_MS(1000));
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        say("%s hears \"%.*s\"", t->who, (int)t->in.len - 1, pt_reader_data(&t->in));
        t->heard++;
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&t->sock);
    PT_TASK_END();
}

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[2 * MAX_CLIENTS + 8];
    static union pt_io_slot io_table[PT_IO_SLOTS(1024)]; /* poll, epoll */
    static struct acceptor acc;
    static struct lifetime life;
    static struct talker talkers[3];
    static const char *const names[3] = {"ann", "bob", "cid"};
    struct pt_addr addr;
    char where[64];
    static long port = 3010, seconds = 0;
    static int demo;
    static const struct demo_opt opts[] = {
        DEMO_NUM('p', "port", "N", &port, 0, 65535, "listen on 127.0.0.1:N, 0: a free port"),
        DEMO_NUM('s', "seconds", "S", &seconds, 0, DEMO_MAX_SECONDS,
                 "stop after S seconds, 0: never"),
        DEMO_FLAG('d', "demo", &demo, "also run three clients that say hello"),
    };
    int rc, i;

    demo_options(argc, argv, "A chat server: every line a client sends goes to all the others.",
                 opts, DEMO_N(opts));
    rc = pt_addr_ip(&addr, "127.0.0.1", (unsigned)port);
    if (rc == PT_OK)
        rc = pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    if (rc == PT_OK)
        rc = pt_loop_io_table(&loop, io_table, sizeof io_table / sizeof io_table[0]);
    if (rc == PT_OK)
        rc = pt_sock_listen(&acc.listener, &addr, 128);
    if (rc != PT_OK) {
        fprintf(stderr, "chat_server: cannot listen on 127.0.0.1:%ld: %s\n", port,
                pt_err_string(rc));
        return 1;
    }
    (void)pt_sock_local_addr(&acc.listener, &addr);
    printf("listening on %s\n", pt_addr_format(&addr, where, sizeof where));
    fflush(stdout);

    start_ms = wall_ms();
    pt_semaphore_init(&free_slots, MAX_CLIENTS);
    lifetime_start(&loop, &life, (pt_time_t)(seconds * 1000));
    (void)pt_loop_spawn_background(&loop, &acc.task, accept_loop);
    for (i = 0; i < 3 && demo; i++) {
        talkers[i].who = names[i];
        talkers[i].addr = addr;
        pt_sock_init(&talkers[i].sock);
        (void)pt_loop_spawn(&loop, &talkers[i].task, talk);
    }
    rc = pt_loop_run(&loop);
    pt_loop_close(&loop);
    printf("%8.1f ms  server stopped (%s)\n", wall_ms() - start_ms, pt_err_string(rc));
    return rc == PT_OK ? 0 : 1;
}
