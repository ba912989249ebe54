/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/delayed_server.c - the slow server of "Part 2" (docs/demos.md, "The
 * articles") on its own (see delayed_server.h): each "request" is answered
 * "response" after a pseudo-random 500 to 2000 ms. Run delayed_client
 * against it:
 *
 *   build/demos/delayed_server --port 3001 &
 *   build/demos/delayed_client --port 3001
 *
 *   delayed_server [--port N] [--seconds S] [--scale D]
 *     --port N     listen on 127.0.0.1:N (default 3001; 0: a free port)
 *     --seconds S  stop after S seconds (default 0: run until killed)
 *     --scale D    divide every delay by D (default 1)
 * (each also has a short form: --help lists them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delayed_server.h"
#include "lifetime.h"
#include "options.h"

int main(int argc, char **argv) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[DS_MAX_CONN + 4];
    static struct ds_server server;
    static struct lifetime life;
    char where[64];
    static long port = 3001, seconds = 0, scale = 1;
    static const struct demo_opt opts[] = {
        DEMO_NUM('p', "port", "N", &port, 0, 65535, "listen on 127.0.0.1:N, 0: a free port"),
        DEMO_NUM('s', "seconds", "S", &seconds, 0, DEMO_MAX_SECONDS,
                 "stop after S seconds, 0: never"),
        DEMO_NUM('x', "scale", "D", &scale, 1, 1000, "divide every delay by D"),
    };
    int rc;

    demo_options(argc, argv, "The slow server of Part 2: \"response\" after 500 to 2000 ms.", opts,
                 DEMO_N(opts));
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    server.verbose = 1;
    rc = ds_start(&loop, &server, (unsigned)port, (unsigned)scale);
    if (rc != PT_OK) {
        fprintf(stderr, "delayed_server: cannot listen on 127.0.0.1:%ld: %s (%s)\n", port,
                pt_err_string(rc), strerror(server.listener.err));
        return 1;
    }
    printf("listening on %s\n", pt_addr_format(&server.addr, where, sizeof where));
    fflush(stdout);
    lifetime_start(&loop, &life, (pt_time_t)(seconds * 1000));
    rc = pt_loop_run(&loop);
    printf("answered %u requests; stopped (%s)\n", server.answered, pt_err_string(rc));
    return rc == PT_OK ? 0 : 1;
}
