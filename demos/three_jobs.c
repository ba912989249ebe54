/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/three_jobs.c - the three jobs of "Ritesh", the event loop in 30
 * lines (docs/demos.md, "The articles"), in C: A waits 2 s, B 1 s, C 3 s. Run
 * one after the other they would take 6 s; run as three tasks of one loop,
 * on one thread, they overlap: they finish in the order of their waits
 * (B, A, C) and the whole run takes as long as the longest wait, about 3 s.
 *
 *   three_jobs [--timeline] [--trace FILE]
 *     --timeline   at the end, chart which job ran when
 *     --trace FILE write which job ran when to FILE (Chrome trace-event JSON)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tracing.h" /* first: it hooks the loop (--timeline, --trace) */

#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

static double start_ms;
static char order[16]; /* names in the order the jobs finish: "B, A, C" */

struct job {
    struct pt_task task; /* first: the loop hands the body &task */
    const char *name;
    unsigned ms;
};

static PT_THREAD(job_run(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%7.1f ms  %s starts, waiting %u ms\n", wall_ms() - start_ms, j->name, j->ms);
    PT_SLEEP(PT_MS(j->ms));
    printf("%7.1f ms  %s done\n", wall_ms() - start_ms, j->name);
    if (order[0])
        strncat(order, ", ", sizeof order - strlen(order) - 1);
    strncat(order, j->name, sizeof order - strlen(order) - 1);
    PT_TASK_END();
}

int main(int argc, char **argv) {
    struct pt_loop loop;
    struct pt_timer_slot heap[4];
    static const char *const names[3] = {"A", "B", "C"};
    static const unsigned waits[3] = {2000, 1000, 3000};
    struct job jobs[3];
    double c0, total, cpu;
    static const struct demo_opt opts[] = {DEMO_TRACE_OPTS};
    int i, rc;

    demo_options(argc, argv, "Jobs of 2 s, 1 s and 3 s on one loop (Ritesh).", opts, DEMO_N(opts));
    demo_trace_open(argv);
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    start_ms = wall_ms();
    c0 = cpu_ms();
    memset(jobs, 0, sizeof jobs); /* a task starts zeroed */
    for (i = 0; i < 3; i++) {
        jobs[i].name = names[i];
        jobs[i].ms = waits[i];
        (void)pt_loop_spawn(&loop, &jobs[i].task, job_run);
        demo_trace_name(&jobs[i].task, names[i]);
    }
    demo_trace_start();
    rc = pt_loop_run(&loop);
    total = wall_ms() - start_ms;
    cpu = cpu_ms() - c0;

    printf("finish order: %s\n", order);
    printf("total: wall %.1f ms (the waits add up to 6000 ms), CPU %.1f ms\n", total, cpu);
    printf("Watch: the order is B, A, C (shortest wait first, not start order), and the\n"
           "total is the longest wait, about 3000 ms, not the sum.\n");
    if (demo_trace_end() != 0)
        return 1;
    return rc == PT_OK && strcmp(order, "B, A, C") == 0 ? 0 : 1;
}
