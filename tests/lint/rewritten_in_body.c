/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local that the code before PT_TASK_BEGIN sets on every
 * call, then the body changes before a wait: after the wait it holds the
 * first value again, not the body's. */
#include <stdio.h>

#include "loop/loop.h"

PT_THREAD(steps(struct pt_loop *loop, struct pt_task *task)) {
    int step = 0;
    PT_TASK_BEGIN(loop, task);
    step = 1;
    PT_SLEEP(PT_MS(10));
    printf("step %d\n", step); /* pt-lint: expect step */
    PT_TASK_END();
}
