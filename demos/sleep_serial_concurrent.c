/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/sleep_serial_concurrent.c - the first measurement of "Part 1"
 * (docs/demos.md, "The articles"), in C: one task sleeping 500 ms and then
 * 700 ms takes about 1200 ms; two tasks sleeping 500 ms and 700 ms at the
 * same time, awaited together as a group (asyncio's gather), take about
 * 700 ms, the longer of the two. Everything runs on one thread, on the real clock.
 *
 *   sleep_serial_concurrent [--timeline] [--trace FILE]
 *     --timeline   at the end, chart which task ran when
 *     --trace FILE write which task ran when to FILE (Chrome trace-event JSON)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tracing.h" /* first: it hooks the loop (--timeline, --trace) */

#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

/* A task that sleeps `ms` and ends. The loop hands the body &task, the
 * first member, so the body gets back to the whole struct with a cast. */
struct sleeper {
    struct pt_task task;
    unsigned ms;
};

static PT_THREAD(sleeper_run(struct pt_loop *loop, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(s->ms));
    PT_TASK_END();
}

/* The main task, and everything that must survive its waits. */
struct demo {
    struct pt_task task;
    struct pt_gen sub; /* the awaited sleep_serial / sleep_concurrent */
    struct sleeper sleepers[2];
    struct pt_task *members[2];
    struct pt_group group;
    double t0, c0;
    double serial_ms, serial_cpu, concurrent_ms, concurrent_cpu;
    int result; /* PT_OK unless the group wait failed */
};

/* One coroutine, two sleeps in a row. */
static PT_THREAD(sleep_serial(struct pt_loop *loop, struct demo *d)) {
    PT_SUB_BEGIN(loop, &d->task, &d->sub);
    PT_SLEEP(PT_MS(500));
    PT_SLEEP(PT_MS(700));
    PT_SUB_END();
}

/* Two sleeping tasks started together, then awaited as a group. */
static PT_THREAD(sleep_concurrent(struct pt_loop *loop, struct demo *d)) {
    PT_SUB_BEGIN(loop, &d->task, &d->sub);
    pt_group_init(&d->group, d->members, 2, PT_GROUP_COLLECT);
    d->sleepers[0].ms = 500;
    d->sleepers[1].ms = 700;
    (void)pt_group_spawn(loop, &d->group, &d->sleepers[0].task, sleeper_run);
    (void)pt_group_spawn(loop, &d->group, &d->sleepers[1].task, sleeper_run);
    PT_GROUP_WAIT(&d->group, PT_FOREVER);
    d->result = PT_WAIT_RESULT();
    PT_SUB_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    struct demo *d = (struct demo *)task;
    PT_TASK_BEGIN(loop, task);

    d->t0 = wall_ms();
    d->c0 = cpu_ms();
    PT_AWAIT(&task->gen, &d->sub, sleep_serial(loop, d));
    d->serial_ms = wall_ms() - d->t0;
    d->serial_cpu = cpu_ms() - d->c0;

    d->t0 = wall_ms();
    d->c0 = cpu_ms();
    PT_AWAIT(&task->gen, &d->sub, sleep_concurrent(loop, d));
    d->concurrent_ms = wall_ms() - d->t0;
    d->concurrent_cpu = cpu_ms() - d->c0;

    PT_TASK_END();
}

int main(int argc, char **argv) {
    struct pt_loop loop;
    struct pt_timer_slot heap[4]; /* at most 2 timers at once; room to spare */
    struct demo d;
    static const struct demo_opt opts[] = {DEMO_TRACE_OPTS};

    demo_options(argc, argv,
                 "Sleeping 500 ms and 700 ms, one after the other and at once (Part 1).", opts,
                 DEMO_N(opts));
    demo_trace_open(argv);
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    memset(&d, 0, sizeof d); /* a task starts zeroed */
    d.result = PT_OK;
    (void)pt_loop_spawn(&loop, &d.task, main_task);
    demo_trace_name(&d.task, "main");
    demo_trace_name(&d.sleepers[0].task, "sleep 500");
    demo_trace_name(&d.sleepers[1].task, "sleep 700");
    demo_trace_start();
    if (pt_loop_run_until(&loop, &d.task) != PT_ENDED || d.result != PT_OK) {
        fprintf(stderr, "sleep_serial_concurrent: the loop did not finish the demo\n");
        return 1;
    }

    printf("serial:     sleep 500 ms, then sleep 700 ms   wall %7.2f ms   CPU %5.2f ms\n",
           d.serial_ms, d.serial_cpu);
    printf("concurrent: sleep 500 ms and 700 ms at once  wall %7.2f ms   CPU %5.2f ms\n",
           d.concurrent_ms, d.concurrent_cpu);
    printf("Watch: serial is the sum (about 1200 ms), concurrent the longest (about 700 ms),\n"
           "on one thread, with the CPU idle while the loop waits.\n");
    return demo_trace_end();
}
