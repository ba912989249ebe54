/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/size/task_fn.c - a small loop task on its own in an object, whose
 * text size cross/size_report.py reports (the core it calls is counted in
 * the core's rows): it blinks ten times, sleeping 100 ms between, and
 * yields once a blink.
 */
#define PT_CONFIG_PORT_NOW() 0u /* (a board reads its port's clock: loop/port/) */
#include "loop/core.h"

struct blink {
    struct pt_task task;
    int n;
};

PT_THREAD(blink_run(struct pt_loop *loop, struct pt_task *task));
PT_THREAD(blink_run(struct pt_loop *loop, struct pt_task *task)) {
    struct blink *b = (struct blink *)task;
    PT_TASK_BEGIN(loop, task);
    for (b->n = 0; b->n < 10; b->n++) {
        PT_SLEEP(PT_MS(100));
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}
