/*
 * tests/test_loop.c - the contract of the loop's scheduler (loop/core.h):
 * the ready queue's order and snapshot rule, timers (never early, cancel,
 * re-arm, zero and huge delays, equal deadlines, a full heap, the 32-bit
 * wrap), the run modes and background tasks. All on the virtual clock:
 * time jumps to the next deadline when nothing is ready, so nothing here
 * takes real time and every time seen is exact. Built a second time with
 * PT_LOOP_SYNC, PT_LOOP_GROUPS and PT_LOOP_BACKGROUND 0: the parts that
 * need them are left out, the rest must hold unchanged.
 */
#include "loop/loop.h"

#include "check.h"
#include "loop_util.h"

/* One kind of task state for every body in this file. */
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

static void tk_init(struct tk *k, const char *name, int id) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->id = id;
    k->n = 1;
    k->result = 99;
    k->cleanup_result = 99;
    k->rc = 99;
}

static void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_spawn(&lp, &k->task, fn), PT_OK);
}

/* Sleepers in test_random_cancel and in test_equal_deadlines; fewer on a
 * microcontroller (CHECK_SMALL), where a struct tk takes 90 (AVR) or 140
 * (Cortex-M0) bytes of a RAM of 2 or 16 KiB. */
#define RND_N CHECK_SCALE(120, 12)
#define EQ_N CHECK_SCALE(16, 10) /* 16 or 10: the victims below stay distinct */

/* Wake order, by task id. Tests that read it reset norder first; between
 * them it only counts on, so wakes past the end are counted, not kept. */
static int order[CHECK_SCALE(512, RND_N)];
static int norder;

static void note_order(int id) {
    if (norder < (int)(sizeof order / sizeof order[0]))
        order[norder] = id;
    norder++;
}

/* ---- bodies ------------------------------------------------------------- */

/* Notes name+i, then yields, n times. */
static PT_THREAD(yielder(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        note_n(k->name, k->i);
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

/* Notes its name once and ends. */
static PT_THREAD(once(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    note(k->name);
    PT_TASK_END();
}

/* Notes its name and spawns `other` (running once) from inside the loop. */
static PT_THREAD(spawner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note(k->name);
    k->rc = pt_spawn(loop, &k->other->task, once);
    PT_TASK_END();
}

/* Sleeps `ticks`, n times; notes each wake-up. Returns its id. */
static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
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
    PT_TASK_RETURN(pt_int(k->id));
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    PT_TASK_END();
}

#if PT_LOOP_SYNC
/* Waits on its event (no timeout), noting before and after. */
static PT_THREAD(event_waiter(struct pt_loop *loop, struct pt_task *task)) {
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
static PT_THREAD(event_setter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note(k->name);
    pt_event_set(loop, k->ev);
    PT_TASK_END();
}
#endif

/* Sleeps `ticks`, then cancels `other`; rc is what pt_cancel returned,
 * result the number of timers left just after. */
static PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->t1 = pt_loop_now(loop);
    k->n = (int)pt_loop_timers(loop);
    k->rc = pt_cancel(loop, &k->other->task);
    k->result = (int)pt_loop_timers(loop);
    note(k->name);
    PT_TASK_END();
}

/* ---- the ready queue ---------------------------------------------------- */

static void test_fifo_order(void) {
    struct tk a, b, c;
    setup(0);
    tk_init(&a, "A", 0);
    tk_init(&b, "B", 1);
    tk_init(&c, "C", 2);
    a.n = b.n = c.n = 3;
    spawn(&a, yielder);
    spawn(&b, yielder);
    spawn(&c, yielder);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 A2 B2 C2 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&a.task) && pt_task_done(&b.task) && pt_task_done(&c.task));
    CHECK_EQ_STR(trace.buf, "A0 B0 C0 A1 B1 C1 A2 B2 C2 ");
}

