/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/agree/other_options.c - a file of the program built with one option
 * set otherwise than in test_agree.c (OTHER_OPTION names it).
 */
#include "loop/loop.h"

#include "other_options.h"

#ifndef OTHER_OPTION
#define OTHER_OPTION ""
#endif

static struct pt_task other_task;
static int other_runs;

static PT_THREAD(other_body(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    other_runs++;
    PT_TASK_END();
}

int other_spawn(struct pt_loop *l) {
    return pt_loop_spawn(l, &other_task, other_body);
}

void other_run(struct pt_loop *l, int rc[3]) {
    rc[0] = pt_loop_run(l);
    rc[1] = pt_loop_run_once(l, 0);
    rc[2] = pt_loop_run_until(l, &other_task);
}

const char *other_mismatch(const struct pt_loop *l) {
    return pt_loop_config_mismatch(l);
}

const char *other_option(void) {
    return OTHER_OPTION;
}
