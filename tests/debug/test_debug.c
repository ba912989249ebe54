/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/debug/test_debug.c - the contract of the debug mode (loop/debug.h):
 * misuse refused with PT_EINVAL / PT_EBUSY and nothing lost, task names,
 * the walk over the live tasks and what each waits on, slow resumes. On
 * the virtual clock; resumes are timed on a clock of the test's own
 * (PT_CONFIG_DEBUG_NOW_US), which a task moves.
 *
 * Built with PT_CONFIG_DEBUG=1, and once with PT_CONFIG_DEBUG=0 (host): the same
 * programs build there; the misuse cases are then skipped (unchecked: what
 * they do is undefined), and the other cases check what the mode's
 * functions do when it is off.
 */
#include <stdint.h>

/* The clock that times resumes: moved by the tasks, its reads counted. */
static uint32_t test_clock_us;
static unsigned test_clock_reads;
#define PT_CONFIG_DEBUG_NOW_US() (test_clock_reads++, test_clock_us)

#include "loop/loop.h"

#include "../runner.h"

#include "../loop_util.h"
#include "other_file.h"

#if PT_CONFIG_IO
#include <poll.h>
#include <unistd.h>
#endif

/* A misuse case: without the debug mode the misuse is unchecked (its
 * behaviour undefined), so the case is built but not run. */
#if PT_CONFIG_DEBUG
#define CHECKED_ONLY() ((void)0)
#else
#define CHECKED_ONLY()                                                                             \
    do {                                                                                           \
        test_skip("unchecked without PT_CONFIG_DEBUG");                                            \
        return;                                                                                    \
    } while (0)
#endif

/* A second loop, for the tasks of another loop. */
static struct pt_loop lp2;
static struct pt_timer_slot heap2[4];

static void setup2(void) {
    CHECK_EQ_INT(pt_loop_init(&lp2, heap2, 4), PT_OK);
    pt_loop_use_virtual_clock(&lp2, 0);
}

/* ---- the tasks ------------------------------------------------------------ */

enum { AS_SLEEP, AS_JOIN, AS_SEM, AS_IO, AS_BARRIER, AS_WAKEUP }; /* what wait_as does */

struct dk {
    struct pt_task task; /* first member: the loop hands it back */
    struct dk *other;    /* the task it joins, spawns, or names in a wait */
    struct dk *target;   /* what a wait naming `other` joins */
    pt_time_t ticks;     /* a sleep, or a timeout */
    pt_time_t cleanup_ticks;
    uint32_t burn_us; /* how far each resume moves the test's clock */
    int what;         /* AS_* */
    int shield;       /* join with PT_JOIN_SHIELD */
    int yields;       /* resumes it yields before it ends */
    int result;       /* its wait's result (99: none yet) */
    int rc, rc2, rc3; /* what calls it made returned (99: none yet) */
    int runs;         /* resumes */
    long woke_at;     /* loop time after its wait (-1: never) */
    struct pt_gen sub;
#if PT_CONFIG_SYNC
    struct pt_semaphore *sem;
    struct pt_barrier *barrier;
    pt_index_t index;
#endif
#if PT_CONFIG_IO
    struct pt_io io;
    int fd;
    struct pt_wakeup *wakeup;
#endif
};

static void dk_init(struct dk *k) {
    memset(k, 0, sizeof *k);
    k->result = k->rc = k->rc2 = k->rc3 = 99;
    k->woke_at = -1;
}