/* A task spawned during an iteration runs in the next one. */
static void test_snapshot_spawn(void) {
    struct tk a, b, d;
    setup(0);
    tk_init(&a, "A", 0);
    tk_init(&b, "B", 1);
    tk_init(&d, "D", 2);
    a.other = &d;
    spawn(&a, spawner);
    spawn(&b, once);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A B ");
    CHECK_EQ_INT(a.rc, PT_OK);
    CHECK_EQ_INT(d.runs, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A B D ");
    CHECK_EQ_INT(d.runs, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

#if PT_LOOP_SYNC
/* A task woken during an iteration runs in the next one, behind the tasks
 * that were already queued (here: one that yielded before the wake). */
static void test_snapshot_wake(void) {
    struct pt_event ev;
    struct tk a, b, c;
    setup(0);
    pt_event_init(&ev);
    tk_init(&a, "A", 0);
    tk_init(&b, "set", 1);
    tk_init(&c, "C", 2);
    a.ev = b.ev = &ev;
    c.n = 3;
    spawn(&a, event_waiter);
    spawn(&c, yielder);
    spawn(&b, event_setter);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set ");
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set C1 A1 ");
    CHECK_EQ_INT(a.result, PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "A0 C0 set C1 A1 C2 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}
#endif

/* A task that yields runs once per iteration, never twice. */
static void test_snapshot_yield(void) {
    struct tk a;
    int i;
    setup(0);
    tk_init(&a, "A", 0);
    a.n = 5;
    spawn(&a, yielder);
    for (i = 0; i < 5; i++) {
        pt_loop_run_once(&lp, 0);
        CHECK_EQ_INT(a.i, i);
    }
    pt_loop_run_once(&lp, 0);
    CHECK(pt_task_done(&a.task));
    CHECK_EQ_STR(trace.buf, "A0 A1 A2 A3 A4 ");
}

/* ---- timers --------------------------------------------------------------- */

/* A sleep of N ticks wakes when the loop's time is start + N: never
 * earlier; on the virtual clock, exactly then. */
static void test_sleep_never_early(void) {
    static const pt_time_t delays[] = {1, 5, 17, 1000, 3, 65536};
    struct tk k[6];
    int i;
    setup(100);
    norder = 0;
    for (i = 0; i < 6; i++) {
        tk_init(&k[i], "s", i);
        k[i].ticks = delays[i];
        spawn(&k[i], sleeper);
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    for (i = 0; i < 6; i++) {
        CHECK_EQ_INT(k[i].woke, 1);
        CHECK_EQ_INT(k[i].result, PT_OK);
        CHECK_EQ_INT(k[i].t0, 100);
        CHECK(!pt_time_before(k[i].t1, k[i].t0 + delays[i]));
        CHECK_EQ_INT(k[i].t1 - k[i].t0, delays[i]);
    }
    /* Woken earliest deadline first. */
    CHECK_EQ_INT(norder, 6);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 4);
    CHECK_EQ_INT(order[2], 1);
    CHECK_EQ_INT(order[3], 2);
    CHECK_EQ_INT(order[4], 3);
    CHECK_EQ_INT(order[5], 5);
    CHECK_EQ_INT(since(100), 65536);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Sleeping again after waking: each sleep counts from its own start. */
static void test_sleep_rearm(void) {
    struct tk a, b;
    setup(0);
    norder = 0;
    tk_init(&a, "a", 5);
    tk_init(&b, "b", 1);
    a.ticks = 10;
    a.n = 3;
    b.ticks = 25;
    b.n = 1;
    spawn(&a, sleeper);
    spawn(&b, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "a a b a ");
    CHECK_EQ_INT(a.woke, 3);
    CHECK_EQ_INT(a.t0, 20);
    CHECK_EQ_INT(a.t1, 30);
    CHECK_EQ_INT(b.t1, 25);
    CHECK_EQ_INT(since(0), 30);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_INT(a.task.gen.value.i, 5); /* its id */
}

/* PT_SLEEP(0) stops: the task goes behind the tasks already queued and
 * comes back at the next iteration, at the same time. */
static void test_sleep_zero(void) {
    struct tk a, b;
    setup(7);
    tk_init(&a, "Z", 0);
    tk_init(&b, "Y", 1);
    a.ticks = 0;
    b.n = 3;
    spawn(&a, sleeper);
    spawn(&b, yielder);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "Y0 ");
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "Y0 Y1 Z ");
    CHECK_EQ_INT(a.woke, 1);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.t1, 7);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(7), 0);
}

/* A delay longer than PT_TIME_MAX_DELAY (PT_FOREVER included) is cut to
 * it; such a sleep can be cancelled like any other. */
static void test_sleep_huge(void) {
    struct tk a, b, c, d, x;
    setup(1000);
    norder = 0;
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    tk_init(&d, "d", 3);
    a.ticks = PT_FOREVER;
    b.ticks = 0x80000000u;
    c.ticks = PT_TIME_MAX_DELAY;
    d.ticks = 5;
    spawn(&a, sleeper);
    spawn(&b, sleeper);
    spawn(&c, sleeper);
    spawn(&d, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "d a b c ");
    CHECK_EQ_INT(a.t1, 1000u + PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(b.t1, 1000u + PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(c.t1, 1000u + PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(d.t1, 1005);

    /* PT_SLEEP(PT_FOREVER) cancelled after 5 ticks. */
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&x, "x", 1);
    a.ticks = PT_FOREVER;
    x.ticks = 5;
    x.other = &a;
    spawn(&a, sleeper);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 1);      /* a's timer, before */
    CHECK_EQ_INT(x.result, 0); /* and gone at once */
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(since(0), 5); /* no jump to a's old deadline */
}

/* Cancelling a sleeping task: its timer leaves the heap at once, it never
 * wakes as if the timer fired, and its cleanup runs exactly once, at the
 * time of the cancel. */
static void test_cancel_sleeping(void) {
    struct tk a, b, x;
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&x, "x", 2);
    a.ticks = 100;
    b.ticks = 100;
    x.ticks = 10;
    x.other = &a;
    spawn(&a, sleeper);
    spawn(&b, sleeper);
    spawn(&x, canceller);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    pt_loop_run_once(&lp, 1); /* t = 10: the cancel */
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 2);
    CHECK_EQ_INT(x.result, 1); /* only b's timer is left */
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
    CHECK_EQ_INT(a.cleanups, 0); /* its cleanup runs at the next iteration */
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "x b ");
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(b.t1, 100);
    /* Cancelling it again, now that it has finished. */
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_EINVAL);
    CHECK_EQ_INT(a.cleanups, 1);
}

