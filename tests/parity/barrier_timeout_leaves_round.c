/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a barrier of 2: A's PT_BARRIER_WAIT with a timeout (Python's wait_for(b.wait(), t))
 * ends PT_ETIMEDOUT and A leaves the round; B and C, arriving later, make up the round between
 * them: B's index is 0, C's (the last) 1, and C goes on first (barrier_timeout_leaves_round.py). */
#include "parity.h"

struct party {
    struct pt_task task;
    const char *name;
    int pause;
    pt_time_t timeout;
    pt_index_t index;
};

static struct party ps[3] = {{.name = "A", .pause = 0, .timeout = 2 * UNIT},
                             {.name = "B", .pause = 10, .timeout = PT_FOREVER},
                             {.name = "C", .pause = 11, .timeout = PT_FOREVER}};
static struct pt_barrier barrier;
static struct {
    struct pt_task task;
    int i;
} m;

static PT_THREAD(party(struct pt_loop *loop, struct pt_task *task)) {
    struct party *p = (struct party *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP((pt_time_t)p->pause * UNIT);
    printf("%s arrives\n", p->name);
    PT_BARRIER_WAIT(&barrier, &p->index, p->timeout);
    if (PT_WAIT_RESULT() == PT_OK)
        printf("%s passes, index %d\n", p->name, (int)p->index);
    else if (PT_WAIT_RESULT() == PT_ETIMEDOUT)
        printf("%s timed out, waiting: %d\n", p->name, (int)pt_barrier_waiting(&barrier));
    else
        printf("%s: wait: %s\n", p->name, pt_err_name(PT_WAIT_RESULT()));
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    int i;
    PT_TASK_BEGIN(loop, task);
    pt_barrier_init(&barrier, 2);
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