/* Sleeps `ticks`; a cleanup that sleeps `cleanup_ticks`. */
static PT_THREAD(sleeper(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_SLEEP(k->ticks);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    PT_TASK_CLEANUP();
    if (k->cleanup_ticks)
        PT_SLEEP(k->cleanup_ticks);
    PT_TASK_END();
}

/* Joins `other` (PT_JOIN_SHIELD if `shield`) with timeout `ticks`. */
static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    if (k->shield)
        PT_JOIN_SHIELD(&k->other->task, k->ticks);
    else
        PT_JOIN(&k->other->task, k->ticks);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* A sub-coroutine that waits (k->what) as task `as`: the misuse when `as`
 * is not the task that runs it. */
static PT_THREAD(wait_as(struct pt_loop *loop, struct pt_task *as, struct pt_gen *g,
                         struct dk *k)) {
    PT_SUB_BEGIN(loop, as, g);
    if (k->what == AS_SLEEP)
        PT_SLEEP(k->ticks);
    else if (k->what == AS_JOIN)
        PT_JOIN(&k->target->task, PT_FOREVER);
#if PT_CONFIG_SYNC
    else if (k->what == AS_SEM)
        PT_SEMAPHORE_ACQUIRE(k->sem, PT_FOREVER);
    else if (k->what == AS_BARRIER)
        PT_BARRIER_WAIT(k->barrier, &k->index, PT_FOREVER);
#endif
#if PT_CONFIG_IO
    else if (k->what == AS_IO)
        PT_IO_WAIT(&k->io, k->fd, PT_READABLE, PT_FOREVER);
    else if (k->what == AS_WAKEUP)
        PT_WAKEUP_WAIT(k->wakeup, PT_FOREVER);
#endif
    k->result = PT_WAIT_RESULT();
    PT_SUB_END();
}

/* Waits as its `other` task, in its own body (a task's function given the
 * wrong task). */
static PT_THREAD(waits_as_other(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_AWAIT(&task->gen, &k->sub, wait_as(loop, &k->other->task, &k->sub, k));
    k->woke_at = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* Spawns `other` (alive) on this loop and on lp2, and itself (running). */
static PT_THREAD(respawner(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_spawn(loop, &k->other->task, sleeper);
    k->rc2 = pt_loop_spawn(&lp2, &k->other->task, sleeper);
    k->rc3 = pt_loop_spawn(loop, task, respawner);
    PT_TASK_END();
}

/* Moves the test's clock by burn_us in each resume; yields `yields` times. */
static PT_THREAD(burner(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        k->runs++;
        test_clock_us += k->burn_us;
        if (k->runs > k->yields)
            break;
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

#if PT_CONFIG_DEBUG
/* Sets its loop's slow-resume threshold to burn_us, in one resume. */
static PT_THREAD(threshold_setter(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    pt_loop_set_slow_duration(loop, ((struct dk *)task)->burn_us);
    PT_TASK_END();
}

/* Yields `yields` times. */
static PT_THREAD(yielder(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    while (k->runs++ < k->yields)
        PT_TASK_YIELD();
    PT_TASK_END();
}
#endif

/* ---- spawning a task that is alive: refused in every build ---------------- */

/* A sleeps 10; B, at time 0 while A is parked, spawns A again on this loop
 * and on another, and itself (running); A was spawned again while queued. */
static void test_spawn_of_an_alive_task_is_ebusy_and_loses_nothing(void) {
    struct dk a, b;
    setup(0);
    setup2();
    dk_init(&a);
    dk_init(&b);
    a.ticks = 10;
    b.other = &a;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_EBUSY); /* queued */
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b.task, respawner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.rc, PT_EBUSY);  /* parked */
    CHECK_EQ_INT(b.rc2, PT_EBUSY); /* on another loop */
    CHECK_EQ_INT(b.rc3, PT_EBUSY); /* running */
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(pt_loop_run(&lp2), PT_OK); /* nothing went there */
    pt_loop_close(&lp2);
}

/* ---- a task of another loop ------------------------------------------------ */

/* A sleeps 10 on lp; lp2 is told to cancel it. */
static void test_cancel_of_a_task_of_another_loop_is_einval(void) {
    struct dk a;
    CHECKED_ONLY();
    setup(0);
    setup2();
    dk_init(&a);
    a.ticks = 10;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK); /* A parked */
    CHECK_EQ_INT(pt_task_cancel(&lp2, &a.task), PT_EINVAL);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK); /* it slept on, uncancelled */
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_ENDED);
    pt_loop_close(&lp2);
}

/* A on lp joins B, which sleeps 10 on lp2 (or has finished there). */
static void join_across_loops(struct dk *a, struct dk *b, int shield, int b_finished) {
    setup(0);
    setup2();
    dk_init(a);
    dk_init(b);
    b->ticks = 10;
    a->other = b;
    a->ticks = PT_FOREVER;
    a->shield = shield;
    CHECK_EQ_INT(pt_loop_spawn(&lp2, &b->task, sleeper), PT_OK);
    if (b_finished)
        CHECK_EQ_INT(pt_loop_run(&lp2), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a->task, joiner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a->woke_at, 0); /* refused at once */
    CHECK_EQ_INT(pt_loop_run(&lp2), PT_OK);
    CHECK_EQ_INT(b->woke_at, 10); /* B ran on, untouched */
    CHECK_EQ_INT(pt_task_status(&b->task), PT_ENDED);
    pt_loop_close(&lp2);
}

static void test_join_of_a_task_of_another_loop_is_einval(void) {
    struct dk a, b;
    CHECKED_ONLY();
    join_across_loops(&a, &b, 0, 0);
    CHECK_EQ_INT(a.result, PT_EINVAL);
}

static void test_shielded_join_of_a_task_of_another_loop_is_einval(void) {
    struct dk a, b;
    CHECKED_ONLY();
    join_across_loops(&a, &b, 1, 0);
    CHECK_EQ_INT(a.result, PT_EINVAL);
}

static void test_join_of_a_finished_task_of_another_loop_is_einval(void) {
    struct dk a, b;
    CHECKED_ONLY();
    join_across_loops(&a, &b, 0, 1);
    CHECK_EQ_INT(a.result, PT_EINVAL);
}

/* ---- a wait for a task the loop is not running ------------------------------ */

/* Yields, then sleeps `ticks`. */
static PT_THREAD(yield_then_sleep(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_TASK_YIELD();
    PT_SLEEP(k->ticks);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* A's body, resumed once by the loop (it yielded), is then driven by hand,
 * outside the loop: its sleep does not wait, and the loop is left as it
 * was (A queued: the loop's next resume of A finds it finished). */
static void test_sleep_in_a_body_driven_by_hand_is_einval(void) {
    struct dk a;
    char status;
    CHECKED_ONLY();
    setup(0);
    dk_init(&a);
    a.ticks = 10;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, yield_then_sleep), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    status = yield_then_sleep(&lp, &a.task);
    CHECK_EQ_INT(status, PT_ENDED); /* it ran on, past the sleep */
    CHECK_EQ_INT(a.result, PT_EINVAL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0); /* no timer for it */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* B sleeps 100; A's body waits (what) naming B as its task. */
static void wait_as_another_task(struct dk *a, struct dk *b, int what) {
    dk_init(a);
    dk_init(b);
    b->ticks = 100;
    a->other = b;
    a->what = what;
    a->ticks = 5;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b->task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a->task, waits_as_other), PT_OK);
}

/* What every such case checks: A was refused at once, B slept on. */
static void check_refused_and_b_untouched(struct dk *a, struct dk *b) {
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a->result, PT_EINVAL);
    CHECK_EQ_INT(a->woke_at, 0);
    CHECK_EQ_INT(b->runs, 1);
    CHECK_EQ_INT(b->result, PT_OK);
    CHECK_EQ_INT(b->woke_at, 100);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

static void test_sleep_naming_another_task_is_einval(void) {
    struct dk a, b;
    CHECKED_ONLY();
    setup(0);
    wait_as_another_task(&a, &b, AS_SLEEP);
    check_refused_and_b_untouched(&a, &b);
}

/* A's body joins C (sleeping 50) naming B: B is not made C's joiner. */
static void test_join_naming_another_task_is_einval(void) {
    struct dk a, b, c;
    CHECKED_ONLY();
    setup(0);
    dk_init(&c);
    c.ticks = 50;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &c.task, sleeper), PT_OK);
    wait_as_another_task(&a, &b, AS_JOIN);
    a.target = &c;
    check_refused_and_b_untouched(&a, &b);
    CHECK_EQ_INT(c.woke_at, 50);
}

#if PT_CONFIG_SYNC
/* The semaphore has no unit: the acquire would wait. */
static void test_semaphore_acquire_naming_another_task_is_einval(void) {
    struct dk a, b;
    struct pt_semaphore sem;
    CHECKED_ONLY();
    setup(0);
    pt_semaphore_init(&sem, 0);
    wait_as_another_task(&a, &b, AS_SEM);
    a.sem = &sem;
    check_refused_and_b_untouched(&a, &b);
    CHECK(sem.w.q.head == NULL); /* nobody in its waiter list */
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(sem.count, 1); /* the unit stays there */
}

/* The semaphore has a unit: the acquire would end at once. Refused all
 * the same, before it takes anything: the unit stays there. */
static void test_acquire_that_would_not_wait_naming_another_task_is_einval(void) {
    struct dk a, b;
    struct pt_semaphore sem;
    CHECKED_ONLY();
    setup(0);
    pt_semaphore_init(&sem, 1);
    wait_as_another_task(&a, &b, AS_SEM);
    a.sem = &sem;
    check_refused_and_b_untouched(&a, &b);
    CHECK_EQ_INT(sem.count, 1);
}

/* The barrier is for one party: the arrival would end its round at once.
 * Refused before: the round stays open. */
static void test_barrier_arrival_naming_another_task_is_einval(void) {
    struct dk a, b;
    struct pt_barrier bar;
    CHECKED_ONLY();
    setup(0);
    pt_barrier_init(&bar, 1);
    wait_as_another_task(&a, &b, AS_BARRIER);
    a.barrier = &bar;
    a.index = 7;
    check_refused_and_b_untouched(&a, &b);
    CHECK_EQ_INT(a.index, 7); /* no arrival index given */
}
/* clang-format off: one case a line */
#define SYNC_WAIT_CASES(X)                                                                         \
    X(semaphore_acquire_naming_another_task_is_einval)                                             \
    X(acquire_that_would_not_wait_naming_another_task_is_einval)                                   \
    X(barrier_arrival_naming_another_task_is_einval)
/* clang-format on */
#else
#define SYNC_WAIT_CASES(X)
#endif

#if PT_CONFIG_IO
static void test_descriptor_wait_naming_another_task_is_einval(void) {
    struct dk a, b;
    int p[2];
    CHECKED_ONLY();
    setup(0);
    CHECK_EQ_INT(pipe(p), 0);
    wait_as_another_task(&a, &b, AS_IO);
    a.fd = p[0];
    check_refused_and_b_untouched(&a, &b);
    CHECK_EQ_INT(pt_loop_io_waits(&lp), 0); /* nothing left registered */
    pt_io_close(&lp, p[0]);
    pt_io_close(&lp, p[1]);
}

/* A wakeup signalled already would end the wait at once: refused before
 * it takes the signal, which stays pending. */
static void test_wakeup_wait_naming_another_task_is_einval(void) {
    struct dk a, b;
    struct pt_wakeup w;
    struct pollfd p;
    CHECKED_ONLY();
    setup(0);
    CHECK_EQ_INT(pt_wakeup_init(&w), PT_OK);
    pt_wakeup_signal(&w);
    wait_as_another_task(&a, &b, AS_WAKEUP);
    a.wakeup = &w;
    check_refused_and_b_untouched(&a, &b);
    p.fd = w.fds[0];
    p.events = POLLIN;
    CHECK_EQ_INT(poll(&p, 1, 0), 1); /* the signal is still there */
    pt_wakeup_close(&w);
}
/* clang-format off: one case a line */
#define IO_WAIT_CASES(X)                                                                           \
    X(descriptor_wait_naming_another_task_is_einval)                                               \
    X(wakeup_wait_naming_another_task_is_einval)
/* clang-format on */
#else
#define IO_WAIT_CASES(X)
#endif

#if PT_CONFIG_CALLBACKS
/* A callback runs a task body by hand, while the loop runs: no task is
 * being resumed then. */
static void drive_by_hand(struct pt_loop *loop, void *arg) {
    struct dk *k = (struct dk *)arg;
    k->rc = sleeper(loop, &k->task);
}

static void test_sleep_in_a_body_driven_from_a_callback_is_einval(void) {
    struct dk a;
    struct pt_handle h;
    CHECKED_ONLY();
    setup(0);
    dk_init(&a);
    memset(&h, 0, sizeof h);
    a.ticks = 10;
    a.task.fn = sleeper;
    CHECK_EQ_INT(pt_call_soon(&lp, &h, drive_by_hand, &a), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.rc, PT_ENDED);
    CHECK_EQ_INT(a.result, PT_EINVAL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}
#define CALLBACK_WAIT_CASES(X) X(sleep_in_a_body_driven_from_a_callback_is_einval)
#else
#define CALLBACK_WAIT_CASES(X)
#endif

/* ---- names ---------------------------------------------------------------- */

static void test_a_task_has_no_name_until_given_one(void) {
    struct dk a;
    dk_init(&a);
    CHECK_EQ_STR(pt_task_name(&a.task), "");
    pt_task_set_name(&a.task, NULL);
    CHECK_EQ_STR(pt_task_name(&a.task), "");
}

/* Named before its spawn, renamed while it runs; a respawn keeps it. */
static void test_a_name_holds_across_spawns(void) {
    struct dk a;
    setup(0);
    dk_init(&a);
    pt_task_set_name(&a.task, "first");
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
#if PT_CONFIG_DEBUG
    CHECK_EQ_STR(pt_task_name(&a.task), "first");
#else
    CHECK_EQ_STR(pt_task_name(&a.task), ""); /* not kept without the mode */
#endif
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    pt_task_set_name(&a.task, "second");
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
#if PT_CONFIG_DEBUG
    CHECK_EQ_STR(pt_task_name(&a.task), "second");
#else
    CHECK_EQ_STR(pt_task_name(&a.task), "");
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ---- the walk --------------------------------------------------------------- */

#define SEEN_MAX 5
static struct pt_task_info seen[SEEN_MAX];
static int nseen;

static void collect(void *arg, const struct pt_task_info *in) {
    (void)arg;
    if (nseen < SEEN_MAX)
        seen[nseen++] = *in;
}

static int walk(struct pt_loop *l) {
    nseen = 0;
    return pt_loop_walk(l, collect, NULL);
}

#if PT_CONFIG_DEBUG
/* What the last walk said of k; NULL if it did not see it. */
static const struct pt_task_info *seen_of(const struct dk *k) {
    int i;
    for (i = 0; i < nseen; i++)
        if (seen[i].task == &k->task)
            return &seen[i];
    return NULL;
}

static void test_walk_visits_each_live_task_newest_first(void) {
    struct dk a, b, c;
    setup(0);
    dk_init(&a);
    dk_init(&b);
    dk_init(&c);
    CHECK_EQ_INT(walk(&lp), 0);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &c.task, sleeper), PT_OK);
    CHECK_EQ_INT(walk(&lp), 3);
    CHECK(seen[0].task == &c.task);
    CHECK(seen[1].task == &b.task);
    CHECK(seen[2].task == &a.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A sleeps 10, B 20: once A has finished, only B is seen; then none. */
static void test_walk_leaves_out_finished_tasks(void) {
    struct dk a, b;
    setup(0);
    dk_init(&a);
    dk_init(&b);
    a.ticks = 10;
    b.ticks = 20;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(walk(&lp), 1);
    CHECK(seen[0].task == &b.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(walk(&lp), 0);
}

static void test_walk_of_a_loop_gives_its_tasks_only(void) {
    struct dk a, b;
    setup(0);
    setup2();
    dk_init(&a);
    dk_init(&b);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp2, &b.task, sleeper), PT_OK);
    CHECK_EQ_INT(walk(&lp), 1);
    CHECK(seen[0].task == &a.task);
    CHECK_EQ_INT(walk(&lp2), 1);
    CHECK(seen[0].task == &b.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp2), PT_OK);
    pt_loop_close(&lp2);
}

/* A walks from its body: itself running, Y (yielded) queued, N (spawned by
 * A, not run yet) new. */
static PT_THREAD(walker(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_spawn(loop, &k->other->task, sleeper);
    k->rc2 = walk(loop);
    PT_TASK_END();
}

static void test_walk_gives_new_queued_and_running_tasks(void) {
    struct dk y, a, n;
    setup(0);
    dk_init(&y);
    dk_init(&a);
    dk_init(&n);
    y.yields = 1;
    a.other = &n;
    pt_task_set_name(&a.task, "walker");
    CHECK_EQ_INT(pt_loop_spawn(&lp, &y.task, yielder), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, walker), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.rc2, 3);
    CHECK(seen_of(&a) && seen_of(&y) && seen_of(&n));
    if (!seen_of(&a) || !seen_of(&y) || !seen_of(&n))
        return;
    CHECK_EQ_STR(seen_of(&a)->state, "running");
    CHECK_EQ_STR(seen_of(&a)->name, "walker");
    CHECK_EQ_STR(seen_of(&y)->state, "queued");
    CHECK_EQ_STR(seen_of(&n)->state, "new");
    CHECK_EQ_STR(seen_of(&n)->name, "");
    CHECK_EQ_STR(seen_of(&n)->waits_on, "");
    CHECK(seen_of(&n)->object == NULL);
}

/* Starting at 1000, A sleeps 50. */
static void test_walk_gives_a_sleep_and_its_deadline(void) {
    struct dk a;
    const struct pt_task_info *in;
    setup(1000);
    dk_init(&a);
    a.ticks = 50;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(walk(&lp), 1);
    in = &seen[0];
    CHECK_EQ_STR(in->state, "parked");
    CHECK_EQ_STR(in->waits_on, "sleep");
    CHECK(in->object == NULL);
    CHECK_EQ_INT(in->fd, -1);
    CHECK_EQ_INT(in->timed, 1);
    CHECK_EQ_INT(in->deadline, 1050);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* S sleeps 50; J joins it without a deadline, H shielded with one of 20. */
static void test_walk_gives_the_task_a_join_waits_for(void) {
    struct dk s, j, h;
    setup(0);
    dk_init(&s);
    dk_init(&j);
    dk_init(&h);
    s.ticks = 50;
    j.other = h.other = &s;
    j.ticks = PT_FOREVER;
    h.ticks = 20;
    h.shield = 1;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &s.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &j.task, joiner), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &h.task, joiner), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(walk(&lp), 3);
    CHECK_EQ_STR(seen_of(&j)->waits_on, "join");
    CHECK(seen_of(&j)->joins == &s.task);
    CHECK(seen_of(&j)->object == &s.task);
    CHECK_EQ_INT(seen_of(&j)->timed, 0);
    CHECK_EQ_STR(seen_of(&h)->waits_on, "shielded join");
    CHECK(seen_of(&h)->joins == &s.task);
    CHECK_EQ_INT(seen_of(&h)->timed, 1);
    CHECK_EQ_INT(seen_of(&h)->deadline, 20);
    CHECK(seen_of(&s)->joins == NULL);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* X sleeps 100 in its body and 5 in its cleanup; it is cancelled while
 * parked, then runs its cleanup; N is cancelled before it ever ran. */
static void test_walk_flags_cancelled_tasks_and_cleanups(void) {
    struct dk x, n;
    setup(0);
    dk_init(&x);
    dk_init(&n);
    x.ticks = 100;
    x.cleanup_ticks = 5;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &x.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &n.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_task_cancel(&lp, &x.task), PT_OK);
    CHECK_EQ_INT(pt_task_cancel(&lp, &n.task), PT_OK);
    CHECK_EQ_INT(walk(&lp), 2);
    CHECK_EQ_STR(seen_of(&x)->state, "queued");
    CHECK_EQ_INT(seen_of(&x)->cancelling, 1);
    CHECK_EQ_INT(seen_of(&x)->cleanup, 0);
    CHECK_EQ_STR(seen_of(&n)->state, "new");
    CHECK_EQ_INT(seen_of(&n)->cancelling, 1);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK); /* X's cleanup sleeps; N ends */
    CHECK_EQ_INT(walk(&lp), 1);
    CHECK_EQ_STR(seen_of(&x)->state, "parked");
    CHECK_EQ_STR(seen_of(&x)->waits_on, "sleep");
    CHECK_EQ_INT(seen_of(&x)->cancelling, 0);
    CHECK_EQ_INT(seen_of(&x)->cleanup, 1);
    CHECK_EQ_INT(seen_of(&x)->background, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(walk(&lp), 0);
}
#define WALK_CASES(X)                                                                              \
    X(walk_visits_each_live_task_newest_first)                                                     \
    X(walk_leaves_out_finished_tasks)                                                              \
    X(walk_of_a_loop_gives_its_tasks_only)                                                         \
    X(walk_gives_new_queued_and_running_tasks)                                                     \
    X(walk_gives_a_sleep_and_its_deadline)                                                         \
    X(walk_gives_the_task_a_join_waits_for)                                                        \
    X(walk_flags_cancelled_tasks_and_cleanups)

#if PT_CONFIG_BACKGROUND
static void test_walk_gives_background_tasks_flagged(void) {
    struct dk b;
    setup(0);
    dk_init(&b);
    b.ticks = 10;
    CHECK_EQ_INT(pt_loop_spawn_background(&lp, &b.task, sleeper), PT_OK);
    CHECK_EQ_INT(walk(&lp), 1);
    CHECK_EQ_INT(seen[0].background, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK); /* (cancelled: nothing else left) */
    CHECK_EQ_INT(walk(&lp), 0);
}
#define BACKGROUND_WALK_CASES(X) X(walk_gives_background_tasks_flagged)
#else
#define BACKGROUND_WALK_CASES(X)
#endif

#if PT_CONFIG_SYNC && !defined(__AVR__) /* (AVR: 32 KiB of flash; the other boards run them) */
struct syncs {
    struct pt_event ev;
    struct pt_semaphore sem;
    struct pt_lock lock;
    struct pt_queue q;
    pt_value slot, got;
};

/* Waits on one of `syncs` (by what: 0 event, 1 semaphore with timeout 30,
 * 2 lock, 3 queue). */
static struct syncs *sy;
static PT_THREAD(sync_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->what == 0)
        PT_EVENT_WAIT(&sy->ev, PT_FOREVER);
    else if (k->what == 1)
        PT_SEMAPHORE_ACQUIRE(&sy->sem, 30);
    else if (k->what == 2)
        PT_LOCK_ACQUIRE(&sy->lock, PT_FOREVER);
    else
        PT_QUEUE_GET(&sy->q, &sy->got, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* The walk while one task waits on each of the four objects, which this
 * file initialises or, with `elsewhere`, other_file.c does. */
static void walk_the_sync_waiters(int elsewhere) {
    struct syncs s;
    struct dk w[4], holder;
    int i;
    static const char *const kinds[4] = {"event, condition, barrier or writer", "semaphore", "lock",
                                         "queue"};
    const void *objects[4];
    setup(0);
    sy = &s;
    if (elsewhere) {
        other_file_init(&s.ev, &s.sem, &s.lock, &s.q, &s.slot);
    } else {
        pt_event_init(&s.ev);
        pt_semaphore_init(&s.sem, 0);
        pt_lock_init(&s.lock);
        pt_queue_init(&s.q, &s.slot, 1);
    }
    objects[0] = &s.ev;
    objects[1] = &s.sem;
    objects[2] = &s.lock;
    objects[3] = &s.q.getters;
    dk_init(&holder);
    CHECK_EQ_INT(pt_lock_try(&s.lock, &holder.task), 1);
    for (i = 0; i < 4; i++) {
        dk_init(&w[i]);
        w[i].what = i;
        CHECK_EQ_INT(pt_loop_spawn(&lp, &w[i].task, sync_waiter), PT_OK);
    }
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(walk(&lp), 4);
    for (i = 0; i < 4; i++) {
        const struct pt_task_info *in = seen_of(&w[i]);
        CHECK(in != NULL);
        if (!in)
            continue;
        CHECK_EQ_STR(in->state, "parked");
        CHECK(strcmp(in->waits_on, kinds[i]) == 0);
        CHECK(in->object == objects[i]);
        CHECK_EQ_INT(in->timed, i == 1);
    }
    CHECK_EQ_INT(seen_of(&w[1])->deadline, 30);
    /* Let them all go. */
    pt_event_set(&lp, &s.ev);
    pt_semaphore_release(&lp, &s.sem);
    CHECK_EQ_INT(pt_lock_release(&lp, &s.lock, &holder.task), PT_OK);
    CHECK_EQ_INT(pt_queue_try_put(&lp, &s.q, pt_value_int(1)), 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(walk(&lp), 0);
}

static void test_walk_gives_the_sync_object_waited_on(void) {
    walk_the_sync_waiters(0);
}

/* ... the same when the objects were initialised in another file. */
static void test_walk_names_sync_objects_initialised_in_another_file(void) {
    walk_the_sync_waiters(1);
}

/* pt_loop_run says PT_EBUSY: A waits on an event nobody sets, B joins A;
 * the walk says who is left, and on what. */
static void test_walk_after_run_is_ebusy_gives_the_stuck_tasks(void) {
    struct syncs s;
    struct dk a, b;
    setup(0);
    sy = &s;
    pt_event_init(&s.ev);
    dk_init(&a);
    dk_init(&b);
    a.what = 0;
    b.other = &a;
    b.ticks = PT_FOREVER;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sync_waiter), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b.task, joiner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(walk(&lp), 2);
    CHECK(seen[0].task == &b.task);
    CHECK_EQ_STR(seen[0].waits_on, "join");
    CHECK(seen[0].joins == &a.task);
    CHECK(seen[1].task == &a.task);
    CHECK(seen[1].object == &s.ev);
    pt_event_set(&lp, &s.ev);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}
#define SYNC_WALK_CASES(X)                                                                         \
    X(walk_gives_the_sync_object_waited_on)                                                        \
    X(walk_names_sync_objects_initialised_in_another_file)                                         \
    X(walk_after_run_is_ebusy_gives_the_stuck_tasks)
#else
#define SYNC_WALK_CASES(X)
#endif

#if PT_CONFIG_GROUPS
struct grouped {
    struct pt_group g, g2;
    struct pt_task *members[1], *members2[1], *next;
};
static struct grouped *gr;

/* Waits for group g (what 0) or for the next of g2 (what 1). */
static PT_THREAD(group_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->what == 0)
        PT_GROUP_WAIT(&gr->g, PT_FOREVER);
    else
        PT_GROUP_NEXT(&gr->g2, &gr->next, 25);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

static void test_walk_gives_the_group_waited_on(void) {
    struct grouped g;
    struct dk m, m2, w, n;
    setup(0);
    gr = &g;
    pt_group_init(&g.g, g.members, 1, PT_GROUP_COLLECT);
    pt_group_init(&g.g2, g.members2, 1, PT_GROUP_COLLECT);
    dk_init(&m);
    dk_init(&m2);
    dk_init(&w);
    dk_init(&n);
    m.ticks = m2.ticks = 10;
    n.what = 1;
    CHECK_EQ_INT(pt_group_spawn(&lp, &g.g, &m.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_group_spawn(&lp, &g.g2, &m2.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &w.task, group_waiter), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &n.task, group_waiter), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(walk(&lp), 4);
    CHECK_EQ_STR(seen_of(&w)->waits_on, "group");
    CHECK(seen_of(&w)->object == &g.g);
    CHECK_EQ_INT(seen_of(&w)->timed, 0);
    CHECK_EQ_STR(seen_of(&n)->waits_on, "next of group");
    CHECK(seen_of(&n)->object == &g.g2);
    CHECK_EQ_INT(seen_of(&n)->deadline, 25);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}
#define GROUP_WALK_CASES(X) X(walk_gives_the_group_waited_on)
#else
#define GROUP_WALK_CASES(X)
#endif

#if PT_CONFIG_IO
/* Waits until `fd` is readable, for at most `ticks`. */
static PT_THREAD(reader(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_IO_WAIT(&k->io, k->fd, PT_READABLE, k->ticks);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

static void test_walk_gives_the_descriptor_waited_on(void) {
    struct dk r;
    int p[2];
    setup(0);
    CHECK_EQ_INT(pipe(p), 0);
    dk_init(&r);
    r.fd = p[0];
    r.ticks = 30;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &r.task, reader), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(walk(&lp), 1);
    CHECK_EQ_STR(seen[0].waits_on, "descriptor");
    CHECK(seen[0].object == &r.io);
    CHECK_EQ_INT(seen[0].fd, p[0]);
    CHECK_EQ_INT(seen[0].events, PT_READABLE);
    CHECK_EQ_INT(seen[0].deadline, 30);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(r.result, PT_ETIMEDOUT);
    pt_io_close(&lp, p[0]);
    pt_io_close(&lp, p[1]);
}
#define IO_WALK_CASES(X) X(walk_gives_the_descriptor_waited_on)
#else
#define IO_WALK_CASES(X)
#endif

#else /* !PT_CONFIG_DEBUG */
static void test_walk_without_the_debug_mode_is_einval(void) {
    struct dk a;
    setup(0);
    dk_init(&a);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    CHECK_EQ_INT(walk(&lp), PT_EINVAL);
    CHECK_EQ_INT(nseen, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}
#define WALK_CASES(X) X(walk_without_the_debug_mode_is_einval)
#define BACKGROUND_WALK_CASES(X)
#define SYNC_WALK_CASES(X)
#define GROUP_WALK_CASES(X)
#define IO_WALK_CASES(X)
#endif

/* pt_task_describe, in every build: a task the caller holds. */
static void test_describe_gives_a_tasks_state_in_every_build(void) {
    struct dk a;
    struct pt_task_info in;
    setup(0);
    dk_init(&a);
    a.ticks = 10;
    pt_task_describe(&lp, &a.task, &in);
    CHECK_EQ_STR(in.state, "unspawned");
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, sleeper), PT_OK);
    pt_task_describe(&lp, &a.task, &in);
    CHECK_EQ_STR(in.state, "new");
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    pt_task_describe(&lp, &a.task, &in);
    CHECK_EQ_STR(in.state, "parked");
    CHECK_EQ_STR(in.waits_on, "sleep");
    CHECK_EQ_INT(in.deadline, 10);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_task_describe(&lp, &a.task, &in);
    CHECK_EQ_STR(in.state, "done");
}

/* (Not on the ATmega328P: the other cases fill its 32 KiB of flash; the
 * other boards run it.) */
#if !defined(__AVR__)
/* A wait inside a switch of the body's own: with the switch back end its
 * resume point is lost, the task fails with PT_ELOST, and the debug mode
 * names the task and the line of that wait (pt_task_describe); with the
 * addrlabels back end the switch works. */
static long lost_line; /* the wait's line, as the body noted it */
#define SLEEP_NOTING_LINE(ticks)                                                                   \
    do {                                                                                           \
        lost_line = __LINE__;                                                                      \
        PT_SLEEP(ticks);                                                                           \
    } while (0)

static PT_THREAD(switch_sleeper(struct pt_loop *loop, struct pt_task *task)) {
    struct dk *k = (struct dk *)task;
    PT_TASK_BEGIN(loop, task);
    switch (k->what + 30000) { /* (a case no resume point's number takes) */
    case 30000:
        SLEEP_NOTING_LINE(k->ticks);
        k->runs++;
        break;
    }
    PT_TASK_END();
}

static void test_lost_resume_point_names_the_task_and_the_line(void) {
    struct dk a;
    struct pt_task_info in;
    setup(0);
    dk_init(&a);
    a.ticks = 1;
    pt_task_set_name(&a.task, "lost");
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, switch_sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_task_describe(&lp, &a.task, &in);
#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
    CHECK_EQ_INT(pt_task_error(&a.task), 0);
    CHECK_EQ_INT(a.runs, 1);
#else
    CHECK_EQ_INT(pt_task_error(&a.task), PT_ELOST);
    CHECK_EQ_INT(a.runs, 0);
#endif
#if PT_CONFIG_DEBUG
    CHECK_EQ_STR(in.name, "lost");
    CHECK_EQ_INT(in.line, lost_line);
#else
    CHECK_EQ_INT(in.line, 0);
#endif
}
#define LOST_CASES(X) X(lost_resume_point_names_the_task_and_the_line)
#else
#define LOST_CASES(X)
#endif

#if PT_CONFIG_SYNC && !PT_CONFIG_DEBUG
/* pt_task_describe without the debug mode: a waiter of a semaphore is not
 * described as one of a barrier (an event's kind). The object's name is
 * not kept, but whether its list gives back what it granted (a semaphore,
 * a lock, a queue) is. (With it, the walk cases give the exact names.) */
static void test_describe_without_the_debug_mode_tells_a_semaphore_from_a_barrier(void) {
    struct pt_semaphore sem;
    struct pt_barrier bar;
    struct dk a, b;
    struct pt_task_info in;
    setup(0);
    pt_semaphore_init(&sem, 0);
    pt_barrier_init(&bar, 2);
    dk_init(&a);
    a.what = AS_SEM;
    a.sem = &sem;
    a.other = &a;
    dk_init(&b);
    b.what = AS_BARRIER;
    b.barrier = &bar;
    b.other = &b;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, waits_as_other), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &b.task, waits_as_other), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    pt_task_describe(&lp, &a.task, &in);
    CHECK_EQ_STR(in.state, "parked");
    CHECK_EQ_STR(in.waits_on, "semaphore, lock or queue");
    CHECK(in.object == &sem);
    pt_task_describe(&lp, &b.task, &in);
    CHECK_EQ_STR(in.state, "parked");
    CHECK_EQ_STR(in.waits_on, "event, condition, barrier or writer");
    CHECK(in.object == &bar);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_task_cancel(&lp, &b.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK(pt_task_done(&b.task));
}
#define SYNC_DESCRIBE_CASES(X) X(describe_without_the_debug_mode_tells_a_semaphore_from_a_barrier)
#else
#define SYNC_DESCRIBE_CASES(X)
#endif

/* ---- the printers (a host's) ------------------------------------------------- */

#if PT_CONFIG_POSIX
/* What f holds, from its start (into trace.buf). */
static const char *contents(FILE *f) {
    size_t n;
    rewind(f);
    n = fread(trace.buf, 1, sizeof trace.buf - 1, f);
    trace.buf[n] = '\0';
    fclose(f);
    return trace.buf;
}

#if PT_CONFIG_DEBUG
/* S ("sleeper") sleeps 50, J ("joiner") joins it, U (unnamed) yields. */
static void test_dump_prints_a_line_per_task(void) {
    struct dk s, j, u;
    char want[400];
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    setup(0);
    dk_init(&s);
    dk_init(&j);
    dk_init(&u);
    s.ticks = 50;
    j.other = &s;
    j.ticks = PT_FOREVER;
    u.yields = 1;
    pt_task_set_name(&s.task, "sleeper");
    pt_task_set_name(&j.task, "joiner");
    CHECK_EQ_INT(pt_loop_spawn(&lp, &s.task, sleeper), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &j.task, joiner), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &u.task, yielder), PT_OK);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(pt_loop_dump(&lp, f), 3);
    snprintf(want, sizeof want,
             "ptloop: live tasks at loop time 0, newest first:\n"
             "  task %p: queued\n"
             "  \"joiner\" %p: parked on join of \"sleeper\" %p, no deadline\n"
             "  \"sleeper\" %p: parked on sleep, until 50 (in 50)\n",
             (void *)&u.task, (void *)&j.task, (void *)&s.task, (void *)&s.task);
    CHECK(strcmp(contents(f), want) == 0);
    if (strcmp(trace.buf, want) != 0)
        printf("# got:\n%s# want:\n%s", trace.buf, want);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_dump_of_a_loop_without_tasks_says_none(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    setup(7);
    CHECK_EQ_INT(pt_loop_dump(&lp, f), 0);
    CHECK_EQ_STR(contents(f), "ptloop: live tasks at loop time 7, newest first:\n  (none)\n");
}
#define DUMP_CASES(X) X(dump_prints_a_line_per_task) X(dump_of_a_loop_without_tasks_says_none)
#else
static void test_dump_without_the_debug_mode_says_why(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    setup(0);
    CHECK_EQ_INT(pt_loop_dump(&lp, f), PT_EINVAL);
    CHECK_EQ_STR(contents(f),
                 "ptloop: no task list: build with PT_CONFIG_DEBUG=1 (loop/debug.h)\n");
}
#define DUMP_CASES(X) X(dump_without_the_debug_mode_says_why)
#endif
#else
#define DUMP_CASES(X)
#endif

/* ---- slow resumes ------------------------------------------------------------ */

struct slow_seen {
    int calls;
    struct pt_loop *loop;
    const struct pt_task *task;
    uint32_t us;
};

static void on_slow(void *arg, struct pt_loop *l, const struct pt_task *t, uint32_t us) {
    struct slow_seen *s = (struct slow_seen *)arg;
    s->calls++;
    s->loop = l;
    s->task = t;
    s->us = us;
}

/* A burns burn_us in each of its 1 + yields resumes, the clock starting
 * at `start`; `threshold` (unless 0) is set before the run, and by task S
 * to `later` (unless 0) in the first iteration, after A's first resume. */
static void burn(struct dk *a, struct slow_seen *s, uint32_t start, uint32_t burn_us, int yields,
                 uint32_t threshold, uint32_t later) {
    struct dk setter;
    setup(0);
    dk_init(a);
    dk_init(&setter);
    memset(s, 0, sizeof *s);
    test_clock_us = start;
    test_clock_reads = 0;
    a->burn_us = burn_us;
    a->yields = yields;
    pt_loop_set_slow_callback(&lp, on_slow, s);
    if (threshold)
        pt_loop_set_slow_duration(&lp, threshold);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a->task, burner), PT_OK);
