/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: PT_SLEEP(0) is a timer, not a yield: the task waits for the next
 * iteration's timers (after its poll), so a task that yielded (PT_TASK_YIELD) in the same
 * iteration resumes first (loop/core.h, PT_SLEEP). asyncio.sleep(0) is a bare yield, which is
 * PT_TASK_YIELD: in Python A, which stopped first, resumes first. */
#include "parity.h"

static struct pt_task a, b, m;
static struct pt_task *members[2];
static struct pt_group group;

static PT_THREAD(task_a(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("A sleeps 0\n");
    PT_SLEEP(0);
    printf("A resumes\n");
    PT_TASK_END();
}

static PT_THREAD(task_b(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("B yields\n");
    PT_TASK_YIELD();
    printf("B resumes\n");
    PT_TASK_END();
}

/* await asyncio.gather(a(), b()) */
static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_group_init(&group, members, 2, PT_GROUP_CANCEL_ON_FAIL);
    (void)pt_group_spawn(loop, &group, &a, task_a);
    (void)pt_group_spawn(loop, &group, &b, task_b);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
