/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: a background task with PT_CONFIG_BACKGROUND 0. pt_loop_run would
 * never cancel it, so pt_loop_spawn_background does not exist then.
 * Correct form: PT_CONFIG_BACKGROUND left at its default, 1.
 *
 * misuse-expect: pt_loop_spawn_background
 */
#define _POSIX_C_SOURCE 200809L
#ifdef PT_MISUSE
#define PT_CONFIG_BACKGROUND 0
#endif
#include "loop/core.h"

static PT_THREAD(idle(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TASK_END();
}

int main(void) {
    struct pt_loop l;
    struct pt_task t;
    (void)pt_loop_init(&l, NULL, 0);
    (void)pt_loop_spawn_background(&l, &t, idle);
    return pt_loop_run(&l);
}
