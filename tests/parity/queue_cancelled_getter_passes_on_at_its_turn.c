/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: G1 and G2 wait on a queue; a put wakes G1, which is cancelled, then L is spawned and
 * gets a value: G1 passes its wake-up on at its own turn (pt_task_cancel does not), so L takes the
 * value and G2 waits for the next, as with asyncio's Queue
 * (queue_cancelled_getter_passes_on_at_its_turn.py).
 */
#include "parity.h"

struct getter {
    struct pt_task task;
    const char *name;
    pt_value v;
    int got;
};

static struct getter g1 = {.name = "G1"}, g2 = {.name = "G2"}, l = {.name = "L"};
static pt_value slots[4];
static struct pt_queue q;
static struct pt_task m;

static PT_THREAD(getter(struct pt_loop *loop, struct pt_task *task)) {
    struct getter *g = (struct getter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_QUEUE_GET(&q, &g->v, PT_FOREVER);
    g->got = 1;
    printf("%s got %ld\n", g->name, (long)g->v.i);
    PT_TASK_CLEANUP();
    if (!g->got) /* (no other way out of the body) */
        printf("%s cancelled\n", g->name);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_queue_init(&q, slots, 4);
    parity_spawn(loop, &g1.task, getter);
    parity_spawn(loop, &g2.task, getter);
    PT_TASK_YIELD();
    printf("main puts 1, cancels G1, starts L\n");
    (void)pt_queue_try_put(loop, &q, pt_value_int(1));
    (void)pt_task_cancel(loop, &g1.task);
    parity_spawn(loop, &l.task, getter);
    PT_JOIN(&g1.task, PT_FOREVER);
    PT_JOIN(&l.task, PT_FOREVER);
    printf("main puts 2\n");
    (void)pt_queue_try_put(loop, &q, pt_value_int(2));
    PT_JOIN(&g2.task, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
