/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a barrier of 3 (struct pt_barrier, Python's asyncio.Barrier(3)), two rounds:
 * PT_BARRIER_WAIT sets the index to the order of arrival (0, 1, 2); the last to arrive does not
 * stop, the others then pass in the order they arrived; the next round may come in another order
 * (barrier_two_rounds_arrival_index.py). */
#include "parity.h"

struct party {
    struct pt_task task;
    const char *name;
    int pauses[2];
    int round;
    pt_index_t index;
};

static struct party ps[3] = {{.name = "A", .pauses = {1, 20}},
                             {.name = "B", .pauses = {2, 1}},
                             {.name = "C", .pauses = {3, 10}}};
static struct pt_barrier barrier;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(party(struct pt_loop *loop, struct pt_task *task)) {
    struct party *p = (struct party *)task;
    PT_TASK_BEGIN(loop, task);
    for (p->round = 1; p->round <= 2; p->round++) {
        PT_SLEEP((pt_time_t)p->pauses[p->round - 1] * UNIT);
        printf("%s arrives (round %d)\n", p->name, p->round);
        PT_BARRIER_WAIT(&barrier, &p->index, PT_FOREVER);
        if (PT_WAIT_RESULT() == PT_OK)
            printf("%s passes (round %d), index %d\n", p->name, p->round, (int)p->index);
        else
            printf("%s: wait: %s\n", p->name, pt_err_name(PT_WAIT_RESULT()));
    }
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_barrier_init(&barrier, 3);
    for (i = 0; i < 3; i++)
        parity_spawn(loop, &ps[i].task, party);
    for (m.i = 0; m.i < 3; m.i++)
        PT_JOIN(&ps[m.i].task, PT_FOREVER);
    printf("waiting: %d, broken: %s\n", (int)pt_barrier_waiting(&barrier),
           pt_barrier_broken(&barrier) ? "True" : "False");
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