/* A task whose timer fired but that has not run yet, cancelled in that
 * iteration: it does not see the wake-up, only its cleanup runs. */
static void test_cancel_after_timer_fired(void) {
    struct tk a, x;
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&x, "x", 1);
    x.ticks = 10;
    x.other = &a;
    a.ticks = 10;
    spawn(&x, canceller); /* x's timer first: x runs before a at t = 10 */
    spawn(&a, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 0); /* both timers had fired */
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "x ");

    /* The other way round, a runs first and finishes: too late. */
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&x, "x", 1);
    x.ticks = 10;
    x.other = &a;
    a.ticks = 10;
    spawn(&a, sleeper);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
    CHECK_EQ_INT(a.woke, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "a x ");
}

/* Cancels, at `ticks`, each task of `victims` (a list ending with NULL). */
struct mass_canceller {
    struct pt_task task;
    pt_time_t ticks;
    struct tk **victims;
    int i, cancelled;
};

static PT_THREAD(cancel_many(struct pt_loop *loop, struct pt_task *task)) {
    struct mass_canceller *m = (struct mass_canceller *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(m->ticks);
    for (m->i = 0; m->victims[m->i]; m->i++)
        if (pt_cancel(loop, &m->victims[m->i]->task) == PT_OK)
            m->cancelled++;
    PT_TASK_END();
}

/* Equal deadlines fire in the order the timers were set, also after
 * timers were taken out of the middle of the heap. */
static void test_equal_deadlines(void) {
    struct tk k[EQ_N];
    struct tk *victims[7];
    struct mass_canceller m;
    /* With 16: 3, 7, 8, 12, 0, 15; the others wake in id order. */
    static const int victim_ids[6] = {3, 7, 8, EQ_N - 4, 0, EQ_N - 1};
    int expect[EQ_N], nexpect = 0;
    int i, j;
    setup(0);
    norder = 0;
    for (i = 0; i < EQ_N; i++) {
        tk_init(&k[i], "k", i);
        k[i].ticks = 50;
        spawn(&k[i], sleeper);
    }
    for (j = 0; j < 6; j++)
        victims[j] = &k[victim_ids[j]];
    victims[6] = NULL;
    for (i = 0; i < EQ_N; i++) {
        for (j = 0; j < 6 && victim_ids[j] != i; j++)
            ;
        if (j == 6)
            expect[nexpect++] = i;
    }
    memset(&m, 0, sizeof m);
    m.ticks = 10;
    m.victims = victims;
    CHECK_EQ_INT(pt_spawn(&lp, &m.task, cancel_many), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(m.cancelled, 6);
    CHECK_EQ_INT(norder, EQ_N - 6);
    for (i = 0; i < nexpect && i < norder; i++)
        CHECK_EQ_INT(order[i], expect[i]);
    for (i = 0; i < EQ_N; i++) {
        CHECK_EQ_INT(k[i].cleanups, 1);
        if (k[i].woke)
            CHECK_EQ_INT(k[i].t1, 50);
    }
    CHECK_EQ_INT(since(0), 50);
}

/* Sleeps `ticks` after yielding `n` times (so timers are set in an order
 * that is not the spawn order). */
static PT_THREAD(late_sleeper(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++)
        PT_TASK_YIELD();
    PT_SLEEP(k->ticks);
    k->t1 = pt_loop_now(loop);
    note_order(k->id);
    PT_TASK_END();
}

/* It is the order in which timers were set that counts, not the order of
 * spawning (across the wrap of the sequence numbers: test_loop_heap.c). */
static void test_equal_deadlines_set_order(void) {
    struct tk k[8];
    int i;
    setup(0);
    norder = 0;
    for (i = 0; i < 8; i++) {
        tk_init(&k[i], "k", i);
        k[i].ticks = 30;
        k[i].n = 8 - i; /* the last spawned sets its timer first */
        spawn(&k[i], late_sleeper);
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 8);
    for (i = 0; i < 8; i++) {
        CHECK_EQ_INT(order[i], 7 - i);
        CHECK_EQ_INT(k[i].t1, 30);
    }
}

/* Many sleepers with random deadlines (many equal), and cancels at random
 * times from the middle of the heap: the others wake each exactly at its
 * deadline, in (deadline, order set) order, and the heap holds exactly
 * the timers still pending after every cancel. */
static int rnd_cancel_ok, rnd_timers_bad;

/* Cancels sleeper victim[i] at when[i]. The sleepers, and whether each was
 * cancelled, are arrays on the test's stack (on a microcontroller the other
 * tests reuse that RAM). */
struct rnd_canceller {
    struct pt_task task;
    struct tk *rnd;
    int *cancelled;
    int victim[RND_N];
    pt_time_t when[RND_N]; /* ascending */
    int count, i;
};

static int rnd_pending_timers(const struct rnd_canceller *c, pt_time_t now) {
    int i, n = 0;
    for (i = 0; i < RND_N; i++)
        if (!c->cancelled[i] && c->rnd[i].ticks > now)
            n++;
    return n;
}

static PT_THREAD(rnd_cancel(struct pt_loop *loop, struct pt_task *task)) {
    struct rnd_canceller *c = (struct rnd_canceller *)task;
    PT_TASK_BEGIN(loop, task);
    for (c->i = 0; c->i < c->count; c->i++) {
        if (c->when[c->i] != pt_loop_now(loop))
            PT_SLEEP(c->when[c->i] - pt_loop_now(loop));
        if (pt_cancel(loop, &c->rnd[c->victim[c->i]].task) == PT_OK) {
            CHECK(!c->cancelled[c->victim[c->i]]);
            c->cancelled[c->victim[c->i]] = 1;
            rnd_cancel_ok++;
        } else {
            CHECK(c->cancelled[c->victim[c->i]]); /* a second cancel */
        }
        if ((int)pt_loop_timers(loop) != rnd_pending_timers(c, pt_loop_now(loop)))
            rnd_timers_bad++;
    }
    PT_TASK_END();
}

static void test_random_cancel(void) {
    struct tk rnd[RND_N];
    int rnd_cancelled[RND_N];
    struct rnd_canceller c;
    unsigned long seed;
    int i, j, bad_order, bad_time, bad_cleanup, woke;
    for (seed = 1; seed <= 25; seed++) {
        lcg_seed(seed);
        setup(0);
        norder = 0;
        rnd_cancel_ok = rnd_timers_bad = 0;
        memset(&c, 0, sizeof c);
        c.rnd = rnd;
        c.cancelled = rnd_cancelled;
        for (i = 0; i < RND_N; i++) {
            tk_init(&rnd[i], "r", i);
            rnd[i].ticks = 1 + lcg_next(RND_N / 3); /* 3 sleepers a deadline */
            rnd_cancelled[i] = 0;
            spawn(&rnd[i], sleeper);
        }
        /* Up to RND_N / 2 cancels, each strictly before its victim's
         * deadline, in ascending time. */
        for (i = 0; i < RND_N / 2; i++) {
            int v = (int)lcg_next(RND_N);
            pt_time_t when = lcg_next(rnd[v].ticks);
            for (j = c.count; j > 0 && c.when[j - 1] > when; j--) {
                c.when[j] = c.when[j - 1];
                c.victim[j] = c.victim[j - 1];
            }
            c.when[j] = when;
            c.victim[j] = v;
            c.count++;
        }
        CHECK_EQ_INT(pt_spawn(&lp, &c.task, rnd_cancel), PT_OK);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(rnd_timers_bad, 0);
        woke = 0;
        bad_time = bad_cleanup = 0;
        for (i = 0; i < RND_N; i++) {
            if (rnd[i].woke != !rnd_cancelled[i])
                bad_cleanup++;
            if (rnd[i].cleanups != 1)
                bad_cleanup++;
            if (rnd[i].woke) {
                woke++;
                if (rnd[i].t1 != rnd[i].ticks)
                    bad_time++;
            } else if (pt_task_status(&rnd[i].task) != PT_CLOSED ||
                       rnd[i].cleanup_result != PT_ECANCELLED) {
                bad_cleanup++;
            }
        }
        CHECK_EQ_INT(bad_time, 0);
        CHECK_EQ_INT(bad_cleanup, 0);
        CHECK(rnd_cancel_ok > RND_N / 12);
        CHECK_EQ_INT(norder, RND_N - rnd_cancel_ok);
        CHECK_EQ_INT(woke, norder);
        bad_order = 0;
        for (i = 1; i < norder; i++) {
            struct tk *p = &rnd[order[i - 1]], *q = &rnd[order[i]];
            if (p->ticks > q->ticks || (p->ticks == q->ticks && p->id > q->id))
                bad_order++;
        }
        CHECK_EQ_INT(bad_order, 0);
        CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    }
}

/* Re-sleeps 0 ticks `n` times, counting. */
static PT_THREAD(spin_sleep0(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        PT_SLEEP(0);
        k->woke++;
    }
    PT_TASK_END();
}

#if PT_LOOP_IO
/* Waits for a cross-thread wakeup; notes when it came (iteration). */
struct io_waiter {
    struct pt_task task;
    struct pt_wakeup w;
    int woke, result;
    struct tk *clock; /* a yielder: its count is the iteration */
};

static PT_THREAD(wakeup_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct io_waiter *w = (struct io_waiter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_WAKEUP_WAIT(&w->w, PT_FOREVER);
    w->result = PT_WAIT_RESULT();
    w->woke = w->clock->i;
    PT_TASK_END();
}
#endif

/* A task that re-sleeps 0 in a loop gets one turn per iteration: a task
 * that yields, and one waiting on a descriptor, still progress. */
static void test_sleep0_no_starvation(void) {
    struct tk a, b, c;
    int i;
#if PT_LOOP_IO
    struct io_waiter w;
    memset(&w, 0, sizeof w);
    w.woke = -1;
    w.result = 99;
    CHECK_EQ_INT(pt_wakeup_init(&w.w), PT_OK);
#endif
    setup(0);
    tk_init(&a, "A", 0);
    tk_init(&b, "B", 1);
    tk_init(&c, "C", 2);
    a.n = 1000;
    b.n = 20;
    c.ticks = 5;
    spawn(&a, spin_sleep0);
    spawn(&b, yielder);
    spawn(&c, sleeper);
#if PT_LOOP_IO
    w.clock = &b;
    CHECK_EQ_INT(pt_spawn(&lp, &w.task, wakeup_waiter), PT_OK);
#endif
    for (i = 1; i <= 10; i++) {
        pt_loop_run_once(&lp, 1);
        CHECK_EQ_INT(a.woke, i - 1);
        CHECK_EQ_INT(b.i, i - 1);
#if PT_LOOP_IO
        if (i == 3)
            pt_wakeup_signal(&w.w); /* seen by the next iteration's poll */
#endif
    }
#if PT_LOOP_IO
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.woke, 3); /* woke in iteration 4, where b.i is 3 */
    pt_wakeup_close(&w.w);
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.woke, 1000);
    CHECK_EQ_INT(c.woke, 1);
    CHECK_EQ_INT(c.t1, 5);
}

#if PT_LOOP_SYNC && PT_LOOP_GROUPS
/* A group member for timed_waits: yields once. */
static PT_THREAD(full_heap_member(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_TASK_YIELD();
    PT_TASK_END();
}

#endif

/* With a full timer heap a timed wait ends at once with PT_EFULL (it does
 * not stop), and the loop goes on; waits without a timeout need no slot. */
static PT_THREAD(full_heap_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note_n(k->name, 0);
    PT_SLEEP(k->ticks);
    k->result = PT_WAIT_RESULT();
    k->t1 = pt_loop_now(loop);
    note_n(k->name, 1);
    PT_TASK_END();
}

#if PT_LOOP_SYNC && PT_LOOP_GROUPS
/* With the heap full: a join, an event wait and a group wait, each with a
 * timeout, note their results (the group has one member, `other` too);
 * then a join without a timeout. */
static PT_THREAD(timed_waits(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, 5);
    note_n("join", -PT_WAIT_RESULT());
    PT_EVENT_WAIT(k->ev, 5);
    note_n("event", -PT_WAIT_RESULT());
    pt_group_init(&k->group, k->members, 1, PT_GROUP_COLLECT);
    k->rc = pt_group_spawn(loop, &k->group, &k->extra, full_heap_member);
    PT_GROUP_WAIT(&k->group, 5);
    note_n("group", -PT_WAIT_RESULT());
    PT_JOIN(&k->other->task, PT_FOREVER);
    note_n("join", -PT_WAIT_RESULT());
    PT_TASK_END();
}
#endif

/* What test_heap_full's event waiter and setter add to its traces: nothing
 * without PT_LOOP_SYNC. */
#if PT_LOOP_SYNC
#define IF_SYNC(s) s
#else
#define IF_SYNC(s) ""
#endif

static void test_heap_full(void) {
    struct pt_task *small[2];
    struct tk a, b, c;
#if PT_LOOP_SYNC
    struct pt_event ev;
    struct tk d, e;
#endif
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, small, 2), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    a.ticks = 10;
    b.ticks = 20;
    c.ticks = 5;
    spawn(&a, full_heap_task);
    spawn(&b, full_heap_task);
    spawn(&c, full_heap_task);
#if PT_LOOP_SYNC
    pt_event_init(&ev);
    tk_init(&d, "d", 3);
    tk_init(&e, "e", 4);
    d.ev = &ev;
    e.ev = &ev;
    spawn(&d, event_waiter); /* no timeout: no timer needed */
    spawn(&e, event_setter);
#endif
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_STR(trace.buf, "a0 b0 c0 c1 " IF_SYNC("d0 e "));
    CHECK_EQ_INT(c.result, PT_EFULL);
    CHECK_EQ_INT(c.t1, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 2);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "a0 b0 c0 c1 " IF_SYNC("d0 e d1 ") "a1 b1 ");
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.t1, 10);
    CHECK_EQ_INT(b.t1, 20);
