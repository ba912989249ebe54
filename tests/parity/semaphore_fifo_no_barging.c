/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a semaphore of 1 (struct pt_semaphore, Python's Semaphore(1)): H holds it while W1, W2,
 * W3 queue up; H releases it and at once asks for it again. The unit goes to the waiters in the
 * order they asked, W1, W2, W3, and H gets it back only after them: no barging, as in Python 3.11.7
 * (semaphore_fifo_no_barging.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
};

static struct waiter ws[3] = {{.name = "W1"}, {.name = "W2"}, {.name = "W3"}};
static struct pt_task h;
static struct pt_semaphore sem;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(holder(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SEMAPHORE_ACQUIRE(&sem, PT_FOREVER);
    printf("H acquired\n");
    PT_SLEEP(UNIT);
    printf("H releases and acquires again\n");
    pt_semaphore_release(loop, &sem);
    PT_SEMAPHORE_ACQUIRE(&sem, PT_FOREVER);
    printf("H acquired again\n");
    pt_semaphore_release(loop, &sem);
    PT_TASK_END();
}

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s waits\n", w->name);
    PT_SEMAPHORE_ACQUIRE(&sem, PT_FOREVER);
    printf("%s acquired\n", w->name);
    PT_TASK_YIELD();
    printf("%s releases\n", w->name);
    pt_semaphore_release(loop, &sem);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_semaphore_init(&sem, 1);
    parity_spawn(loop, &h, holder);
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ws[i].task, waiter);
    PT_JOIN(&h, PT_FOREVER);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
