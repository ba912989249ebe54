/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_call.c - the contract of callbacks (loop/call.h: call
 * soon / later / at, cancel) and of timeout scopes (loop/timeout.h). On
 * the virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

/* ---- callbacks ------------------------------------------------------------ */

struct cb {
    struct pt_handle h; /* zeroed before its first use */
    const char *name;
    int calls;
    long at;          /* loop time of the last call (-1: never) */
    int pending;      /* pt_handle_pending(h) inside the call */
    int n, stop;      /* countdown / countup */
    int rc;           /* what a call made from the callback returned */
    struct cb *other; /* a callback this one schedules */
};

static void cb_init(struct cb *c, const char *name) {
    memset(c, 0, sizeof *c);
    c->name = name;
    c->at = -1;
    c->pending = 99;
    c->rc = 99;
}

/* Notes its name (and, if it has one, calls `other` soon). */
static void cb_note(struct pt_loop *loop, void *arg) {
    struct cb *c = (struct cb *)arg;
    c->calls++;
    c->at = (long)pt_loop_now(loop);
    c->pending = pt_handle_pending(&c->h);
    note(c->name);
    if (c->other)
        c->rc = pt_call_soon(loop, &c->other->h, cb_note, c->other);
}

/* Notes its name `n` times, yielding in between. */
static PT_THREAD(yielder(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        note(k->name);
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

/* call_soon goes to the back of the ready queue, which it shares with the
 * tasks: tasks and callbacks run in the order they were scheduled. */
static void test_call_soon_runs_in_fifo_order_with_the_tasks(void) {
    struct tk a, b;
    struct cb c1, c2;
    fresh(0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.n = b.n = 2;
    cb_init(&c1, "c1");
    cb_init(&c2, "c2");
    spawn(&a, yielder);
    CHECK_EQ_INT(pt_call_soon(&lp, &c1.h, cb_note, &c1), PT_OK);
    spawn(&b, yielder);
    CHECK_EQ_INT(pt_call_soon(&lp, &c2.h, cb_note, &c2), PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "a c1 b c2 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "a c1 b c2 a b ");
    CHECK_EQ_INT(c1.calls, 1);
    CHECK_EQ_INT(c2.calls, 1);
}

/* A callback scheduled by a callback that runs goes to the next
 * iteration (after what was ready before it), as a task's would. */
static void test_call_soon_from_a_running_callback_runs_next_iteration(void) {
    struct tk a;
    struct cb c1, c2;
    fresh(0);
    tk_init(&a, "a", 0);
    a.n = 3;
    cb_init(&c1, "c1");
    cb_init(&c2, "c2");
    c1.other = &c2;
    spawn(&a, yielder);
    CHECK_EQ_INT(pt_call_soon(&lp, &c1.h, cb_note, &c1), PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "a c1 ");
    CHECK_EQ_INT(c1.rc, PT_OK);
    CHECK(pt_handle_pending(&c2.h));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "a c1 a c2 a ");
}

/* Four timers set for 30, 10, 20 and 10: called by deadline, then in the
 * order they were set. */
static void test_call_later_runs_by_deadline_then_order_set(void) {
    static const pt_time_t delay[4] = {30, 10, 20, 10};
    static const char *const names[4] = {"h0", "h1", "h2", "h3"};
    struct cb c[4];
    int i;
    fresh(0);
    for (i = 0; i < 4; i++) {
        cb_init(&c[i], names[i]);
        CHECK_EQ_INT(pt_call_later(&lp, &c[i].h, delay[i], cb_note, &c[i]), PT_OK);
    }
    CHECK_EQ_INT(pt_loop_timers(&lp), 4);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "h1 h3 h2 h0 ");
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(c[i].at, (long)delay[i]);
        CHECK_EQ_INT(c[i].calls, 1);
    }
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* call_at takes a loop time: the call is made then (pt_handle_when says
 * when, while it is pending); a time already past is called at the next
 * iteration. */
static void test_call_at_calls_at_that_loop_time(void) {
    struct cb c1, c2;
    fresh(1000);
    cb_init(&c1, "c1");
    cb_init(&c2, "c2");
    CHECK_EQ_INT(pt_call_at(&lp, &c1.h, 1050, cb_note, &c1), PT_OK);
    CHECK_EQ_INT(pt_call_at(&lp, &c2.h, 990, cb_note, &c2), PT_OK);
    CHECK_EQ_INT((long)pt_handle_when(&c1.h), 1050);
    CHECK(pt_handle_pending(&c1.h));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "c2 c1 ");
    CHECK_EQ_INT(c2.at, 1000);
    CHECK_EQ_INT(c1.at, 1050);
    CHECK(!pt_handle_pending(&c1.h));
}

/* A cancelled timer is not called; it leaves no timer, and nothing keeps
 * the loop going. */
static void test_cancel_of_a_pending_timer_drops_the_call(void) {
    struct cb c;
    fresh(0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 10, cb_note, &c), PT_OK);
    CHECK(pt_handle_pending(&c.h));
    CHECK_EQ_INT(pt_handle_cancel(&lp, &c.h), PT_OK);
    CHECK(!pt_handle_pending(&c.h));
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 0);
    CHECK_EQ_INT(since(0), 0);
}