#if PT_LOOP_SYNC
    CHECK_EQ_INT(d.result, PT_OK);
#endif

    /* A heap of no slots: every timed wait fails, nothing hangs. */
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, NULL, 0), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(&a, "a", 0);
    a.ticks = 0;
    spawn(&a, full_heap_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.result, PT_EFULL);
    CHECK_EQ_STR(trace.buf, "a0 a1 ");

#if PT_LOOP_SYNC && PT_LOOP_GROUPS
    /* One slot, taken by a sleeper: a join, an event wait and a group wait
     * with a timeout all end at once with PT_EFULL; without one they wait. */
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, small, 1), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.ticks = 10;
    b.other = &a;
    b.ev = &ev;
    spawn(&a, sleeper);
    spawn(&b, timed_waits);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "join3 event3 group3 a join0 ");
    CHECK_EQ_INT(since(0), 10);
#endif

#if SIZE_MAX > PT_INDEX_MAX
    /* A heap too big for the index type is refused. */
    CHECK_EQ_INT(pt_loop_init(&lp, NULL, (size_t)PT_INDEX_MAX + 1u), PT_EINVAL);
#endif
}

/* ---- the 32-bit wrap -------------------------------------------------- */

static void test_time_functions(void) {
    CHECK(pt_time_before(0xFFFFFFF0u, 0x10u));
    CHECK(!pt_time_before(0x10u, 0xFFFFFFF0u));
    CHECK(!pt_time_before(5u, 5u));
    CHECK(pt_time_before(4u, 5u));
    CHECK(!pt_time_before(5u, 4u));
    CHECK(pt_time_before(0u, PT_TIME_MAX_DELAY));
    CHECK(!pt_time_before(PT_TIME_MAX_DELAY, 0u));
    CHECK(pt_time_before(0x80000000u, 0xFFFFFFFFu));
    CHECK(pt_time_before(0xFFFFFFFFu, 0x7FFFFFFEu));
    CHECK(!pt_time_before(0x7FFFFFFEu, 0xFFFFFFFFu));
    CHECK_EQ_INT(pt_time_until(0xFFFFFFF0u, 0x10u), 0x20);
    CHECK_EQ_INT(pt_time_until(0x10u, 0xFFFFFFF0u), 0);
    CHECK_EQ_INT(pt_time_until(7u, 7u), 0);
    CHECK_EQ_INT(pt_time_until(7u, 8u), 1);
    CHECK_EQ_INT(pt_time_until(0u, PT_TIME_MAX_DELAY), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_until(0xFFFFFFFFu, 0u), 1);
    CHECK_EQ_INT(pt_time_after(0xFFFFFFFFu, 1u), 0);
    CHECK_EQ_INT(pt_time_after(0xFFFFFF00u, 0x200u), 0x100);
    CHECK_EQ_INT(pt_time_after(0u, PT_FOREVER), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_after(0u, 0x80000000u), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_after(0x80000000u, PT_TIME_MAX_DELAY), 0xFFFFFFFFu);
    CHECK_EQ_INT(pt_time_after(0xFFFFFFFFu, PT_FOREVER), 0x7FFFFFFEu);
    CHECK(pt_time_before(0xFFFFFFFFu, pt_time_after(0xFFFFFFFFu, PT_FOREVER)));
    CHECK_EQ_INT(PT_MS(0), 0);
    CHECK_EQ_INT(PT_MS(1), (PT_TICKS_PER_SEC + 999u) / 1000u);
    CHECK_EQ_INT(PT_MS(1000), PT_TICKS_PER_SEC);
    CHECK(PT_MS(1) >= 1); /* never rounded down to no wait */
}

