/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/sync_fixture.h - what tests/test_loop_sync.c and
 * tests/test_loop_queue.c share: one kind of task state (struct tk), the
 * wake order, a fresh loop. Include after "runner.h" and "loop_util.h".
 * (Static inline: a program that does not use one of them is not warned
 * about it.)
 */
#ifndef TESTS_SYNC_FIXTURE_H
#define TESTS_SYNC_FIXTURE_H

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int id;
    int i, n;
    pt_time_t ticks;   /* a delay before acting */
    pt_time_t timeout; /* of the wait */
    long woke_at;      /* loop time after the wait (-1: never) */
    int result;        /* the result of the wait */
    int cleanups, cleanup_result;
    int stopped; /* the wait stopped (did not return at once) */
    pt_value item, items[16];
    struct pt_event *ev;
    struct pt_semaphore *sem;
    struct pt_queue *q;
    struct tk *other;
};

static inline void tk_init(struct tk *k, const char *name, int id) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->id = id;
    k->n = 1;
    k->timeout = PT_FOREVER;
    k->woke_at = -1;
    k->result = 99;
    k->cleanup_result = 99;
}

static inline void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_loop_spawn(&lp, &k->task, fn), PT_OK);
}

/* Wake order, by task id. */
static int order[64];
static int norder;

/* Loop iterations, counted by a task that yields (see ticker). */
static long iterations;

/* A fresh loop at `start`, an empty trace, no wake order, no iterations. */
static inline void fresh(pt_time_t start) {
    setup(start);
    norder = 0;
    iterations = 0;
}

static inline PT_THREAD(ticker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        iterations++;
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

#define CLEANUP_SECTION(k)                                                                         \
    PT_TASK_CLEANUP();                                                                             \
    (k)->cleanups++;                                                                               \
    (k)->cleanup_result = PT_WAIT_RESULT();                                                        \
    note_n((k)->name, -(long)(k)->cleanups);                                                       \
    PT_TASK_END()

/* After a wait: its result, when it ended, and in which order. */
#define AFTER_WAIT(k)                                                                              \
    do {                                                                                           \
        (k)->result = PT_WAIT_RESULT();                                                            \
        (k)->woke_at = (long)pt_loop_now(loop);                                                    \
        order[norder++] = (k)->id;                                                                 \
    } while (0)

/* A loop whose timer heap has no slot. */
static inline void fresh_without_timers(void) {
    fresh(0);
    CHECK_EQ_INT(pt_loop_init(&lp, NULL, 0), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
}

#endif /* TESTS_SYNC_FIXTURE_H */