/* A cancelled call_soon is not called either; until the loop has dropped
 * it from the ready queue the handle cannot be scheduled again
 * (PT_EBUSY), afterwards it can. */
static void test_cancel_of_a_queued_callback_drops_the_call(void) {
    struct cb c;
    fresh(0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_soon(&lp, &c.h, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_handle_cancel(&lp, &c.h), PT_OK);
    CHECK(!pt_handle_pending(&c.h));
    CHECK_EQ_INT(pt_call_soon(&lp, &c.h, cb_note, &c), PT_EBUSY);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(c.calls, 0);
    CHECK_EQ_INT(pt_call_soon(&lp, &c.h, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 1);
}

/* Sleeps `ticks`, then cancels the callback `item.p` (result: what the
 * cancel said). */
static PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    note(k->name);
    k->result = pt_handle_cancel(loop, &((struct cb *)k->item.p)->h);
    PT_TASK_END();
}

/* A timer that is due but not yet called (a task woken by an earlier
 * timer of the same deadline runs first) can still be cancelled. */
static void test_cancel_of_a_due_callback_before_its_turn_drops_it(void) {
    struct tk k;
    struct cb c;
    fresh(0);
    tk_init(&k, "k", 0);
    cb_init(&c, "c");
    k.ticks = 10;
    k.item.p = &c;
    spawn(&k, canceller);
    pt_loop_run_once(&lp, 0); /* k's timer first */
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 10, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(k.result, PT_OK);
    CHECK_EQ_INT(c.calls, 0);
    CHECK_EQ_STR(trace.buf, "k ");
}

/* Cancel of a handle that is not pending: PT_EINVAL (never scheduled,
 * called already, cancelled already). */
static void test_cancel_of_a_handle_not_pending_is_einval(void) {
    struct cb c, d;
    fresh(0);
    cb_init(&c, "c");
    cb_init(&d, "d");
    CHECK_EQ_INT(pt_handle_cancel(&lp, &c.h), PT_EINVAL); /* never scheduled */
    CHECK_EQ_INT(pt_call_soon(&lp, &c.h, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_call_later(&lp, &d.h, 5, cb_note, &d), PT_OK);
    CHECK_EQ_INT(pt_handle_cancel(&lp, &d.h), PT_OK);
    CHECK_EQ_INT(pt_handle_cancel(&lp, &d.h), PT_EINVAL); /* cancelled */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 1);
    CHECK_EQ_INT(pt_handle_cancel(&lp, &c.h), PT_EINVAL); /* called */
}

/* A pending handle cannot be scheduled again: PT_EBUSY, and the call
 * stands as it was. */
static void test_schedule_of_a_pending_handle_is_ebusy(void) {
    struct cb c;
    fresh(0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 10, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_call_soon(&lp, &c.h, cb_note, &c), PT_EBUSY);
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 5, cb_note, &c), PT_EBUSY);
    CHECK_EQ_INT(pt_call_at(&lp, &c.h, 1, cb_note, &c), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 1);
    CHECK_EQ_INT(c.at, 10);
}

/* The handle is free again when its callback starts. */
static void test_handle_is_free_again_when_its_callback_runs(void) {
    struct cb c;
    fresh(0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 10, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.pending, 0);
    CHECK(!pt_handle_pending(&c.h));
}

/* With the timer heap full, call_later / call_at give PT_EFULL and
 * schedule nothing; call_soon needs no timer. */
static void test_call_later_with_a_full_heap_is_efull(void) {
    static struct pt_timer_slot one[1];
    struct cb c1, c2;
    fresh(0);
    CHECK_EQ_INT(test_loop_init(&lp, one, 1), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    cb_init(&c1, "c1");
    cb_init(&c2, "c2");
    CHECK_EQ_INT(pt_call_later(&lp, &c1.h, 10, cb_note, &c1), PT_OK);
    CHECK_EQ_INT(pt_call_later(&lp, &c2.h, 5, cb_note, &c2), PT_EFULL);
    CHECK_EQ_INT(pt_call_at(&lp, &c2.h, 5, cb_note, &c2), PT_EFULL);
    CHECK(!pt_handle_pending(&c2.h));
    CHECK_EQ_INT(pt_handle_cancel(&lp, &c2.h), PT_EINVAL);
    CHECK_EQ_INT(pt_call_soon(&lp, &c2.h, cb_note, &c2), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "c2 c1 ");
    CHECK_EQ_INT(c2.calls, 1);
    CHECK_EQ_INT(c2.at, 0);
    CHECK_EQ_INT(c1.at, 10);
}

/* A pending callback keeps pt_loop_run going, as a task does ... */
static void test_pending_callback_keeps_the_loop_running(void) {
    struct cb c;
    fresh(0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 50, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 1);
    CHECK_EQ_INT(since(0), 50);
}

/* ... and a background task runs meanwhile, until the callback was the
 * last thing left. */
static PT_THREAD(background_ticker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_SLEEP(10);
        k->i++;
    }
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

static void test_pending_callback_keeps_background_tasks_running(void) {
    struct cb c;
    struct tk b;
    fresh(0);
    cb_init(&c, "c");
    tk_init(&b, "b", 0);
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &b.task, background_ticker), PT_OK);
    CHECK_EQ_INT(pt_call_later(&lp, &c.h, 35, cb_note, &c), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.calls, 1);
    CHECK_EQ_INT(b.i, 3);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(since(0), 35);
}

