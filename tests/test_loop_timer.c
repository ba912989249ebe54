/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_timer.c - the contract of the loop's timers
 * (loop/core.h, loop/ticks.h): sleeps never early, cancel, re-arm, zero
 * and huge delays, equal deadlines, a full heap, the 32-bit wrap. All on
 * the virtual clock: time jumps to the next deadline when nothing is
 * ready, so nothing here takes real time and every time seen is exact.
 * Built a second time with PT_CONFIG_SYNC, PT_CONFIG_GROUPS and
 * PT_CONFIG_BACKGROUND 0: the parts that need them are left out, the rest
 * must hold unchanged.
 */
#include "loop/loop.h"

#include "loop_util.h"
#include "runner.h"
#include "sched_fixture.h"

/* Sleepers in the random cancels and in the equal deadlines; fewer on a
 * microcontroller (CHECK_SMALL): see `order` in sched_fixture.h. */
#define RND_N CHECK_SCALE(120, 12)
#define EQ_N CHECK_SCALE(16, 10) /* 16 or 10: the victims below stay distinct */

/* ---- sleep ---------------------------------------------------------------- */

/* Six sleepers from 100, of 1, 5, 17, 1000, 3 and 65536 ticks. */
static const pt_time_t delays[] = {1, 5, 17, 1000, 3, 65536};

static void six_sleepers(struct tk *k) {
    int i;
    setup(100);
    norder = 0;
    for (i = 0; i < 6; i++) {
        tk_init(&k[i], "s", i);
        k[i].ticks = delays[i];
        spawn(&k[i], sleeper);
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A sleep of N ticks wakes when the loop's time is start + N: never
 * earlier... */
static void test_sleep_is_never_early(void) {
    struct tk k[6];
    int i;
    six_sleepers(k);
    for (i = 0; i < 6; i++) {
        CHECK_EQ_INT(k[i].woke, 1);
        CHECK_EQ_INT(k[i].result, PT_OK);
        CHECK_EQ_INT(k[i].t0, 100);
        CHECK(!pt_time_before(k[i].t1, k[i].t0 + delays[i]));
    }
}

/* ... on the virtual clock, exactly then. */
static void test_sleep_wakes_exactly_on_time_on_the_virtual_clock(void) {
    struct tk k[6];
    int i;
    six_sleepers(k);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(k[i].t1 - k[i].t0, delays[i]);
    CHECK_EQ_INT(since(100), 65536);
}

static void test_sleepers_wake_earliest_deadline_first(void) {
    struct tk k[6];
    six_sleepers(k);
    CHECK_EQ_INT(norder, 6);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 4);
    CHECK_EQ_INT(order[2], 1);
    CHECK_EQ_INT(order[3], 2);
    CHECK_EQ_INT(order[4], 3);
    CHECK_EQ_INT(order[5], 5);
}

static void test_woken_sleepers_leave_no_timer(void) {
    struct tk k[6];
    six_sleepers(k);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* a sleeps 10 three times, b 25 once. */
static void sleep_again(struct tk *a, struct tk *b) {
    setup(0);
    norder = 0;
    tk_init(a, "a", 5);
    tk_init(b, "b", 1);
    a->ticks = 10;
    a->n = 3;
    b->ticks = 25;
    b->n = 1;
    spawn(a, sleeper);
    spawn(b, sleeper);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Sleeping again after waking: each sleep counts from its own start. */
static void test_sleep_again_counts_from_its_own_start(void) {
    struct tk a, b;
    sleep_again(&a, &b);
    CHECK_EQ_STR(trace.buf, "a a b a ");
    CHECK_EQ_INT(a.woke, 3);
    CHECK_EQ_INT(a.t0, 20);
    CHECK_EQ_INT(a.t1, 30);
    CHECK_EQ_INT(b.t1, 25);
    CHECK_EQ_INT(since(0), 30);
}

/* It ends with the value it returned, its cleanup run once. */
static void test_sleeper_that_returns_ends_with_its_value(void) {
    struct tk a, b;
    sleep_again(&a, &b);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_INT(a.task.gen.value.i, 5); /* its id */
}

/* Z sleeps 0 from 7 beside Y, which yields three times; one iteration. */
static void sleep_0(struct tk *a, struct tk *b) {
    setup(7);
    tk_init(a, "Z", 0);
    tk_init(b, "Y", 1);
    a->ticks = 0;
    b->n = 3;
    spawn(a, sleeper);
    spawn(b, yielder);
    pt_loop_run_once(&lp, 0);
}

/* PT_SLEEP(0) stops: the task goes behind the tasks already queued and
 * comes back at the next iteration... */
static void test_sleep_0_goes_behind_the_queued_tasks(void) {
    struct tk a, b;
    sleep_0(&a, &b);
    CHECK_EQ_STR(trace.buf, "Y0 ");
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "Y0 Y1 Z ");
    CHECK_EQ_INT(a.woke, 1);
}

/* ... at the same time. */
static void test_sleep_0_wakes_at_the_same_time(void) {
    struct tk a, b;
    sleep_0(&a, &b);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.t1, 7);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(7), 0);
}

