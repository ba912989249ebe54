/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/cancel.c - cancelling a task, as asyncio's task.cancel(): the
 * wait it is in ends at once, its PT_TASK_CLEANUP section runs exactly
 * once, and a task joining it sees PT_ECANCELLED. A finished task cannot
 * be cancelled again (PT_EINVAL). On the loop's virtual clock: instant,
 * and the same output on every run.
 */
#include <stdio.h>

#include "loop/loop.h"

struct worker {
    struct pt_task task; /* first member: the loop hands the body &task */
    int steps;           /* state that must survive a wait lives here */
};

static struct worker worker;
static struct pt_task boss;

/* One step every 100 ms, for ever: only a cancel ends it. */
static PT_THREAD(work(struct pt_loop *loop, struct pt_task *task)) {
    struct worker *w = (struct worker *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SLEEP(PT_MS(100));
        w->steps++;
        printf("%4u ms  worker: step %d\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), w->steps);
    }
    PT_TASK_CLEANUP(); /* however the body ends: here, a cancel ends it */
    printf("%4u ms  worker: cleanup after %d steps\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           w->steps);
    PT_TASK_END();
}

static PT_THREAD(supervise(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    (void)pt_loop_spawn(loop, &worker.task, work);
    PT_SLEEP(PT_MS(350));
    /* Not a wait: the worker's sleep is dropped now, its cleanup runs at
     * its next turn. */
    printf("%4u ms  boss: pt_task_cancel -> %s\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           pt_err_name(pt_task_cancel(loop, &worker.task)));
    PT_JOIN(&worker.task, PT_FOREVER); /* returns once the cleanup has run */
    printf("%4u ms  boss: join -> %s, worker finished %s\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           pt_err_name(PT_WAIT_RESULT()),
           pt_task_status(&worker.task) == PT_CLOSED ? "PT_CLOSED" : "otherwise");
    printf("%4u ms  boss: pt_task_cancel again -> %s\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           pt_err_name(pt_task_cancel(loop, &worker.task)));
    PT_TASK_END();
}

int main(void) {
    static struct pt_timer_slot timers[4]; /* at most 4 timers pending at once */
    struct pt_loop loop;
    if (pt_loop_init(&loop, timers, 4) != PT_OK)
        return 1;
    pt_loop_use_virtual_clock(&loop, 0); /* drop this line for real time */
    (void)pt_loop_spawn(&loop, &boss, supervise);
    return pt_loop_run(&loop) == PT_OK ? 0 : 1;
}