/* The articles' scheduler (Castelino): countdown(n) prints "Down n" and
 * calls itself with n-1 four ticks later while n > 0; countup prints
 * "Up x" every tick, x from 0 while x < stop. Each reschedules its own
 * handle from inside its callback. */
struct event {
    long at;
    char who; /* 'D' down, 'U' up */
    int n;
};

static struct event events[16];
static int nevents;

static void log_event(struct pt_loop *loop, char who, int n) {
    if (nevents < (int)(sizeof events / sizeof events[0])) {
        events[nevents].at = (long)pt_loop_now(loop);
        events[nevents].who = who;
        events[nevents].n = n;
    }
    nevents++;
}

static void countdown(struct pt_loop *loop, void *arg) {
    struct cb *c = (struct cb *)arg;
    c->calls++;
    c->at = (long)pt_loop_now(loop);
    if (c->n > 0) {
        log_event(loop, 'D', c->n);
        c->n--;
        c->rc = pt_call_later(loop, &c->h, 4, countdown, c);
    }
}

static void countup(struct pt_loop *loop, void *arg) {
    struct cb *c = (struct cb *)arg;
    c->calls++;
    if (c->n < c->stop) {
        log_event(loop, 'U', c->n);
        c->n++;
        c->rc = pt_call_later(loop, &c->h, 1, countup, c);
    }
}

/* countdown(3) and countup(10), both by call_soon at 0: at 4 and 8 both
 * are due; countdown's timer was set first (at 0 and 4, countup's at 3
 * and 7), so "Down" comes first, as in the article's output. */
