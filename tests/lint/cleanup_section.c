/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local read in the cleanup section, which runs after the
 * body's waits (or after a cancel, in a later call). */
#include <stdio.h>

#include "loop/loop.h"

extern int open_device(void);
extern void close_device(int fd);

PT_THREAD(device_run(struct pt_loop *loop, struct pt_task *task)) {
    int fd = -1;
    PT_TASK_BEGIN(loop, task);
    fd = open_device();
    PT_SLEEP(PT_SEC(1));
    PT_TASK_CLEANUP();
    if (fd >= 0)          /* pt-lint: expect fd */
        close_device(fd); /* pt-lint: expect fd */
    PT_TASK_END();
}