/* Sleeps across the wrap: deadlines on both sides come out in time order,
 * each exactly at its (wrapped) time. */
static void test_wrap(void) {
    static const pt_time_t delays[] = {0x200, 0x7F, 0x100, 0x80, 0xFF, 0x101};
    static const int expect[] = {1, 3, 4, 2, 5, 0};
    const pt_time_t start = 0xFFFFFF00u;
    struct tk k[6], r, h;
    int i;
    setup(start);
    norder = 0;
    for (i = 0; i < 6; i++) {
        tk_init(&k[i], "w", i);
        k[i].ticks = delays[i];
        spawn(&k[i], sleeper);
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(k[i].t1, (pt_time_t)(start + delays[i]));
    }
    CHECK_EQ_INT(k[2].t1, 0);
    CHECK_EQ_INT(k[4].t1, 0xFFFFFFFFu);
    CHECK_EQ_INT(k[5].t1, 1);
    CHECK_EQ_INT(pt_loop_now(&lp), 0x100);

    /* Re-arming across the wrap, beside a huge delay. */
    setup(0xFFFFFFD0u);
    tk_init(&r, "r", 0);
    tk_init(&h, "h", 1);
    r.ticks = 0x20;
    r.n = 3;
    h.ticks = PT_FOREVER;
    spawn(&h, sleeper);
    spawn(&r, sleeper);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, 0xFFFFFFF0u);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, 0x10);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, 0x30);
    CHECK_EQ_INT(h.woke, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(h.woke, 1);
    CHECK_EQ_INT(h.t1, (pt_time_t)(0xFFFFFFD0u + PT_TIME_MAX_DELAY));
    CHECK_EQ_STR(trace.buf, "r r r h ");
}