/* A delay longer than PT_TIME_MAX_DELAY (PT_FOREVER included) is cut to
 * it. */
static void test_delay_beyond_the_maximum_is_cut_to_it(void) {
    struct tk a, b, c, d;
    setup(1000);
    norder = 0;
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    tk_init(&d, "d", 3);
    a.ticks = PT_FOREVER;
    b.ticks = (pt_time_t)(PT_TIME_MAX_DELAY + 1u);
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
}

/* Such a sleep can be cancelled like any other: PT_SLEEP(PT_FOREVER)
 * cancelled after 5 ticks. */
static void cancel_forever(struct tk *a, struct tk *x) {
    setup(0);
    tk_init(a, "a", 0);
    tk_init(x, "x", 1);
    a->ticks = PT_FOREVER;
    x->ticks = 5;
    x->other = a;
    spawn(a, sleeper);
    spawn(x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_sleep_forever_can_be_cancelled(void) {
    struct tk a, x;
    cancel_forever(&a, &x);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 1);      /* a's timer, before */
    CHECK_EQ_INT(x.result, 0); /* and gone at once */
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
}

static void test_cancelled_sleep_forever_leaves_no_deadline(void) {
    struct tk a, x;
    cancel_forever(&a, &x);
    CHECK_EQ_INT(since(0), 5); /* no jump to a's old deadline */
}

/* ---- cancel ---------------------------------------------------------------- */

/* a and b sleep 100; x cancels a at 10. Run up to the cancel. */
static void cancel_a_sleeper(struct tk *a, struct tk *b, struct tk *x) {
    setup(0);
    tk_init(a, "a", 0);
    tk_init(b, "b", 1);
    tk_init(x, "x", 2);
    a->ticks = 100;
    b->ticks = 100;
    x->ticks = 10;
    x->other = a;
    spawn(a, sleeper);
    spawn(b, sleeper);
    spawn(x, canceller);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    pt_loop_run_once(&lp, 1); /* t = 10: the cancel */
    CHECK_EQ_INT(since(0), 10);
}

/* Cancelling a sleeping task: its timer leaves the heap at once... */
static void test_cancel_removes_the_sleepers_timer_at_once(void) {
    struct tk a, b, x;
    cancel_a_sleeper(&a, &b, &x);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 2);
    CHECK_EQ_INT(x.result, 1); /* only b's timer is left */
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
}

/* ... its cleanup runs exactly once, at the time of the cancel... */
static void test_cancel_of_a_sleeping_task_runs_its_cleanup(void) {
    struct tk a, b, x;
    cancel_a_sleeper(&a, &b, &x);
    CHECK_EQ_INT(a.cleanups, 0); /* its cleanup runs at the next iteration */
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
}

/* ... and it never wakes as if the timer fired. */
static void test_cancelled_sleeper_never_wakes(void) {
    struct tk a, b, x;
    cancel_a_sleeper(&a, &b, &x);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "x b ");
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(b.t1, 100);
}

/* Cancelling it again, now that it has finished. */
static void test_cancel_of_a_finished_task_is_einval(void) {
    struct tk a, b, x;
    cancel_a_sleeper(&a, &b, &x);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_cancel(&lp, &a.task), PT_EINVAL);
    CHECK_EQ_INT(a.cleanups, 1);
}

