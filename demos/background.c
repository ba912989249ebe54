/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/background.c - the background task of "Part 1" (docs/demos.md, "The
 * articles"), in C: main starts a task that prints "background task!" every
 * 100 ms, sleeps 500 ms, prints "main!", sleeps 500 ms more and returns.
 * Each line carries the milliseconds since main started, so the
 * interleaving can be seen.
 *
 * The background task is started with pt_loop_spawn_background: it does not keep
 * pt_loop_run going. It would print forever; once main has returned and only
 * background tasks are left, the loop cancels it (its cleanup prints a last
 * line) and pt_loop_run returns.
 *
 * Which line comes first at 500 ms and at 1000 ms? There, a wake-up of the
 * background task and one of main fall due at the same instant, so in the
 * article's code the order is a race between two timers a few microseconds
 * apart. Here it is decided, and the output always has the article's shape
 * (5 background lines, "main!", 5 more; the 10th, at 1000 ms, is printed and
 * there is never an 11th):
 *  - every wait is to a deadline counted from one start tick (100, 200, ...
 *    and 500, 1000), not a delay counted from the last wake-up, so lateness
 *    does not accumulate and both timers due at 500 ms (and at 1000 ms) have
 *    the very same deadline: they wake in the same loop iteration;
 *  - equal deadlines wake in the order they were set, which would put main
 *    first; so main yields once after waking (asyncio's sleep(0)) and the
 *    background line due at the same instant is printed before main goes on.
 *
 *   background [--timeline] [--trace FILE]
 *     --timeline   at the end, chart which task ran when
 *     --trace FILE write which task ran when to FILE (Chrome trace-event JSON)
 */
#include <stdio.h>
#include <time.h>

#include "tracing.h" /* first: it hooks the loop (--timeline, --trace) */

#include "loop/loop.h"
#include "options.h"
#include "stopwatch.h"

static double start_ms;   /* wall clock when main started */
static pt_time_t start_t; /* the loop's tick then: deadlines count from it */

static void say(const char *what, int n) {
    printf("%7.1f ms  %s", wall_ms() - start_ms, what);
    if (n)
        printf(" (%d)", n);
    printf("\n");
}

/* Sleep until start_t + ms: PT_SLEEP counts from the loop's tick. */
#define SLEEP_UNTIL(ms)                                                                            \
    PT_SLEEP(pt_time_until(pt_loop_now(PT_LOOP()), (pt_time_t)(start_t + PT_MS(ms))))

struct ticker {
    struct pt_task task; /* first: the loop hands the body &task */
    int n;               /* the line being waited for */
    int printed;
};

static PT_THREAD(background_task(struct pt_loop *loop, struct pt_task *task)) {
    struct ticker *b = (struct ticker *)task;
    PT_TASK_BEGIN(loop, task);
    for (b->n = 1;; b->n++) {
        SLEEP_UNTIL(100u * (unsigned)b->n);
        say("background task!", b->n);
        b->printed++;
    }
    PT_TASK_CLEANUP();
    say("background task cancelled: only background tasks were left", 0);
    PT_TASK_END();
}

static struct ticker bg;

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    start_ms = wall_ms();
    start_t = pt_loop_now(loop);
    (void)pt_loop_spawn_background(loop, &bg.task, background_task);
    SLEEP_UNTIL(500);
    PT_TASK_YIELD(); /* let the background line due now go first */
    say("main!", 0);
    SLEEP_UNTIL(1000);
    PT_TASK_YIELD();
    say("main returns", 0);
    PT_TASK_END();
}

int main(int argc, char **argv) {
    struct pt_loop loop;
    struct pt_timer_slot heap[4];
    struct pt_task main_t = {0}; /* a task starts zeroed */
    static const struct demo_opt opts[] = {DEMO_TRACE_OPTS};
    int rc;

    demo_options(argc, argv, "A task prints every 100 ms while main sleeps (Part 1).", opts,
                 DEMO_N(opts));
    demo_trace_open(argv);
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    (void)pt_loop_spawn(&loop, &main_t, main_task);
    demo_trace_name(&main_t, "main");
    demo_trace_name(&bg.task, "background");
    demo_trace_start();
    rc = pt_loop_run(&loop);
    printf("%7.1f ms  pt_loop_run returned %d\n", wall_ms() - start_ms, rc);
    printf("Watch: 5 background lines, main!, 5 more, 100 ms apart; the loop ends with main\n"
           "at 1000 ms, although the background task would go on forever.\n");
    if (demo_trace_end() != 0)
        return 1;
    return rc == PT_OK && bg.printed == 10 ? 0 : 1;
}
