/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/bench_echo_server.c - ptloop's server of workload W6 (TCP echo
 * ping-pong, bench/WORKLOADS.md): one thread, one loop, on the readiness
 * back end PT_CONFIG_BACKEND chooses (loop/config.h; select() by default).
 * meson builds it once per back end: bench_echo_server (select),
 * bench_echo_server-poll and bench_echo_server-epoll.
 *
 *   bench_echo_server <port> <max seconds> [<max connections>]
 *
 * Listens on 127.0.0.1:<port> (backlog 4096), prints READY (with the back
 * end's name), and echoes every byte as soon as it is read: each connection
 * is a task reading through a struct pt_reader with its own BUF_SIZE (4 KiB)
 * buffer and writing what came through a struct pt_writer with another
 * (loop/stream.h: a write tries the socket at once; what it does not take
 * the writer's task sends; a reply that would not fit waits for a drain). Accepted sockets get
 * TCP_NODELAY. Storage is caller-owned and static, as a ptloop user's would be: connection slots
 * (tasks, sockets, buffers) reused as connections come and go, and for poll
 * and epoll the back end's descriptor table; nothing is allocated per
 * connection or per request. Exits after <max seconds> or on SIGTERM (a
 * self-pipe wakes the loop: pt_wakeup), closing the loop (pt_loop_close).
 *
 * Slots: as many descriptors as the back end can hold and the process may
 * have (its RLIMIT_NOFILE, raised to the hard limit), less those the server
 * holds itself (stdio, the wakeup pipe, epoll's descriptor, the listener),
 * or <max connections> if fewer. What the back end can hold is BENCH_MAX_FD:
 * FD_SETSIZE for select() (1,018 slots with the server's own descriptors),
 * 16,384 for poll and epoll, the size of their static table. With every
 * slot busy the acceptor waits FULL_WAIT for one to free (the connections
 * wait in the backlog meanwhile); if none does, it accepts one and closes
 * it at once, so a client beyond the limit is refused rather than left
 * hanging. Refused accepts are counted: PT_EMFILE (the system or the back
 * end is out of descriptors) and "full" (no slot). At exit it prints a
 * STATS line: accepted, refused_emfile, refused_full, slots and the most
 * connections open at once.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop.h"
#include "net_common.h"

#if !PT_CONFIG_IO
#error "bench_echo_server needs a readiness back end (PT_CONFIG_BACKEND)"
#endif

/* The descriptors the back end can hold: select() takes those below
 * FD_SETSIZE; poll and epoll those below the size of the table given to
 * them (io_table below). */
#ifndef BENCH_MAX_FD
#if PT_CONFIG_BACKEND == PT_BACKEND_SELECT
#define BENCH_MAX_FD FD_SETSIZE
#else
#define BENCH_MAX_FD 16384
#endif
#endif
#if PT_CONFIG_BACKEND == PT_BACKEND_SELECT && BENCH_MAX_FD > FD_SETSIZE
#error "BENCH_MAX_FD: select() holds descriptors below FD_SETSIZE only"
#endif
#define MAX_CONN BENCH_MAX_FD /* static slots; fewer are used, see main */
/* W6's messages are 64 bytes; two buffers of 4 KiB keep 16,384 slots at
 * 132 MiB of (mostly untouched) static memory. The soak's long lines come
 * in pieces. */
#ifndef BUF_SIZE
#define BUF_SIZE 4096
#endif
#define FULL_WAIT PT_MS(500) /* all slots busy: how long a client may wait */

/* What a request touches is kept together, the buffers apart: at 1,000
 * connections the connections' state stays on few pages and cache lines
 * (each 8 KiB slot with its buffers inside cost a TLB miss and more cache
 * misses per request). The kernel alone copies into and out of the
 * buffers. */
struct conn {
    struct pt_task task;
    struct pt_sock sock;
    struct pt_reader in;
    struct pt_writer out;
    struct conn *next_free;
};
struct conn_bufs {
    char in[BUF_SIZE], out[BUF_SIZE];
};

static struct conn conns[MAX_CONN];
static struct conn_bufs bufs[MAX_CONN]; /* conns[i]'s are bufs[i] */
/* poll's and epoll's table for descriptors 0..BENCH_MAX_FD-1 (select needs
 * none: PT_IO_SLOTS is 1 there). */
static union pt_io_slot io_table[PT_IO_SLOTS(BENCH_MAX_FD)];
/* Slots used before and free again (reused first, last freed first), then
 * conns[n_fresh..]: never used, so never touched (the memory of 16,384
 * slots becomes resident only as far as connections reach). The semaphore
 * free_slots keeps the slots in use within `slots` (main). */
static struct conn *free_list;
static int n_fresh;
static struct pt_semaphore free_slots;
static struct pt_wakeup term;
static unsigned long n_accepted, n_emfile, n_full, n_open, n_open_max;

static struct conn *slot_take(void) {
    struct conn *c = free_list;
    if (c)
        free_list = c->next_free;
    else
        c = &conns[n_fresh++];
    return c;
}

static void slot_give(struct conn *c) {
    c->next_free = free_list;
    free_list = c;
}

static PT_THREAD(echo(struct pt_loop *loop, struct pt_task *task)) {
    struct conn *c = (struct conn *)task;
    PT_TASK_BEGIN(loop, task);
    pt_reader_init(&c->in, &c->sock, bufs[c - conns].in, BUF_SIZE);
    if (pt_writer_open(loop, &c->out, &c->sock, bufs[c - conns].out, BUF_SIZE) != PT_OK)
        PT_EXIT(&task->gen);
    /* A drain waits until it is empty: then a whole read fits again. */
    (void)pt_writer_limits(&c->out, BUF_SIZE, 0);
    for (;;) {
        PT_READER_READ(&c->in, BUF_SIZE, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        if (pt_writer_buffered(&c->out) + c->in.len > BUF_SIZE) {
            PT_WRITER_DRAIN(&c->out, PT_FOREVER); /* the peer does not read: wait */
            if (PT_WAIT_RESULT() != PT_OK)
                break;
        }
        if (pt_writer_write(&c->out, pt_reader_data(&c->in), c->in.len) != PT_OK)
            break;
    }
    PT_TASK_CLEANUP();
    PT_WRITER_ABORT(&c->out);
    pt_sock_close(&c->sock);
    n_open--;
    slot_give(c);
    pt_semaphore_release(loop, &free_slots);
    PT_TASK_END();
}

struct acceptor {
    struct pt_task task;
    struct pt_sock listener;
    struct pt_sock refuse; /* a connection beyond the slots, closed at once */
    struct conn *c;
};

static PT_THREAD(accept_loop(struct pt_loop *loop, struct pt_task *task)) {
    struct acceptor *a = (struct acceptor *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SEMAPHORE_ACQUIRE(&free_slots, FULL_WAIT);
        if (PT_WAIT_RESULT() != PT_OK) {
            /* Full for FULL_WAIT: refuse what is pending rather than let
             * it hang (a poll: nothing pending, nothing to do). */
            pt_sock_init(&a->refuse);
            PT_SOCK_ACCEPT(&a->listener, &a->refuse, 0);
            if (PT_WAIT_RESULT() == PT_OK) {
                n_full++;
                pt_sock_close(&a->refuse);
            } else if (PT_WAIT_RESULT() == PT_EMFILE) {
                n_emfile++;
            }
            continue;
        }
        a->c = slot_take();
        pt_sock_init(&a->c->sock); /* accept wants a closed socket */
        PT_SOCK_ACCEPT(&a->listener, &a->c->sock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK) {
            slot_give(a->c);
            pt_semaphore_release(loop, &free_slots);
            if (PT_WAIT_RESULT() == PT_EMFILE) {
                n_emfile++;
                continue; /* the next accept waits a back-off first */
            }
            break;
        }
        n_accepted++;
        if (++n_open > n_open_max)
            n_open_max = n_open;
        (void)pt_sock_nodelay(&a->c->sock, 1);
        (void)pt_loop_spawn_background(loop, &a->c->task, echo);
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&a->listener);
    PT_TASK_END();
}

struct lifetime {
    struct pt_task task;
    pt_time_t ticks;
};

/* Ends at the lifetime or on SIGTERM; the rest are background tasks. */
static PT_THREAD(lifetime_run(struct pt_loop *loop, struct pt_task *task)) {
    struct lifetime *t = (struct lifetime *)task;
    PT_TASK_BEGIN(loop, task);
    PT_WAKEUP_WAIT(&term, t->ticks);
    PT_TASK_END();
}

static void on_term(int sig) {
    (void)sig;
    pt_wakeup_signal(&term);
}

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[8];
    static struct acceptor acc;
    static struct lifetime life;
    struct pt_addr addr;
    struct sigaction sa;
    long port = argc == 3 || argc == 4 ? strtol(argv[1], NULL, 10) : -1;
    long secs = argc == 3 || argc == 4 ? strtol(argv[2], NULL, 10) : -1;
    long max_conn = argc == 4 ? strtol(argv[3], NULL, 10) : MAX_CONN;
    struct rlimit rl;
    long max_fd = BENCH_MAX_FD;
    int rc, first_free, slots;

    if (port < 0 || port > 65535 || secs <= 0 || max_conn <= 0 ||
        pt_addr_ip(&addr, "127.0.0.1", (unsigned)port)) {
        fprintf(stderr, "usage: %s <port> <max seconds> [<max connections>]\n", argv[0]);
        return 2;
    }
    net_raise_nofile();
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < (rlim_t)max_fd)
        max_fd = (long)rl.rlim_cur; /* the descriptors the process may have */
    rc = pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    if (rc != PT_OK) {
        fprintf(stderr, "pt_loop_init: %s\n", pt_err_string(rc));
        return 1;
    }
    (void)pt_loop_io_table(&loop, io_table, sizeof io_table / sizeof io_table[0]);
    if (pt_wakeup_init(&term) != PT_OK) {
        perror("pipe");
        return 1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    rc = pt_sock_listen(&acc.listener, &addr, 4096);
    if (rc != PT_OK) {
        fprintf(stderr, "listen on 127.0.0.1:%ld: %s (%s)\n", port, pt_err_string(rc),
                strerror(acc.listener.err));
        return 1;
    }
    /* The lowest free descriptor: connections get it and those above. */
    first_free = fcntl(acc.listener.fd, F_DUPFD, 0);
    if (first_free >= 0)
        close(first_free);
    slots = first_free >= 0 && first_free < max_fd ? (int)(max_fd - first_free) : 0;
    if (slots > max_conn)
        slots = (int)max_conn;
    pt_semaphore_init(&free_slots, (unsigned)slots);
    life.ticks = PT_SEC(secs);
    (void)pt_loop_spawn(&loop, &life.task, lifetime_run);
    (void)pt_loop_spawn_background(&loop, &acc.task, accept_loop);
    printf("READY bench_echo_server 127.0.0.1:%ld ptloop backend=%s slots=%d max_fd=%ld\n", port,
           PT_CONFIG_BACKEND_NAME, slots, max_fd);
    fflush(stdout);
    rc = pt_loop_run(&loop);
    pt_wakeup_close(&term);
    pt_loop_close(&loop);
    printf("STATS bench_echo_server accepted=%lu refused_emfile=%lu refused_full=%lu slots=%d "
           "max_open=%lu\n",
           n_accepted, n_emfile, n_full, slots, n_open_max);
    return rc == PT_OK ? 0 : 1;
}