static void test_countdown_and_countup_interleave_over_time(void) {
    static const struct event expect[] = {
        {0, 'D', 3}, {0, 'U', 0}, {1, 'U', 1}, {2, 'U', 2}, {3, 'U', 3}, {4, 'D', 2}, {4, 'U', 4},
        {5, 'U', 5}, {6, 'U', 6}, {7, 'U', 7}, {8, 'D', 1}, {8, 'U', 8}, {9, 'U', 9},
    };
    const int n = (int)(sizeof expect / sizeof expect[0]);
    struct cb down, up;
    int i;
    fresh(0);
    nevents = 0;
    cb_init(&down, "down");
    cb_init(&up, "up");
    down.n = 3;
    up.stop = 10;
    CHECK_EQ_INT(pt_call_soon(&lp, &down.h, countdown, &down), PT_OK);
    CHECK_EQ_INT(pt_call_soon(&lp, &up.h, countup, &up), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(nevents, n);
    for (i = 0; i < n && i < nevents; i++) {
        CHECK_EQ_INT(events[i].at, expect[i].at);
        CHECK_EQ_INT(events[i].who, expect[i].who);
        CHECK_EQ_INT(events[i].n, expect[i].n);
    }
    CHECK_EQ_INT(down.calls, 4); /* countdown(0) at 12 prints nothing */
    CHECK_EQ_INT(down.at, 12);
    CHECK_EQ_INT(up.calls, 11);
    CHECK_EQ_INT(down.rc, PT_OK);
    CHECK_EQ_INT(since(0), 12);
}

/* ---- timeout scopes ------------------------------------------------------- */

/* A task of the scope tests: the fixture's, its scopes, what it saw. */
struct sk {
    struct tk k; /* first member: the task */
    struct pt_timeout outer, inner;
    pt_time_t outer_ticks, inner_ticks; /* 0: no inner scope */
    int at;                             /* outer_ticks is a loop time (BEGIN_AT) */
    pt_time_t pre, wait, wait2;         /* sleeps (pre: before the inner scope) */
    int r0, r1, r2, rc;                 /* results of the waits (rc: in the cleanup) */
    long w0, w1, w2, wc;                /* when they ended */
    int end, inner_end, end2;           /* PT_TIMEOUT_END results */
    int end_result;                     /* PT_WAIT_RESULT() after the outer end */
    int timers_in, timers_after;        /* timers in the heap inside / after the scope */
    int expired;                        /* pt_timeout_expired before the end */
    struct pt_task *target;             /* what it joins */
    struct pt_group *group;             /* what it waits for */
};

static void sk_init(struct sk *s, const char *name, int id) {
    memset(s, 0, sizeof *s);
    tk_init(&s->k, name, id);
    s->r0 = s->r1 = s->r2 = s->rc = 99;
    s->w0 = s->w1 = s->w2 = s->wc = -1;
    s->end = s->inner_end = s->end2 = s->end_result = 99;
    s->timers_in = s->timers_after = -1;
    s->expired = 99;
}

#define SK(task) ((struct sk *)(task))

/* Record a wait's result and end time in r, w. */
#define RECORD(r, w)                                                                               \
    do {                                                                                           \
        (r) = PT_WAIT_RESULT();                                                                    \
        (w) = (long)pt_loop_now(loop);                                                             \
    } while (0)

/* In a scope of `outer_ticks` (at: until that loop time): waits on its
 * event (if any) or sleeps `wait` (r1), then sleeps `wait2` (r2). */
static PT_THREAD(scoped(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    if (s->at)
        PT_TIMEOUT_BEGIN_AT(&s->outer, s->outer_ticks);
    else
        PT_TIMEOUT_BEGIN(&s->outer, s->outer_ticks);
    s->timers_in = (int)pt_loop_timers(loop);
    if (s->k.ev)
        PT_EVENT_WAIT(s->k.ev, PT_FOREVER);
    else
        PT_SLEEP(s->wait);
    RECORD(s->r1, s->w1);
    PT_SLEEP(s->wait2);
    RECORD(s->r2, s->w2);
    s->expired = pt_timeout_expired(&s->outer);
    s->end = PT_TIMEOUT_END(&s->outer);
    s->end_result = PT_WAIT_RESULT();
    s->timers_after = (int)pt_loop_timers(loop);
    note(s->k.name);
    PT_TASK_END();
}

/* S: a scope of `scope` ticks over a wait on a clear event (ev) or a
 * sleep of `wait`, then a sleep of 5. */
static void scoped_run(struct sk *s, pt_time_t scope, struct pt_event *ev, pt_time_t wait) {
    fresh(0);
    sk_init(s, "s", 0);
    s->outer_ticks = scope;
    s->k.ev = ev;
    s->wait = wait;
    s->wait2 = 5;
    spawn(&s->k, scoped);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The deadline cuts the wait in progress: PT_ETIMEDOUT then ... */
static void test_scope_deadline_cuts_the_wait_in_progress(void) {
    struct pt_event ev;
    struct sk s;
    pt_event_init(&ev);
    scoped_run(&s, 10, &ev, 0);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 10);
}

/* ... a sleep too. */
static void test_scope_deadline_cuts_a_sleep(void) {
    struct sk s;
    scoped_run(&s, 10, NULL, 100);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 10);
}

/* Every later wait in the expired scope ends at once, PT_ETIMEDOUT. */
static void test_scope_expired_ends_later_waits_at_once(void) {
    struct sk s;
    scoped_run(&s, 10, NULL, 100);
    CHECK_EQ_INT(s.r2, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w2, 10);
    CHECK_EQ_INT(s.expired, 1);
    CHECK_EQ_INT(since(0), 10);
}

/* Its end says PT_ETIMEDOUT (also as the wait result); no timer is left. */
static void test_scope_end_after_the_deadline_is_etimedout(void) {
    struct sk s;
    scoped_run(&s, 10, NULL, 100);
    CHECK_EQ_INT(s.end, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.end_result, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.timers_after, 0);
}

/* A scope holds one timer while open; one whose deadline did not pass
 * ends PT_OK, its waits untouched, and leaves no timer (the loop does not
 * wait for it). */
static void test_scope_not_expired_ends_ok_and_leaves_no_timer(void) {
    struct sk s;
    scoped_run(&s, 100, NULL, 10);
    CHECK_EQ_INT(s.timers_in, 1);
    CHECK_EQ_INT(s.r1, PT_OK);
    CHECK_EQ_INT(s.w1, 10);
    CHECK_EQ_INT(s.r2, PT_OK);
    CHECK_EQ_INT(s.w2, 15);
    CHECK_EQ_INT(s.expired, 0);
    CHECK_EQ_INT(s.end, PT_OK);
    CHECK_EQ_INT(s.timers_after, 0);
    CHECK_EQ_INT(since(0), 15);
}

/* PT_FOREVER: no deadline, no timer. */
static void test_scope_without_deadline_holds_no_timer(void) {
    struct sk s;
    scoped_run(&s, PT_FOREVER, NULL, 10);
    CHECK_EQ_INT(s.timers_in, 0);
    CHECK_EQ_INT(s.r1, PT_OK);
    CHECK_EQ_INT(s.r2, PT_OK);
    CHECK_EQ_INT(s.end, PT_OK);
}

/* PT_TIMEOUT_BEGIN_AT: the deadline is a loop time. */
static void test_scope_begun_at_a_loop_time_expires_then(void) {
    struct sk s;
    fresh(1000);
    sk_init(&s, "s", 0);
    s.at = 1;
    s.outer_ticks = 1030;
    s.wait = 100;
    spawn(&s.k, scoped);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 1030);
    CHECK_EQ_INT(s.end, PT_ETIMEDOUT);
}

