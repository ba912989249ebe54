/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a member of a PT_GROUP_CANCEL_ON_FAIL group fails while the task that spawned it into the
 * group (PT_GROUP_SPAWN) waits on something else: that wait ends PT_ECANCELLED at once, not only
 * once the task reaches PT_GROUP_WAIT, which then gives PT_EFAILED, as asyncio's TaskGroup cancels
 * the body of the `async with` (taskgroup_failure_cancels_body_wait.py). */
#include "parity.h"

static struct pt_task m, member;
static struct pt_task *slots[1];
static struct pt_group g;

static PT_THREAD(fails(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    printf("M fails\n");
    PT_TASK_FAIL(pt_value_int(5));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&g, slots, 1, PT_GROUP_CANCEL_ON_FAIL);
    if (PT_GROUP_SPAWN(&g, &member, fails) != PT_OK)
        printf("spawn failed\n");
    PT_SLEEP(PT_MS(1000));
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("body wait cancelled\n");
    else
        printf("body woke\n");
    PT_GROUP_WAIT(&g, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_EFAILED)
        printf("group failed\n");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
