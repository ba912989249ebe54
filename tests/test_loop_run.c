/*
 * tests/test_loop_run.c - how pt_loop_run ends when background tasks are
 * left (loop/core.h): it cancels them, and whatever their cleanups start
 * is run or cancelled in turn; anything that cannot finish is reported.
 * On the virtual clock.
 */
#include "loop/loop.h"

#include "check.h"
#include "loop_util.h"

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

/* A background task's cleanup, run by the final cancel, spawns a task:
 * the run goes on until that task has finished too. */
static void test_cleanup_spawns_task(void) {
    struct tk bg, fg, late;
    setup(0);
    tk_init(&bg, "bg", 3);
    tk_init(&fg, "fg", 10);
    tk_init(&late, "late", 5);
    bg.spawn = &late;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, body), PT_OK);
    CHECK_EQ_INT(pt_spawn(&lp, &fg.task, work), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.rc, PT_OK);
    CHECK_EQ_INT(late.runs, 1);
    CHECK(pt_task_done(&late.task));
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(since(0), 15);
    CHECK_EQ_STR(trace.buf, "fg bg-1 late ");
}

/* ... spawns a background task: that one is cancelled in turn (its body
 * never runs: it had not started). */
static void test_cleanup_spawns_background(void) {
    struct tk bg, fg, late;
    setup(0);
    tk_init(&bg, "bg", 3);
    tk_init(&fg, "fg", 10);
    tk_init(&late, "late", 2);
    bg.spawn = &late;
    bg.background = 1;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, body), PT_OK);
    CHECK_EQ_INT(pt_spawn(&lp, &fg.task, work), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(bg.rc, PT_OK);
    CHECK_EQ_INT(late.runs, 0);
    CHECK_EQ_INT(pt_task_status(&late.task), PT_CLOSED);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_INT(since(0), 10);
}

/* ... waits on an event nobody will set: reported (PT_EBUSY), as any task
 * left waiting is. */
static void test_cleanup_never_ends(void) {
    struct pt_event ev;
    struct tk bg, fg;
    setup(0);
    pt_event_init(&ev);
    tk_init(&bg, "bg", 3);
    tk_init(&fg, "fg", 10);
    bg.ev = &ev;
    CHECK_EQ_INT(pt_spawn_background(&lp, &bg.task, body), PT_OK);
    CHECK_EQ_INT(pt_spawn(&lp, &fg.task, work), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK_EQ_INT(bg.cleanups, 1);
    CHECK(!pt_task_done(&bg.task));
    /* Set it: the next run lets the cleanup finish. */
    pt_event_set(&lp, &ev);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(pt_task_done(&bg.task));
}

int main(void) {
    test_cleanup_spawns_task();
    test_cleanup_spawns_background();
    test_cleanup_never_ends();
    return CHECK_DONE();
}
