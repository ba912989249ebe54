/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_event_set wakes every waiter, in the order they started waiting (here B, C, A: not
 * the order the tasks started); the event stays set (event_set_wakes_all_in_wait_order.py). */
#include "parity.h"

struct waiter {
    struct pt_task task;
    const char *name;
    int yields, i;
};

static struct waiter ws[3] = {
    {.name = "A", .yields = 2}, {.name = "B"}, {.name = "C", .yields = 1}};
static struct pt_event ev;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    for (w->i = 0; w->i < w->yields; w->i++)
        PT_TASK_YIELD();
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
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ws[i].task, waiter);
    for (m.i = 0; m.i < 5; m.i++) /* lets them all start waiting */
        PT_TASK_YIELD();
    printf("main sets\n");
    pt_event_set(loop, &ev);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ws[m.i].task, PT_FOREVER);
    printf("is_set %s\n", ev.set ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
