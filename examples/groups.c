/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/groups.c - a task group, as asyncio's TaskGroup: three members
 * spawned into it, one wait for all of them. The first member that fails
 * cancels the others (PT_GROUP_CANCEL_ON_FAIL): their cleanups run, and the
 * wait ends PT_EFAILED once every member has finished; pt_group_error
 * gives the failure's error value. The members array lists them in the
 * order they finished. (PT_GROUP_COLLECT would let every member run to
 * its end instead, as gather(return_exceptions=True).)
 */
#include <stdio.h>

#include "loop/loop.h"

#define E_DISK_FULL 28 /* an error value of the application's own */

struct member {
    struct pt_task task;
    const char *name;
    pt_time_t ms; /* how long it works */
    int fails;    /* 1: it fails when done */
};

static struct member members[3] = {{.name = "fetch", .ms = 50},
                                   {.name = "store", .ms = 100, .fails = 1},
                                   {.name = "index", .ms = 500}};
static struct pt_task *slots[3]; /* the group's array: caller-owned */
static struct pt_group group;
static struct pt_task parent;

static PT_THREAD(work(struct pt_loop *loop, struct pt_task *task)) {
    struct member *m = (struct member *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(m->ms));
    if (m->fails)
        PT_TASK_FAIL(pt_value_int(E_DISK_FULL));
    PT_TASK_RETURN(pt_value_int((intptr_t)m->ms));
    PT_TASK_CLEANUP();
    printf("%4u ms  %s: cleanup\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), m->name);
    PT_TASK_END();
}

static const char *status_name(char status) {
    return status == PT_ENDED ? "returned" : status == PT_EXITED ? "failed" : "cancelled";
}

static PT_THREAD(run_group(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, slots, 3, PT_GROUP_CANCEL_ON_FAIL);
    for (i = 0; i < 3; i++)
        (void)pt_group_spawn(loop, &group, &members[i].task, work);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    printf("%4u ms  group: %s, first error %d\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           pt_err_name(PT_WAIT_RESULT()), pt_group_error(&group));
    for (i = 0; i < 3; i++) { /* in the order they finished */
        struct member *m = (struct member *)slots[i];
        printf("         %s %s (value %d)\n", m->name, status_name(pt_task_status(&m->task)),
               (int)m->task.gen.value.i);
    }
    PT_TASK_END();
}

int main(void) {
    static struct pt_timer_slot timers[4];
    struct pt_loop loop;
    if (pt_loop_init(&loop, timers, 4) != PT_OK)
        return 1;
    pt_loop_use_virtual_clock(&loop, 0);
    (void)pt_loop_spawn(&loop, &parent, run_group);
    return pt_loop_run(&loop) == PT_OK ? 0 : 1;
}
