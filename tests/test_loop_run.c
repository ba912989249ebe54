/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_run.c - how pt_loop_run ends (loop/core.h): when
 * background tasks are left, it cancels them, and whatever their cleanups
 * start is run or cancelled in turn; anything that cannot finish is
 * reported; when only waits the loop cannot see are left (PT_WAIT_UNTIL
 * on a flag), time jumps to the next timer, and without one the run ends
 * PT_ESTALL. On the virtual clock.
 */
#include "loop/loop.h"

#include "loop_util.h"
#include "runner.h"

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    pt_time_t ticks;     /* how long its body (or its work) sleeps */
    struct tk *spawn;    /* what its cleanup spawns, if anything */
    int background;      /* ... as a background task */
    struct pt_event *ev; /* if set, its cleanup waits on this */
    int runs, cleanups, rc;
};

static void tk_init(struct tk *k, const char *name, pt_time_t ticks) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->ticks = ticks;
    k->rc = 99;
}

/* Sleeps `ticks` once. */
static PT_THREAD(work(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_SLEEP(k->ticks);
    note(k->name);
    PT_TASK_END();
}

/* Sleeps `ticks` forever (a background ticker); its cleanup may spawn
 * another task, or wait on an event. */
static PT_THREAD(body(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    for (;;)
        PT_SLEEP(k->ticks);
    PT_TASK_CLEANUP();
    k->cleanups++;
    note_n(k->name, -(long)k->cleanups);
    if (k->spawn)
        k->rc = k->background ? pt_loop_spawn_background(loop, &k->spawn->task, body)
                              : pt_loop_spawn(loop, &k->spawn->task, work);
    if (k->ev)
        PT_EVENT_WAIT(k->ev, PT_FOREVER);
    PT_TASK_END();
}

/* A background ticker bg (every 3) and a task fg that ends at 10; bg's
 * cleanup, run by the final cancel, spawns `late` (sleeping late_ticks),
 * as a background task if `background`. Run to the end. */
static void cleanup_spawns(struct tk *bg, struct tk *fg, struct tk *late, pt_time_t late_ticks,
                           int background) {
    setup(0);
    tk_init(bg, "bg", 3);
    tk_init(fg, "fg", 10);
    tk_init(late, "late", late_ticks);
    bg->spawn = late;
    bg->background = background;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &bg->task, body), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &fg->task, work), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg->rc, PT_OK);
}

/* A task spawned by a background task's cleanup (run by the final cancel)
 * runs to its end. */
static void test_task_spawned_by_a_final_cleanup_runs(void) {
    struct tk bg, fg, late;
    cleanup_spawns(&bg, &fg, &late, 5, 0);
    CHECK_EQ_INT(late.runs, 1);
    CHECK(pt_task_done(&late.task));
    CHECK_EQ_STR(trace.buf, "fg bg-1 late ");
}

/* The run goes on until that task has finished too. */
static void test_run_waits_for_a_task_a_final_cleanup_spawned(void) {
    struct tk bg, fg, late;
    cleanup_spawns(&bg, &fg, &late, 5, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(since(0), 15);
}

/* ... spawns a background task: that one is cancelled in turn (its body
 * never runs: it had not started). */
static void test_background_task_spawned_by_a_final_cleanup_is_cancelled(void) {
    struct tk bg, fg, late;
    cleanup_spawns(&bg, &fg, &late, 2, 1);
    CHECK_EQ_INT(late.runs, 0);
    CHECK_EQ_INT(pt_task_status(&late.task), PT_CLOSED);
}

static void test_run_does_not_wait_for_a_cancelled_background_spawn(void) {
    struct tk bg, fg, late;
    cleanup_spawns(&bg, &fg, &late, 2, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(since(0), 10);
}

/* ... waits on an event nobody will set. */
static void cleanup_never_ends(struct pt_event *ev, struct tk *bg, struct tk *fg) {
    setup(0);
    pt_event_init(ev);
    tk_init(bg, "bg", 3);
    tk_init(fg, "fg", 10);
    bg->ev = ev;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &bg->task, body), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &fg->task, work), PT_OK);
}

/* Reported (PT_EBUSY), as any task left waiting is. */
static void test_final_cleanup_that_never_ends_is_reported_busy(void) {
    struct pt_event ev;
    struct tk bg, fg;
    cleanup_never_ends(&ev, &bg, &fg);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(bg.cleanups, 1);
    CHECK(!pt_task_done(&bg.task));
}

