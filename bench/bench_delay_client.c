/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/bench_delay_client.c - ptloop's client of workload W7 (concurrent
 * delayed requests, bench/WORKLOADS.md), anchor=ptloop.
 *
 *   bench_delay_client <port>
 *
 * Runs against a fresh bench/delay_server on 127.0.0.1:<port> the phases
 * W7.serial10 (10 requests, each task spawned and joined before the next),
 * W7.conc10 and W7.conc1000 (all requests spawned into one task group, then
 * PT_GROUP_WAIT), and prints total_s and overhead_ms of each. A request is
 * a task: PT_SOCK_CONNECT, PT_SOCK_WRITE of `request`, PT_SOCK_READ_EXACTLY of
 * 8 bytes, which must be `response`, then close; every step has a 10 s
 * timeout. Request tasks and their sockets are static, caller-owned
 * storage (1,000 slots), reused from phase to phase. A wrong response or a
 * failed request prints INVALID and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "loop/loop.h"
#include "net_common.h"

#define MAX_REQ 1000
#define STEP_TIMEOUT PT_MS(10000)

struct request {
    struct pt_task task;
    struct pt_sock sock;
    int result;
    char reply[NET_RESPONSE_LEN];
};

static struct request reqs[MAX_REQ];
static struct pt_task *members[MAX_REQ];
static struct pt_addr server;

static PT_THREAD(request_run(struct pt_loop *loop, struct pt_task *task)) {
    struct request *r = (struct request *)task;
    PT_TASK_BEGIN(loop, task);
    pt_sock_init(&r->sock);
    PT_SOCK_CONNECT(&r->sock, &server, STEP_TIMEOUT);
    if ((r->result = PT_WAIT_RESULT()) == PT_OK)
        PT_SOCK_WRITE(&r->sock, NET_REQUEST, NET_REQUEST_LEN, STEP_TIMEOUT);
    if (r->result == PT_OK && (r->result = PT_WAIT_RESULT()) == PT_OK)
        PT_SOCK_READ_EXACTLY(&r->sock, r->reply, NET_RESPONSE_LEN, STEP_TIMEOUT);
    if (r->result == PT_OK && (r->result = PT_WAIT_RESULT()) == PT_OK &&
        memcmp(r->reply, NET_RESPONSE, NET_RESPONSE_LEN) != 0)
        r->result = PT_EINVAL;
    PT_TASK_CLEANUP();
    pt_sock_close(&r->sock);
    PT_TASK_END();
}

struct client {
    struct pt_task task;
    struct pt_group group;
    const struct net_phase *ph;
    unsigned p, i;
    uint64_t t0;
    double total_s[3];
};

static void check_requests(const struct net_phase *ph) {
    unsigned i;
    for (i = 0; i < ph->count; i++)
        if (reqs[i].result != PT_OK) {
            printf("INVALID anchor=ptloop workload=%s request %u: %s\n", ph->id, i,
                   pt_err_string(reqs[i].result));
            fflush(stdout);
            exit(1);
        }
}

static PT_THREAD(client_run(struct pt_loop *loop, struct pt_task *task)) {
    struct client *c = (struct client *)task;
    PT_TASK_BEGIN(loop, task);
    for (c->p = 0; c->p < 3; c->p++) {
        c->ph = &net_phases[c->p];
        c->t0 = bench_now_ns();
        if (!c->ph->concurrent) {
            for (c->i = 0; c->i < c->ph->count; c->i++) {
                (void)pt_loop_spawn(loop, &reqs[c->i].task, request_run);
                PT_JOIN(&reqs[c->i].task, PT_FOREVER);
            }
        } else {
            pt_group_init(&c->group, members, (pt_index_t)c->ph->count, PT_GROUP_COLLECT);
            for (c->i = 0; c->i < c->ph->count; c->i++)
                (void)pt_group_spawn(loop, &c->group, &reqs[c->i].task, request_run);
            PT_GROUP_WAIT(&c->group, PT_FOREVER);
        }
        c->total_s[c->p] = (double)(bench_now_ns() - c->t0) / 1e9;
        check_requests(c->ph);
    }
    PT_TASK_END();
}

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[MAX_REQ + 8];
    static struct client client;
    long port = argc == 2 ? strtol(argv[1], NULL, 10) : -1;
    unsigned p;

    bench_anchor = "ptloop";
    if (port <= 0 || port > 65535 || pt_addr_ip(&server, "127.0.0.1", (unsigned)port) != PT_OK) {
        fprintf(stderr, "usage: %s <port>\n", argv[0]);
        return 2;
    }
    net_raise_nofile();
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    (void)pt_loop_spawn(&loop, &client.task, client_run);
    if (pt_loop_run_until(&loop, &client.task) != PT_ENDED) {
        printf("INVALID anchor=ptloop workload=W7 the client did not finish\n");
        return 1;
    }
    for (p = 0; p < 3; p++) {
        bench_result(net_phases[p].id, "total_s", client.total_s[p], "s");
        bench_result(net_phases[p].id, "overhead_ms",
                     client.total_s[p] * 1e3 - net_phase_delay_ms(&net_phases[p]), "ms");
    }
    return 0;
}