/* ---- run modes ---------------------------------------------------------- */

/* Returns `n` after sleeping `ticks`; fails if n < 0. */
static PT_THREAD(returner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    if (k->n < 0)
        PT_TASK_FAIL(pt_int(k->n));
    PT_TASK_RETURN(pt_int(k->n));
    PT_TASK_END();
}

static void test_run_until(void) {
    struct tk a, b, x;
#if PT_LOOP_SYNC
    struct pt_event ev;
#endif
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.ticks = 10;
    a.n = 5;
    b.ticks = 100;
    b.n = 6;
    spawn(&a, returner);
    spawn(&b, returner);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.task.gen.value.i, 5);
    CHECK_EQ_INT(since(0), 10); /* it does not wait for b */
    CHECK(!pt_task_done(&b.task));
    /* Already finished: at once. */
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &b.task), PT_ENDED);
    CHECK_EQ_INT(since(0), 100);

    /* A failing task. */
    setup(0);
    tk_init(&a, "a", 0);
    a.ticks = 3;
    a.n = -3;
    spawn(&a, returner);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_EXITED);

    /* A cancelled one. */
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&x, "x", 1);
    a.ticks = 30;
    x.ticks = 3;
    x.other = &a;
    spawn(&a, sleeper);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_CLOSED);
    CHECK_EQ_INT(a.cleanups, 1);

