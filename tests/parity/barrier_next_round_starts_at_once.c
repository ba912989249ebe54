/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* deliberate difference: the next round of a barrier starts at once (loop/barrier.h;
 * docs/asyncio.md, "Where it differs": no draining state to keep): C, the last of round 1, arrives
 * again before A and B have left and is the first of round 2 (index 0). asyncio's Barrier is
 * "draining" until the tasks it released have left: C's second wait is held back until then, and B,
 * the last to leave, arrives first in round 2 (barrier_next_round_starts_at_once.py). */
#include "parity.h"

struct party {
    struct pt_task task;
    const char *name;
    int pause;
    int round;
    pt_index_t index;
};

static struct party ps[3] = {
    {.name = "A", .pause = 1}, {.name = "B", .pause = 2}, {.name = "C", .pause = 3}};
static struct pt_barrier barrier;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(party(struct pt_loop *loop, struct pt_task *task)) {
    struct party *p = (struct party *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)p->pause * UNIT);
    for (p->round = 1; p->round <= 2; p->round++) {
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
