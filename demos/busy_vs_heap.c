/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/busy_vs_heap.c - two ways to sleep inside the same loop, both on
 * the scenario of "Part 1" (docs/demos.md, "The articles"): a 500 ms and a
 * 700 ms sleep at the same time.
 *
 *   busy: the article's first, naive sleep. The coroutine reads the clock,
 *         and while the time has not passed it goes to the back of the
 *         ready queue (PT_TASK_YIELD, asyncio's sleep(0)) to be resumed
 *         again at once. The loop always has a task ready, so it never
 *         blocks: one core runs at 100% doing nothing useful.
 *   heap: PT_SLEEP. The task parks with a deadline in the loop's timer
 *         heap; with nothing ready, the loop blocks in select() until the
 *         earliest deadline, and the process uses next to no CPU.
 *
 * Both finish in about 700 ms; the difference is in the CPU column.
 *
 *   busy_vs_heap   (no options; --help says so)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

struct sleeper {
    struct pt_task task; /* first: the loop hands the body &task */
    unsigned ms;
    int busy;              /* which sleep to use */
    struct pt_gen sub;     /* the awaited busy_sleep */
    double start, t0;      /* when busy_sleep began; when the run began */
    unsigned long resumes; /* how many times the task body was entered */
};

/* The naive sleep: check the clock, and if it is too early, yield. */
static PT_THREAD(busy_sleep(struct pt_loop *loop, struct sleeper *s)) {
    PT_SUB_BEGIN(loop, &s->task, &s->sub);
    s->start = wall_ms();
    while (wall_ms() - s->start < (double)s->ms)
        PT_TASK_YIELD();
    PT_SUB_END();
}

static PT_THREAD(sleeper_run(struct pt_loop *loop, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    s->resumes++;
    PT_TASK_BEGIN(loop, task);
    if (s->busy)
        PT_AWAIT(&task->gen, &s->sub, busy_sleep(loop, s));
    else
        PT_SLEEP(PT_MS(s->ms));
    printf("  the %u ms sleeper is done at %6.1f ms, its body entered %lu times\n", s->ms,
           wall_ms() - s->t0, s->resumes);
    PT_TASK_END();
}

/* Run a 500 ms and a 700 ms sleeper together; print wall and CPU time. */
static int run(struct pt_loop *loop, int busy) {
    struct sleeper s[2];
    double t0 = wall_ms(), c0 = cpu_ms(), wall, cpu;
    int i, rc;

    memset(s, 0, sizeof s); /* a task starts zeroed */
    for (i = 0; i < 2; i++) {
        s[i].ms = i == 0 ? 500 : 700;
        s[i].busy = busy;
        s[i].t0 = t0;
        s[i].resumes = 0;
        (void)pt_loop_spawn(loop, &s[i].task, sleeper_run);
    }
    rc = pt_loop_run(loop);
    wall = wall_ms() - t0;
    cpu = cpu_ms() - c0;
    printf("  wall %7.1f ms, process CPU %7.1f ms (%3.0f%% of one core)\n", wall, cpu,
           100.0 * cpu / wall);
    return rc;
}

int main(int argc, char **argv) {
    struct pt_loop loop;
    struct pt_timer_slot heap[4];
    int rc;

    demo_options(argc, argv, "A busy-waiting sleep against the timer heap (Part 1).", NULL, 0);
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    printf("busy: a sleep that yields until the time has passed\n");
    rc = run(&loop, 1);
    printf("heap: PT_SLEEP, a deadline in the timer heap; the loop blocks in select()\n");
    if (rc == PT_OK)
        rc = run(&loop, 0);
    printf("Watch the CPU: busy burns a core for the whole wait (CPU close to wall), the\n"
           "timer heap sleeps in the kernel (CPU close to 0), and both take about 700 ms.\n");
    if (rc != PT_OK) {
        fprintf(stderr, "busy_vs_heap: pt_loop_run returned %d\n", rc);
        return 1;
    }
    return 0;
}