/* In an expired scope (a sleep of 100 cut at 10): a wait on a set event,
 * then for a free lock. */
static struct pt_event scope_ev;
static struct pt_lock scope_lock;

static PT_THREAD(scope_passer(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, 10);
    PT_SLEEP(100);
    RECORD(s->r0, s->w0);
    PT_EVENT_WAIT(&scope_ev, PT_FOREVER);
    RECORD(s->r1, s->w1);
    PT_LOCK_ACQUIRE(&scope_lock, 50);
    RECORD(s->r2, s->w2);
    s->end = PT_TIMEOUT_END(&s->outer);
    if (pt_lock_owner(&scope_lock) == task)
        s->rc = pt_lock_release(loop, &scope_lock, task);
    PT_TASK_END();
}

/* A wait whose condition holds at once does not stop, and so is not cut
 * (as in asyncio), even in an expired scope. */
static void test_scope_expired_does_not_cut_a_wait_that_passes_at_once(void) {
    struct sk s;
    fresh(0);
    pt_event_init(&scope_ev);
    pt_event_set(&lp, &scope_ev);
    pt_lock_init(&scope_lock);
    sk_init(&s, "s", 0);
    spawn(&s.k, scope_passer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.r0, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w0, 10);
    CHECK_EQ_INT(s.r1, PT_OK);
    CHECK_EQ_INT(s.r2, PT_OK);
    CHECK_EQ_INT(s.rc, PT_OK);
    CHECK_EQ_INT(s.w2, 10);
    CHECK_EQ_INT(s.end, PT_ETIMEDOUT);
}

/* With no timer slot, the scope cannot set its timer: every wait in it
 * ends at once, and its end says PT_EFULL. */
static void test_scope_on_a_full_heap_ends_its_waits_at_once_and_is_efull(void) {
    struct pt_event ev;
    struct sk s;
    fresh_without_timers();
    pt_event_init(&ev);
    sk_init(&s, "s", 0);
    s.outer_ticks = 10;
    s.k.ev = &ev;
    spawn(&s.k, scoped);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 0);
    CHECK_EQ_INT(s.end, PT_EFULL);
}

/* Nested scopes: an outer of `outer_ticks`; after a sleep of `pre` (if
 * any), an inner of `inner_ticks` over a sleep of `wait` (r1); the inner
 * ends; a sleep of `wait2` (r2); the outer ends. */
static PT_THREAD(nested(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, s->outer_ticks);
    if (s->pre) {
        PT_SLEEP(s->pre);
        RECORD(s->r0, s->w0);
    }
    PT_TIMEOUT_BEGIN(&s->inner, s->inner_ticks);
    s->timers_in = (int)pt_loop_timers(loop);
    PT_SLEEP(s->wait);
    RECORD(s->r1, s->w1);
    s->inner_end = PT_TIMEOUT_END(&s->inner);
    PT_SLEEP(s->wait2);
    RECORD(s->r2, s->w2);
    s->end = PT_TIMEOUT_END(&s->outer);
    s->timers_after = (int)pt_loop_timers(loop);
    PT_TASK_END();
}

static void nested_run(struct sk *s, pt_time_t outer, pt_time_t pre, pt_time_t inner) {
    fresh(0);
    sk_init(s, "s", 0);
    s->outer_ticks = outer;
    s->pre = pre;
    s->inner_ticks = inner;
    s->wait = 50;
    s->wait2 = 5;
    spawn(&s->k, nested);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Inner shorter: the inner deadline cuts the wait; the inner ends
 * PT_ETIMEDOUT, the outer goes on undisturbed and ends PT_OK. */
static void test_scope_inner_shorter_fires_the_inner_only(void) {
    struct sk s;
    nested_run(&s, 100, 0, 10);
    CHECK_EQ_INT(s.timers_in, 2); /* both deadlines run */
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 10);
    CHECK_EQ_INT(s.inner_end, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.r2, PT_OK);
    CHECK_EQ_INT(s.w2, 15);
    CHECK_EQ_INT(s.end, PT_OK);
    CHECK_EQ_INT(s.timers_after, 0);
}

