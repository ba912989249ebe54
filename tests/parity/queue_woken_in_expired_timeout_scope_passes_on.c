/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: G1 waits on a queue inside a timeout scope of 0 ticks, G2 without one; a put wakes G1
 * in the same iteration, before the scope's deadline has been acted on. The scope then ends G1's
 * wait before G1 has run: G1 times out without the value and G2 gets it, as with
 * asyncio.timeout(0) (queue_woken_in_expired_timeout_scope_passes_on.py). */
#include "parity.h"

struct getter {
    struct pt_task task;
    const char *name;
    struct pt_timeout scope; /* G1's */
    int scoped;
    pt_value v;
};

static struct getter g1 = {.name = "G1", .scoped = 1}, g2 = {.name = "G2"};
static pt_value slots[4];
static struct pt_queue q;
static struct pt_task m;

static PT_THREAD(getter(struct pt_loop *loop, struct pt_task *task)) {
    struct getter *g = (struct getter *)task;
    PT_TASK_BEGIN(loop, task);
    if (g->scoped) {
        PT_TIMEOUT_BEGIN(&g->scope, 0);
        PT_QUEUE_GET(&q, &g->v, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK && PT_WAIT_RESULT() != PT_ETIMEDOUT)
            printf("%s get: %s\n", g->name, pt_err_string(PT_WAIT_RESULT()));
        if (PT_TIMEOUT_END(&g->scope) == PT_ETIMEDOUT) {
            printf("%s timed out\n", g->name);
            PT_TASK_RETURN(pt_value_int(0));
        }
    } else {
        PT_QUEUE_GET(&q, &g->v, PT_FOREVER);
    }
    printf("%s got %ld\n", g->name, (long)g->v.i);
    PT_TASK_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_queue_init(&q, slots, 4);
    parity_spawn(loop, &g1.task, getter);
    parity_spawn(loop, &g2.task, getter);
    PT_TASK_YIELD();
    printf("main puts 1\n");
    (void)pt_queue_try_put(loop, &q, pt_value_int(1));
    PT_JOIN(&g1.task, PT_FOREVER);
    PT_JOIN(&g2.task, PT_FOREVER);
    printf("left: %u\n", (unsigned)q.count);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m, main_task);
}
