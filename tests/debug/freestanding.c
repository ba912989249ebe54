/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/debug/freestanding.c - the debug mode on a board: compiled with
 * -DPT_CONFIG_DEBUG=1 -ffreestanding for the small targets (nothing linked or
 * run), with a port clock of its own, so that the slow-resume timing takes
 * the port's ticks (PT_CONFIG_DEBUG_NOW_US from PT_CONFIG_PORT_NOW). Names, the walk,
 * the slow-resume callback and the misuse checks, without <stdio.h>.
 */
#include <stdint.h>

static volatile uint32_t board_ticks; /* a timer interrupt would count it */
#define PT_CONFIG_PORT_NOW() ((pt_time_t)board_ticks)
#define PT_CONFIG_PORT_IDLE(ticks) ((void)(ticks))
#include "loop/loop.h"

static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(100));
    PT_TASK_END();
}

static unsigned parked, slow;

static void count_parked(void *arg, const struct pt_task_info *in) {
    (void)arg;
    parked += in->state[0] == 'p';
}

static void on_slow(void *arg, struct pt_loop *l, const struct pt_task *t, uint32_t us) {
    (void)arg;
    (void)l;
    (void)t;
    slow += us > 0;
}

int debug_main(void);
int debug_main(void) {
    static struct pt_timer_slot heap[2];
    static struct pt_loop loop, other;
    static struct pt_task a;
    int rc;
    pt_loop_init(&loop, heap, 2);
    pt_loop_init(&other, NULL, 0);
    pt_loop_set_slow_callback(&loop, on_slow, NULL);
    pt_loop_set_slow_duration(&loop, 1000);
    pt_task_set_name(&a, "sleeper");
    pt_loop_spawn(&loop, &a, sleeper);
    pt_loop_run_once(&loop, 0);
    rc = pt_loop_walk(&loop, count_parked, NULL);
    rc += pt_task_cancel(&other, &a); /* PT_EINVAL: another loop's */
    rc += pt_loop_run(&loop);
    return rc + (int)parked + (int)slow + (int)*pt_task_name(&a);
}
