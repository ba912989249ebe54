/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_lock.c - the contract of the loop's lock and condition
 * (loop/lock.h): FIFO hand-off, owner checks, timeouts, cancelled waiters,
 * notify order, the lock taken back after a wait. On the virtual clock.
 * The barrier: tests/test_loop_barrier.c (one program would not fit in an
 * ATmega328P's 32 KiB of flash).
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

/* A task of these tests: the fixture's, and what it works on. */
struct lk {
    struct tk k; /* first member: the task */
    struct pt_lock *lock;
    struct pt_cond *cond;
    pt_time_t hold;      /* how long it holds the lock (notifier) */
    int rc;              /* what a release / notify returned (99: none) */
    int rc2;             /* a second one */
    int held;            /* it held the lock after its wait */
    int held_in_cleanup; /* it held the lock in its cleanup section */
    pt_time_t delay;     /* how long it holds the lock before a wait on the condition */
};

static void lk_init(struct lk *w, const char *name, int id) {
    memset(w, 0, sizeof *w);
    tk_init(&w->k, name, id);
    w->rc = w->rc2 = 99;
}

#define LK(task) ((struct lk *)(task))

/* The same as sync_fixture.h's, and notes whether it holds the lock. */
#define LK_CLEANUP_SECTION(w)                                                                      \
    PT_TASK_CLEANUP();                                                                             \
    (w)->k.cleanups++;                                                                             \
    (w)->k.cleanup_result = PT_WAIT_RESULT();                                                      \
    (w)->held_in_cleanup = (w)->lock && pt_lock_owner((w)->lock) == task;                          \
    note_n((w)->k.name, -(long)(w)->k.cleanups);                                                   \
    PT_TASK_END()

/* ---- lock ----------------------------------------------------------------- */

/* Sleeps `ticks` (if any), acquires with `timeout`, notes its name; if it
 * got the lock: holds it `n` ticks (n > 0) then releases it (rc: what the
 * release said), or keeps it (n < 0). */
static PT_THREAD(locker(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    k->i = (int)iterations;
    PT_LOCK_ACQUIRE(w->lock, k->timeout);
    k->stopped = (int)iterations != k->i;
    AFTER_WAIT(k);
    w->held = pt_lock_owner(w->lock) == task;
    note(k->name);
    if (k->result == PT_OK && k->n >= 0) {
        if (k->n > 0)
            PT_SLEEP((pt_time_t)k->n);
        w->rc = pt_lock_release(loop, w->lock, task);
    }
    LK_CLEANUP_SECTION(w);
}

/* A fresh loop; T counts iterations (stopped: the wait stopped). The
 * virtual clock stands still while T runs (something is always ready), so
 * `stopped` tells only of waits begun at the start. */
static void fresh_with_ticker(struct tk *t) {
    fresh(0);
    tk_init(t, "t", 8);
    t->n = 1000;
    spawn(t, ticker);
}

static void lockers_init(struct lk *w, int count, struct pt_lock *lock) {
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    int i;
    for (i = 0; i < count; i++) {
        lk_init(&w[i], names[i], i);
        w[i].lock = lock;
    }
}

/* A takes the lock at 0 and holds it 10 ticks; B, C, D ask for it at 3,
 * 1, 2 (in the order C, D, B), each holding it 10 ticks. */
static void lock_four(struct pt_lock *lock, struct lk w[4], struct tk *t) {
    static const pt_time_t start[4] = {0, 3, 1, 2};
    int i;
    fresh_with_ticker(t);
    pt_lock_init(lock);
    lockers_init(w, 4, lock);
    for (i = 0; i < 4; i++) {
        w[i].k.ticks = start[i];
        w[i].k.n = 10;
        spawn(&w[i].k, locker);
    }
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w[1].k.task), PT_ENDED);
    pt_task_cancel(&lp, &t->task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A free lock is taken without stopping. */
static void test_lock_free_is_taken_without_stopping(void) {
    struct pt_lock lock;
    struct lk w[4];
    struct tk t;
    lock_four(&lock, w, &t);
    CHECK_EQ_INT(w[0].k.result, PT_OK);
    CHECK_EQ_INT(w[0].k.stopped, 0);
    CHECK_EQ_INT(w[0].k.woke_at, 0);
    CHECK_EQ_INT(w[0].held, 1);
    CHECK_EQ_INT(w[0].rc, PT_OK);
}

/* Waiters get it in the order they asked, each when the one before
 * releases it; at the end it is free. */
static void test_lock_goes_to_waiters_in_fifo_order(void) {
    static const int expect[4] = {0, 2, 3, 1};
    struct pt_lock lock;
    struct lk w[4];
    struct tk t;
    int i;
    lock_four(&lock, w, &t);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(w[expect[i]].k.woke_at, 10 * i);
        CHECK_EQ_INT(w[i].k.result, PT_OK);
        CHECK_EQ_INT(w[i].held, 1);
        CHECK_EQ_INT(w[i].rc, PT_OK);
    }
    CHECK(pt_lock_owner(&lock) == NULL);
}

/* X (a task that only serves as the owner) holds the lock; A and B wait
 * for it (A first); N, spawned before the release, asks with a zero
 * timeout when it runs, before A. The release is made by the test. */
static void lock_released_with_waiters(struct pt_lock *lock, struct lk *x, struct lk w[2],
                                       struct lk *n) {
    fresh(0);
    pt_lock_init(lock);
    lk_init(x, "x", 7);
    CHECK_EQ_INT(pt_lock_try(lock, &x->k.task), 1);
    lockers_init(w, 2, lock);
    w[0].k.n = w[1].k.n = -1; /* keep it */
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    pt_loop_run_once(&lp, 0); /* they wait */
    lk_init(n, "n", 5);
    n->lock = lock;
    n->k.timeout = 0;
    n->k.n = -1;
    spawn(&n->k, locker);
    CHECK_EQ_INT(pt_lock_release(&lp, lock, &x->k.task), PT_OK);
}

/* The release hands the lock to the longest waiter at once, before it
 * runs: a later try fails. */
static void test_lock_release_hands_it_to_the_longest_waiter_at_once(void) {
    struct pt_lock lock;
    struct lk x, w[2], n;
    lock_released_with_waiters(&lock, &x, w, &n);
    CHECK(pt_lock_owner(&lock) == &w[0].k.task);
    CHECK_EQ_INT(pt_lock_try(&lock, &x.k.task), 0);
    CHECK(pt_lock_owner(&lock) == &w[0].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* b waits for good */
    pt_task_cancel(&lp, &w[1].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... a task that asks for it before the waiter runs does not get it. */
static void test_lock_is_not_taken_by_a_task_asking_after_the_release(void) {
    struct pt_lock lock;
    struct lk x, w[2], n;
    lock_released_with_waiters(&lock, &x, w, &n);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* b waits for good */
    CHECK_EQ_INT(n.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(n.held, 0);
    CHECK_EQ_INT(w[0].k.result, PT_OK);
    CHECK_EQ_INT(w[0].held, 1);
    CHECK_EQ_STR(trace.buf, "n n-1 a a-1 ");
    pt_task_cancel(&lp, &w[1].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Releases the lock (rc), without having taken it. */
static PT_THREAD(releaser(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    PT_TASK_BEGIN(loop, task);
    w->rc = pt_lock_release(loop, w->lock, task);
    PT_TASK_END();
}

/* A release by a task that does not hold it: PT_EBUSY, nothing changes. */
static void test_lock_release_by_another_task_is_ebusy(void) {
    struct pt_lock lock;
    struct lk x, r;
    fresh(0);
    pt_lock_init(&lock);
    lk_init(&x, "x", 7);
    lk_init(&r, "r", 1);
    r.lock = &lock;
    CHECK_EQ_INT(pt_lock_try(&lock, &x.k.task), 1);
    spawn(&r.k, releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(r.rc, PT_EBUSY);
    CHECK(pt_lock_owner(&lock) == &x.k.task);
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &r.k.task), PT_EBUSY);
    CHECK(pt_lock_owner(&lock) == &x.k.task);
}

/* A release of a lock nobody holds: PT_EINVAL. */
static void test_lock_release_of_a_free_lock_is_einval(void) {
    struct pt_lock lock;
    struct lk r;
    fresh(0);
    pt_lock_init(&lock);
    lk_init(&r, "r", 1);
    r.lock = &lock;
    spawn(&r.k, releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(r.rc, PT_EINVAL);
    CHECK(pt_lock_owner(&lock) == NULL);
}

/* Acquires the lock, then again (rc2: the second's result), releases
 * twice (rc: the second release). */
static PT_THREAD(double_locker(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->i = (int)iterations;
    PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    w->rc2 = PT_WAIT_RESULT();
    k->stopped = (int)iterations != k->i;
    w->held = pt_lock_owner(w->lock) == task;
    (void)pt_lock_release(loop, w->lock, task);
    w->rc = pt_lock_release(loop, w->lock, task);
    PT_TASK_END();
}

/* A second acquire by the owner is refused at once with PT_EBUSY (it
 * would wait for ever in asyncio); it still holds the lock, once. */
static void test_lock_second_acquire_by_its_owner_is_ebusy(void) {
    struct pt_lock lock;
    struct lk w;
    struct tk t;
    fresh_with_ticker(&t);
    pt_lock_init(&lock);
    lk_init(&w, "a", 0);
    w.lock = &lock;
    spawn(&w.k, double_locker);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w.k.task), PT_ENDED);
    CHECK_EQ_INT(w.k.result, PT_OK);
    CHECK_EQ_INT(w.rc2, PT_EBUSY);
    CHECK_EQ_INT(w.k.stopped, 0);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_INT(w.rc, PT_EINVAL); /* one release freed it */
    CHECK(pt_lock_owner(&lock) == NULL);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A holds the lock 30 ticks; B waits with a timeout of 10, C of 40. */
static void lock_timeouts(struct pt_lock *lock, struct lk w[3]) {
    fresh(0);
    pt_lock_init(lock);
    lockers_init(w, 3, lock);
    w[0].k.n = 30;
    w[1].k.timeout = 10;
    w[2].k.timeout = 40;
    w[1].k.n = w[2].k.n = -1; /* keep it */
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    spawn(&w[2].k, locker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_lock_acquire_times_out_at_its_deadline(void) {
    struct pt_lock lock;
    struct lk w[3];
    lock_timeouts(&lock, w);
    CHECK_EQ_INT(w[1].k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w[1].k.woke_at, 10);
    CHECK_EQ_INT(w[1].held, 0);
}

/* ... and leaves the queue: the release at 30 goes to the next waiter. */
static void test_lock_waiter_that_timed_out_is_passed_over(void) {
    struct pt_lock lock;
    struct lk w[3];
    lock_timeouts(&lock, w);
    CHECK_EQ_INT(w[2].k.result, PT_OK);
    CHECK_EQ_INT(w[2].k.woke_at, 30);
    CHECK(pt_lock_owner(&lock) == &w[2].k.task);
    CHECK_EQ_STR(trace.buf, "a b b-1 a-1 c c-1 ");
}

/* A zero timeout tries once: a held lock times out at once, a free one
 * is taken. */
static void test_lock_acquire_with_zero_timeout_tries_once(void) {
    struct pt_lock lock;
    struct lk w[2];
    struct tk t;
    fresh_with_ticker(&t);
    pt_lock_init(&lock);
    lockers_init(w, 2, &lock);
    w[0].k.timeout = w[1].k.timeout = 0;
    w[0].k.n = 5;
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w[0].k.task), PT_ENDED);
    CHECK_EQ_INT(w[0].k.result, PT_OK);
    CHECK_EQ_INT(w[0].k.stopped, 0);
    CHECK_EQ_INT(w[1].k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w[1].k.stopped, 0);
    CHECK_EQ_INT(w[1].k.woke_at, 0);
    CHECK(pt_lock_owner(&lock) == NULL);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* X holds the lock; A, B, C wait; A is cancelled while it waits; the
 * lock is released to B, which is cancelled before it ran. */
static void lock_cancelled_waiters(struct pt_lock *lock, struct lk w[3]) {
    struct lk x;
    fresh(0);
    pt_lock_init(lock);
    lk_init(&x, "x", 7);
    CHECK_EQ_INT(pt_lock_try(lock, &x.k.task), 1);
    lockers_init(w, 3, lock);
    w[0].k.n = w[1].k.n = w[2].k.n = -1; /* keep it */
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    spawn(&w[2].k, locker);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &w[0].k.task), PT_OK); /* waiting */
    CHECK_EQ_INT(pt_lock_release(&lp, lock, &x.k.task), PT_OK);
    CHECK(pt_lock_owner(lock) == &w[1].k.task);
    CHECK_EQ_INT(pt_task_cancel(&lp, &w[1].k.task), PT_OK); /* granted, not yet run */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A cancelled waiter takes nothing ... */
static void test_lock_cancelled_waiter_takes_nothing(void) {
    struct pt_lock lock;
    struct lk w[3];
    lock_cancelled_waiters(&lock, w);
    CHECK_EQ_INT(w[0].k.result, 99);
    CHECK_EQ_INT(w[0].k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(w[0].held_in_cleanup, 0);
}

/* ... and one granted the lock but cancelled before it ran passes it on
 * to the next waiter. */
static void test_lock_granted_then_cancelled_waiter_passes_it_on(void) {
    struct pt_lock lock;
    struct lk w[3];
    lock_cancelled_waiters(&lock, w);
    CHECK_EQ_INT(w[1].k.result, 99);
    CHECK_EQ_INT(w[1].k.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(w[1].held_in_cleanup, 0);
    CHECK_EQ_INT(w[2].k.result, PT_OK);
    CHECK_EQ_INT(w[2].held, 1);
    CHECK(pt_lock_owner(&lock) == &w[2].k.task);
    CHECK_EQ_STR(trace.buf, "a-1 b-1 c c-1 ");
}

/* ... or, with nobody behind it, leaves the lock free: at its turn, as
 * asyncio's waiter does, not in pt_task_cancel. */
static void test_lock_granted_then_cancelled_waiter_alone_frees_it(void) {
    struct pt_lock lock;
    struct lk x, a;
    fresh(0);
    pt_lock_init(&lock);
    lk_init(&x, "x", 7);
    CHECK_EQ_INT(pt_lock_try(&lock, &x.k.task), 1);
    lk_init(&a, "a", 0);
    a.lock = &lock;
    spawn(&a.k, locker);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &x.k.task), PT_OK);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.k.task), PT_OK);
    CHECK(pt_lock_owner(&lock) == &a.k.task); /* till its turn */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_lock_owner(&lock) == NULL);
    CHECK_EQ_INT(a.k.result, 99);
}

/* A task that finishes holding the lock still holds it: another cannot
 * release it, its owner (named) can. */
static void test_lock_held_by_a_finished_task_stays_held(void) {
    struct pt_lock lock;
    struct lk w[2];
    fresh(0);
    pt_lock_init(&lock);
    lockers_init(w, 2, &lock);
    w[0].k.n = -1; /* keeps it */
    w[1].k.ticks = 5;
    w[1].k.timeout = 20;
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&w[0].k.task), PT_ENDED);
    CHECK_EQ_INT(w[0].held_in_cleanup, 1);
    CHECK_EQ_INT(w[1].k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w[1].k.woke_at, 25);
    CHECK(pt_lock_owner(&lock) == &w[0].k.task);
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &w[1].k.task), PT_EBUSY);
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &w[0].k.task), PT_OK);
    CHECK(pt_lock_owner(&lock) == NULL);
}

