/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/lifetime.h - what keeps a demo server's loop alive: a task that
 * sleeps `ms` (or, with 0, waits forever). The server's own tasks are
 * background tasks, so pt_loop_run cancels them (their cleanups close the
 * sockets) and returns once this one ends.
 */
#ifndef DEMOS_LIFETIME_H
#define DEMOS_LIFETIME_H

#include "loop/loop.h"

struct lifetime {
    struct pt_task task;
    pt_time_t ms; /* 0: forever */
    struct pt_event never;
};

static PT_THREAD(lifetime_run(struct pt_loop *loop, struct pt_task *task)) {
    struct lifetime *t = (struct lifetime *)task;
    PT_TASK_BEGIN(loop, task);
    if (t->ms)
        PT_SLEEP(PT_MS(t->ms));
    else
        PT_EVENT_WAIT(&t->never, PT_FOREVER);
    PT_TASK_END();
}

/* Spawn t to end after ms milliseconds (0: never). */
static inline void lifetime_start(struct pt_loop *loop, struct lifetime *t, pt_time_t ms) {
    t->ms = ms;
    pt_event_init(&t->never);
    (void)pt_loop_spawn(loop, &t->task, lifetime_run);
}

#endif /* DEMOS_LIFETIME_H */
