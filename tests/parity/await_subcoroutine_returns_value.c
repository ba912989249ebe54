/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* parity: a task awaits (PT_AWAIT) a sub-coroutine (PT_SUB_BEGIN) that waits on the loop itself;
 * the await gives the sub-coroutine's result (await_subcoroutine_returns_value.py). */
#include "parity.h"

static struct {
    struct pt_task task;
    struct pt_gen fetch; /* the awaited coroutine's generator */
    long n, total;
} m;

/* async def fetch(n): await asyncio.sleep(0.01); return n * 2 */
static PT_THREAD(fetch(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    PT_SUB_BEGIN(loop, task, g);
    printf("fetch %ld starts\n", m.n);
    PT_SLEEP(UNIT);
    printf("fetch %ld returns %ld\n", m.n, m.n * 2);
    PT_TASK_RETURN(pt_value_int(m.n * 2));
    PT_SUB_END();
}

static PT_THREAD(main_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    m.total = 0;
    for (m.n = 1; m.n <= 3; m.n++) {
        PT_AWAIT(&task->gen, &m.fetch, fetch(loop, task, &m.fetch));
        printf("main got %ld\n", (long)m.fetch.value.i);
        m.total += (long)m.fetch.value.i;
    }
    printf("total %ld\n", m.total);
    PT_TASK_END();
}

int main(void) {
    return parity_run(&m.task, main_task);
}
