/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a count kept in a local across PT_QUEUE_GET. The value
 * itself arrives in the task's own struct, as it must. */
#include <stdio.h>

#include "loop/loop.h"

struct sink {
    struct pt_task task;
    struct pt_queue *queue;
    pt_value got;
};

PT_THREAD(sink_run(struct pt_loop *loop, struct pt_task *task)) {
    struct sink *k = (struct sink *)task;
    PT_TASK_BEGIN(loop, task);
    unsigned total = 0;
    for (;;) {
        PT_QUEUE_GET(k->queue, &k->got, PT_FOREVER);
        if (k->got.i == 0)
            break;
        total += (unsigned)k->got.i; /* pt-lint: expect total */
    }
    printf("total %u\n", total); /* pt-lint: expect total */
    PT_TASK_END();
}