/* a sleeps 10 and x cancels it at 10; x's timer set first if x_first. */
static void cancel_at_the_same_deadline(struct tk *a, struct tk *x, int x_first) {
    setup(0);
    tk_init(a, "a", 0);
    tk_init(x, "x", 1);
    x->ticks = 10;
    x->other = a;
    a->ticks = 10;
    if (x_first)
        spawn(x, canceller);
    spawn(a, sleeper);
    if (!x_first)
        spawn(x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A task whose timer fired but that has not run yet, cancelled in that
 * iteration: it does not see the wake-up, only its cleanup runs. */
static void test_cancel_after_the_timer_fired_but_before_it_ran_wins(void) {
    struct tk a, x;
    cancel_at_the_same_deadline(&a, &x, 1); /* x runs before a at t = 10 */
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.n, 0); /* both timers had fired */
    CHECK_EQ_INT(a.woke, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "x ");
}

/* The other way round, a runs first and finishes: too late. */
static void test_cancel_after_the_task_finished_is_too_late(void) {
    struct tk a, x;
    cancel_at_the_same_deadline(&a, &x, 0);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
    CHECK_EQ_INT(a.woke, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "a x ");
}

/* ---- equal deadlines ------------------------------------------------------- */

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
        if (pt_task_cancel(loop, &m->victims[m->i]->task) == PT_OK)
            m->cancelled++;
    PT_TASK_END();
}

/* EQ_N sleepers of 50; at 10, six of them cancelled from the middle of
 * the heap (with 16: 3, 7, 8, 12, 0, 15); the others' ids, in order, in
 * `expect`. Run to the end; how many were cancelled. */
static int equal_deadlines_after_removals(struct tk *k, int *expect, int *nexpect) {
    static const int victim_ids[6] = {3, 7, 8, EQ_N - 4, 0, EQ_N - 1};
    struct tk *victims[7];
    struct mass_canceller m;
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
    *nexpect = 0;
    for (i = 0; i < EQ_N; i++) {
        for (j = 0; j < 6 && victim_ids[j] != i; j++)
            ;
        if (j == 6)
            expect[(*nexpect)++] = i;
    }
    memset(&m, 0, sizeof m);
    m.ticks = 10;
    m.victims = victims;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &m.task, cancel_many), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    return m.cancelled;
}

/* Equal deadlines fire in the order the timers were set, also after
 * timers were taken out of the middle of the heap. */
static void test_equal_deadlines_fire_in_the_order_set_after_removals(void) {
    struct tk k[EQ_N];
    int expect[EQ_N], nexpect, i;
    (void)equal_deadlines_after_removals(k, expect, &nexpect);
    CHECK_EQ_INT(norder, EQ_N - 6);
    for (i = 0; i < nexpect && i < norder; i++)
        CHECK_EQ_INT(order[i], expect[i]);
}

/* Cancels from the middle of the heap cancel exactly those tasks. */
static void test_cancels_from_the_middle_of_the_heap_take_only_those(void) {
    struct tk k[EQ_N];
    int expect[EQ_N], nexpect, i;
    CHECK_EQ_INT(equal_deadlines_after_removals(k, expect, &nexpect), 6);
    for (i = 0; i < EQ_N; i++)
        CHECK_EQ_INT(k[i].cleanups, 1);
}