#if PT_CONFIG_DEBUG
    setter.burn_us = later;
    if (later)
        CHECK_EQ_INT(pt_loop_spawn(&lp, &setter.task, threshold_setter), PT_OK);
#else
    (void)later;
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a->runs, 1 + yields);
}

#if PT_CONFIG_DEBUG
static void test_a_resume_longer_than_100_ms_is_reported(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 100001, 0, 0, 0);
    CHECK_EQ_INT(s.calls, 1);
    CHECK(s.loop == &lp);
    CHECK(s.task == &a.task);
    CHECK_EQ_INT(s.us, 100001);
}

static void test_a_resume_of_100_ms_or_less_is_not_reported(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 100000, 0, 0, 0);
    CHECK_EQ_INT(s.calls, 0);
    CHECK_EQ_INT(test_clock_reads, 2); /* it was timed */
}

/* Two resumes of 60 ms each: neither is slow, whatever their sum. */
static void test_each_resume_is_timed_on_its_own(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 60000, 1, 0, 0);
    CHECK_EQ_INT(s.calls, 0);
    CHECK_EQ_INT(test_clock_reads, 4);
}

static void test_the_threshold_is_set_per_loop_before_a_run(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 1500, 0, 1000, 0);
    CHECK_EQ_INT(s.calls, 1);
    CHECK_EQ_INT(s.us, 1500);
}

