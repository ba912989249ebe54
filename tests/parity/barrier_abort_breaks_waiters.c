/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: pt_barrier_abort (Python's Barrier.abort()) with two of three parties waiting: both
 * waits end PT_EBROKEN (BrokenBarrierError), in the order they arrived, and so does every later
 * wait, until pt_barrier_reset makes it whole again (barrier_abort_breaks_waiters.py). */
#include "parity.h"

struct party {
    struct pt_task task;
    const char *name;
    pt_index_t index;
};

static struct party ps[2] = {{.name = "A"}, {.name = "B"}};
static struct pt_barrier barrier;
static struct {
    struct pt_task task;
    int i;
    pt_index_t index;
} m;

static PT_THREAD(party(struct pt_loop *loop, struct pt_task *task)) {
    struct party *p = (struct party *)task;
    PT_TASK_BEGIN(loop, task);
    printf("%s waits\n", p->name);
    PT_BARRIER_WAIT(&barrier, &p->index, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s passes\n", p->name);
    else if (PT_WAIT_RESULT() == PT_EBROKEN)
        printf("%s: broken\n", p->name);
    else
        printf("%s: wait: %s\n", p->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_barrier_init(&barrier, 3);
    for (i = 0; i < 2; i++)
        parity_spawn(loop, &ps[i].task, party);
    PT_TASK_YIELD();
    printf("waiting: %d\n", (int)pt_barrier_waiting(&barrier));
    printf("main aborts\n");
    pt_barrier_abort(loop, &barrier);
    for (m.i = 0; m.i < 2; m.i++)
        PT_JOIN(&ps[m.i].task, PT_FOREVER);
    PT_BARRIER_WAIT(&barrier, &m.index, PT_FOREVER);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("main passes\n");
    else if (PT_WAIT_RESULT() == PT_EBROKEN)
        printf("main: broken\n");
    else
        printf("main: wait: %s\n", pt_err_name(PT_WAIT_RESULT()));
    printf("broken: %s\n", pt_barrier_broken(&barrier) ? "True" : "False");
    pt_barrier_reset(loop, &barrier);
    printf("after reset, broken: %s, waiting: %d\n", pt_barrier_broken(&barrier) ? "True" : "False",
           (int)pt_barrier_waiting(&barrier));
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