/* Outer shorter: the outer deadline cuts the wait in the inner scope; the
 * inner ends PT_ECANCELLED, the outer PT_ETIMEDOUT. */
static void test_scope_outer_shorter_cancels_the_inner(void) {
    struct sk s;
    nested_run(&s, 10, 0, 100);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.inner_end, PT_ECANCELLED);
    CHECK_EQ_INT(s.r2, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w2, 10);
    CHECK_EQ_INT(s.end, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.timers_after, 0);
}

/* An inner deadline never extends the outer one: the wait ends at the
 * outer's 10, not the inner's 100 ... */
static void test_scope_inner_deadline_never_extends_the_outer(void) {
    struct sk s;
    nested_run(&s, 10, 0, 100);
    CHECK_EQ_INT(s.w1, 10);
    CHECK_EQ_INT(since(0), 10);
}

/* ... nor does an inner scope opened after the outer expired: its waits
 * end at once. */
static void test_scope_opened_inside_an_expired_one_ends_waits_at_once(void) {
    struct sk s;
    nested_run(&s, 10, 20, 100);
    CHECK_EQ_INT(s.r0, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w0, 10);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 10);
    CHECK_EQ_INT(s.inner_end, PT_ECANCELLED);
    CHECK_EQ_INT(s.end, PT_ETIMEDOUT);
}

/* Sleeps `ticks`, returns; its cleanup notes and sleeps 5 (a worker to
 * join or to wait for). */
static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    note(k->name);
    PT_TASK_RETURN(pt_value_int(k->n));
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    order[norder++] = k->id;
    note_n(k->name, -(long)k->cleanups);
    PT_SLEEP(5);
    k->woke_at = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* In a scope of 10: joins `target` (or waits for `group`) for ever. */
static PT_THREAD(scoped_join(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, s->outer_ticks);
    if (s->group)
        PT_GROUP_WAIT(s->group, PT_FOREVER);
    else
        PT_JOIN(s->target, PT_FOREVER);
    RECORD(s->r1, s->w1);
    note(s->k.name);
    s->end = PT_TIMEOUT_END(&s->outer);
    PT_TASK_END();
}

/* A join cut by the scope cancels the joined task and returns once its
 * cleanup (which sleeps 5) has run: PT_ETIMEDOUT at 15. */
static void test_scope_cuts_a_join_after_the_joined_tasks_cleanup(void) {
    struct sk j;
    struct tk w;
    fresh(0);
    tk_init(&w, "w", 1);
    w.ticks = 100;
    spawn(&w, worker);
    sk_init(&j, "j", 0);
    j.outer_ticks = 10;
    j.target = &w.task;
    spawn(&j.k, scoped_join);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&w.task), PT_CLOSED);
    CHECK_EQ_INT(w.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(w.woke_at, 15);
    CHECK_EQ_INT(j.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(j.w1, 15);
    CHECK_EQ_INT(j.end, PT_ETIMEDOUT);
    CHECK_EQ_STR(trace.buf, "w-1 j ");
}

/* A group wait cut by the scope cancels the members and returns once
 * they have all finished. */
static void test_scope_cuts_a_group_wait_after_the_members_cleanups(void) {
    struct pt_task *members[2];
    struct pt_group g;
    struct sk j;
    struct tk w[2];
    int i;
    fresh(0);
    pt_group_init(&g, members, 2, PT_GROUP_COLLECT);
    for (i = 0; i < 2; i++) {
        tk_init(&w[i], i ? "v" : "w", i + 1);
        w[i].ticks = 100;
        CHECK_EQ_INT(pt_group_spawn(&lp, &g, &w[i].task, worker), PT_OK);
    }
    sk_init(&j, "j", 0);
    j.outer_ticks = 10;
    j.group = &g;
    spawn(&j.k, scoped_join);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&w[0].task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&w[1].task), PT_CLOSED);
    CHECK_EQ_INT(j.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(j.w1, 15);
    CHECK_EQ_INT(norder, 2); /* both cancelled at 10, in the order of the group */
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 2);
    CHECK_EQ_STR(trace.buf, "w-1 v-1 j ");
}

/* In a scope of `outer_ticks` and an inner one of `inner_ticks`, waits on
 * its event for ever; its cleanup counts the timers, sleeps `wait` (rc)
 * and tries to end the outer scope (end). */
static PT_THREAD(scoped_cancelled(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, s->outer_ticks);
    PT_TIMEOUT_BEGIN(&s->inner, s->inner_ticks);
    PT_EVENT_WAIT(s->k.ev, PT_FOREVER);
    RECORD(s->r1, s->w1);
    PT_TASK_CLEANUP();
    s->timers_after = (int)pt_loop_timers(loop);
    PT_SLEEP(s->wait);
    RECORD(s->rc, s->wc);
    s->end = PT_TIMEOUT_END(&s->outer);
    PT_TASK_END();
}