static void test_timers_left_after_removals_fire_on_time(void) {
    struct tk k[EQ_N];
    int expect[EQ_N], nexpect, i;
    (void)equal_deadlines_after_removals(k, expect, &nexpect);
    for (i = 0; i < EQ_N; i++)
        if (k[i].woke)
            CHECK_EQ_INT(k[i].t1, 50);
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

/* Eight sleepers of 30, the last spawned setting its timer first. */
static void late_sleepers(struct tk *k) {
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
}

/* It is the order in which timers were set that counts, not the order of
 * spawning (across the wrap of the sequence numbers: test_loop_heap.c). */
static void test_equal_deadlines_fire_in_the_order_set_not_spawned(void) {
    struct tk k[8];
    int i;
    late_sleepers(k);
    CHECK_EQ_INT(norder, 8);
    for (i = 0; i < 8; i++)
        CHECK_EQ_INT(order[i], 7 - i);
}

static void test_late_set_equal_deadlines_fire_on_time(void) {
    struct tk k[8];
    int i;
    late_sleepers(k);
    for (i = 0; i < 8; i++)
        CHECK_EQ_INT(k[i].t1, 30);
}

/* ---- random cancels --------------------------------------------------------- */

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
        if (pt_task_cancel(loop, &c->rnd[c->victim[c->i]].task) == PT_OK) {
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

/* What went wrong over the 25 seeds, each kind a count (0: nothing). */
struct rnd_report {
    int timers_bad, bad_time, bad_cleanup, few_cancels, bad_count, bad_order, timers_left;
};

static void random_cancels(struct rnd_report *rep) {
    struct tk rnd[RND_N];
    int rnd_cancelled[RND_N];
    struct rnd_canceller c;
    unsigned long seed;
    int i, j, woke;
    memset(rep, 0, sizeof *rep);
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
        CHECK_EQ_INT(pt_loop_spawn(&lp, &c.task, rnd_cancel), PT_OK);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        rep->timers_bad += rnd_timers_bad;
        woke = 0;
        for (i = 0; i < RND_N; i++) {
            if (rnd[i].woke != !rnd_cancelled[i])
                rep->bad_cleanup++;
            if (rnd[i].cleanups != 1)
                rep->bad_cleanup++;
            if (rnd[i].woke) {
                woke++;
                if (rnd[i].t1 != rnd[i].ticks)
                    rep->bad_time++;
            } else if (pt_task_status(&rnd[i].task) != PT_CLOSED ||
                       rnd[i].cleanup_result != PT_ECANCELLED) {
                rep->bad_cleanup++;
            }
        }
        rep->few_cancels += !(rnd_cancel_ok > RND_N / 12);
        rep->bad_count += norder != RND_N - rnd_cancel_ok;
        rep->bad_count += woke != norder;
        for (i = 1; i < norder; i++) {
            struct tk *p = &rnd[order[i - 1]], *q = &rnd[order[i]];
            if (p->ticks > q->ticks || (p->ticks == q->ticks && p->id > q->id))
                rep->bad_order++;
        }
        rep->timers_left += (int)pt_loop_timers(&lp);
    }
}

/* The heap holds exactly the timers still pending after every cancel. */
static void test_random_cancels_keep_the_timer_count_exact(void) {
    struct rnd_report rep;
    random_cancels(&rep);
    CHECK_EQ_INT(rep.timers_bad, 0);
    CHECK_EQ_INT(rep.timers_left, 0);
}

/* The others wake each exactly at its deadline. */
static void test_random_cancels_leave_the_others_on_time(void) {
    struct rnd_report rep;
    random_cancels(&rep);
    CHECK_EQ_INT(rep.bad_time, 0);
}

/* Each cancelled one runs its cleanup once and never wakes; each other
 * wakes once. */
static void test_random_cancels_cancel_exactly_their_victims(void) {
    struct rnd_report rep;
    random_cancels(&rep);
    CHECK_EQ_INT(rep.bad_cleanup, 0);
    CHECK_EQ_INT(rep.few_cancels, 0);
    CHECK_EQ_INT(rep.bad_count, 0);
}

/* In (deadline, order set) order. */
static void test_random_cancels_keep_the_wake_order(void) {
    struct rnd_report rep;
    random_cancels(&rep);
    CHECK_EQ_INT(rep.bad_order, 0);
}

/* ---- sleep 0 in a loop ------------------------------------------------------- */

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

#if PT_CONFIG_IO
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

/* A (re-sleeping 0, 1000 times), B (yielding 20 times), C (sleeping 5)
 * and, with descriptor waits, W (waiting on a wakeup signalled in the
 * third iteration): ten iterations, then run to the end. `turns` counts
 * the iterations in which A and B each had exactly one turn. */
struct starve {
    struct tk a, b, c;
#if PT_CONFIG_IO
    struct io_waiter w;
#endif
    int turns;
};

static void sleep_0_beside_others(struct starve *s) {
    int i;
#if PT_CONFIG_IO
    memset(&s->w, 0, sizeof s->w);
    s->w.woke = -1;
    s->w.result = 99;
    CHECK_EQ_INT(pt_wakeup_init(&s->w.w), PT_OK);
#endif
    setup(0);
    tk_init(&s->a, "A", 0);
    tk_init(&s->b, "B", 1);
    tk_init(&s->c, "C", 2);
    s->a.n = 1000;
    s->b.n = 20;
    s->c.ticks = 5;
    spawn(&s->a, spin_sleep0);
    spawn(&s->b, yielder);
    spawn(&s->c, sleeper);
#if PT_CONFIG_IO
    s->w.clock = &s->b;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &s->w.task, wakeup_waiter), PT_OK);
