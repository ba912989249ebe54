/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a lock (struct pt_lock, Python's asyncio.Lock): W1, W2, W3 queue up while main holds it;
 * main releases it and at once asks for it again. The release hands it to the longest waiter, so
 * it goes to W1, W2, W3 in turn and main gets it back only after them: FIFO, no barging, as in
 * Python 3.11.7 (lock_fifo_three_waiters.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
};

static struct waiter ws[3] = {{.name = "W1"}, {.name = "W2"}, {.name = "W3"}};
static struct pt_lock lock;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s waits\n", w->name);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s acquired\n", w->name);
    else
        printf("%s: acquire: %s\n", w->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_YIELD();
    printf("%s releases\n", w->name);
    (void)pt_lock_release(loop, &lock, task);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_lock_init(&lock);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    printf("main holds the lock\n");
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ws[i].task, waiter);
    PT_TASK_YIELD();
    printf("main releases and acquires again\n");
    (void)pt_lock_release(loop, &lock, task);
    PT_LOCK_ACQUIRE(&lock, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main acquired again\n");
    else
        printf("main: acquire: %s\n", pt_err_name(PT_WAIT_RESULT()));
    (void)pt_lock_release(loop, &lock, task);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    printf("locked: %s\n", pt_lock_owner(&lock) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