/* Set it: the next run lets the cleanup finish. */
static void test_final_cleanup_left_waiting_finishes_in_the_next_run(void) {
    struct pt_event ev;
    struct tk bg, fg;
    cleanup_never_ends(&ev, &bg, &fg);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&bg.task));
}

/* ---- a background task parked without a deadline ------------------------ */

/* The usual shape of a background task: a daemon parked without a
 * deadline on an event, a queue or a lock. Once the last task has ended,
 * nothing would ever wake it, and no timer is pending: the run must still
 * cancel it and run its cleanup. */
enum { ON_EVENT, ON_QUEUE, ON_LOCK };

struct daemon {
    struct pt_task task; /* first member: the loop hands it back */
    int on;              /* what it waits on: ON_EVENT, ON_QUEUE, ON_LOCK */
    int cleanups;
};

static struct pt_event d_event;
static struct pt_queue d_queue;
static pt_value d_slots[2];
static struct pt_lock d_lock;

/* Waits forever on what it is given; its cleanup counts. */
static PT_THREAD(daemon(struct pt_loop *loop, struct pt_task *task)) {
    struct daemon *d = (struct daemon *)task;
    static pt_value got;
    PT_TASK_BEGIN(loop, task);
    if (d->on == ON_EVENT)
        PT_EVENT_WAIT(&d_event, PT_FOREVER);
    else if (d->on == ON_QUEUE)
        PT_QUEUE_GET(&d_queue, &got, PT_FOREVER);
    else
        PT_LOCK_ACQUIRE(&d_lock, PT_FOREVER);
    note("woken"); /* never: nothing gives it what it waits for */
    PT_TASK_CLEANUP();
    d->cleanups++;
    PT_TASK_END();
}

/* Takes the lock (and keeps it: a finished task still holds it), yields
 * once and ends. */
static PT_THREAD(yield_once(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_LOCK_ACQUIRE(&d_lock, PT_FOREVER);
    PT_TASK_YIELD();
    PT_TASK_END();
}

/* One task that yields once, then a daemon parked on `on`: the run ends
 * PT_OK, the daemon cancelled after its cleanup ran once. */
static struct pt_task fg_task;
static struct daemon dmn;

static void daemon_run(int on) {
    setup(0);
    pt_event_init(&d_event);
    pt_queue_init(&d_queue, d_slots, 2);
    pt_lock_init(&d_lock);
    dmn.on = on;
    dmn.cleanups = 0;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &fg_task, yield_once), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &dmn.task, daemon), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(dmn.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&dmn.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "");
    CHECK_EQ_INT(since(0), 0);
}

static void test_background_task_parked_on_an_event_is_cleaned_up(void) {
    daemon_run(ON_EVENT);
}

static void test_background_task_parked_on_a_queue_is_cleaned_up(void) {
    daemon_run(ON_QUEUE);
}

static void test_background_task_parked_on_a_lock_is_cleaned_up(void) {
    daemon_run(ON_LOCK);
}

/* ---- waits the loop cannot see ------------------------------------------ */

/* A task that waits with PT_WAIT_UNTIL on a flag: the loop cannot see the
 * flag, so it polls the task every iteration. On the virtual clock time
 * does not pass while it polls: with nothing else that could set the flag
 * the run ends PT_ESTALL; with a timer pending, time jumps to it. */
static int flag;

struct poller {
    struct pt_task task; /* first member: the loop hands it back */
    pt_time_t seen;      /* when it saw the flag; -1: never */
    int count, polls;    /* yield_counter: how many yields; polls */
};

/* Waits until the flag is set, then notes when. */
static PT_THREAD(wait_for_flag(struct pt_loop *loop, struct pt_task *task)) {
    struct poller *p = (struct poller *)task;
    PT_TASK_BEGIN(loop, task);
    PT_WAIT_UNTIL(&task->gen, (p->polls++, flag));
    p->seen = pt_loop_now(loop);
    note("seen");
    PT_TASK_END();
}