/* Two resumes of 1.5 ms; between them another task sets the threshold to
 * 1 ms: the second is slow. */
static void test_the_threshold_is_set_at_run_time(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 1500, 1, 0, 1000);
    CHECK_EQ_INT(s.calls, 1);
    CHECK(s.task == &a.task);
    CHECK_EQ_INT(s.us, 1500);
}

static void test_a_resume_across_the_clocks_wrap_is_timed_right(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0xFFFFFFF0u, 200000, 0, 0, 0);
    CHECK_EQ_INT(s.calls, 1);
    CHECK_EQ_INT(s.us, 200000);
}

static void test_no_resume_is_timed_without_a_callback(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 200000, 0, 0, 0);
    CHECK_EQ_INT(s.calls, 1); /* (the callback was there) */
    setup(0);
    dk_init(&a);
    test_clock_reads = 0;
    a.burn_us = 200000;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, burner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(test_clock_reads, 0);
}
#define SLOW_CASES(X)                                                                              \
    X(a_resume_longer_than_100_ms_is_reported)                                                     \
    X(a_resume_of_100_ms_or_less_is_not_reported)                                                  \
    X(each_resume_is_timed_on_its_own)                                                             \
    X(the_threshold_is_set_per_loop_before_a_run)                                                  \
    X(the_threshold_is_set_at_run_time)                                                            \
    X(a_resume_across_the_clocks_wrap_is_timed_right)                                              \
    X(no_resume_is_timed_without_a_callback)

