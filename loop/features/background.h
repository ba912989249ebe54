/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/features/background.h - background tasks (PT_CONFIG_BACKGROUND):
 * pt_loop_spawn_background, and their side of the scheduler's hooks
 * (loop/sched/hooks.h): the loop's list of them, newest first, linked by
 * their up.background, and their cancel once no other task is left.
 */
#ifndef PT_LOOP_FEATURES_BACKGROUND_H
#define PT_LOOP_FEATURES_BACKGROUND_H

#include "../sched/hooks.h"
#include "../sched/run.h"
#include "../sched/task.h"

#if PT_CONFIG_BACKGROUND
/* Start a background task: it does not keep pt_loop_run going, and is
 * cancelled (its cleanup run) once nothing else is left. It cannot be
 * joined or put in a group. PT_EBUSY and PT_ECONFIG as for pt_loop_spawn. (Not
 * with PT_CONFIG_BACKGROUND 0.) */
static inline int pt_loop_spawn_background(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    if (!pt__agrees(l))
        return PT_ECONFIG;
    if (pt__task_alive(t))
        return PT_EBUSY;
    pt__task_init(t, fn);
    pt__set_flag(t, PT__T_BACKGROUND);
    t->up.background = l->background;
    l->background = t;
    pt__hook_spawn(l, t);
    pt__ready_push(l, t);
    return PT_OK;
}

/* Background task t has finished: out of l's list, where it is (only this
 * takes it out). */
static inline void pt__background_unlink(struct pt_loop *l, struct pt_task *t) {
    struct pt_task **p = &l->background;
    while (*p != t)
        p = &(*p)->up.background;
    *p = t->up.background;
}

/* No task left: cancel the background tasks, newest first (those new
 * too; those in their cleanups say PT_EINVAL, and go on). 0 if there is
 * nothing to run then: none, or all in their cleanups, left waiting
 * (PT_EBUSY). */
PT__SLOW int pt__cancel_background(struct pt_loop *l) {
    struct pt_task *b;
    if (!l->background)
        return 0;
    for (b = l->background; b; b = b->up.background)
        (void)pt_task_cancel(l, b);
    return pt__pending(l);
}
#endif

#endif /* PT_LOOP_FEATURES_BACKGROUND_H */
