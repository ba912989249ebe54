/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_sync.c - the contract of the loop's event and semaphore
 * (loop/sync.h): their wake order, timeouts, and cancelled waiters. On the
 * virtual clock. The bounded queue: tests/test_loop_queue.c.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

/* ---- event ---------------------------------------------------------------- */

/* Sleeps `ticks` (if any), waits on the event, notes its name. */
static PT_THREAD(ev_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    k->i = (int)iterations;
    PT_EVENT_WAIT(k->ev, k->timeout);
    k->stopped = (int)iterations != k->i;
    AFTER_WAIT(k);
    note(k->name);
    CLEANUP_SECTION(k);
}

/* Sleeps `ticks`, then sets (n == 1), clears (n == 0), or sets and clears
 * at once (n == 2) the event. */
static PT_THREAD(ev_setter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    note(k->name);
    if (k->n)
        pt_event_set(loop, k->ev);
    if (k->n != 1)
        pt_event_clear(k->ev);
    PT_TASK_END();
}

/* Four waiters start waiting in reverse order (at 1 .. 4); S sets the
 * event at 10. */
static void event_set_for_four(struct pt_event *ev, struct tk w[4], struct tk *s) {
    int i;
    fresh(0);
    pt_event_init(ev);
    for (i = 0; i < 4; i++) {
        tk_init(&w[i], "w", i);
        w[i].ev = ev;
        w[i].ticks = (pt_time_t)(4 - i); /* they start waiting in reverse */
        spawn(&w[i], ev_waiter);
    }
    tk_init(s, "set", 9);
    s->ev = ev;
    s->ticks = 10;
    spawn(s, ev_setter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_event_set_wakes_every_waiter(void) {
    struct pt_event ev;
    struct tk w[4], s;
    int i;
    event_set_for_four(&ev, w, &s);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(w[i].result, PT_OK);
        CHECK_EQ_INT(w[i].woke_at, 10);
    }
}

static void test_event_waiters_wake_in_the_order_they_waited(void) {
    struct pt_event ev;
    struct tk w[4], s;
    int i;
    event_set_for_four(&ev, w, &s);
    for (i = 0; i < 4; i++)
        CHECK_EQ_INT(order[i], 3 - i);
    CHECK_EQ_STR(trace.buf, "set w w-1 w w-1 w w-1 w w-1 ");
}

static void test_event_stays_set_after_waking_its_waiters(void) {
    struct pt_event ev;
    struct tk w[4], s;
    event_set_for_four(&ev, w, &s);
    CHECK(ev.set);
}

/* The event is set with nobody waiting (nothing to wake), then A waits on
 * it while T counts iterations. */
static void wait_on_set_event(struct pt_event *ev, struct tk *a, struct tk *t) {
    fresh(0);
    pt_event_init(ev);
    tk_init(t, "t", 8);
    t->n = 100;
    spawn(t, ticker);
    tk_init(a, "a", 0);
    a->ev = ev;
    pt_event_set(&lp, ev); /* nobody waits: nothing to wake */
    spawn(a, ev_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a->task), PT_ENDED);
}

