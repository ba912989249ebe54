/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a task's local across PT_JOIN. */
#include <stdio.h>

#include "loop/loop.h"

struct boss {
    struct pt_task task;
    struct pt_task worker;
};

PT_THREAD(boss_run(struct pt_loop *loop, struct pt_task *task)) {
    struct boss *b = (struct boss *)task;
    PT_TASK_BEGIN(loop, task);
    int jobs = 3;
    PT_JOIN(&b->worker, PT_FOREVER);
    printf("%d jobs, result %d\n", jobs, PT_WAIT_RESULT()); /* pt-lint: expect jobs */
    PT_TASK_END();
}
