/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/parity/parity.h - what the C side of every loop case shares: one
 * loop on the virtual clock (deterministic and instant: time jumps to the
 * next deadline whenever nothing is ready), started and run to its end.
 * Python's asyncio.run(main()) is parity_run(main_fn): a main task that
 * the loop runs until nothing is left. UNIT is the cases' time unit, 0.01 s
 * on the Python side.
 */
#ifndef TESTS_PARITY_H
#define TESTS_PARITY_H

#include <stdio.h>

#include "loop/loop.h"

#define UNIT PT_MS(10) /* asyncio.sleep(0.01) */

static struct pt_timer_slot parity_heap[16];
static struct pt_loop parity_loop;

/* Spawn a task, saying so if the loop refuses it (the trace then differs). */
static inline void parity_spawn(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    int rc = pt_loop_spawn(l, t, fn);
    if (rc != PT_OK)
        printf("spawn: %s\n", pt_err_string(rc));
}

/* asyncio.run(main()): run `main_task` (zeroed memory) running fn until
 * nothing is left; 0, or 1 (and a line saying why) if the loop could not
 * finish: tasks left waiting on something nobody will signal. */
static inline int parity_run(struct pt_task *main_task, pt_task_fn fn) {
    int rc;
    pt_loop_init(&parity_loop, parity_heap, sizeof parity_heap / sizeof parity_heap[0]);
    pt_loop_use_virtual_clock(&parity_loop, 0);
    parity_spawn(&parity_loop, main_task, fn);
    rc = pt_loop_run(&parity_loop);
    pt_loop_close(&parity_loop);
    if (rc != PT_OK) {
        printf("loop: %s (tasks left waiting)\n", pt_err_string(rc));
        return 1;
    }
    return 0;
}

#endif /* TESTS_PARITY_H */
