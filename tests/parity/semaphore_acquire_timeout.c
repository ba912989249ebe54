/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: PT_SEMAPHORE_ACQUIRE with a timeout (Python's wait_for(sem.acquire(), timeout)) on a
 * semaphore of 1 that main holds: the impatient task's wait ends PT_ETIMEDOUT and it leaves the
 * queue; the patient one is given the unit when main releases it (semaphore_acquire_timeout.py).
 */
#include "parity.h"

static struct pt_semaphore sem;
static struct pt_task imp, pat, m;

static PT_THREAD(impatient(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("I waits 2 units\n");
    PT_SEMAPHORE_ACQUIRE(&sem, 2 * UNIT);
    if (PT_WAIT_RESULT() == PT_OK) {
        printf("I acquired\n");
        pt_semaphore_release(loop, &sem);
    } else if (PT_WAIT_RESULT() == PT_ETIMEDOUT) {
        printf("I timed out\n");
    } else {
        printf("I: acquire: %s\n", pt_err_name(PT_WAIT_RESULT()));
    }
    PT_TASK_END();
}

static PT_THREAD(patient(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    printf("P waits\n");
    PT_SEMAPHORE_ACQUIRE(&sem, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("P acquired\n");
    else
        printf("P: acquire: %s\n", pt_err_name(PT_WAIT_RESULT()));
    pt_semaphore_release(loop, &sem);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_semaphore_init(&sem, 1);
    PT_SEMAPHORE_ACQUIRE(&sem, PT_FOREVER);
    printf("main holds the unit\n");
    parity_spawn(loop, &imp, impatient);
    parity_spawn(loop, &pat, patient);
    PT_SLEEP(10 * UNIT);
    printf("main releases\n");
    pt_semaphore_release(loop, &sem);
    PT_JOIN(&imp, PT_FOREVER);
    PT_JOIN(&pat, PT_FOREVER);
    printf("locked: %s\n", sem.count == 0 ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