/* A cancel closes the task's scopes at once (no timer left): its cleanup
 * waits without them, and ends them no more (PT_EINVAL). */
static void scoped_cancelled_run(struct sk *s) {
    static struct pt_event ev;
    fresh(0);
    pt_event_init(&ev);
    sk_init(s, "s", 0);
    s->outer_ticks = 100;
    s->inner_ticks = 50;
    s->wait = 200;
    s->k.ev = &ev;
    spawn(&s->k, scoped_cancelled);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 2);
    CHECK_EQ_INT(pt_task_cancel(&lp, &s->k.task), PT_OK);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_scope_closed_by_a_cancel_leaves_no_timer(void) {
    struct sk s;
    scoped_cancelled_run(&s);
    CHECK_EQ_INT(s.timers_after, 0);
    CHECK_EQ_INT(s.r1, 99);
}

static void test_scope_closed_by_a_cancel_does_not_cut_the_cleanup(void) {
    struct sk s;
    scoped_cancelled_run(&s);
    CHECK_EQ_INT(s.rc, PT_OK);
    CHECK_EQ_INT(s.wc, 200);
    CHECK_EQ_INT(s.end, PT_EINVAL);
}

/* Ends a scope never begun, then begins one of 10, ends it, and ends it
 * again. */
static PT_THREAD(scope_ender(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    s->inner_end = PT_TIMEOUT_END(&s->inner);
    s->r0 = PT_WAIT_RESULT();
    PT_TIMEOUT_BEGIN(&s->outer, 10);
    s->end = PT_TIMEOUT_END(&s->outer);
    s->end2 = PT_TIMEOUT_END(&s->outer);
    s->timers_after = (int)pt_loop_timers(loop);
    PT_TASK_END();
}

/* PT_TIMEOUT_END of a scope that is not open: PT_EINVAL. */
static void test_scope_end_of_a_scope_not_open_is_einval(void) {
    struct sk s;
    fresh(0);
    sk_init(&s, "s", 0);
    spawn(&s.k, scope_ender);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.inner_end, PT_EINVAL);
    CHECK_EQ_INT(s.r0, PT_EINVAL);
    CHECK_EQ_INT(s.end, PT_OK);
    CHECK_EQ_INT(s.end2, PT_EINVAL);
    CHECK_EQ_INT(s.timers_after, 0);
}

/* Returns 5 inside a scope of 10, then sleeps 100 in its cleanup. */
static PT_THREAD(scope_returner(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, 10);
    PT_TASK_RETURN(pt_value_int(5));
    PT_TASK_CLEANUP();
    PT_SLEEP(100);
    RECORD(s->rc, s->wc);
    PT_TASK_END();
}

/* A scope left by PT_TASK_RETURN closes when the cleanup section begins,
 * as an `async with` block left by an exception: the cleanup's waits are
 * not cut. */
static void test_scope_left_by_a_return_closes_when_the_cleanup_begins(void) {
    struct sk s;
    fresh(0);
    sk_init(&s, "s", 0);
    spawn(&s.k, scope_returner);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1); /* the cleanup's sleep only */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.rc, PT_OK);
    CHECK_EQ_INT(s.wc, 100);
    CHECK_EQ_INT(pt_task_status(&s.k.task), PT_ENDED);
    CHECK_EQ_INT(s.k.task.gen.value.i, 5);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Begins a scope of 10, yields until the loop's time is 10, ends it and
 * begins it again for 10 more, then sleeps 15 in it. */
static PT_THREAD(scope_reuser(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->outer, 10);
    while (pt_time_before(pt_loop_now(loop), 10))
        PT_TASK_YIELD();
    s->end = PT_TIMEOUT_END(&s->outer);
    PT_TIMEOUT_BEGIN(&s->outer, 10);
    PT_SLEEP(15);
    RECORD(s->r1, s->w1);
    s->end2 = PT_TIMEOUT_END(&s->outer);
    PT_TASK_END();
}

/* A scope ended while its timer was due but not yet run, and begun again
 * at once (the same struct): the old timer does not cut the new scope,
 * whose own deadline holds. (The clock is moved to 10 by hand: a task
 * that yields keeps the virtual clock still.) */