#if PT_LOOP_SYNC
    /* One that waits on something nobody will signal: 0, at once. */
    setup(0);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    a.ev = &ev;
    spawn(&a, event_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), 0);
    CHECK(!pt_task_done(&a.task));
    /* Signalled from outside the loop, it finishes on the next run. */
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "a0 a1 ");
#endif
}

/* Joins `other` (no timeout). */
static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

static void test_run_deadlock(void) {
    struct tk a, b, c;
#if PT_LOOP_SYNC
    struct pt_event ev;
#endif
    /* Nothing at all. */
    setup(0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_loop_run_once(&lp, 1); /* nothing to wait for: returns */
    CHECK_EQ_INT(since(0), 0);

#if PT_LOOP_SYNC
    /* Waiting on an event nobody sets, beside a task that finishes. */
    setup(0);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.ev = &ev;
    b.ticks = 40;
    spawn(&a, event_waiter);
    spawn(&b, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(b.woke, 1);
    CHECK_EQ_INT(since(0), 40);
    CHECK(!pt_task_done(&a.task));
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&a.task));
#endif

    /* Two tasks joining each other. */
    setup(0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    a.other = &b;
    b.other = &a;
    c.ticks = 7;
    spawn(&a, joiner);
    spawn(&b, joiner);
    spawn(&c, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(since(0), 7);
    CHECK(!pt_task_done(&a.task) && !pt_task_done(&b.task));
}

/* run_once(loop, 0) never blocks, even with a timer far away and with
 * nothing ready; on the virtual clock time does not move either. */
static void test_run_once_nonblocking(void) {
    struct tk a;
    int i;
    setup(50);
    tk_init(&a, "a", 0);
    a.ticks = 100;
    spawn(&a, sleeper);
    for (i = 0; i < 5; i++)
        pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(since(50), 0);
    pt_loop_run_once(&lp, 1); /* may block: time jumps to the deadline */
    CHECK_EQ_INT(a.woke, 1);
    CHECK_EQ_INT(since(50), 100);

    /* The real clock: a sleep of 24.8 days; run_once(0) must return at
     * once (were it to block, this test would time out). */
    CHECK_EQ_INT(pt_loop_init(&lp, heap, HEAP_CAP), PT_OK);
    tk_init(&a, "a", 0);
    a.ticks = PT_FOREVER;
    spawn(&a, sleeper);
    for (i = 0; i < 3; i++)
        pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
}

/* Stops the loop in its second run, then goes on. */
static PT_THREAD(stopper(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note("S0");
    PT_TASK_YIELD();
    pt_loop_stop(loop);
    note("S1");
    PT_TASK_YIELD();
    note("S2");
    PT_SLEEP(k->ticks);
    note("S3");
    PT_TASK_END();
}

static void test_stop(void) {
    struct tk s, y;
    setup(0);
    tk_init(&s, "S", 0);
    tk_init(&y, "Y", 1);
    y.n = 4;
    s.ticks = 10;
    spawn(&s, stopper);
    spawn(&y, yielder);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EINVAL);
    /* The iteration in which it stopped ran to its end. */
    CHECK_EQ_STR(trace.buf, "S0 Y0 S1 Y1 ");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "S0 Y0 S1 Y1 S2 Y2 Y3 S3 ");
    CHECK_EQ_INT(since(0), 10);

    /* pt_loop_run_until: 0 when stopped, and goes on when called again. */
    setup(0);
    tk_init(&s, "S", 0);
    s.ticks = 10;
    spawn(&s, stopper);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &s.task), 0);
    CHECK_EQ_STR(trace.buf, "S0 S1 ");
    CHECK_EQ_INT(pt_loop_run_until(&lp, &s.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "S0 S1 S2 S3 ");
}

