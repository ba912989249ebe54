/*
 * tests/test_loop_run.c - how pt_loop_run ends when background tasks are
 * left (loop/core.h): it cancels them, and whatever their cleanups start
 * is run or cancelled in turn; anything that cannot finish is reported.
 * On the virtual clock.
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
        k->rc = k->background ? pt_spawn_background(loop, &k->spawn->task, body)
                              : pt_spawn(loop, &k->spawn->task, work);
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
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg->task, body), PT_OK);
    CHECK_EQ_INT(pt_spawn(&lp, &fg->task, work), PT_OK);
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
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg->task, body), PT_OK);
    CHECK_EQ_INT(pt_spawn(&lp, &fg->task, work), PT_OK);
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
    CHECK_EQ_INT(pt_spawn(&lp, &fg_task, yield_once), PT_OK);
    CHECK_EQ_INT(pt_spawn_background(&lp, &dmn.task, daemon), PT_OK);
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
    X(background_task_parked_on_a_lock_is_cleaned_up)
/* clang-format on */
TEST_MAIN(TEST_CASES)
