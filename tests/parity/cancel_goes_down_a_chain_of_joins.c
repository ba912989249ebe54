/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_task_cancel goes down a chain of joins: A joins B, which joins C; cancelling A cancels
 * B, which cancels C, and the cleanups run from the bottom up, C, B, then A, each joiner waiting
 * for the task it joined to finish (cancel_goes_down_a_chain_of_joins.py). */
#include "parity.h"

static struct pt_task ta, tb, tc, m;

static PT_THREAD(task_c(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("C sleeps\n");
    PT_SLEEP(100 * UNIT);
    PT_TASK_CLEANUP();
    printf("C finally\n");
    PT_TASK_END();
}

static PT_THREAD(task_b(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("B awaits C\n");
    PT_JOIN(&tc, PT_FOREVER);
    PT_TASK_CLEANUP();
    printf("B finally\n");
    PT_TASK_END();
}

static PT_THREAD(task_a(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("A awaits B\n");
    PT_JOIN(&tb, PT_FOREVER);
    PT_TASK_CLEANUP();
    printf("A finally\n");
    PT_TASK_END();
}

static const char *cancelled(const struct pt_task *t) {
    return pt_task_status(t) == PT_CLOSED ? "True" : "False";
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &tc, task_c);
    parity_spawn(loop, &tb, task_b);
    parity_spawn(loop, &ta, task_a);
    PT_SLEEP(UNIT);
    printf("main cancels A\n");
    (void)pt_task_cancel(loop, &ta);
    PT_JOIN(&ta, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_ECANCELLED)
        printf("A cancelled\n");
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("B cancelled: %s, C cancelled: %s\n", cancelled(&tb), cancelled(&tc));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
