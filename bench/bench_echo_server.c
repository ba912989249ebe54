/*
 * bench/bench_echo_server.c - ptloop's server of workload W6 (TCP echo
 * ping-pong, ../shared/WORKLOADS.md): one thread, one loop, the select()
 * back end.
 *
 *   bench_echo_server <port> <max seconds>
 *
 * Listens on 127.0.0.1:<port> (backlog 4096), prints READY, and echoes every
 * byte as soon as it is read: each connection is a task doing PT_SOCK_READ
 * into its own 16 KiB buffer, then PT_SOCK_WRITE of what came. Accepted
 * sockets get TCP_NODELAY. Storage is caller-owned and static, as a ptloop
 * user's would be: MAX_CONN connection slots (tasks, sockets, buffers),
 * reused as connections come and go; nothing is allocated per connection or
 * per request. Exits after <max seconds> or on SIGTERM (a self-pipe wakes
 * the loop: pt_wakeup).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop.h"
#include "net_common.h"

#define MAX_CONN 1100 /* W6 holds 1,000 at once; select() allows < FD_SETSIZE */
#define BUF_SIZE 16384

struct conn {
    struct pt_task task;
    struct pt_sock sock;
    struct conn *next_free;
    char buf[BUF_SIZE];
};

static struct conn conns[MAX_CONN];
static struct conn *free_list;
static struct pt_semaphore free_slots;
static struct pt_wakeup term;

static PT_THREAD(echo(struct pt_loop *loop, struct pt_task *task)) {
    struct conn *c = (struct conn *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SOCK_READ(&c->sock, c->buf, sizeof c->buf, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
        PT_SOCK_WRITE(&c->sock, c->buf, c->sock.done, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            break;
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&c->sock);
    c->next_free = free_list;
    free_list = c;
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
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SEMAPHORE_ACQUIRE(&free_slots, PT_FOREVER);
        a->c = free_list;
        free_list = a->c->next_free;
        pt_sock_init(&a->c->sock); /* accept wants a closed socket */
        PT_SOCK_ACCEPT(&a->listener, &a->c->sock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK) {
            a->c->next_free = free_list;
            free_list = a->c;
            pt_semaphore_release(loop, &free_slots);
            if (PT_WAIT_RESULT() == PT_EMFILE)
                continue; /* the next accept waits a back-off first */
            break;
        }
        (void)pt_sock_nodelay(&a->c->sock, 1);
        (void)pt_spawn_background(loop, &a->c->task, echo);
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&a->listener);
    PT_TASK_END();
}

struct lifetime {
    struct pt_task task;
    pt_time_t ms;
};

/* Ends at the lifetime or on SIGTERM; the rest are background tasks. */
static PT_THREAD(lifetime_run(struct pt_loop *loop, struct pt_task *task)) {
    struct lifetime *t = (struct lifetime *)task;
    PT_TASK_BEGIN(loop, task);
    PT_WAKEUP_WAIT(&term, t->ms);
    PT_TASK_END();
}

static void on_term(int sig) {
    (void)sig;
    pt_wakeup_signal(&term);
}

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_task *heap[8];
    static struct acceptor acc;
    static struct lifetime life;
    struct pt_addr addr;
    struct sigaction sa;
    long port = argc == 3 ? strtol(argv[1], NULL, 10) : -1;
    long secs = argc == 3 ? strtol(argv[2], NULL, 10) : -1;
    int i, rc;

    if (port < 0 || port > 65535 || secs <= 0 || pt_addr_ip(&addr, "127.0.0.1", (unsigned)port)) {
        fprintf(stderr, "usage: %s <port> <max seconds>\n", argv[0]);
        return 2;
    }
    net_raise_nofile();
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
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
        fprintf(stderr, "listen on 127.0.0.1:%ld: %s (%s)\n", port, pt_strerror(rc),
                strerror(acc.listener.err));
        return 1;
    }
    for (i = MAX_CONN - 1; i >= 0; i--) {
        conns[i].next_free = free_list;
        free_list = &conns[i];
    }
    pt_semaphore_init(&free_slots, MAX_CONN);
    life.ms = (pt_time_t)(secs * 1000);
    (void)pt_spawn(&loop, &life.task, lifetime_run);
    (void)pt_spawn_background(&loop, &acc.task, accept_loop);
    printf("READY bench_echo_server 127.0.0.1:%ld ptloop select()\n", port);
    fflush(stdout);
    rc = pt_loop_run(&loop);
    pt_wakeup_close(&term);
    return rc == PT_OK ? 0 : 1;
}
