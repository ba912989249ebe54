/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_event_set then pt_event_clear at once (a pulse) still wakes every task that was
 * waiting when it was set, as asyncio's Event does: set wakes the waiters, clear only stops later
 * waits from passing (event_pulse_wakes_all.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
};

static struct waiter ws[2] = {{.name = "W1"}, {.name = "W2"}};
static struct pt_event ev;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s waits\n", w->name);
    PT_EVENT_WAIT(&ev, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s woke\n", w->name);
    else
        printf("%s: %s\n", w->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_event_init(&ev);
    for (i = 0; i < 2; i++)
        parity_spawn(loop, &ws[i].task, waiter);
    PT_SLEEP(UNIT);
    printf("main pulses\n");
    pt_event_set(loop, &ev);
    pt_event_clear(&ev);
    for (m.i = 0; m.i < 2; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    printf("is_set %s\n", ev.set ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