/* A timed acquire with no timer slot ends at once with PT_EFULL and takes
 * nothing; one without a timeout needs no timer. */
static void test_lock_timed_acquire_on_a_full_heap_is_efull(void) {
    struct pt_lock lock;
    struct lk x, w[2];
    fresh_without_timers();
    pt_lock_init(&lock);
    lk_init(&x, "x", 7);
    CHECK_EQ_INT(pt_lock_try(&lock, &x.k.task), 1);
    lockers_init(w, 2, &lock);
    w[0].k.timeout = 5;
    w[0].k.n = w[1].k.n = -1;
    spawn(&w[0].k, locker);
    spawn(&w[1].k, locker);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(w[0].k.result, PT_EFULL);
    CHECK_EQ_INT(w[1].k.result, 99); /* waiting */
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &x.k.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(w[1].k.result, PT_OK);
    CHECK(pt_lock_owner(&lock) == &w[1].k.task);
}

/* ---- condition ------------------------------------------------------------ */

/* Sleeps `ticks`, takes the lock (not if n < 0), holds it `delay` ticks,
 * waits on the condition with `timeout`, notes its name and whether it
 * holds the lock; holds it `hold` ticks, then releases it (rc). */
static PT_THREAD(cond_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    if (k->n >= 0)
        PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    if (w->delay)
        PT_SLEEP(w->delay);
    k->i = (int)iterations;
    PT_COND_WAIT(w->cond, k->timeout);
    k->stopped = (int)iterations != k->i;
    AFTER_WAIT(k);
    w->held = pt_lock_owner(w->lock) == task;
    note(k->name);
    if (w->hold)
        PT_SLEEP(w->hold);
    w->rc = pt_lock_release(loop, w->lock, task);
    LK_CLEANUP_SECTION(w);
}

