/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/queue.c - a producer and a consumer joined by a bounded queue
 * (asyncio.Queue(maxsize=2)): the producer is fast, the consumer takes
 * 100 ms per item, and the queue's size is the back-pressure: once two
 * items wait, PT_QUEUE_PUT waits for room, so the producer runs at the
 * consumer's pace instead of piling items up. pt_queue_try_put is the
 * put that never waits: it says 0 when the queue is full.
 */
#include <stdio.h>

#include "loop/loop.h"

#define ITEMS 5

static pt_value slots[2]; /* the queue's storage: caller-owned */
static struct pt_queue queue;

struct producer {
    struct pt_task task;
    int next; /* PT_QUEUE_PUT evaluates its value again on every try */
};
struct consumer {
    struct pt_task task;
    pt_value got; /* PT_QUEUE_GET's destination must outlive the wait */
};

static PT_THREAD(produce(struct pt_loop *loop, struct pt_task *task)) {
    struct producer *p = (struct producer *)task;
    PT_TASK_BEGIN(loop, task);
    for (p->next = 1; p->next <= ITEMS; p->next++) {
        PT_QUEUE_PUT(&queue, pt_value_int(p->next), PT_FOREVER);
        printf("%4u ms  put %d\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), p->next);
    }
    printf("%4u ms  try_put while full -> %d\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
           pt_queue_try_put(loop, &queue, pt_value_int(99)));
    PT_QUEUE_PUT(&queue, pt_value_int(0), PT_FOREVER); /* 0: no more items */
    PT_TASK_END();
}

static PT_THREAD(consume(struct pt_loop *loop, struct pt_task *task)) {
    struct consumer *c = (struct consumer *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_QUEUE_GET(&queue, &c->got, PT_FOREVER);
        if (c->got.i == 0)
            break;
        PT_SLEEP(PT_MS(100)); /* the work an item takes */
        printf("%4u ms          got %d\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), (int)c->got.i);
    }
    printf("%4u ms  consumer done\n", (unsigned)PT_TO_MS(pt_loop_now(loop)));
    PT_TASK_END();
}

int main(void) {
    static struct pt_timer_slot timers[4];
    static struct producer p;
    static struct consumer c;
    struct pt_loop loop;
    if (pt_loop_init(&loop, timers, 4) != PT_OK)
        return 1;
    pt_loop_use_virtual_clock(&loop, 0);
    pt_queue_init(&queue, slots, 2);
    (void)pt_loop_spawn(&loop, &p.task, produce);
    (void)pt_loop_spawn(&loop, &c.task, consume);
    return pt_loop_run(&loop) == PT_OK ? 0 : 1;
}