/* A set event lets a wait through without stopping. */
static void test_wait_on_a_set_event_passes_without_stopping(void) {
    struct pt_event ev;
    struct tk a, t;
    wait_on_set_event(&ev, &a, &t);
    CHECK_EQ_INT(a.stopped, 0);
    CHECK_EQ_INT(a.result, PT_OK);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... a cleared one stops it again, until set. */
static void test_wait_on_a_cleared_event_stops_until_it_is_set(void) {
    struct pt_event ev;
    struct tk a, b, t, s;
    wait_on_set_event(&ev, &a, &t);
    pt_event_clear(&ev);
    tk_init(&b, "b", 1);
    b.ev = &ev;
    tk_init(&s, "set", 9);
    s.ev = &ev;
    s.ticks = 5;
    spawn(&b, ev_waiter);
    spawn(&s, ev_setter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &b.task), PT_ENDED);
    CHECK_EQ_INT(b.stopped, 1);
    CHECK_EQ_INT(b.woke_at, 5);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A waits for good, B with a timeout of 50; at 10 the event is set and
 * cleared again before the woken waiters run; C starts waiting at 20. */
static void event_pulse(struct pt_event *ev, struct tk *a, struct tk *b, struct tk *c) {
    struct tk s;
    fresh(0);
    pt_event_init(ev);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    tk_init(c, "c", 2);
    a->ev = b->ev = c->ev = ev;
    b->timeout = 50;
    c->ticks = 20;
    c->timeout = 30;
    tk_init(&s, "pulse", 9);
    s.ev = ev;
    s.ticks = 10;
    s.n = 2;
    spawn(a, ev_waiter);
    spawn(b, ev_waiter);
    spawn(c, ev_waiter);
    spawn(&s, ev_setter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* asyncio's Event: a set wakes every task waiting at that moment, even if
 * the event is cleared before they run. */
static void test_event_pulse_wakes_every_waiter_present(void) {
    struct pt_event ev;
    struct tk a, b, c;
    event_pulse(&ev, &a, &b, &c);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(b.result, PT_OK);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(b.woke_at, 10);
    CHECK_EQ_STR(trace.buf, "pulse a a-1 b b-1 c c-1 ");
}

/* ... and only them: a wait that starts after the clear waits. */
static void test_event_pulse_leaves_later_waiters_waiting(void) {
    struct pt_event ev;
    struct tk a, b, c;
    event_pulse(&ev, &a, &b, &c);
    CHECK_EQ_INT(c.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c.woke_at, 50);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A woken event waiter cancelled before it runs gives nothing back: a
 * task that started waiting after the event was cleared goes on waiting.
 * A and B wait; at 5, S sets and clears the event, then C waits (with a
 * timeout of 10); A, woken, is cancelled before it runs. */
static void test_cancelled_woken_event_waiter_wakes_no_one_else(void) {
    struct pt_event ev;
    struct tk a, b, c, s;
    fresh(0);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    tk_init(&s, "pulse", 9);
    a.ev = b.ev = c.ev = s.ev = &ev;
    s.ticks = c.ticks = 5;
    s.n = 2;
    c.timeout = 10;
    spawn(&a, ev_waiter);
    spawn(&b, ev_waiter);
    spawn(&s, ev_setter);
    spawn(&c, ev_waiter);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* at 5: the pulse, then c waits */
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.result, PT_OK);
    CHECK_EQ_INT(c.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c.woke_at, 15);
}

/* From 1000: A waits with a timeout of 20, B of 40; the event is set at
 * 30. */
static void event_timeouts(struct tk *a, struct tk *b) {
    static struct pt_event ev;
    struct tk s;
    fresh(1000);
    pt_event_init(&ev);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    a->ev = b->ev = &ev;
    a->timeout = 20;
    b->timeout = 40;
    tk_init(&s, "set", 9);
    s.ev = &ev;
    s.ticks = 30;
    spawn(a, ev_waiter);
    spawn(b, ev_waiter);
    spawn(&s, ev_setter);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_event_wait_times_out_at_its_deadline(void) {
    struct tk a, b;
    event_timeouts(&a, &b);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 1020);
}

static void test_event_wait_set_in_time_is_ok_and_drops_its_timer(void) {
    struct tk a, b;
    event_timeouts(&a, &b);
    CHECK_EQ_INT(b.result, PT_OK);
    CHECK_EQ_INT(b.woke_at, 1030);
    CHECK_EQ_INT(since(1000), 30); /* b's timer went when it woke */
    CHECK_EQ_STR(trace.buf, "a a-1 set b b-1 ");
}

/* A waits on the event (set or clear) with a zero timeout. */
static void event_wait_zero(struct tk *a, int set) {
    static struct pt_event ev;
    fresh(0);
    pt_event_init(&ev);
    if (set)
        pt_event_set(&lp, &ev);
    tk_init(a, "a", 0);
    a->ev = &ev;
    a->timeout = 0;
    spawn(a, ev_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A zero timeout: a clear event times out at once, without stopping. */
static void test_event_wait_with_zero_timeout_on_a_clear_event_times_out(void) {
    struct tk a;
    event_wait_zero(&a, 0);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 0);
}

/* ... a set one lets it through. */
static void test_event_wait_with_zero_timeout_on_a_set_event_passes(void) {
    struct tk a;
    event_wait_zero(&a, 1);
    CHECK_EQ_INT(a.result, PT_OK);
}

/* ---- semaphore ---------------------------------------------------------------- */

/* Sleeps `ticks` (if any), acquires, holds it `n` ticks (if n > 0), then
 * releases (unless n < 0). */
static PT_THREAD(sem_user(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    k->i = (int)iterations;
    PT_SEMAPHORE_ACQUIRE(k->sem, k->timeout);
    k->stopped = (int)iterations != k->i;
    AFTER_WAIT(k);
    note(k->name);
    if (k->result == PT_OK && k->n >= 0) {
        if (k->n > 0)
            PT_SLEEP((pt_time_t)k->n);
        pt_semaphore_release(loop, k->sem);
    }
    CLEANUP_SECTION(k);
}

/* Sleeps `ticks`, then releases the semaphore n times. */
static PT_THREAD(sem_releaser(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    note(k->name);
    for (k->i = 0; k->i < k->n; k->i++)
        pt_semaphore_release(loop, k->sem);
    PT_TASK_END();
}

/* Sleeps `ticks`, releases the semaphore and takes the unit back at once
 * (rc: what pt_semaphore_try said). */
static PT_THREAD(sem_give_and_take(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    pt_semaphore_release(loop, k->sem);
    k->result = pt_semaphore_try(k->sem);
    PT_TASK_END();
}

/* Takes a unit with pt_semaphore_try when it wakes at `ticks`. */
static PT_THREAD(sem_barger(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->result = pt_semaphore_try(k->sem);
    note(k->name);
    PT_TASK_END();
}

/* A count of 2; T counts iterations; three users hold it for 10, 20, 30.
 * One iteration run. */
static void semaphore_of_two(struct pt_semaphore *sem, struct tk u[3], struct tk *t) {
    int i;
    fresh(0);
    pt_semaphore_init(sem, 2);
    tk_init(t, "t", 8);
    t->n = 1000;
    spawn(t, ticker);
    for (i = 0; i < 3; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = sem;
        u[i].n = 10 * (i + 1); /* held for 10, 20, 30 */
        spawn(&u[i], sem_user);
    }
    pt_loop_run_once(&lp, 0);
}

/* Two get through at once ... */
static void test_semaphore_lets_its_count_through_without_stopping(void) {
    struct pt_semaphore sem;
    struct tk u[3], t;
    semaphore_of_two(&sem, u, &t);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_INT(u[0].stopped, 0);
    CHECK_EQ_INT(u[1].stopped, 0);
    CHECK_EQ_INT(u[2].woke_at, -1);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... the third waits until one of them releases. */
static void test_semaphore_waiter_beyond_the_count_waits_for_a_release(void) {
    struct pt_semaphore sem;
    struct tk u[3], t;
    semaphore_of_two(&sem, u, &t);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &u[2].task), PT_ENDED);
    CHECK_EQ_INT(u[2].stopped, 1);
    CHECK_EQ_INT(u[2].woke_at, 10);
    CHECK_EQ_INT(u[2].result, PT_OK);
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(sem.count, 2);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_semaphore_try_takes_units_until_none_is_left(void) {
    struct pt_semaphore sem;
    struct tk u[3], t;
    semaphore_of_two(&sem, u, &t);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &u[2].task), PT_ENDED);
    CHECK_EQ_INT(sem.count, 2);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 1);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 1);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 0);
    CHECK_EQ_INT(sem.count, 0);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Six users start waiting at 4, 3, 5, 2, 6, 1: they are woken in the
 * order 5, 3, 1, 0, 2, 4. Each holds the unit `hold` ticks (-1: keeps it). */
static const int fifo_expect[6] = {5, 3, 1, 0, 2, 4};

static void semaphore_six_waiters(struct pt_semaphore *sem, struct tk u[6], int hold) {
    static const pt_time_t start[6] = {4, 3, 5, 2, 6, 1};
    int i;
    fresh(0);
    pt_semaphore_init(sem, 0);
    for (i = 0; i < 6; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = sem;
        u[i].ticks = start[i];
        u[i].n = hold;
        spawn(&u[i], sem_user);
    }
}

/* Waiters are woken in the order they began to wait (with nobody taking
 * the unit first: see semaphore_waiter_that_lost_its_unit_...). */
static void test_semaphore_wakes_waiters_in_fifo_order(void) {
    struct pt_semaphore sem;
    struct tk u[6], r;
    int i;
    semaphore_six_waiters(&sem, u, -1); /* keep it */
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 10;
    r.n = 6;
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(order[i], fifo_expect[i]);
    CHECK_EQ_INT(sem.count, 0);
}

/* One release per iteration: still in order, one at a time. */
static void test_semaphore_passed_on_one_at_a_time_keeps_fifo_order(void) {
    struct pt_semaphore sem;
    struct tk u[6];
    int i;
    semaphore_six_waiters(&sem, u, 1); /* hold it a tick, then pass it on */
    for (i = 0; i < 7; i++)            /* t = 0, then 1 .. 6: one starts waiting each */
        pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 6);
    CHECK_EQ_INT(norder, 0);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ_INT(order[i], fifo_expect[i]);
        CHECK_EQ_INT(u[i].result, PT_OK);
    }
    CHECK_EQ_INT(u[5].woke_at, 6);
    CHECK_EQ_INT(u[4].woke_at, 11);
    CHECK_EQ_INT(sem.count, 1);
}

/* As documented in loop/sync.h: a release hands the unit to the longest
 * waiter before it runs; a task that tries later finds none (no barging).
 * U0 and U1 wait from 1 and 2; B releases and tries at once at 5; R
 * releases twice at 6. */
static void semaphore_taken_before_the_woken_runs(struct tk u[2], struct tk *b) {
    static struct pt_semaphore sem;
    struct tk r;
    int i;
    fresh(0);
    pt_semaphore_init(&sem, 0);
    for (i = 0; i < 2; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = &sem;
        u[i].ticks = (pt_time_t)(1 + i);
        u[i].n = -1; /* keep it */
        spawn(&u[i], sem_user);
    }
    tk_init(b, "b", 8);
    b->sem = &sem;
    b->ticks = 5;
    spawn(b, sem_give_and_take);
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 6;
    r.n = 2;
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(sem.count, 1); /* r's second unit: nobody left waiting */
}

static void test_semaphore_release_hands_the_unit_to_the_longest_waiter(void) {
    struct tk u[2], b;
    semaphore_taken_before_the_woken_runs(u, &b);
    CHECK_EQ_INT(b.result, 0); /* its own release went to u0 */
    CHECK_EQ_INT(u[0].woke_at, 5);
}

/* Python 3.11's order W1, W2, W3: a releaser that asks again at once
 * queues behind the waiters. */
static void test_semaphore_newcomer_never_overtakes_a_waiter(void) {
    struct tk u[2], b;
    semaphore_taken_before_the_woken_runs(u, &b);
    CHECK_EQ_INT(norder, 2);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 1);
    CHECK_EQ_INT(u[1].woke_at, 6);
}

/* A waits with a timeout of 10, B of 30; R releases one unit at 20. */
static void semaphore_timeouts(struct pt_semaphore *sem, struct tk *a, struct tk *b) {
    struct tk r;
    fresh(0);
    pt_semaphore_init(sem, 0);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    a->sem = b->sem = sem;
    a->timeout = 10;
    b->timeout = 30;
    a->n = b->n = -1;
    tk_init(&r, "r", 9);
    r.sem = sem;
    r.ticks = 20;
    r.n = 1;
    spawn(a, sem_user);
    spawn(b, sem_user);
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_semaphore_acquire_times_out_at_its_deadline(void) {
    struct pt_semaphore sem;
    struct tk a, b;
    semaphore_timeouts(&sem, &a, &b);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_STR(trace.buf, "a a-1 r b b-1 ");
}

static void test_semaphore_waiter_that_timed_out_takes_no_later_unit(void) {
    struct pt_semaphore sem;
    struct tk a, b;
    semaphore_timeouts(&sem, &a, &b);
    CHECK_EQ_INT(b.result, PT_OK); /* the timed-out a did not take it */
    CHECK_EQ_INT(b.woke_at, 20);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_INT(since(0), 20);
}

/* A zero timeout with no unit: at once, without stopping. */
static void test_semaphore_acquire_with_zero_timeout_and_no_unit_times_out(void) {
    struct pt_semaphore sem;
    struct tk a;
    fresh(0);
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    a.timeout = 0;
    spawn(&a, sem_user);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(sem.count, 0);
}

/* A waits with a timeout of 20; at 5, R releases a unit (waking A) and X
 * tries for one before A runs. */
static void test_semaphore_granted_waiter_keeps_its_unit(void) {
    static struct pt_semaphore sem;
    struct tk a, r, x;
    fresh(0);
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    a.timeout = 20;
    a.n = -1;
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 5;
    r.n = 1;
    tk_init(&x, "x", 8);
    x.sem = &sem;
    x.ticks = 5;
    spawn(&a, sem_user);
    spawn(&r, sem_releaser);
    spawn(&x, sem_barger);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.result, 0);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.woke_at, 5);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_STR(trace.buf, "r x a a-1 ");
}