#endif
    s->turns = 0;
    for (i = 1; i <= 10; i++) {
        pt_loop_run_once(&lp, 1);
        s->turns += s->a.woke == i - 1 && s->b.i == i - 1;
#if PT_CONFIG_IO
        if (i == 3)
            pt_wakeup_signal(&s->w.w); /* seen by the next iteration's poll */
#endif
    }
#if PT_CONFIG_IO
    CHECK_EQ_INT(s->w.result, PT_OK);
    pt_wakeup_close(&s->w.w);
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A task that re-sleeps 0 in a loop gets one turn per iteration: a task
 * that yields still progresses... */
static void test_sleep_0_in_a_loop_gets_one_turn_per_iteration(void) {
    struct starve s;
    sleep_0_beside_others(&s);
    CHECK_EQ_INT(s.turns, 10);
    CHECK_EQ_INT(s.a.woke, 1000);
}

/* ... and so does a sleeper. */
static void test_sleeper_wakes_on_time_beside_a_sleep_0_loop(void) {
    struct starve s;
    sleep_0_beside_others(&s);
    CHECK_EQ_INT(s.c.woke, 1);
    CHECK_EQ_INT(s.c.t1, 5);
}

#if PT_CONFIG_IO
/* ... and so does one waiting on a descriptor. */
static void test_descriptor_wait_progresses_beside_a_sleep_0_loop(void) {
    struct starve s;
    sleep_0_beside_others(&s);
    CHECK_EQ_INT(s.w.result, PT_OK);
    CHECK_EQ_INT(s.w.woke, 3); /* woke in iteration 4, where b.i is 3 */
}
#define STARVE_IO_CASES(X) X(descriptor_wait_progresses_beside_a_sleep_0_loop)
#else
#define STARVE_IO_CASES(X)
#endif

/* ---- a full timer heap ------------------------------------------------------- */

#if PT_CONFIG_SYNC && PT_CONFIG_GROUPS
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

#if PT_CONFIG_SYNC && PT_CONFIG_GROUPS
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

/* What the event waiter d and setter e add to the traces below: nothing
 * without PT_CONFIG_SYNC. */
#if PT_CONFIG_SYNC
#define IF_SYNC(s) s
#else
#define IF_SYNC(s) ""
#endif

/* A heap of two slots; a sleeps 10, b 20, c 5 (no slot left); with
 * PT_CONFIG_SYNC, d waits on an event (no timeout) that e sets. One
 * iteration. */
static struct pt_timer_slot small[2];
struct full_heap {
    struct tk a, b, c;
#if PT_CONFIG_SYNC
    struct pt_event ev;
    struct tk d, e;
#endif
};

static void heap_of_two(struct full_heap *f) {
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, small, 2), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(&f->a, "a", 0);
    tk_init(&f->b, "b", 1);
    tk_init(&f->c, "c", 2);
    f->a.ticks = 10;
    f->b.ticks = 20;
    f->c.ticks = 5;
    spawn(&f->a, full_heap_task);
    spawn(&f->b, full_heap_task);
    spawn(&f->c, full_heap_task);
#if PT_CONFIG_SYNC
    pt_event_init(&f->ev);
    tk_init(&f->d, "d", 3);
    tk_init(&f->e, "e", 4);
    f->d.ev = &f->ev;
    f->e.ev = &f->ev;
    spawn(&f->d, event_waiter); /* no timeout: no timer needed */
    spawn(&f->e, event_setter);
#endif
    pt_loop_run_once(&lp, 1);
}

static void test_timed_wait_with_a_full_heap_fails_at_once_with_efull(void) {
    struct full_heap f;
    heap_of_two(&f);
    CHECK_EQ_STR(trace.buf, "a0 b0 c0 c1 " IF_SYNC("d0 e "));
    CHECK_EQ_INT(f.c.result, PT_EFULL);
    CHECK_EQ_INT(f.c.t1, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 2);
}