static void test_scope_begun_again_while_its_old_timer_is_due_keeps_the_new_deadline(void) {
    struct sk s;
    fresh(0);
    sk_init(&s, "s", 0);
    spawn(&s.k, scope_reuser);
    pt_loop_run_once(&lp, 0);
    pt_loop_use_virtual_clock(&lp, 10);
    pt_loop_run_once(&lp, 0); /* the scope's timer is due behind s */
    CHECK_EQ_INT(s.end, PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(s.w1, 20);
    CHECK_EQ_INT(s.end2, PT_ETIMEDOUT);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

#if !defined(__AVR__) /* (the ATmega328P's 32 KiB of flash are full; the parity suite has it) */
/* A semaphore's unit is given to A, waiting inside a scope of 10, by a
 * callback due at 10 like the scope's timer but set before it: the
 * deadline passes between the grant and A's turn. */
static struct pt_semaphore grant_sem;

static void release_unit(struct pt_loop *loop, void *arg) {
    (void)arg;
    pt_semaphore_release(loop, &grant_sem);
}

static PT_THREAD(sem_taker(struct pt_loop *loop, struct pt_task *task)) {
    struct sk *s = SK(task);
    PT_TASK_BEGIN(loop, task);
    if (s->outer_ticks)
        PT_TIMEOUT_BEGIN(&s->outer, s->outer_ticks);
    PT_SEMAPHORE_ACQUIRE(&grant_sem, PT_FOREVER);
    RECORD(s->r1, s->w1);
    if (s->outer_ticks)
        s->end = PT_TIMEOUT_END(&s->outer);
    PT_TASK_END();
}

/* The grant is never lost between a wait and its scope: A's wait ends
 * PT_ETIMEDOUT as its scope does, and the unit goes on to B, the next
 * waiter, as asyncio's timeout cancels a task woken and not yet run. */
static void test_scope_passed_after_a_grant_passes_the_grant_on(void) {
    struct cb c;
    struct sk a, b;
    fresh(0);
    pt_semaphore_init(&grant_sem, 0);
    cb_init(&c, "c");
    CHECK_EQ_INT(pt_call_at(&lp, &c.h, 10, release_unit, NULL), PT_OK);
    sk_init(&a, "a", 0);
    a.outer_ticks = 10;
    sk_init(&b, "b", 1);
    spawn(&a.k, sem_taker);
    spawn(&b.k, sem_taker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.r1, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.end, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.r1, PT_OK);
    CHECK_EQ_INT(b.w1, 10);
    CHECK_EQ_INT((int)grant_sem.count, 0); /* B has it */
}
#define GRANT_SCOPE_CASES(X) X(scope_passed_after_a_grant_passes_the_grant_on)
#else
#define GRANT_SCOPE_CASES(X)
#endif

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(call_soon_runs_in_fifo_order_with_the_tasks)                                                 \
    X(call_soon_from_a_running_callback_runs_next_iteration)                                       \
    X(call_later_runs_by_deadline_then_order_set)                                                  \
    X(call_at_calls_at_that_loop_time)                                                             \
    X(cancel_of_a_pending_timer_drops_the_call)                                                    \
    X(cancel_of_a_queued_callback_drops_the_call)                                                  \
    X(cancel_of_a_due_callback_before_its_turn_drops_it)                                           \
    X(cancel_of_a_handle_not_pending_is_einval)                                                    \
    X(schedule_of_a_pending_handle_is_ebusy)                                                       \
    X(handle_is_free_again_when_its_callback_runs)                                                 \
    X(call_later_with_a_full_heap_is_efull)                                                        \
    X(pending_callback_keeps_the_loop_running)                                                     \
    X(pending_callback_keeps_background_tasks_running)                                             \
    X(countdown_and_countup_interleave_over_time)                                                  \
    X(scope_deadline_cuts_the_wait_in_progress)                                                    \
    X(scope_deadline_cuts_a_sleep)                                                                 \
    X(scope_expired_ends_later_waits_at_once)                                                      \
    X(scope_end_after_the_deadline_is_etimedout)                                                   \
    X(scope_not_expired_ends_ok_and_leaves_no_timer)                                               \
    X(scope_without_deadline_holds_no_timer)                                                       \
    X(scope_begun_at_a_loop_time_expires_then)                                                     \
    X(scope_expired_does_not_cut_a_wait_that_passes_at_once)                                       \
    X(scope_on_a_full_heap_ends_its_waits_at_once_and_is_efull)                                    \
    X(scope_inner_shorter_fires_the_inner_only)                                                    \
    X(scope_outer_shorter_cancels_the_inner)                                                       \
    X(scope_inner_deadline_never_extends_the_outer)                                                \
    X(scope_opened_inside_an_expired_one_ends_waits_at_once)                                       \
    X(scope_cuts_a_join_after_the_joined_tasks_cleanup)                                            \
    X(scope_cuts_a_group_wait_after_the_members_cleanups)                                          \
    X(scope_closed_by_a_cancel_leaves_no_timer)                                                    \
    X(scope_closed_by_a_cancel_does_not_cut_the_cleanup)                                           \
    X(scope_end_of_a_scope_not_open_is_einval)                                                     \
    X(scope_left_by_a_return_closes_when_the_cleanup_begins)                                       \
    X(scope_begun_again_while_its_old_timer_is_due_keeps_the_new_deadline)                         \
    GRANT_SCOPE_CASES(X)
/* clang-format on */
TEST_MAIN(TEST_CASES)