/* Three wait; A is cancelled while parked; a release wakes B, which is
 * cancelled before it ran. */
static void semaphore_cancelled_waiters(struct pt_semaphore *sem, struct tk *a, struct tk *b,
                                        struct tk *c) {
    fresh(0);
    pt_semaphore_init(sem, 0);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    tk_init(c, "c", 2);
    a->sem = b->sem = c->sem = sem;
    a->n = b->n = c->n = -1;
    spawn(a, sem_user);
    spawn(b, sem_user);
    spawn(c, sem_user);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a->task), PT_OK); /* parked */
    pt_semaphore_release(&lp, sem);                     /* wakes b */
    CHECK_EQ_INT(pt_task_cancel(&lp, &b->task), PT_OK); /* woken, not yet run */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);              /* c gets the unit */
}

/* Cancelled waiters do not consume units: neither one cancelled while
 * parked ... */
static void test_cancelled_semaphore_waiter_takes_no_unit(void) {
    struct pt_semaphore sem;
    struct tk a, b, c;
    semaphore_cancelled_waiters(&sem, &a, &b, &c);
    CHECK_EQ_INT(a.result, 99);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
}

/* ... nor one cancelled after a release woke it but before it ran: the
 * unit goes on to the next waiter. */
static void test_cancelled_woken_semaphore_waiter_passes_its_unit_on(void) {
    struct pt_semaphore sem;
    struct tk a, b, c;
    semaphore_cancelled_waiters(&sem, &a, &b, &c);
    CHECK_EQ_INT(b.result, 99);
    CHECK_EQ_INT(c.result, PT_OK);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_STR(trace.buf, "a-1 b-1 c c-1 ");
}

