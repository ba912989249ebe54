/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_JOIN (Python's `await task`) waits for the task to finish; its result is then in the
 * task's gen.value (join_returns_result.py). */
#include "parity.h"

static struct pt_task jt, m;

static PT_THREAD(job(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("job starts\n");
    PT_SLEEP(UNIT);
    printf("job returns 42\n");
    PT_TASK_RETURN(pt_value_int(42));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    parity_spawn(loop, &jt, job);
    printf("main awaits job\n");
    PT_JOIN(&jt, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("result %ld\n", (long)jt.gen.value.i);
    else
        printf("join: %s\n", pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
