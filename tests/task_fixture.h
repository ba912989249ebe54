/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/task_fixture.h - the tasks that tests/test_loop_task.c and
 * tests/test_loop_cancel.c share: one kind of task state (struct tk) and
 * the bodies both use (a worker, a joiner, a canceller). Include after
 * "runner.h" and "loop_util.h". (Static inline: a program that does not
 * use one of them is not warned about it.)
 */
#ifndef TESTS_TASK_FIXTURE_H
#define TESTS_TASK_FIXTURE_H

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int n;                   /* what to return (a negative n: fail with it) */
    pt_time_t ticks;         /* a delay */
    pt_time_t timeout;       /* of a join */
    pt_time_t cleanup_ticks; /* how long its cleanup sleeps */
    long woke_at;            /* loop time after the wait (-1: never) */
    long cleaned_at;         /* loop time its cleanup ran at (-1: never) */
    int result;              /* the result of the wait */
    int cleanup_result;      /* the wait result seen in the cleanup section */
    int runs, cleanups, rc, rc2;
    pt_value got; /* the joined task's value, or a sub's result */
    struct tk *other;
    struct pt_event *ev;
    struct pt_semaphore *sem;
    struct pt_queue *q;
    pt_value item;
    struct pt_gen sub, sub2;
    int sub_result, sub_cleanups, sub2_cleanups;
};

static inline void tk_init(struct tk *k, const char *name) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->woke_at = -1;
    k->cleaned_at = -1;
    k->result = 99;
    k->cleanup_result = 99;
    k->sub_result = 99;
    k->rc = k->rc2 = 99;
}

static inline void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_loop_spawn(&lp, &k->task, fn), PT_OK);
}

/* The common end of every body: note the cleanup, maybe sleep in it. */
#define CLEANUP_SECTION(k)                                                                         \
    PT_TASK_CLEANUP();                                                                             \
    (k)->cleanups++;                                                                               \
    (k)->cleanup_result = PT_WAIT_RESULT();                                                        \
    (k)->cleaned_at = (long)pt_loop_now(loop);                                                     \
    note_n((k)->name, -(long)(k)->cleanups); /* "B-1": B's first cleanup */                        \
    if ((k)->cleanup_ticks)                                                                        \
        PT_SLEEP((k)->cleanup_ticks);                                                              \
    PT_TASK_END()

/* Sleeps `ticks`, then returns n (or fails with it if negative). */
static inline PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_SLEEP(k->ticks);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    if (k->n < 0)
        PT_TASK_FAIL(pt_value_int(k->n));
    PT_TASK_RETURN(pt_value_int(k->n));
    CLEANUP_SECTION(k);
}

/* Joins `other` with `timeout`; then returns what the join gave. */
static inline PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    k->got = k->other->task.gen.value;
    note(k->name);
    PT_TASK_RETURN(pt_value_int(k->result));
    CLEANUP_SECTION(k);
}

/* Sleeps `ticks`, then cancels `other` (rc: what pt_task_cancel said; rc2: a
 * second pt_task_cancel at once). */
static inline PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->rc = pt_task_cancel(loop, &k->other->task);
    k->rc2 = pt_task_cancel(loop, &k->other->task);
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_END();
}

/* Spawns `other` (a worker), then joins it with `timeout`. */
static inline PT_THREAD(spawn_join(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_spawn(loop, &k->other->task, worker);
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    CLEANUP_SECTION(k);
}

/* A fresh loop starting at `start` where task A (joiner) joins task B
 * (worker) with `timeout`. Spawning only queues them: the caller sets B's
 * (or A's) other fields afterwards, before running the loop. */
static inline void join_pair(struct tk *a, struct tk *b, pt_time_t start, pt_time_t timeout) {
    setup(start);
    tk_init(a, "A");
    tk_init(b, "B");
    a->other = b;
    a->timeout = timeout;
    spawn(b, worker);
    spawn(a, joiner);
}

#endif /* TESTS_TASK_FIXTURE_H */
