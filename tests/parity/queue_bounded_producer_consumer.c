/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a bounded queue of 2 (struct pt_queue, Python's Queue(maxsize=2)): PT_QUEUE_PUT waits
 * while it is full, PT_QUEUE_GET while it is empty; values come out in the order they went in
 * (queue_bounded_producer_consumer.py). */
#include "parity.h"

static pt_value slots[2];
static struct pt_queue q;
static struct {
    struct pt_task task;
    int i;
} prod, cons;
static pt_value got; /* where a get stores its value: outlives the wait */
static struct pt_task *members[2];
static struct pt_group group;
static struct pt_task m;

static PT_THREAD(producer(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    for (prod.i = 0; prod.i < 5; prod.i++) {
        if (q.count == q.cap)
            printf("producer waits to put %d\n", prod.i);
        PT_QUEUE_PUT(&q, pt_value_int(prod.i), PT_FOREVER);
        printf("put %d\n", prod.i);
    }
    printf("producer done\n");
    PT_TASK_END();
}

static PT_THREAD(consumer(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(UNIT);
    for (cons.i = 0; cons.i < 5; cons.i++) {
        if (q.count == 0)
            printf("consumer waits\n");
        PT_QUEUE_GET(&q, &got, PT_FOREVER);
        printf("got %ld\n", (long)got.i);
    }
    printf("consumer done\n");
    PT_TASK_END();
}

/* await asyncio.gather(producer(q), consumer(q)) */
static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_queue_init(&q, slots, 2);
    pt_group_init(&group, members, 2, PT_GROUP_CANCEL_ON_FAIL);
    (void)pt_group_spawn(loop, &group, &prod.task, producer);
    (void)pt_group_spawn(loop, &group, &cons.task, consumer);
    PT_GROUP_WAIT(&group, PT_FOREVER);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
