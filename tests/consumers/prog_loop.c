/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/consumers/prog_loop.c - the second program tests/consumers/check.sh
 * builds against the headers used each way: it includes loop/loop.h (and
 * so all of pt/ and pt/version.h through it), runs three tasks on the
 * loop's virtual clock and checks the order they finish in and the time
 * that passed. Built with -D_POSIX_C_SOURCE=200809L, as loop/loop.h asks
 * on a POSIX host. Prints a line, returns 0 if right.
 */
#include "loop/loop.h"

#include <stdio.h>
#include <string.h>

struct job {
    struct pt_task task; /* first: the loop hands the body &task */
    char name;
    unsigned ms;
};

static char order[4];
static size_t done;

static PT_THREAD(job_run(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(j->ms));
    order[done++] = j->name;
    PT_TASK_END();
}

int main(void) {
    struct pt_loop loop;
    struct pt_timer_slot heap[4];
    struct job jobs[3];
    static const unsigned waits[3] = {2000, 1000, 3000};
    pt_time_t took;
    int i, rc;

    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    pt_loop_use_virtual_clock(&loop, 0);
    memset(jobs, 0, sizeof jobs); /* a task starts zeroed */
    for (i = 0; i < 3; i++) {
        jobs[i].name = (char)('A' + i);
        jobs[i].ms = waits[i];
        (void)pt_loop_spawn(&loop, &jobs[i].task, job_run);
    }
    rc = pt_loop_run(&loop);
    took = pt_loop_now(&loop);
    pt_loop_close(&loop);

    printf("ptloop %s loop consumer (%s): finished %s in %lu ms\n", PT_VERSION_STRING,
           PT_CONFIG_BACKEND_NAME, order, (unsigned long)took);
    return rc == PT_OK && strcmp(order, "BAC") == 0 && took == PT_MS(3000) ? 0 : 1;
}
