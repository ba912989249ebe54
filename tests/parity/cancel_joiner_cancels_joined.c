/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel of a task parked in PT_JOIN cancels the task it joins: that one's cleanup
 * runs first, then the cancelled joiner's; another task joining the same task sees PT_ECANCELLED,
 * and the joiners wake in the order they joined, as cancelling an asyncio task that awaits another
 * cancels it (cancel_joiner_cancels_joined.py). */
#include "parity.h"

static struct pt_task in, out, w, m;

static PT_THREAD(inner(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("inner sleeps\n");
    PT_SLEEP(100 * UNIT);
    printf("inner not reached\n");
    PT_TASK_CLEANUP();
    printf("inner finally\n");
    PT_TASK_END();
}

static PT_THREAD(outer(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("outer awaits inner\n");
    PT_JOIN(&in, PT_FOREVER);
    printf("outer not reached\n");
    PT_TASK_CLEANUP();
    printf("outer finally\n");
    PT_TASK_END();
}

static PT_THREAD(watcher(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("W awaits inner\n");
    PT_JOIN(&in, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("W: inner returned\n");
    else if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("W: inner cancelled\n");
    else
        printf("W: join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &in, inner);
    parity_spawn(loop, &out, outer);
    parity_spawn(loop, &w, watcher);
    PT_SLEEP(UNIT);
    printf("main cancels outer\n");
    (void)pt_task_cancel(loop, &out);
    PT_JOIN(&out, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("outer returned\n");
    else if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("outer cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_JOIN(&w, PT_FOREVER);
    printf("inner cancelled: %s\n", pt_task_status(&in) == PT_CLOSED ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