#if PT_LOOP_BACKGROUND
/* ---- background tasks ---------------------------------------------------- */

/* Wakes every `ticks` forever (or n times if n > 0); its cleanup may itself
 * sleep `other_ticks` (kept in t0). */
static PT_THREAD(ticker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    for (k->i = 0; k->n <= 0 || k->i < k->n; k->i++) {
        PT_SLEEP(k->ticks);
        k->woke++;
    }
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    note_n(k->name, (long)pt_loop_now(loop));
    if (k->t0) {
        PT_SLEEP(k->t0);
        note_n(k->name, (long)pt_loop_now(loop));
    }
    PT_TASK_END();
}

/* Tries to join `other`, then sleeps `ticks`. */
static PT_THREAD(join_then_sleep(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->t0 = pt_loop_now(loop);
    PT_SLEEP(k->ticks);
    PT_TASK_END();
}

static void test_background(void) {
    struct tk bg, bg2, fg, done;
    setup(0);
    tk_init(&bg, "bg", 0);
    tk_init(&bg2, "bh", 1);
    tk_init(&fg, "fg", 2);
    tk_init(&done, "bd", 3);
    bg.ticks = 10;
    bg.n = 0; /* forever */
    bg2.ticks = 7;
    bg2.n = 0;
    bg2.t0 = 5; /* its cleanup takes 5 ticks */
    done.ticks = 4;
    done.n = 1; /* finishes by itself */
    fg.ticks = 35;
    fg.other = &bg;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg2.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_spawn_background(&lp, &done.task, ticker), PT_OK);
    spawn(&fg, join_then_sleep);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(fg.result, PT_EBUSY); /* a background task cannot be joined */
    CHECK_EQ_INT(fg.t0, 0);            /* and the join did not stop */
    CHECK_EQ_INT(bg.woke, 3);          /* 10, 20, 30 */
    CHECK_EQ_INT(bg2.woke, 5);         /* 7 ... 35 */
    CHECK_EQ_INT(bg.cleanups, 1);
    CHECK_EQ_INT(bg2.cleanups, 1);
    CHECK_EQ_INT(done.cleanups, 1);
    CHECK_EQ_INT(bg.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&bg.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&bg2.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&done.task), PT_ENDED);
    /* Cancelled when fg finished at 35 (bg2 woke at 35 too and ran before
     * the cancel); bg2's cleanup took until 40, and the run waited for it. */
    CHECK_EQ_STR(trace.buf, "bd4 bh35 bg35 bh40 ");
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);

    /* Only background tasks: the run returns at once, cancelling them
     * before they ever ran: their bodies never run. */
    setup(0);
    tk_init(&bg, "bg", 0);
    bg.ticks = 10;
    bg.n = 0;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, ticker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.runs, 0);
    CHECK_EQ_INT(bg.cleanups, 0);
    CHECK_EQ_INT(pt_task_status(&bg.task), PT_CLOSED);
    CHECK_EQ_INT(since(0), 0);

    /* Started ones get their cleanup, once, even over several runs. */
    setup(0);
    tk_init(&bg, "bg", 0);
    bg.ticks = 10;
    bg.n = 0;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, ticker), PT_OK);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(bg.runs, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.cleanups, 1);
    CHECK_EQ_INT(bg.woke, 0);
    CHECK_EQ_STR(trace.buf, "bg0 ");
}
#endif

int main(void) {
    test_fifo_order();
    test_snapshot_spawn();
#if PT_LOOP_SYNC
    test_snapshot_wake();
#endif
    test_snapshot_yield();
    test_sleep_never_early();
    test_sleep_rearm();
    test_sleep_zero();
    test_sleep_huge();
    test_cancel_sleeping();
    test_cancel_after_timer_fired();
    test_equal_deadlines();
    test_equal_deadlines_set_order();
    test_random_cancel();
    test_sleep0_no_starvation();
    test_heap_full();
    test_time_functions();
    test_wrap();
    test_run_until();
    test_run_deadlock();
    test_run_once_nonblocking();
    test_stop();
#if PT_LOOP_BACKGROUND
    test_background();
#endif
    return CHECK_DONE();
}
