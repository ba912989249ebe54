/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a condition (struct pt_cond over a struct pt_lock, Python's asyncio.Condition): W1, W2,
 * W3 wait on it in turn (PT_COND_WAIT releases the lock). pt_cond_notify(loop, c, task, 1) wakes
 * the longest waiter, W1, which takes the lock back (FIFO) once main, which holds it and asks again
 * at once, has released it; pt_cond_notify_all wakes the others in the order they waited, each
 * holding the lock in turn when its wait ends (condition_notify_order.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
};

static struct waiter ws[3] = {{.name = "W1"}, {.name = "W2"}, {.name = "W3"}};
static struct pt_lock lock;
static struct pt_cond cond;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("%s waits\n", w->name);
    PT_COND_WAIT(&cond, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s woken, holds the lock: %s\n", w->name,
               pt_lock_owner(&lock) == task ? "True" : "False");
    else
        printf("%s: wait: %s\n", w->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_YIELD();
    printf("%s releases\n", w->name);
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    pt_cond_init(&cond, &lock);
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ws[i].task, waiter);
    PT_TASK_YIELD();
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("main notifies 1\n");
    (void)pt_cond_notify(loop, &cond, task, 1);
    PT_TASK_YIELD();
    printf("main releases\n");
    (void)pt_lock_release(loop, &lock, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("main notifies all\n");
    (void)pt_cond_notify_all(loop, &cond, task);
    printf("main releases\n");
    (void)pt_lock_release(loop, &lock, task);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