/* Sleeps `ticks`, takes the lock (unless n < 0, stopped: it waited for
 * it), notifies n waiters (all: n == 1000; rc), holds the lock `hold`
 * ticks, releases it. */
static PT_THREAD(notifier(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->i = (int)iterations;
    if (k->n >= 0)
        PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    k->stopped = (int)iterations != k->i;
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    if (k->n == 1000)
        w->rc = pt_cond_notify_all(loop, w->cond, task);
    else
        w->rc = pt_cond_notify(loop, w->cond, task, (unsigned)(k->n < 0 ? 1 : k->n));
    if (w->hold)
        PT_SLEEP(w->hold);
    if (k->n >= 0)
        w->rc2 = pt_lock_release(loop, w->lock, task);
    PT_TASK_END();
}

/* W takes the lock and waits on the condition; N, at 5, takes the lock,
 * notifies one and holds the lock until 15. T counts iterations. */
static void cond_wait_and_notify(struct pt_lock *lock, struct pt_cond *c, struct lk *w,
                                 struct lk *n, struct tk *t) {
    fresh_with_ticker(t);
    pt_lock_init(lock);
    pt_cond_init(c, lock);
    lk_init(w, "w", 0);
    lk_init(n, "n", 9);
    w->lock = n->lock = lock;
    w->cond = n->cond = c;
    n->k.ticks = 5;
    n->hold = 10;
    spawn(&w->k, cond_waiter);
    spawn(&n->k, notifier);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w->k.task), PT_ENDED);
    pt_task_cancel(&lp, &t->task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The wait releases the lock: the notifier takes it without stopping. */
static void test_cond_wait_releases_the_lock(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w, n;
    struct tk t;
    cond_wait_and_notify(&lock, &c, &w, &n, &t);
    CHECK_EQ_INT(n.k.woke_at, 5);
    CHECK_EQ_INT(n.rc, PT_OK);
    CHECK_EQ_INT(n.rc2, PT_OK);
}

/* ... and takes it again before it returns: once the notifier released
 * it, not when notified. */
static void test_cond_wait_takes_the_lock_again_before_it_returns(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w, n;
    struct tk t;
    cond_wait_and_notify(&lock, &c, &w, &n, &t);
    CHECK_EQ_INT(w.k.result, PT_OK);
    CHECK_EQ_INT(w.k.stopped, 1);
    CHECK_EQ_INT(w.k.woke_at, 15);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_INT(w.rc, PT_OK);
    CHECK(pt_lock_owner(&lock) == NULL);
    CHECK_EQ_STR(trace.buf, "n w w-1 ");
}

/* A fresh loop, a lock and its condition; W (which waits on it) and X,
 * both using the lock. */
static void cond_w_and_x(struct pt_lock *lock, struct pt_cond *c, struct lk *w, struct lk *x) {
    fresh(0);
    pt_lock_init(lock);
    pt_cond_init(c, lock);
    lk_init(w, "w", 0);
    lk_init(x, "x", 1);
    w->lock = x->lock = lock;
    w->cond = c;
}

/* A waiter for the lock gets it when the owner starts to wait on the
 * condition (the wait's release hands it over): W holds the lock from 0,
 * X asks for it at 0, W waits on the condition at 5. */
static void test_cond_wait_hands_the_lock_to_its_next_waiter(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk x, w;
    cond_w_and_x(&lock, &c, &w, &x);
    w.delay = 5;
    x.k.n = -1; /* keeps it */
    spawn(&w.k, cond_waiter);
    spawn(&x.k, locker);
    pt_loop_run_once(&lp, 0);
    CHECK(pt_lock_owner(&lock) == &w.k.task);
    CHECK_EQ_INT(x.k.result, 99); /* x waits for the lock */
    pt_loop_run_once(&lp, 1);     /* at 5, w waits on c */
    CHECK_EQ_INT(since(0), 5);
    CHECK(pt_lock_owner(&lock) == &x.k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* w waits for good */
    CHECK_EQ_INT(x.k.result, PT_OK);
    CHECK_EQ_STR(trace.buf, "x x-1 ");
    pt_task_cancel(&lp, &w.k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Four waiters start waiting at 4, 2, 3, 1 (in the order 3, 1, 2, 0);
 * two notifiers, at 10 and 20, notify `n` each (1000: all). Returns what
 * pt_loop_run said. */
static int cond_four_waiters(struct pt_lock *lock, struct pt_cond *c, struct lk w[4],
                             struct lk nt[2], int n) {
    static const pt_time_t start[4] = {4, 2, 3, 1};
    static const char *const names[] = {"w0", "w1", "w2", "w3"};
    int i;
    fresh(0);
    pt_lock_init(lock);
    pt_cond_init(c, lock);
    for (i = 0; i < 4; i++) {
        lk_init(&w[i], names[i], i);
        w[i].lock = lock;
        w[i].cond = c;
        w[i].k.ticks = start[i];
        w[i].hold = 1; /* each holds the lock a tick: they take it in turn */
        spawn(&w[i].k, cond_waiter);
    }
    for (i = 0; i < 2; i++) {
        lk_init(&nt[i], "n", 8 + i);
        nt[i].lock = lock;
        nt[i].cond = c;
        nt[i].k.ticks = (pt_time_t)(10 + 10 * i);
        nt[i].k.n = n;
        spawn(&nt[i].k, notifier);
    }
    return pt_loop_run(&lp);
}

/* notify(2) wakes the two longest waiters; they take the lock in turn. */
static void test_cond_notify_n_wakes_n_in_fifo_order(void) {
    static const int expect[4] = {3, 1, 2, 0};
    static const long at[4] = {10, 11, 20, 21};
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w[4], nt[2];
    int i;
    CHECK_EQ_INT(cond_four_waiters(&lock, &c, w, nt, 2), PT_OK);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(w[expect[i]].k.woke_at, at[i]);
        CHECK_EQ_INT(w[i].k.result, PT_OK);
        CHECK_EQ_INT(w[i].held, 1);
    }
    CHECK_EQ_INT(nt[0].rc, PT_OK);
}

/* notify(1) wakes one at a time: two notifications, two waiters. */
static void test_cond_notify_1_wakes_one(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w[4], nt[2];
    CHECK_EQ_INT(cond_four_waiters(&lock, &c, w, nt, 1), PT_EBUSY); /* two wait for good */
    CHECK_EQ_INT(norder, 2);
    CHECK_EQ_INT(order[0], 3);
    CHECK_EQ_INT(order[1], 1);
    CHECK_EQ_INT(w[3].k.woke_at, 10);
    CHECK_EQ_INT(w[1].k.woke_at, 20);
    CHECK_EQ_INT(w[0].k.result, 99); /* still waiting */
    CHECK_EQ_INT(w[2].k.result, 99);
    pt_task_cancel(&lp, &w[0].k.task);
    pt_task_cancel(&lp, &w[2].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* notify_all wakes every waiter, in the order they waited; each takes the
 * lock in turn. */
static void test_cond_notify_all_wakes_every_waiter_in_fifo_order(void) {
    static const int expect[4] = {3, 1, 2, 0};
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w[4], nt[2];
    int i;
    CHECK_EQ_INT(cond_four_waiters(&lock, &c, w, nt, 1000), PT_OK);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(w[expect[i]].k.woke_at, 10 + i);
        CHECK_EQ_INT(w[i].held, 1);
    }
    CHECK_EQ_INT(nt[0].rc, PT_OK);
    CHECK_EQ_INT(nt[1].rc, PT_OK); /* nobody left to wake: fine */
}

/* A notify by a task without the lock: PT_EBUSY, nobody is woken. */
static void test_cond_notify_without_the_lock_is_ebusy(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w, n;
    fresh(0);
    pt_lock_init(&lock);
    pt_cond_init(&c, &lock);
    lk_init(&w, "w", 0);
    lk_init(&n, "n", 9);
    w.lock = n.lock = &lock;
    w.cond = n.cond = &c;
    n.k.ticks = 5;
    n.k.n = -1; /* notifies without the lock */
    spawn(&w.k, cond_waiter);
    spawn(&n.k, notifier);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* w waits for good */
    CHECK_EQ_INT(n.rc, PT_EBUSY);
    CHECK_EQ_INT(w.k.result, 99);
    CHECK_EQ_INT(pt_cond_notify_all(&lp, &c, &n.k.task), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(w.k.result, 99);
    pt_task_cancel(&lp, &w.k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* W alone waits on a condition (with a ticker counting iterations): taking
 * the lock first unless n is -1, with `timeout`; run until W has ended. */
static void cond_waiter_alone(struct pt_lock *lock, struct pt_cond *c, struct lk *w, struct tk *t,
                              int n, pt_time_t timeout) {
    fresh_with_ticker(t);
    pt_lock_init(lock);
    pt_cond_init(c, lock);
    lk_init(w, "w", 0);
    w->lock = lock;
    w->cond = c;
    w->k.n = n;
    w->k.timeout = timeout;
    spawn(&w->k, cond_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &w->k.task), PT_ENDED);
}

/* A wait by a task without the lock: PT_EBUSY at once. */
static void test_cond_wait_without_the_lock_is_ebusy(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w;
    struct tk t;
    cond_waiter_alone(&lock, &c, &w, &t, -1, PT_FOREVER); /* -1: without the lock */
    CHECK_EQ_INT(w.k.result, PT_EBUSY);
    CHECK_EQ_INT(w.k.stopped, 0);
    CHECK_EQ_INT(w.held, 0);
    CHECK_EQ_INT(w.rc, PT_EINVAL);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* W waits with a timeout of 10, nobody notifies; X holds the lock from 5
 * to 20 (`x_hold` 0: X does not run). */
static void cond_timeout(struct pt_lock *lock, struct lk *w, pt_time_t x_hold) {
    static struct pt_cond c;
    struct lk x;
    fresh(0);
    pt_lock_init(lock);
    pt_cond_init(&c, lock);
    lk_init(w, "w", 0);
    w->lock = lock;
    w->cond = &c;
    w->k.timeout = 10;
    spawn(&w->k, cond_waiter);
    lk_init(&x, "x", 1);
    x.lock = lock;
    x.k.ticks = 5;
    x.k.n = (int)x_hold;
    if (x_hold)
        spawn(&x.k, locker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The timeout ends the wait with PT_ETIMEDOUT, holding the lock ... */
static void test_cond_wait_times_out_holding_the_lock(void) {
    struct pt_lock lock;
    struct lk w;
    cond_timeout(&lock, &w, 0);
    CHECK_EQ_INT(w.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.k.woke_at, 10);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_INT(w.rc, PT_OK);
}

/* ... once it has it back, if another holds it at the deadline. */
static void test_cond_wait_timed_out_waits_for_the_lock(void) {
    struct pt_lock lock;
    struct lk w;
    cond_timeout(&lock, &w, 15);
    CHECK_EQ_INT(w.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.k.woke_at, 20);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_STR(trace.buf, "x x-1 w w-1 ");
}

/* A zero timeout leaves at once, PT_ETIMEDOUT, the lock still held. */
static void test_cond_wait_with_zero_timeout_keeps_the_lock(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w;
    struct tk t;
    cond_waiter_alone(&lock, &c, &w, &t, 1, 0);
    CHECK_EQ_INT(w.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.k.stopped, 0);
    CHECK_EQ_INT(w.held, 1);
    pt_task_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A waiter cancelled while it waits does not hold the lock in its
 * cleanup section (another does). */
static void test_cond_waiter_cancelled_does_not_hold_the_lock(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w, x;
    cond_w_and_x(&lock, &c, &w, &x);
    x.k.ticks = 1;
    x.k.n = -1; /* takes it and keeps it */
    spawn(&w.k, cond_waiter);
    spawn(&x.k, locker);
    pt_loop_run_once(&lp, 0); /* w waits on c */
    pt_loop_run_once(&lp, 1); /* x takes the lock at 1 */
    CHECK(pt_lock_owner(&lock) == &x.k.task);
    CHECK_EQ_INT(pt_task_cancel(&lp, &w.k.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(w.k.cleanups, 1);
    CHECK_EQ_INT(w.held_in_cleanup, 0);
    CHECK(pt_lock_owner(&lock) == &x.k.task);
}

/* Holds the lock from 0 to 20 (keeps the condition's lock busy); notifies
 * one waiter at 0 if n > 0. */
static PT_THREAD(lock_holder(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    if (w->k.n > 0)
        pt_cond_notify(loop, w->cond, task, 1);
    PT_SLEEP(20);
    w->rc = pt_lock_release(loop, w->lock, task);
    PT_TASK_END();
}

/* Waits on the condition inside a timeout scope of 10 (the lock is held
 * by another until 20). */
static struct pt_timeout cond_scope;

static PT_THREAD(scoped_cond_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    PT_TIMEOUT_BEGIN(&cond_scope, 10);
    PT_COND_WAIT(w->cond, PT_FOREVER);
    AFTER_WAIT(k);
    w->held = pt_lock_owner(w->lock) == task;
    w->rc2 = PT_TIMEOUT_END(&cond_scope);
    if (w->held)
        w->rc = pt_lock_release(loop, w->lock, task);
    PT_TASK_END();
}

/* A waiter notified but cancelled before it ran passes nothing on (a
 * condition, like an event, has nothing to give back: loop/types.h,
 * PT__WL_KEEP): the next waiter goes on waiting. */
static void test_cond_notified_waiter_cancelled_passes_nothing_on(void) {
    struct pt_lock lock;
    struct pt_cond c;
    struct lk w[2], x;
    int i;
    fresh(0);
    pt_lock_init(&lock);
    pt_cond_init(&c, &lock);
    lockers_init(w, 2, &lock);
    for (i = 0; i < 2; i++) {
        w[i].cond = &c;
        spawn(&w[i].k, cond_waiter);
    }
    pt_loop_run_once(&lp, 0); /* both wait on c */
    lk_init(&x, "x", 7);
    CHECK_EQ_INT(pt_lock_try(&lock, &x.k.task), 1);
    CHECK_EQ_INT(pt_cond_notify(&lp, &c, &x.k.task, 1), PT_OK); /* wakes a */
    CHECK_EQ_INT(pt_task_cancel(&lp, &w[0].k.task), PT_OK);
    CHECK_EQ_INT(pt_lock_release(&lp, &lock, &x.k.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* b waits for good */
    CHECK_EQ_INT(w[0].k.cleanups, 1);
    CHECK_EQ_INT(w[1].k.result, 99);
    CHECK(pt_lock_owner(&lock) == NULL);
    pt_task_cancel(&lp, &w[1].k.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* W waits on the condition in a timeout scope of 10; H takes the lock at
 * 0 and holds it until 20, notifying W at once if `notify`. */
static void cond_wait_in_a_scope(struct lk *w, struct lk *h, int notify) {
    static struct pt_lock lock;
    static struct pt_cond c;
    fresh(0);
    memset(&cond_scope, 0, sizeof cond_scope);
    pt_lock_init(&lock);
    pt_cond_init(&c, &lock);
    lk_init(w, "w", 0);
    lk_init(h, "h", 1);
    w->lock = h->lock = &lock;
    w->cond = h->cond = &c;
    h->k.n = notify;
    spawn(&w->k, scoped_cond_waiter);
    spawn(&h->k, lock_holder);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The scope cuts the wait for a notification (PT_ETIMEDOUT), and the
 * wait then takes the lock back, when H releases it. */
static void test_cond_wait_cut_by_a_scope_times_out_holding_the_lock(void) {
    struct lk w, h;
    cond_wait_in_a_scope(&w, &h, 0);
    CHECK_EQ_INT(w.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.k.woke_at, 20);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_INT(w.rc2, PT_ETIMEDOUT);
    CHECK_EQ_INT(h.rc, PT_OK);
}

/* The wait returns holding the lock "either way": also when the scope's
 * deadline passes while, notified, it waits to take the lock back
 * (asyncio's Condition.wait re-acquires the lock even when cancelled). */
static void test_cond_wait_cut_by_a_scope_still_takes_the_lock_back(void) {
    struct lk w, h;
    cond_wait_in_a_scope(&w, &h, 1);
    CHECK_EQ_INT(w.held, 1);
    CHECK_EQ_INT(w.k.woke_at, 20);
    CHECK_EQ_INT(h.rc, PT_OK);
    CHECK_EQ_INT(w.rc2, PT_ETIMEDOUT);
}

/* Takes the lock, waits on the condition; its cleanup sleeps 3 ticks and
 * notes that sleep's result (cleanup_result) and when it ended. */
static PT_THREAD(cond_waiter_sleeping_in_cleanup(struct pt_loop *loop, struct pt_task *task)) {
    struct lk *w = LK(task);
    struct tk *k = &w->k;
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(w->lock, PT_FOREVER);
    PT_COND_WAIT(w->cond, k->timeout);
    AFTER_WAIT(k);
    PT_TASK_CLEANUP();
    k->cleanups++;
    w->held_in_cleanup = pt_lock_owner(w->lock) == task;
    PT_SLEEP(3);
    k->cleanup_result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* A waiter whose condition wait timed out, given the lock back and
 * cancelled before it ran, passes the lock on, and what its cleanup waits
 * for is not timed out: the timeout was that wait's only. */
static void test_cond_timed_out_waiter_cancelled_once_granted_waits_untimed_after(void) {
    struct pt_lock lock;
    static struct pt_cond c;
    struct lk w, x;
    fresh(0);
    pt_lock_init(&lock);
    pt_cond_init(&c, &lock);
    lk_init(&w, "w", 0);
    w.lock = &lock;
    w.cond = &c;
    w.k.timeout = 10;
    lk_init(&x, "x", 1);
    x.lock = &lock;
    x.k.ticks = 5; /* takes the lock at 5, holds it until 20 */
    x.k.n = 15;
    spawn(&w.k, cond_waiter_sleeping_in_cleanup);
    spawn(&x.k, locker);
    while (pt_lock_owner(&lock) != &w.k.task)
        CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    CHECK_EQ_INT((long)pt_loop_now(&lp), 20);
    CHECK_EQ_INT(pt_task_cancel(&lp, &w.k.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(w.k.cleanups, 1);
    CHECK_EQ_INT(w.held_in_cleanup, 0);
    CHECK(pt_lock_owner(&lock) == NULL);
    CHECK_EQ_INT(w.k.cleanup_result, PT_OK);
    CHECK_EQ_INT(w.k.woke_at, 23);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(lock_free_is_taken_without_stopping)                                                         \
    X(lock_goes_to_waiters_in_fifo_order)                                                          \
    X(lock_release_hands_it_to_the_longest_waiter_at_once)                                         \
    X(lock_is_not_taken_by_a_task_asking_after_the_release)                                        \
    X(lock_release_by_another_task_is_ebusy)                                                       \
    X(lock_release_of_a_free_lock_is_einval)                                                       \
    X(lock_second_acquire_by_its_owner_is_ebusy)                                                   \
    X(lock_acquire_times_out_at_its_deadline)                                                      \
    X(lock_waiter_that_timed_out_is_passed_over)                                                   \
    X(lock_acquire_with_zero_timeout_tries_once)                                                   \
    X(lock_cancelled_waiter_takes_nothing)                                                         \
    X(lock_granted_then_cancelled_waiter_passes_it_on)                                             \
    X(lock_granted_then_cancelled_waiter_alone_frees_it)                                           \
    X(lock_held_by_a_finished_task_stays_held)                                                     \
    X(lock_timed_acquire_on_a_full_heap_is_efull)                                                  \
    X(cond_wait_releases_the_lock)                                                                 \
    X(cond_wait_takes_the_lock_again_before_it_returns)                                            \
    X(cond_wait_hands_the_lock_to_its_next_waiter)                                                 \
    X(cond_notify_n_wakes_n_in_fifo_order)                                                         \
    X(cond_notify_1_wakes_one)                                                                     \
    X(cond_notify_all_wakes_every_waiter_in_fifo_order)                                            \
    X(cond_notify_without_the_lock_is_ebusy)                                                       \
    X(cond_wait_without_the_lock_is_ebusy)                                                         \
    X(cond_wait_times_out_holding_the_lock)                                                        \
    X(cond_wait_timed_out_waits_for_the_lock)                                                      \
    X(cond_wait_with_zero_timeout_keeps_the_lock)                                                  \
    X(cond_waiter_cancelled_does_not_hold_the_lock)                                                \
    X(cond_notified_waiter_cancelled_passes_nothing_on)                                            \
    X(cond_wait_cut_by_a_scope_times_out_holding_the_lock)                                         \
    X(cond_wait_cut_by_a_scope_still_takes_the_lock_back)                                          \
    X(cond_timed_out_waiter_cancelled_once_granted_waits_untimed_after)
/* clang-format on */
TEST_MAIN(TEST_CASES)