static void test_loop_goes_on_after_a_full_heap_refusal(void) {
    struct full_heap f;
    heap_of_two(&f);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "a0 b0 c0 c1 " IF_SYNC("d0 e d1 ") "a1 b1 ");
    CHECK_EQ_INT(f.a.result, PT_OK);
    CHECK_EQ_INT(f.a.t1, 10);
    CHECK_EQ_INT(f.b.t1, 20);
}

#if PT_CONFIG_SYNC
static void test_wait_without_a_timeout_needs_no_heap_slot(void) {
    struct full_heap f;
    heap_of_two(&f);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.d.result, PT_OK);
}
#define FULL_SYNC_CASES(X) X(wait_without_a_timeout_needs_no_heap_slot)
#else
#define FULL_SYNC_CASES(X)
#endif

/* A heap of no slots: every timed wait fails, nothing hangs. */
static void test_heap_of_no_slots_fails_every_timed_wait(void) {
    struct tk a;
    trace_reset();
    CHECK_EQ_INT(pt_loop_init(&lp, NULL, 0), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(&a, "a", 0);
    a.ticks = 0;
    spawn(&a, full_heap_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.result, PT_EFULL);
    CHECK_EQ_STR(trace.buf, "a0 a1 ");
}

#if PT_CONFIG_SYNC && PT_CONFIG_GROUPS
/* One slot, taken by a sleeper: a join, an event wait and a group wait
 * with a timeout all end at once with PT_EFULL; without one they wait. */
static void test_timed_join_event_and_group_waits_with_a_full_heap_fail(void) {
    struct pt_event ev;
    struct tk a, b;
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
}
#define FULL_GROUP_CASES(X) X(timed_join_event_and_group_waits_with_a_full_heap_fail)
#else
#define FULL_GROUP_CASES(X)
#endif

#if SIZE_MAX > PT_INDEX_MAX
/* A heap too big for the index type is refused. */
static void test_heap_too_big_for_its_index_type_is_refused(void) {
    CHECK_EQ_INT(pt_loop_init(&lp, NULL, (size_t)PT_INDEX_MAX + 1u), PT_EINVAL);
}
#define HEAP_INDEX_CASES(X) X(heap_too_big_for_its_index_type_is_refused)
#else
#define HEAP_INDEX_CASES(X)
#endif

/* ---- the wrap ----------------------------------------------------------- */

/* Times written from the counter's ends, so that every case crosses the
 * wrap at either width (PT_CONFIG_TIME_BITS 32 on boards and in the narrow build,
 * 64 on a host): T_END(n) is n ticks before it wraps to 0, T_HALF the
 * first delay too long to compare (PT_TIME_MAX_DELAY + 1). */
#define T_END(n) ((pt_time_t)((pt_time_t)0 - (pt_time_t)(n)))
#define T_HALF ((pt_time_t)(PT_TIME_MAX_DELAY + 1u))

static void test_time_before_is_wrap_safe(void) {
    CHECK(pt_time_before(T_END(0x10), 0x10u));
    CHECK(!pt_time_before(0x10u, T_END(0x10)));
    CHECK(!pt_time_before(5u, 5u));
    CHECK(pt_time_before(4u, 5u));
    CHECK(!pt_time_before(5u, 4u));
    CHECK(pt_time_before(0u, PT_TIME_MAX_DELAY));
    CHECK(!pt_time_before(PT_TIME_MAX_DELAY, 0u));
    CHECK(pt_time_before(T_HALF, T_END(1)));
    CHECK(pt_time_before(T_END(1), (PT_TIME_MAX_DELAY - 1u)));
    CHECK(!pt_time_before((PT_TIME_MAX_DELAY - 1u), T_END(1)));
}

static void test_time_until_is_wrap_safe_and_never_negative(void) {
    CHECK_EQ_INT(pt_time_until(T_END(0x10), 0x10u), 0x20);
    CHECK_EQ_INT(pt_time_until(0x10u, T_END(0x10)), 0);
    CHECK_EQ_INT(pt_time_until(7u, 7u), 0);
    CHECK_EQ_INT(pt_time_until(7u, 8u), 1);
    CHECK_EQ_INT(pt_time_until(0u, PT_TIME_MAX_DELAY), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_until(T_END(1), 0u), 1);
}

static void test_time_after_wraps_and_caps_the_delay(void) {
    CHECK_EQ_INT(pt_time_after(T_END(1), 1u), 0);
    CHECK_EQ_INT(pt_time_after(T_END(0x100), 0x200u), 0x100);
    CHECK_EQ_INT(pt_time_after(0u, PT_FOREVER), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_after(0u, T_HALF), PT_TIME_MAX_DELAY);
    CHECK_EQ_INT(pt_time_after(T_HALF, PT_TIME_MAX_DELAY), T_END(1));
    CHECK_EQ_INT(pt_time_after(T_END(1), PT_FOREVER), (PT_TIME_MAX_DELAY - 1u));
    CHECK(pt_time_before(T_END(1), pt_time_after(T_END(1), PT_FOREVER)));
}

static void test_ms_rounds_up_to_whole_ticks(void) {
    CHECK_EQ_INT(PT_MS(0), 0);
    CHECK_EQ_INT(PT_MS(1), (PT_CONFIG_TICKS_PER_SEC + 999u) / 1000u);
    CHECK_EQ_INT(PT_MS(1000), PT_CONFIG_TICKS_PER_SEC);
    CHECK(PT_MS(1) >= 1); /* never rounded down to no wait */
}

static void test_us_and_sec_convert_to_ticks_rounding_up(void) {
    CHECK_EQ_INT(PT_US(0), 0);
    CHECK(PT_US(1) >= 1); /* never rounded down to no wait */
    CHECK_EQ_INT(PT_US(1000000), PT_CONFIG_TICKS_PER_SEC);
    CHECK(PT_US(1500) > PT_MS(1) || PT_CONFIG_TICKS_PER_SEC < 1000u);
    CHECK(PT_US(1500) <= PT_MS(2));
    CHECK_EQ_INT(PT_SEC(3), 3u * PT_CONFIG_TICKS_PER_SEC);
    CHECK_EQ_INT(PT_MS(2500), PT_SEC(2) + PT_MS(500));
}

static void test_ticks_convert_back_to_ms_and_us_rounding_down(void) {
    CHECK_EQ_INT(PT_TO_MS(PT_MS(1500)), 1500);
    CHECK_EQ_INT(PT_TO_US(PT_SEC(2)), 2000000);
    CHECK_EQ_INT(PT_TO_MS(PT_SEC(86400)), 86400000); /* a day: no overflow */
    CHECK_EQ_INT(PT_TO_MS(0), 0);
}

#if PT_CONFIG_POSIX && PT_CONFIG_TIME_BITS == 64 && PT_CONFIG_TICKS_PER_SEC == 1000000
/* On a host the ticks are microseconds in 64 bits: a sleep can be timed to
 * the microsecond, and the longest delay is far beyond any uptime. */
static void test_host_ticks_are_64_bit_microseconds(void) {
    CHECK_EQ_INT(sizeof(pt_time_t), 8);
    CHECK_EQ_INT(PT_MS(1), 1000);
    CHECK_EQ_INT(PT_US(250), 250);
    CHECK(PT_TIME_MAX_DELAY / PT_CONFIG_TICKS_PER_SEC / 86400u / 365u > 100000u); /* years */
}
#define HOST_TICK_CASES(X) X(host_ticks_are_64_bit_microseconds)
#else
#define HOST_TICK_CASES(X)
#endif

/* Sleeps across the wrap: deadlines on both sides. */
static const pt_time_t wrap_delays[] = {0x200, 0x7F, 0x100, 0x80, 0xFF, 0x101};
#define WRAP_START T_END(0x100)

static void sleep_across_the_wrap(struct tk *k) {
    int i;
    setup(WRAP_START);
    norder = 0;
    for (i = 0; i < 6; i++) {
        tk_init(&k[i], "w", i);
        k[i].ticks = wrap_delays[i];
        spawn(&k[i], sleeper);
    }
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... come out in time order... */
static void test_sleeps_across_the_wrap_wake_in_time_order(void) {
    static const int expect[] = {1, 3, 4, 2, 5, 0};
    struct tk k[6];
    int i;
    sleep_across_the_wrap(k);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(order[i], expect[i]);
}

/* ... each exactly at its (wrapped) time. */
static void test_sleeps_across_the_wrap_wake_at_their_wrapped_times(void) {
    struct tk k[6];
    int i;
    sleep_across_the_wrap(k);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(k[i].t1, (pt_time_t)(WRAP_START + wrap_delays[i]));
    CHECK_EQ_INT(k[2].t1, 0);
    CHECK_EQ_INT(k[4].t1, T_END(1));
    CHECK_EQ_INT(k[5].t1, 1);
    CHECK_EQ_INT(pt_loop_now(&lp), 0x100);
}

/* Re-arming across the wrap, beside a huge delay. */
static void test_rearming_across_the_wrap_beside_a_huge_delay(void) {
    struct tk r, h;
    setup(T_END(0x30));
    tk_init(&r, "r", 0);
    tk_init(&h, "h", 1);
    r.ticks = 0x20;
    r.n = 3;
    h.ticks = PT_FOREVER;
    spawn(&h, sleeper);
    spawn(&r, sleeper);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, T_END(0x10));
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, 0x10);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(r.t1, 0x30);
    CHECK_EQ_INT(h.woke, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(h.woke, 1);
    CHECK_EQ_INT(h.t1, (pt_time_t)(T_END(0x30) + PT_TIME_MAX_DELAY));
    CHECK_EQ_STR(trace.buf, "r r r h ");
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(sleep_is_never_early)                                                                        \
    X(sleep_wakes_exactly_on_time_on_the_virtual_clock)                                            \
    X(sleepers_wake_earliest_deadline_first)                                                       \
    X(woken_sleepers_leave_no_timer)                                                               \
    X(sleep_again_counts_from_its_own_start)                                                       \
    X(sleeper_that_returns_ends_with_its_value)                                                    \
    X(sleep_0_goes_behind_the_queued_tasks)                                                        \
    X(sleep_0_wakes_at_the_same_time)                                                              \
    X(delay_beyond_the_maximum_is_cut_to_it)                                                       \
    X(sleep_forever_can_be_cancelled)                                                              \
    X(cancelled_sleep_forever_leaves_no_deadline)                                                  \
    X(cancel_removes_the_sleepers_timer_at_once)                                                   \
    X(cancel_of_a_sleeping_task_runs_its_cleanup)                                                  \
    X(cancelled_sleeper_never_wakes)                                                               \
    X(cancel_of_a_finished_task_is_einval)                                                         \
    X(cancel_after_the_timer_fired_but_before_it_ran_wins)                                         \
    X(cancel_after_the_task_finished_is_too_late)                                                  \
    X(equal_deadlines_fire_in_the_order_set_after_removals)                                        \
    X(cancels_from_the_middle_of_the_heap_take_only_those)                                         \
    X(timers_left_after_removals_fire_on_time)                                                     \
    X(equal_deadlines_fire_in_the_order_set_not_spawned)                                           \
    X(late_set_equal_deadlines_fire_on_time)                                                       \
    X(random_cancels_keep_the_timer_count_exact)                                                   \
    X(random_cancels_leave_the_others_on_time)                                                     \
    X(random_cancels_cancel_exactly_their_victims)                                                 \
    X(random_cancels_keep_the_wake_order)                                                          \
    X(sleep_0_in_a_loop_gets_one_turn_per_iteration)                                               \
    X(sleeper_wakes_on_time_beside_a_sleep_0_loop)                                                 \
    STARVE_IO_CASES(X)                                                                             \
    X(timed_wait_with_a_full_heap_fails_at_once_with_efull)                                        \
    X(loop_goes_on_after_a_full_heap_refusal)                                                      \
    FULL_SYNC_CASES(X)                                                                             \
    X(heap_of_no_slots_fails_every_timed_wait)                                                     \
    FULL_GROUP_CASES(X)                                                                            \
    HEAP_INDEX_CASES(X)                                                                            \
    X(time_before_is_wrap_safe)                                                                    \
    X(time_until_is_wrap_safe_and_never_negative)                                                  \
    X(time_after_wraps_and_caps_the_delay)                                                         \
    X(ms_rounds_up_to_whole_ticks)                                                                 \
    X(us_and_sec_convert_to_ticks_rounding_up)                                                     \
    X(ticks_convert_back_to_ms_and_us_rounding_down)                                               \
    HOST_TICK_CASES(X)                                                                             \
    X(sleeps_across_the_wrap_wake_in_time_order)                                                   \
    X(sleeps_across_the_wrap_wake_at_their_wrapped_times)                                          \
    X(rearming_across_the_wrap_beside_a_huge_delay)
/* clang-format on */
TEST_MAIN(TEST_CASES)
