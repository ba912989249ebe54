/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/cross/loop_core.c - a program using the freestanding loop core (no
 * descriptors: no readiness back end without a POSIX host), compiled for
 * the small targets by tests/cross/check.sh: ready queue, timer heap,
 * spawn, sleep, join, cancel, run, through the umbrella header.
 */
#define PT_CONFIG_PORT_VIRTUAL 1 /* a board's clock is its port's (loop/port/) */
#include "loop/loop.h"

static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(100));
    PT_TASK_RETURN(pt_value_int(1));
    PT_TASK_END();
}

struct joiner {
    struct pt_task task, child;
};

static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct joiner *j = (struct joiner *)task;
    PT_TASK_BEGIN(loop, task);
    pt_loop_spawn(loop, &j->child, sleeper);
    PT_JOIN(&j->child, PT_MS(50));
    PT_TASK_END();
}

int loop_core_main(void);
int loop_core_main(void) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[4];
    static struct joiner j;
    static struct pt_task other;
    pt_loop_init(&loop, heap, 4);
    pt_loop_spawn(&loop, &j.task, joiner);
    pt_loop_spawn(&loop, &other, sleeper);
    pt_loop_run_once(&loop, 0);
    (void)pt_task_cancel(&loop, &other);
    return pt_loop_run(&loop);
}
