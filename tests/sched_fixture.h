/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/sched_fixture.h - what the scheduler's tests (tests/test_loop.c,
 * tests/test_loop_timer.c) share: one kind of task state (struct tk), the
 * wake order, and the bodies both use. Include after "loop_util.h".
 * (Static inline: a program that does not use one of them is not warned
 * about it.)
 */
#ifndef TESTS_SCHED_FIXTURE_H
#define TESTS_SCHED_FIXTURE_H

/* One kind of task state for every body. */
struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int id;
    int i, n;           /* a loop counter and its bound */
    pt_time_t ticks;    /* a delay */
    pt_time_t t0, t1;   /* loop time before and after the last wait */
    int result;         /* the result of the last wait */
    int cleanup_result; /* the wait result seen in the cleanup section */
    int runs, woke, cleanups;
    int rc;           /* what a loop call made by the body returned */
    struct tk *other; /* a task this one acts on */
    struct pt_event *ev;
    struct pt_group group; /* for timed_waits */
    struct pt_task *members[1];
    struct pt_task extra;
};

static inline void tk_init(struct tk *k, const char *name, int id) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->id = id;
    k->n = 1;
    k->result = 99;
    k->cleanup_result = 99;
    k->rc = 99;
}

static inline void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_loop_spawn(&lp, &k->task, fn), PT_OK);
}

/* Wake order, by task id. Tests that read it reset norder first; between
 * them it only counts on, so wakes past the end are counted, not kept. A
 * struct tk takes 90 (AVR) or 140 (Cortex-M0) bytes of a RAM of 2 or 16
 * KiB: on a microcontroller (CHECK_SMALL) the tests wake at most 12. */
static int order[CHECK_SCALE(512, 12)];
static int norder;

static inline void note_order(int id) {
    if (norder < (int)(sizeof order / sizeof order[0]))
        order[norder] = id;
    norder++;
}

/* Notes name+i, then yields, n times. */
static inline PT_THREAD(yielder(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        note_n(k->name, k->i);
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

/* Sleeps `ticks`, n times; notes each wake-up. Returns its id. */
static inline PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    for (k->i = 0; k->i < k->n; k->i++) {
        k->t0 = pt_loop_now(loop);
        PT_SLEEP(k->ticks);
        k->t1 = pt_loop_now(loop);
        k->result = PT_WAIT_RESULT();
        k->woke++;
        note_order(k->id);
        note(k->name);
    }
    PT_TASK_RETURN(pt_value_int(k->id));
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    PT_TASK_END();
}

#if PT_CONFIG_SYNC
/* Waits on its event (no timeout), noting before and after. */
static inline PT_THREAD(event_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note_n(k->name, 0);
    PT_EVENT_WAIT(k->ev, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    note_n(k->name, 1);
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

/* Sets its event and notes it. */
static inline PT_THREAD(event_setter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note(k->name);
    pt_event_set(loop, k->ev);
    PT_TASK_END();
}
#endif

/* Sleeps `ticks`, then cancels `other`; rc is what pt_task_cancel returned,
 * n the number of timers just before, result the number just after. */
static inline PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->t1 = pt_loop_now(loop);
    k->n = (int)pt_loop_timers(loop);
    k->rc = pt_task_cancel(loop, &k->other->task);
    k->result = (int)pt_loop_timers(loop);
    note(k->name);
    PT_TASK_END();
}

#endif /* TESTS_SCHED_FIXTURE_H */
