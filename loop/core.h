/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/core.h - the scheduler, in its layers (loop/sched/), each using only
 * those before it:
 *
 *   sched/hooks.h   the seam: the hooks through which the features below
 *                   reach the scheduler (documented there)
 *   sched/queue.h   the loop (init, clock, stop), the ready queue
 *   sched/park.h    parking and waking a task: waits, wake-ups, cancel
 *   sched/task.h    a task's life: spawn, cancel, finish, result
 *   sched/body.h    writing a task: its body's macros, sleep and join
 *   sched/run.h     one iteration and the run modes
 *
 * then the features' side of the hooks (loop/features/), each compiled
 * only under its option: the debug mode's bookkeeping, callbacks and
 * timeout scopes, waiter lists, background tasks, the stall check. (Task
 * groups reach the scheduler through their struct pt_group's event.)
 *
 * Nothing here allocates: tasks and the heap's array belong to the caller.
 */
#ifndef PT_LOOP_CORE_H
#define PT_LOOP_CORE_H

#include "sched/body.h"
#include "sched/hooks.h"
#include "sched/park.h"
#include "sched/queue.h"
#include "sched/run.h"
#include "sched/task.h"

#include "features/background.h"
#include "features/callbacks.h"
#include "features/debug.h"
#include "features/stall.h"
#include "features/waitlist.h"

#endif /* PT_LOOP_CORE_H */
