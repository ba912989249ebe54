/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint: correct uses of locals in bodies that wait; nothing here may be
 * reported (no line is marked "pt-lint: expect"). */
#include <stdio.h>
#include <time.h>

#include "loop/loop.h"

extern int ready(void);
extern int fetch(void);

struct job {
    struct pt_task task;
    pt_time_t t0; /* kept in the task: survives the waits */
    int done;
};

/* State in the task's own struct; a pointer to it set before the body on
 * every call. */
PT_THREAD(in_struct(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    j->t0 = pt_loop_now(loop);
    PT_SLEEP(PT_MS(100));
    printf("%u\n", (unsigned)(pt_loop_now(loop) - j->t0));
    j->done = 1;
    PT_TASK_END();
}

/* Written after the wait, then read; used only between two waits. */
PT_THREAD(after_and_between(struct pt_loop *loop, struct pt_task *task)) {
    pt_time_t now;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(10));
    now = pt_loop_now(loop);
    printf("%u\n", (unsigned)now);
    {
        int n = fetch();
        printf("%d\n", n);
    }
    PT_SLEEP(PT_MS(10));
    for (;;) {
        PT_TASK_YIELD();
        int k = fetch();
        if (k < 0)
            break;
        printf("%d\n", k);
    }
    PT_TASK_END();
}

/* A static local lives as long as the program. */
PT_THREAD(with_static(struct pt *pt)) {
    static int calls;
    PT_BEGIN(pt);
    calls++;
    PT_YIELD(pt);
    printf("%d\n", calls);
    PT_END(pt);
}

/* A local filled through its address after the wait; a struct written
 * field by field after it; a loop counter that never crosses a wait. */
PT_THREAD(filled_after(struct pt *pt)) {
    struct timespec ts;
    struct {
        int a, b;
    } pair;
    int i;
    PT_BEGIN(pt);
    PT_YIELD(pt);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("%ld\n", (long)ts.tv_sec);
    pair.a = 1;
    pair.b = 2;
    printf("%d %d\n", pair.a, pair.b);
    for (i = 0; i < 3; i++)
        printf("%d\n", i);
    PT_WAIT_UNTIL(pt, ready());
    PT_END(pt);
}

/* Written on every path before the read: in both branches, and in a
 * condition that guards the read (&& evaluates its right side first). */
PT_THREAD(every_path(struct pt *pt)) {
    int v, w;
    PT_BEGIN(pt);
    PT_YIELD(pt);
    if (ready())
        v = 1;
    else
        v = 2;
    printf("%d\n", v);
    if (ready() && (w = fetch()) > 0)
        printf("%d\n", w);
    if (!ready() || (w = fetch()) == 0)
        PT_EXIT(pt);
    printf("%d\n", w);
    PT_END(pt);
}

/* A local of the code before PT_TASK_BEGIN, set on every call and never
 * changed by the body: the same value after each wait. */
PT_THREAD(set_every_call(struct pt_loop *loop, struct pt_task *task)) {
    struct job *const j = (struct job *)task;
    int limit = 3;
    PT_TASK_BEGIN(loop, task);
    while (j->done < limit) {
        PT_SLEEP(PT_MS(1));
        j->done++;
    }
    PT_TASK_END();
}

/* (void)x is not a use of x's value; sizeof does not evaluate. */
PT_THREAD(not_uses(struct pt *pt)) {
    char buf[8];
    PT_BEGIN(pt);
    int unused = fetch();
    PT_YIELD(pt);
    (void)unused;
    printf("%u\n", (unsigned)sizeof buf);
    PT_END(pt);
}

/* A switch of the body between waits (the switch back end allows one that
 * encloses no wait), its selector and its locals used within one step. */
PT_THREAD(switch_between_waits(struct pt_loop *loop, struct pt_task *task)) {
    struct job *const j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(1));
    {
        int mode = fetch(), out = 0;
        switch (mode) {
        case 1:
            out = 10;
            break;
        default:
            out = 20;
            break;
        }
        j->done = out;
    }
    PT_SLEEP(PT_MS(1));
    PT_TASK_END();
}