#if PT_CONFIG_POSIX
static void test_slow_print_names_the_task_its_time_and_the_loop_time(void) {
    struct dk a;
    char want[160];
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    setup(42);
    dk_init(&a);
    a.burn_us = 150250;
    pt_task_set_name(&a.task, "worker");
    pt_loop_set_slow_callback(&lp, pt_slow_print, f);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &a.task, burner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    snprintf(want, sizeof want,
             "ptloop: slow resume of \"worker\" %p: 150.250 ms at loop time 42\n", (void *)&a.task);
    CHECK(strcmp(contents(f), want) == 0);
    if (strcmp(trace.buf, want) != 0)
        printf("# got:  %s# want: %s", trace.buf, want);
}
#define SLOW_PRINT_CASES(X) X(slow_print_names_the_task_its_time_and_the_loop_time)
#else
#define SLOW_PRINT_CASES(X)
#endif

#else /* !PT_CONFIG_DEBUG */
static void test_no_resume_is_timed_without_the_debug_mode(void) {
    struct dk a;
    struct slow_seen s;
    burn(&a, &s, 0, 200000, 0, 1, 0);
    CHECK_EQ_INT(s.calls, 0);
    CHECK_EQ_INT(test_clock_reads, 0);
}
#define SLOW_CASES(X) X(no_resume_is_timed_without_the_debug_mode)
#define SLOW_PRINT_CASES(X)
#endif