/* Sleeps 7 ticks, then sets the flag. */
static PT_THREAD(set_flag_later(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(7);
    flag = 1;
    note("set");
    PT_TASK_END();
}

/* Yields 1000 times, counting. */
static PT_THREAD(yield_counter(struct pt_loop *loop, struct pt_task *task)) {
    struct poller *p = (struct poller *)task;
    PT_TASK_BEGIN(loop, task);
    for (p->count = 0; p->count < 1000; p->count++)
        PT_TASK_YIELD();
    PT_TASK_END();
}

static struct poller poller_a, poller_b;
static struct pt_task setter;

static void poller_setup(void) {
    setup(0);
    flag = 0;
    poller_a.seen = poller_b.seen = (pt_time_t)-1;
    poller_a.polls = poller_b.polls = 0;
}

/* Set the flag and run to the end: the tasks of a case that stalled
 * finish, so that the next case can spawn them again. */
static void let_pollers_finish(void) {
    flag = 1;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Nobody sets the flag: the run ends PT_ESTALL (not a spin), with the
 * task still waiting, and no time passed. */
static void test_wait_on_a_flag_nobody_sets_stalls(void) {
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_ESTALL);
    CHECK(!pt_task_done(&poller_a.task));
    CHECK_EQ_INT(since(0), 0);
    CHECK(poller_a.polls < 10);
    let_pollers_finish();
}

/* Two such tasks: the same. */
static void test_two_waits_on_flags_nobody_sets_stall(void) {
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_b.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_ESTALL);
    CHECK(!pt_task_done(&poller_a.task));
    CHECK(!pt_task_done(&poller_b.task));
    let_pollers_finish();
}

/* The flag set between runs: the next run lets the task finish. */
static void test_stalled_run_goes_on_once_the_flag_is_set(void) {
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_ESTALL);
    flag = 1;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&poller_a.task));
}

/* pt_loop_run_until returns 0 there, as when nothing could make
 * progress. */
static void test_run_until_a_stalled_task_returns_0(void) {
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &poller_a.task), 0);
    CHECK(!pt_task_done(&poller_a.task));
    let_pollers_finish();
}

/* A sleeping task sets the flag at 7: time jumps to its timer, as it
 * would have passed on a real clock, and the poller sees the flag then. */
static void test_flag_set_by_a_timer_lets_the_poller_finish(void) {
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &setter, set_flag_later), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "set seen ");
    CHECK_EQ_INT((long)poller_a.seen, 7);
    CHECK(poller_a.polls < 10);
}

/* A task that yields with a counter is not a poll: it runs its 1000
 * yields, while a poller beside it waits; then the run stalls. */
static void test_yield_loop_is_not_a_stall(void) {
    static struct poller counter;
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &counter.task, yield_counter), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &poller_a.task, wait_for_flag), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_ESTALL);
    CHECK(pt_task_done(&counter.task));
    CHECK_EQ_INT(counter.count, 1000);
    let_pollers_finish();
}

/* Alone, it runs to its end: PT_OK. */
static void test_yield_loop_alone_ends_ok(void) {
    static struct poller counter;
    poller_setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &counter.task, yield_counter), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(counter.count, 1000);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(task_spawned_by_a_final_cleanup_runs)                                                        \
    X(run_waits_for_a_task_a_final_cleanup_spawned)                                                \
    X(background_task_spawned_by_a_final_cleanup_is_cancelled)                                     \
    X(run_does_not_wait_for_a_cancelled_background_spawn)                                          \
    X(final_cleanup_that_never_ends_is_reported_busy)                                              \
    X(final_cleanup_left_waiting_finishes_in_the_next_run)                                         \
    X(background_task_parked_on_an_event_is_cleaned_up)                                            \
    X(background_task_parked_on_a_queue_is_cleaned_up)                                             \
    X(background_task_parked_on_a_lock_is_cleaned_up)                                              \
    X(wait_on_a_flag_nobody_sets_stalls)                                                           \
    X(two_waits_on_flags_nobody_sets_stall)                                                        \
    X(stalled_run_goes_on_once_the_flag_is_set)                                                    \
    X(run_until_a_stalled_task_returns_0)                                                          \
    X(flag_set_by_a_timer_lets_the_poller_finish)                                                  \
    X(yield_loop_is_not_a_stall)                                                                   \
    X(yield_loop_alone_ends_ok)
/* clang-format on */
TEST_MAIN(TEST_CASES)