/* A woken waiter cancelled with no one behind it: the unit stays. */
static void test_cancelled_woken_semaphore_waiter_alone_leaves_the_unit(void) {
    struct pt_semaphore sem;
    struct tk a;
    fresh(0);
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    spawn(&a, sem_user);
    pt_loop_run_once(&lp, 0);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(sem.count, 1);
    CHECK_EQ_INT(a.result, 99);
}

/* Added: sync.h "A timeout of 0 or PT_FOREVER needs no timer, so never
 * gives PT_EFULL": with no timer slot at all, A (no timeout) waits and
 * gets the unit released to it; B (zero timeout) finds none. */
static void test_semaphore_acquire_with_0_or_no_timeout_needs_no_timer(void) {
    struct pt_semaphore sem;
    struct tk a, b;
    fresh_without_timers();
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.sem = b.sem = &sem;
    a.n = b.n = -1;
    b.timeout = 0;
    spawn(&a, sem_user);
    spawn(&b, sem_user);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(b.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.result, 99); /* waiting */
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(sem.count, 0);
}

/* Added: sync.h's wait result PT_EFULL: a timed wait with no timer slot
 * ends at once, and takes no unit released afterwards. */
static void test_semaphore_timed_acquire_on_a_full_heap_is_efull(void) {
    struct pt_semaphore sem;
    struct tk a;
    fresh_without_timers();
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    a.timeout = 5;
    a.n = -1;
    spawn(&a, sem_user);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.result, PT_EFULL);
    CHECK_EQ_INT(a.woke_at, 0);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(sem.count, 1);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(event_set_wakes_every_waiter)                                                                \
    X(event_waiters_wake_in_the_order_they_waited)                                                 \
    X(event_stays_set_after_waking_its_waiters)                                                    \
    X(wait_on_a_set_event_passes_without_stopping)                                                 \
    X(wait_on_a_cleared_event_stops_until_it_is_set)                                               \
    X(event_pulse_wakes_every_waiter_present)                                                      \
    X(event_pulse_leaves_later_waiters_waiting)                                                    \
    X(cancelled_woken_event_waiter_wakes_no_one_else)                                              \
    X(event_wait_times_out_at_its_deadline)                                                        \
    X(event_wait_set_in_time_is_ok_and_drops_its_timer)                                            \
    X(event_wait_with_zero_timeout_on_a_clear_event_times_out)                                     \
    X(event_wait_with_zero_timeout_on_a_set_event_passes)                                          \
    X(semaphore_lets_its_count_through_without_stopping)                                           \
    X(semaphore_waiter_beyond_the_count_waits_for_a_release)                                       \
    X(semaphore_try_takes_units_until_none_is_left)                                                \
    X(semaphore_wakes_waiters_in_fifo_order)                                                       \
    X(semaphore_passed_on_one_at_a_time_keeps_fifo_order)                                          \
    X(semaphore_release_hands_the_unit_to_the_longest_waiter)                                      \
    X(semaphore_newcomer_never_overtakes_a_waiter)                                                 \
    X(semaphore_acquire_times_out_at_its_deadline)                                                 \
    X(semaphore_waiter_that_timed_out_takes_no_later_unit)                                         \
    X(semaphore_acquire_with_zero_timeout_and_no_unit_times_out)                                   \
    X(semaphore_granted_waiter_keeps_its_unit)                                                     \
    X(cancelled_semaphore_waiter_takes_no_unit)                                                    \
    X(cancelled_woken_semaphore_waiter_passes_its_unit_on)                                         \
    X(cancelled_woken_semaphore_waiter_alone_leaves_the_unit)                                      \
    X(semaphore_acquire_with_0_or_no_timeout_needs_no_timer)                                       \
    X(semaphore_timed_acquire_on_a_full_heap_is_efull)
/* clang-format on */
TEST_MAIN(TEST_CASES)