#define TEST_CASES(X)                                                                              \
    X(spawn_of_an_alive_task_is_ebusy_and_loses_nothing)                                           \
    X(cancel_of_a_task_of_another_loop_is_einval)                                                  \
    X(join_of_a_task_of_another_loop_is_einval)                                                    \
    X(shielded_join_of_a_task_of_another_loop_is_einval)                                           \
    X(join_of_a_finished_task_of_another_loop_is_einval)                                           \
    X(sleep_in_a_body_driven_by_hand_is_einval)                                                    \
    X(sleep_naming_another_task_is_einval)                                                         \
    X(join_naming_another_task_is_einval)                                                          \
    SYNC_WAIT_CASES(X)                                                                             \
    IO_WAIT_CASES(X)                                                                               \
    CALLBACK_WAIT_CASES(X)                                                                         \
    X(a_task_has_no_name_until_given_one)                                                          \
    LOST_CASES(X)                                                                                  \
    X(a_name_holds_across_spawns)                                                                  \
    WALK_CASES(X)                                                                                  \
    BACKGROUND_WALK_CASES(X)                                                                       \
    SYNC_WALK_CASES(X)                                                                             \
    GROUP_WALK_CASES(X)                                                                            \
    IO_WALK_CASES(X)                                                                               \
    X(describe_gives_a_tasks_state_in_every_build)                                                 \
    SYNC_DESCRIBE_CASES(X)                                                                         \
    DUMP_CASES(X)                                                                                  \
    SLOW_CASES(X)                                                                                  \
    SLOW_PRINT_CASES(X)
TEST_MAIN(TEST_CASES)
