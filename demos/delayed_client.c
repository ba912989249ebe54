/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/delayed_client.c - the client of "Part 2" (docs/demos.md, "The
 * articles"): ten requests to a server that answers each after a
 * pseudo-random 500 to 2000 ms, first one after another, then all ten at
 * once as tasks of a group (asyncio's TaskGroup / gather). Serially the
 * total is the sum of the delays; concurrently, on the same single thread,
 * it is the longest.
 *
 *   delayed_client [--port N] [--scale D] [--timeline] [--trace FILE]
 *     --port N     use the server at 127.0.0.1:N (a fresh delayed_server);
 *                  without it (or with 0), the client runs the server in
 *                  its own process, on the same loop, on a free port
 *     --scale D    divide the delays of its own server by D (default 1)
 *     --timeline   at the end, chart which task ran when
 *     --trace FILE write which task ran when to FILE (Chrome trace-event JSON)
 * (each also has a short form: --help lists them).
 *
 * A request: connect, send "request", read exactly 8 bytes ("response"),
 * close, each step with a 5 s timeout. The program fails (exit 1) if any
 * request fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracing.h" /* first: it hooks the loop (--timeline, --trace) */

#include "delayed_server.h"
#include "options.h"
#include "stopwatch.h"

#define N_REQ 10

static double start_ms;

struct request {
    struct pt_task task;
    struct pt_sock sock;
    const struct pt_addr *addr;
    int id, result;
    double t0, ms;
    char reply[8];
};

static PT_THREAD(request_run(struct pt_loop *loop, struct pt_task *task)) {
    struct request *r = (struct request *)task;
    PT_TASK_BEGIN(loop, task);
    r->t0 = wall_ms();
    pt_sock_init(&r->sock);
    PT_SOCK_CONNECT(&r->sock, r->addr, PT_MS(5000));
    if ((r->result = PT_WAIT_RESULT()) != PT_OK)
        PT_TASK_FAIL(pt_value_int(r->result));
    PT_SOCK_WRITE(&r->sock, "request", 7, PT_MS(5000));
    if ((r->result = PT_WAIT_RESULT()) == PT_OK)
        PT_SOCK_READ_EXACTLY(&r->sock, r->reply, 8, PT_MS(5000));
    if (r->result == PT_OK && (r->result = PT_WAIT_RESULT()) == PT_OK &&
        memcmp(r->reply, "response", 8) != 0)
        r->result = PT_EINVAL;
    pt_sock_close(&r->sock);
    r->ms = wall_ms() - r->t0;
    printf("%9.1f ms  request %d: %s after %.1f ms\n", wall_ms() - start_ms, r->id,
           r->result == PT_OK ? "\"response\"" : pt_err_string(r->result), r->ms);
    if (r->result != PT_OK)
        PT_TASK_FAIL(pt_value_int(r->result));
    PT_TASK_CLEANUP();
    pt_sock_close(&r->sock);
    PT_TASK_END();
}

struct client {
    struct pt_task task;
    const struct pt_addr *addr;
    struct request req[N_REQ];
    struct pt_task *members[N_REQ];
    struct pt_group group;
    int i, failed;
    double t0, serial_ms, concurrent_ms;
};

static PT_THREAD(client_run(struct pt_loop *loop, struct pt_task *task)) {
    struct client *c = (struct client *)task;
    PT_TASK_BEGIN(loop, task);

    printf("serial: %d requests, one after another\n", N_REQ);
    c->t0 = wall_ms();
    for (c->i = 0; c->i < N_REQ; c->i++) {
        c->req[c->i].id = c->i;
        c->req[c->i].addr = c->addr;
        (void)pt_loop_spawn(loop, &c->req[c->i].task, request_run);
        PT_JOIN(&c->req[c->i].task, PT_FOREVER);
        c->failed |= PT_WAIT_RESULT() != PT_OK;
    }
    c->serial_ms = wall_ms() - c->t0;

    printf("concurrent: %d requests at once, in a task group\n", N_REQ);
    c->t0 = wall_ms();
    pt_group_init(&c->group, c->members, N_REQ, PT_GROUP_COLLECT);
    for (c->i = 0; c->i < N_REQ; c->i++) {
        c->req[c->i].id = N_REQ + c->i;
        (void)pt_group_spawn(loop, &c->group, &c->req[c->i].task, request_run);
    }
    PT_GROUP_WAIT(&c->group, PT_FOREVER);
    c->failed |= PT_WAIT_RESULT() != PT_OK;
    c->concurrent_ms = wall_ms() - c->t0;
    PT_TASK_END();
}

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[DS_MAX_CONN + N_REQ + 4];
    static struct ds_server server;
    static struct client client;
    struct pt_addr addr;
    char where[64];
    static long port = 0, scale = 1;
    static const struct demo_opt opts[] = {
        DEMO_NUM('p', "port", "N", &port, 0, 65535, "use the server at 127.0.0.1:N, 0: our own"),
        DEMO_NUM('x', "scale", "D", &scale, 1, 1000, "divide our own server's delays by D"),
        DEMO_TRACE_OPTS,
    };
    unsigned sum = 0, longest = 0, k;
    int i;

    demo_options(argc, argv, "Ten slow requests, one after another and at once (Part 2).", opts,
                 DEMO_N(opts));
    demo_trace_open(argv);
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    if (port == 0) { /* our own server, on this loop */
        int rc = ds_start(&loop, &server, 0, (unsigned)scale);
        if (rc != PT_OK) {
            fprintf(stderr, "delayed_client: cannot start the server: %s\n", pt_err_string(rc));
            return 1;
        }
        addr = server.addr;
        printf("server on %s, in this process: delays of %ld to %ld ms\n",
               pt_addr_format(&addr, where, sizeof where), 500 / scale, 2000 / scale);
        demo_trace_name(&server.task, "server");
        for (i = 0; i < DS_MAX_CONN; i++)
            demo_trace_name(&server.conns[i].task, "server");
    } else {
        scale = 1;
        (void)pt_addr_ip(&addr, "127.0.0.1", (unsigned)port);
        printf("server on %s\n", pt_addr_format(&addr, where, sizeof where));
    }
    client.addr = &addr;
    (void)pt_loop_spawn(&loop, &client.task, client_run);
    demo_trace_name(&client.task, "main");
    for (i = 0; i < N_REQ; i++) {
        static char names[N_REQ][16];
        snprintf(names[i], sizeof names[i], "req %d, %d", i, N_REQ + i);
        demo_trace_name(&client.req[i].task, names[i]);
    }
    start_ms = wall_ms();
    demo_trace_start();
    (void)pt_loop_run_until(&loop, &client.task);

    for (k = 0; k < N_REQ; k++)
        sum += delay_ms(k) / (unsigned)scale;
    for (k = N_REQ; k < 2 * N_REQ; k++)
        longest = delay_ms(k) / (unsigned)scale > longest ? delay_ms(k) / (unsigned)scale : longest;
    printf("serial total:     %8.1f ms (the server's delays add up to %u ms%s)\n", client.serial_ms,
           sum, port ? " if it was fresh" : "");
    printf("concurrent total: %8.1f ms (the longest delay is %u ms%s)\n", client.concurrent_ms,
           longest, port ? " if it was fresh" : "");
    printf("concurrent / serial = %.3f\n", client.concurrent_ms / client.serial_ms);
    printf("Watch: one thread, one loop: the serial total is the sum of the delays, the\n"
           "concurrent one about the longest delay, because the loop waits on all ten\n"
           "sockets at once.\n");
    if (demo_trace_end() != 0)
        return 1;
    return pt_task_status(&client.task) == PT_ENDED && !client.failed ? 0 : 1;
}
