/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local array filled before a wait and read after it (given
 * to a function that takes a pointer to const, which reads it). Filling it
 * after the wait (a pointer that is not to const) is fine. */
#include <stdio.h>
#include <string.h>

#include "loop/loop.h"

PT_THREAD(say_later(struct pt_loop *loop, struct pt_task *task)) {
    char msg[32];
    PT_TASK_BEGIN(loop, task);
    snprintf(msg, sizeof msg, "now %u", (unsigned)pt_loop_now(loop));
    PT_SLEEP(PT_MS(10));
    fputs(msg, stdout); /* pt-lint: expect msg */
    PT_SLEEP(PT_MS(10));
    snprintf(msg, sizeof msg, "then %u", (unsigned)pt_loop_now(loop));
    fputs(msg, stdout);
    PT_TASK_END();
}
