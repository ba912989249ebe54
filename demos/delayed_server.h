/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/delayed_server.h - the slow server of "Part 2" (docs/demos.md, "The
 * articles"): for each connection it reads "request", waits a pseudo-random
 * 500 to 2000 ms, answers "response" and closes. Shared by delayed_server.c
 * (the server alone) and delayed_client.c (which can run it in its own
 * process).
 *
 * The delays are not random but pseudo-random and repeatable: request k
 * (0, 1, 2, ... in order of arrival since the server started) waits
 * delay_ms(k), the delay function of workload W7 (bench/WORKLOADS.md), so a
 * run's totals can be checked against known sums: requests 0-9 add up to
 * 11,892 ms, and the longest of requests 10-19 is 1,938 ms. A scale divides
 * every delay (the guided tour uses 5: 100 to 400 ms).
 */
#ifndef DEMOS_DELAYED_SERVER_H
#define DEMOS_DELAYED_SERVER_H

#include <stdint.h>
#include <string.h>

#include "loop/loop.h"

#define DS_MAX_CONN 64

/* The delay of request k, in ms (500 to 2000). */
static inline unsigned delay_ms(uint64_t k) {
    uint64_t z = (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z = z ^ (z >> 31);
    return 500u + (unsigned)(z % 1501u);
}

struct ds_conn {
    struct pt_task task;
    struct pt_sock sock;
    struct ds_server *server;
    unsigned k;
    char in[8];
    int busy;
};

struct ds_server {
    struct pt_task task; /* the acceptor */
    struct pt_sock listener;
    struct pt_addr addr; /* where it listens */
    struct pt_semaphore free_slots;
    struct ds_conn conns[DS_MAX_CONN];
    struct ds_conn *c;
    unsigned next_k, scale, answered;
    int verbose; /* print a line per request */
};

static PT_THREAD(ds_serve(struct pt_loop *loop, struct pt_task *task)) {
    struct ds_conn *c = (struct ds_conn *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SOCK_READ_EXACTLY(&c->sock, c->in, 7, PT_MS(5000));
    if (PT_WAIT_RESULT() != PT_OK || memcmp(c->in, "request", 7) != 0)
        PT_EXIT(&task->gen); /* the cleanup closes it */
    c->k = c->server->next_k++;
    if (c->server->verbose)
        printf("  server: request %u, answering in %u ms\n", c->k,
               delay_ms(c->k) / c->server->scale);
    PT_SLEEP(PT_MS(delay_ms(c->k) / c->server->scale));
    PT_SOCK_WRITE(&c->sock, "response", 8, PT_MS(5000));
    if (PT_WAIT_RESULT() == PT_OK)
        c->server->answered++;
    PT_TASK_CLEANUP();
    pt_sock_close(&c->sock);
    c->busy = 0;
    pt_semaphore_release(loop, &c->server->free_slots);
    PT_TASK_END();
}

static PT_THREAD(ds_accept(struct pt_loop *loop, struct pt_task *task)) {
    struct ds_server *s = (struct ds_server *)task;
    int i;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        /* A free slot first: more clients wait in the listen backlog. */
        PT_SEMAPHORE_ACQUIRE(&s->free_slots, PT_FOREVER);
        for (i = 0; s->conns[i].busy; i++)
            continue;
        s->c = &s->conns[i];
        pt_sock_init(&s->c->sock); /* accept wants a closed socket */
        PT_SOCK_ACCEPT(&s->listener, &s->c->sock, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK) {
            pt_semaphore_release(loop, &s->free_slots);
            if (PT_WAIT_RESULT() == PT_EMFILE)
                continue; /* the next accept waits a back-off first */
            break;        /* the listener is broken: stop accepting */
        }
        s->c->busy = 1;
        s->c->server = s;
        (void)pt_loop_spawn_background(loop, &s->c->task, ds_serve);
    }
    PT_TASK_CLEANUP();
    pt_sock_close(&s->listener);
    PT_TASK_END();
}

/*
 * Listen on 127.0.0.1:port (0: a free one; s->addr says which) and start
 * the acceptor as a background task of loop. PT_OK or the listen error.
 */
static inline int ds_start(struct pt_loop *loop, struct ds_server *s, unsigned port,
                           unsigned scale) {
    int rc = pt_addr_ip(&s->addr, "127.0.0.1", port);
    if (rc == PT_OK)
        rc = pt_sock_listen(&s->listener, &s->addr, DS_MAX_CONN);
    if (rc != PT_OK)
        return rc;
    (void)pt_sock_local_addr(&s->listener, &s->addr);
    pt_semaphore_init(&s->free_slots, DS_MAX_CONN);
    s->scale = scale ? scale : 1;
    s->next_k = 0;
    s->answered = 0;
    return pt_loop_spawn_background(loop, &s->task, ds_accept);
}

#endif /* DEMOS_DELAYED_SERVER_H */
