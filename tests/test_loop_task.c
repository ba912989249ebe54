/*
 * tests/test_loop_task.c - the contract of tasks (loop/core.h): join and
 * its results, join with a timeout (asyncio's wait_for), cancellation in
 * every kind of wait, and sub-coroutines (PT_SUB_BEGIN / PT_AWAIT) waiting
 * on the loop. On the virtual clock. Also built with PT_LOOP_SYNC,
 * PT_LOOP_GROUPS and PT_LOOP_BACKGROUND 0, without the sync objects' part.
 */
#include "loop/loop.h"

#include "check.h"
#include "loop_util.h"

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int n;                   /* what to return (a negative n: fail with it) */
    pt_time_t ticks;         /* a delay */
    pt_time_t timeout;       /* of a join */
    pt_time_t cleanup_ticks; /* how long its cleanup sleeps */
    long woke_at;            /* loop time after the wait (-1: never) */
    long cleaned_at;         /* loop time its cleanup ran at (-1: never) */
    int result;              /* the result of the wait */
    int cleanup_result;      /* the wait result seen in the cleanup section */
    int runs, cleanups, rc, rc2;
    pt_value got; /* the joined task's value, or a sub's result */
    struct tk *other;
    struct pt_event *ev;
    struct pt_semaphore *sem;
    struct pt_queue *q;
    pt_value item;
    struct pt_gen sub, sub2;
    int sub_result, sub_cleanups, sub2_cleanups;
};

static void tk_init(struct tk *k, const char *name) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->woke_at = -1;
    k->cleaned_at = -1;
    k->result = 99;
    k->cleanup_result = 99;
    k->sub_result = 99;
    k->rc = k->rc2 = 99;
}

static void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_spawn(&lp, &k->task, fn), PT_OK);
}

/* A fresh loop starting at `start` where task A (joiner) joins task B
 * (worker) with `timeout`. Spawning only queues them: the caller sets B's
 * (or A's) other fields afterwards, before running the loop. */
static void join_pair(struct tk *a, struct tk *b, pt_time_t start, pt_time_t timeout);

/* The common end of every body: note the cleanup, maybe sleep in it. */
#define CLEANUP_SECTION(k)                                                                         \
    PT_TASK_CLEANUP();                                                                             \
    (k)->cleanups++;                                                                               \
    (k)->cleanup_result = PT_WAIT_RESULT();                                                        \
    (k)->cleaned_at = (long)pt_loop_now(loop);                                                     \
    note_n((k)->name, -(long)(k)->cleanups); /* "B-1": B's first cleanup */                        \
    if ((k)->cleanup_ticks)                                                                        \
        PT_SLEEP((k)->cleanup_ticks);                                                              \
    PT_TASK_END()

/* ---- bodies ------------------------------------------------------------- */

/* Sleeps `ticks`, then returns n (or fails with it if negative). */
static PT_THREAD(worker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_SLEEP(k->ticks);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    if (k->n < 0)
        PT_TASK_FAIL(pt_int(k->n));
    PT_TASK_RETURN(pt_int(k->n));
    CLEANUP_SECTION(k);
}

/* Joins `other` with `timeout`; then returns what the join gave. */
static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    k->got = k->other->task.gen.value;
    note(k->name);
    PT_TASK_RETURN(pt_int(k->result));
    CLEANUP_SECTION(k);
}

static void join_pair(struct tk *a, struct tk *b, pt_time_t start, pt_time_t timeout) {
    setup(start);
    tk_init(a, "A");
    tk_init(b, "B");
    a->other = b;
    a->timeout = timeout;
    spawn(b, worker);
    spawn(a, joiner);
}

/* Sleeps `ticks`, then cancels `other` (rc: what pt_cancel said; rc2: a
 * second pt_cancel at once). */
static PT_THREAD(canceller(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(k->ticks);
    k->rc = pt_cancel(loop, &k->other->task);
    k->rc2 = pt_cancel(loop, &k->other->task);
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_END();
}

/* Spawns `other` (a worker), then joins it with `timeout`. */
static PT_THREAD(spawn_join(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_spawn(loop, &k->other->task, worker);
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    CLEANUP_SECTION(k);
}

/* ---- join ----------------------------------------------------------------- */

static void test_join_result(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.ticks = 10;
    b.n = 42;
    a.other = &b;
    a.timeout = PT_FOREVER;
    spawn(&a, joiner);
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 42);
    CHECK_EQ_INT(b.task.gen.value.i, 42);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_ENDED);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");

    /* A join with a timeout that does not pass: the timer goes at once. */
    join_pair(&a, &b, 0, 1000);
    b.ticks = 10;
    b.n = 7;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 7);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(since(0), 10); /* no jump to the join's deadline */
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

static void test_join_failed(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.ticks = 10;
    b.n = -7;
    a.other = &b;
    a.timeout = PT_FOREVER;
    spawn(&a, joiner);
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_EFAILED);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_EXITED);
    CHECK_EQ_INT(b.cleanups, 1);
    /* The error value it failed with is its result. */
    CHECK_EQ_INT(b.task.gen.value.i, -7);
    CHECK_EQ_INT(a.got.i, -7);
}

static void test_join_cancelled(void) {
    struct tk a, b, x;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&x, "X");
    b.ticks = 100;
    a.other = &b;
    a.timeout = PT_FOREVER;
    x.ticks = 10;
    x.other = &b;
    spawn(&a, joiner);
    spawn(&b, worker);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(x.rc2, PT_EINVAL); /* cancel twice */
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_STR(trace.buf, "X B-1 A A-1 ");
    CHECK_EQ_INT(since(0), 10);
}

/* Joining a task that has finished: its outcome at once, no stop. */
static void test_join_finished(void) {
    struct tk a, b;
    static const int outcomes[3] = {5, -5, 0};
    static const int expect[3] = {PT_OK, PT_EFAILED, PT_ECANCELLED};
    int i;
    for (i = 0; i < 3; i++) {
        setup(0);
        tk_init(&a, "A");
        tk_init(&b, "B");
        b.n = outcomes[i];
        spawn(&b, worker);
        if (i == 2)
            CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_OK);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK(pt_task_done(&b.task));
        a.other = &b;
        a.timeout = PT_FOREVER;
        spawn(&a, joiner);
        pt_loop_run_once(&lp, 0);
        CHECK(pt_task_done(&a.task)); /* all in its first turn */
        CHECK_EQ_INT(a.result, expect[i]);
        CHECK_EQ_INT(a.got.i, i == 2 ? 0 : outcomes[i]);
        if (i == 2)
            CHECK_EQ_STR(trace.buf, "A A-1 ");
        else
            CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
    }
}

/* A second joiner, a join of itself: PT_EBUSY, and no stop. */
static PT_THREAD(self_joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->rc = pt_cancel(loop, task); /* nor can it cancel itself */
    PT_TASK_END();
}

static void test_join_busy(void) {
    struct tk a, a2, b, s;
    setup(0);
    tk_init(&a, "A");
    tk_init(&a2, "D");
    tk_init(&b, "B");
    tk_init(&s, "S");
    b.ticks = 10;
    b.n = 3;
    a.other = a2.other = &b;
    a.timeout = a2.timeout = PT_FOREVER;
    spawn(&a, joiner);
    spawn(&a2, joiner);
    spawn(&b, worker);
    spawn(&s, self_joiner);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a2.result, PT_EBUSY);
    CHECK_EQ_INT(a2.woke_at, 0);
    CHECK_EQ_INT(a.result, 99); /* the first is still waiting */
    CHECK_EQ_INT(s.result, PT_EBUSY);
    CHECK_EQ_INT(s.rc, PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 3);
    CHECK_EQ_INT(pt_task_status(&s.task), PT_ENDED);
}

/* ---- join with a timeout (wait_for) ----------------------------------------- */

static void test_join_timeout(void) {
    struct tk a, b;
    /* The awaited task is cancelled, its cleanup runs, then the joiner
     * sees PT_ETIMEDOUT. */
    join_pair(&a, &b, 0, 30);
    b.ticks = 100;
    b.n = 1;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 30);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.cleaned_at, 30);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "B-1 A A-1 ");
    CHECK_EQ_INT(since(0), 30);

    /* Its cleanup takes 5 ticks: the joiner returns once it is done. */
    join_pair(&a, &b, 0, 30);
    b.ticks = 100;
    b.cleanup_ticks = 5;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 35);
    CHECK_EQ_INT(b.cleaned_at, 30);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
}

static void test_join_timeout_zero(void) {
    struct tk a, b;
    /* A zero timeout on a task still running: timed out at once (at the
     * next iteration, at the same time), the task cancelled. */
    join_pair(&a, &b, 0, 0);
    b.ticks = 10;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 0);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(since(0), 0);

    /* ... on a task that has not started yet: it never runs. */
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    a.other = &b;
    a.timeout = 0;
    spawn(&a, spawn_join);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.rc, PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);

    /* ... and on a task that has finished: its result, at once. */
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.n = 9;
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    a.other = &b;
    a.timeout = 0;
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 9);
}

/* The deadline passes in the same iteration as another task cancels the
 * awaited one: the timeout (processed first) wins, the cancel finds the
 * task already being cancelled, the cleanup runs once. */
static void test_join_timeout_cancel_race(void) {
    struct tk a, b, x;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&x, "X");
    b.ticks = 100;
    a.other = &b;
    a.timeout = 30;
    x.ticks = 30;
    x.other = &b;
    spawn(&x, canceller);
    spawn(&b, worker);
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.woke_at, 30);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 30);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);

    /* The cancel one tick before the deadline: the joiner sees the
     * cancellation, and its own timer is gone. */
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&x, "X");
    b.ticks = 100;
    a.other = &b;
    a.timeout = 30;
    x.ticks = 29;
    x.other = &b;
    spawn(&x, canceller);
    spawn(&b, worker);
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_INT(a.woke_at, 29);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(since(0), 29);

    /* The awaited task's own timer fires in the same iteration as the
     * deadline: it had not run yet, so the timeout still wins. */
    join_pair(&a, &b, 0, 30);
    b.ticks = 30;
    b.n = 4;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.woke_at, -1);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);

    /* One tick earlier and it finished first. */
    join_pair(&a, &b, 0, 30);
    b.ticks = 29;
    b.n = 4;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 4);
    CHECK_EQ_INT(since(0), 29);
}

/* Joins `other` with `timeout`; its cleanup cancels `other` and waits for
 * it (so a cancel of this task reaches the one it awaits). */
static PT_THREAD(joiner_propagating(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_RETURN(pt_int(k->result));
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    k->cleaned_at = (long)pt_loop_now(loop);
    if (pt_cancel(loop, &k->other->task) == PT_OK) {
        PT_JOIN(&k->other->task, PT_FOREVER);
        k->rc = PT_WAIT_RESULT();
    }
    note_n(k->name, -1);
    PT_TASK_END();
}

/* Nested timeouts: A joins B with a timeout, B joins C with another. */
static void test_join_nested_timeouts(void) {
    struct tk a, b, c;
    /* The inner one first: B times out at 50, C is cancelled; B goes on
     * and returns; A sees B's result. */
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&c, "C");
    c.ticks = 1000;
    b.other = &c;
    b.timeout = 50;
    a.other = &b;
    a.timeout = 100;
    spawn(&a, joiner);
    spawn(&b, joiner);
    spawn(&c, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.woke_at, 50);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 50);
    CHECK_EQ_INT(c.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&c.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "C-1 B B-1 A A-1 ");
    CHECK_EQ_INT(since(0), 50);

    /* The outer one first: A times out at 50 and cancels B; B's cleanup
     * cancels C and waits for it; then A sees PT_ETIMEDOUT. */
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&c, "C");
    c.ticks = 1000;
    b.other = &c;
    b.timeout = 100;
    a.other = &b;
    a.timeout = 50;
    spawn(&a, joiner);
    spawn(&b, joiner_propagating);
    spawn(&c, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 50);
    CHECK_EQ_INT(b.result, 99); /* B's join never returned */
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.rc, PT_ECANCELLED);
    CHECK_EQ_INT(c.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&c.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "C-1 B-1 A A-1 ");
    CHECK_EQ_INT(since(0), 50);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* ---- cancellation ----------------------------------------------------------- */

#if PT_LOOP_SYNC
/* Waits on its event, semaphore or queue (whichever is set), no timeout. */
static PT_THREAD(sync_waiter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->runs++;
    if (k->ev)
        PT_EVENT_WAIT(k->ev, PT_FOREVER);
    else if (k->sem)
        PT_SEMAPHORE_ACQUIRE(k->sem, PT_FOREVER);
    else
        PT_QUEUE_GET(k->q, &k->item, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    CLEANUP_SECTION(k);
}

/* Cancel a task waiting on an event, a semaphore, a queue: it leaves the
 * waiter list at once (what is signalled afterwards goes to the others),
 * its cleanup runs once, a joiner sees PT_ECANCELLED. */
static void test_cancel_waiting_sync(void) {
    struct pt_event ev;
    struct pt_semaphore sem;
    struct pt_queue q;
    pt_value slots[2];
    struct tk w1, w2, w3, j;
    int kind;
    for (kind = 0; kind < 3; kind++) {
        setup(0);
        pt_event_init(&ev);
        pt_semaphore_init(&sem, 0);
        pt_queue_init(&q, slots, 2);
        tk_init(&w1, "W");
        tk_init(&w2, "V");
        tk_init(&w3, "U");
        tk_init(&j, "J");
        w1.ev = w2.ev = w3.ev = kind == 0 ? &ev : NULL;
        w1.sem = w2.sem = w3.sem = kind == 1 ? &sem : NULL;
        w1.q = w2.q = w3.q = &q;
        j.other = &w2;
        j.timeout = PT_FOREVER;
        spawn(&w1, sync_waiter);
        spawn(&w2, sync_waiter);
        spawn(&w3, sync_waiter);
        spawn(&j, joiner);
        pt_loop_run_once(&lp, 0);
        CHECK_EQ_INT(pt_cancel(&lp, &w2.task), PT_OK);
        CHECK_EQ_INT(pt_cancel(&lp, &w2.task), PT_EINVAL);
        pt_loop_run_once(&lp, 0);
        CHECK_EQ_INT(w2.cleanups, 1);
        CHECK_EQ_INT(w2.cleanup_result, PT_ECANCELLED);
        CHECK_EQ_INT(pt_task_status(&w2.task), PT_CLOSED);
        /* Signal twice: exactly the two others get it. */
        if (kind == 0) {
            pt_event_set(&lp, &ev);
        } else if (kind == 1) {
            pt_semaphore_release(&lp, &sem);
            pt_semaphore_release(&lp, &sem);
        } else {
            CHECK(pt_queue_try_put(&lp, &q, pt_int(11)));
            CHECK(pt_queue_try_put(&lp, &q, pt_int(12)));
        }
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(j.result, PT_ECANCELLED);
        CHECK_EQ_INT(w1.result, PT_OK);
        CHECK_EQ_INT(w3.result, PT_OK);
        CHECK_EQ_INT(w2.result, 99);
        CHECK_EQ_STR(trace.buf, "V-1 J J-1 W W-1 U U-1 ");
        if (kind == 1)
            CHECK_EQ_INT(sem.count, 0);
        if (kind == 2) {
            CHECK_EQ_INT(w1.item.i, 11);
            CHECK_EQ_INT(w3.item.i, 12);
            CHECK_EQ_INT(w2.item.i, 0);
            CHECK_EQ_INT(q.count, 0);
        }
    }
}
#endif

/* A sub-coroutine that sleeps `ticks`, then returns 7; and one that awaits
 * it (two levels). */
static PT_THREAD(sub_sleep(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    note("s2");
    PT_SLEEP(k->ticks);
    k->sub_result = PT_WAIT_RESULT();
    PT_TASK_RETURN(pt_int(7));
    PT_TASK_CLEANUP();
    k->sub2_cleanups++;
    note("s2-c");
    PT_SUB_END();
}

static PT_THREAD(sub_outer(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    note("s1");
    PT_AWAIT(g, &k->sub2, sub_sleep(loop, task, &k->sub2));
    PT_TASK_RETURN(pt_int(k->sub2.value.i * 10));
    PT_TASK_CLEANUP();
    k->sub_cleanups++;
    note("s1-c");
    PT_SUB_END();
}

/* Awaits sub_outer (or sub_sleep directly if n == 1); keeps its result. */
static PT_THREAD(sub_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->n == 1)
        PT_AWAIT(&task->gen, &k->sub, sub_sleep(loop, task, &k->sub));
    else
        PT_AWAIT(&task->gen, &k->sub, sub_outer(loop, task, &k->sub));
    k->got = k->sub.value;
    k->woke_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_RETURN(k->got);
    CLEANUP_SECTION(k);
}

static void test_sub_coroutines(void) {
    struct tk a, j, x;
    int depth;
    /* Run to the end: the results travel up. */
    setup(0);
    tk_init(&a, "T");
    a.ticks = 10;
    spawn(&a, sub_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.sub_result, PT_OK);
    CHECK_EQ_INT(a.got.i, 70);
    CHECK_EQ_INT(a.task.gen.value.i, 70);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_STR(trace.buf, "s1 s2 s2-c s1-c T T-1 ");

    /* Cancelled while the innermost sleeps: every cleanup runs once,
     * innermost first; the timer is gone at once; a joiner sees it. */
    for (depth = 1; depth <= 2; depth++) {
        setup(0);
        tk_init(&a, "T");
        tk_init(&j, "J");
        tk_init(&x, "X");
        a.n = depth == 1 ? 1 : 0;
        a.ticks = 100;
        x.ticks = 10;
        x.other = &a;
        j.other = &a;
        j.timeout = PT_FOREVER;
        spawn(&a, sub_task);
        spawn(&j, joiner);
        spawn(&x, canceller);
        pt_loop_run_once(&lp, 1);
        CHECK_EQ_INT(pt_loop_timers(&lp), 2);
        pt_loop_run_once(&lp, 1);
        CHECK_EQ_INT(x.rc, PT_OK);
        CHECK_EQ_INT(x.rc2, PT_EINVAL);
        CHECK_EQ_INT(pt_loop_timers(&lp), 0);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(a.sub2_cleanups, 1);
        CHECK_EQ_INT(a.sub_cleanups, depth == 1 ? 0 : 1);
        CHECK_EQ_INT(a.cleanups, 1);
        CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
        CHECK_EQ_INT(a.sub_result, 99); /* the sleep never ended */
        CHECK_EQ_INT(a.woke_at, -1);
        CHECK_EQ_INT(j.result, PT_ECANCELLED);
        CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
        if (depth == 1)
            CHECK_EQ_STR(trace.buf, "s2 X s2-c T-1 J J-1 ");
        else
            CHECK_EQ_STR(trace.buf, "s1 s2 X s2-c s1-c T-1 J J-1 ");
        CHECK_EQ_INT(since(0), 10);
    }
}

/* A sub-coroutine that fails: the awaiting task goes on, and finds the
 * failure and its value in the sub's generator. */
static PT_THREAD(sub_fail(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    PT_SLEEP(k->ticks);
    PT_TASK_FAIL(pt_int(-33));
    PT_TASK_CLEANUP();
    k->sub_cleanups++;
    PT_SUB_END();
}

static PT_THREAD(sub_fail_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &k->sub, sub_fail(loop, task, &k->sub));
    k->rc = pt_gen_status(&k->sub);
    k->got = k->sub.value;
    PT_TASK_FAIL(k->got);
    PT_TASK_END();
}

static void test_sub_failure(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "T");
    a.ticks = 3;
    spawn(&a, sub_fail_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_EXITED);
    CHECK_EQ_INT(a.rc, PT_EXITED);
    CHECK_EQ_INT(a.got.i, -33);
    CHECK_EQ_INT(a.sub_cleanups, 1);
    CHECK_EQ_INT(a.task.gen.value.i, -33);
}

/* Cancelled before it ever ran: its body never runs (nor its cleanup); it
 * finishes when its turn in the ready queue comes, a joiner then sees
 * PT_ECANCELLED, and joining it afterwards gives that at once. */
static void test_cancel_before_start(void) {
    struct tk a, b, j;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    tk_init(&j, "J");
    j.other = &b;
    j.timeout = PT_FOREVER;
    a.other = &b;
    a.timeout = PT_FOREVER;
    spawn(&b, worker);
    spawn(&j, joiner);
    CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_OK);
    CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_EINVAL);
    CHECK(!pt_task_done(&b.task));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_CLOSED);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
    CHECK_EQ_INT(j.result, PT_ECANCELLED);
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "J J-1 A A-1 ");

    /* Cancelled, not yet started, with a joiner already waiting on it. */
    setup(0);
    tk_init(&b, "B");
    tk_init(&j, "J");
    j.other = &b;
    j.timeout = PT_FOREVER;
    spawn(&j, spawn_join);
    pt_loop_run_once(&lp, 0); /* j spawned b and waits on it */
    CHECK_EQ_INT(j.rc, PT_OK);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(j.result, PT_ECANCELLED);
    CHECK_EQ_INT(b.runs, 0);
    CHECK_EQ_INT(b.cleanups, 0);
    CHECK_EQ_STR(trace.buf, "J J-1 ");
}

/* Cancelled after it yielded (it is in the ready queue): the code after
 * the yield never runs. Cancelled while its cleanup waits: PT_EINVAL,
 * and the cleanup goes on to its end. */
static PT_THREAD(yield_then(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    note("y0");
    PT_TASK_YIELD();
    note("y1");
    CLEANUP_SECTION(k);
}

static void test_cancel_queued_and_in_cleanup(void) {
    struct tk a;
    setup(0);
    tk_init(&a, "Y");
    a.cleanup_ticks = 20;
    spawn(&a, yield_then);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "y0 Y-1 ");
    CHECK(!pt_task_done(&a.task)); /* its cleanup sleeps */
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_EINVAL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1); /* and the second cancel left it */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(since(0), 20);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "y0 Y-1 ");
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_EINVAL); /* finished */
}

/* ---- what spawn, cancel and join refuse -------------------------------- */

/* Cancelled before it ever ran: it is not done until its turn in the ready
 * queue comes (as in asyncio), so it cannot be spawned again meanwhile;
 * the tasks queued after it still run. */
static void test_spawn_after_cancel_before_start(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    spawn(&a, worker);
    spawn(&b, worker);
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_OK);
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(pt_spawn(&lp, &a.task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 0);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_STR(trace.buf, "B B-1 ");
    /* Finished now: it may be spawned again, and runs. */
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_STR(trace.buf, "B B-1 A A-1 ");
}

/* Spawns `other` (already spawned and alive) again, in every state: rc is
 * what pt_spawn said while other was queued, rc2 while it slept. */
static PT_THREAD(respawner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_spawn(loop, &k->other->task, worker); /* other is queued */
    PT_TASK_YIELD();                                 /* other now sleeps */
    k->rc2 = pt_spawn(loop, &k->other->task, worker);
    k->result = pt_spawn(loop, task, worker); /* itself: running */
    note(k->name);
    PT_TASK_END();
}

/* A task that is alive (queued, sleeping, running, in its cleanup) is
 * refused with PT_EBUSY, and nothing changes: it sleeps its full time,
 * finishes once, no timer is left. */
static void test_spawn_alive(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    b.other = &a;
    spawn(&b, respawner);
    a.ticks = 10;
    spawn(&a, worker);
    CHECK_EQ_INT(pt_spawn(&lp, &a.task, worker), PT_EBUSY);
#if PT_LOOP_BACKGROUND
    CHECK_EQ_INT(pt_spawn_background(&lp, &a.task, worker), PT_EBUSY);
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.rc, PT_EBUSY);
    CHECK_EQ_INT(b.rc2, PT_EBUSY);
    CHECK_EQ_INT(b.result, PT_EBUSY);
    CHECK_EQ_INT(a.runs, 1);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
    CHECK_EQ_STR(trace.buf, "B A A-1 ");

    /* In its cleanup section (sleeping there): still alive. */
    setup(0);
    tk_init(&a, "A");
    a.cleanup_ticks = 10;
    spawn(&a, worker);
    pt_loop_run_once(&lp, 0);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK(!pt_task_done(&a.task));
    CHECK_EQ_INT(pt_spawn(&lp, &a.task, worker), PT_EBUSY);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A task never spawned (zeroed memory) cannot be joined or cancelled:
 * PT_EINVAL, at once; spawned later, it runs as usual. */
static void test_join_and_cancel_never_spawned(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    a.other = &b;
    a.timeout = 5;
    CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_EINVAL);
    spawn(&a, joiner);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_EINVAL);
    CHECK_EQ_INT(since(0), 0);
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_STR(trace.buf, "A A-1 B B-1 ");
}

/* ---- a result survives the cleanup section ----------------------------- */

/* Returned, then the cleanup sleeps: the joiner sees PT_OK and the value;
 * failed, then the cleanup sleeps: PT_EFAILED and the error value. */
static void test_result_survives_cleanup_wait(void) {
    struct tk a, b;
    int n;
    for (n = 42; n >= -42; n -= 84) {
        join_pair(&a, &b, 0, PT_FOREVER);
        b.n = n;
        b.ticks = 1;
        b.cleanup_ticks = 5;
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(b.cleanup_result, PT_OK);
        CHECK_EQ_INT(pt_task_status(&b.task), n > 0 ? PT_ENDED : PT_EXITED);
        CHECK_EQ_INT(b.task.gen.value.i, n);
        CHECK_EQ_INT(a.result, n > 0 ? PT_OK : PT_EFAILED);
        CHECK_EQ_INT(a.got.i, n);
        CHECK_EQ_INT(a.woke_at, 6);
    }
}

/* The cleanup's sleep finds the timer heap full (PT_EFULL): the result
 * stays the one returned. */
static void test_result_survives_full_heap(void) {
    struct tk a, c;
    setup(0);
    CHECK_EQ_INT(pt_loop_init(&lp, heap, 1), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    tk_init(&c, "C");
    tk_init(&a, "A");
    c.ticks = 100; /* holds the only timer slot */
    a.n = 42;
    a.cleanup_ticks = 5;
    spawn(&c, worker);
    spawn(&a, worker);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.result, PT_EFULL);
    CHECK_EQ_INT(a.task.gen.value.i, 42);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Cancelled while it sleeps in its cleanup after returning: PT_EINVAL (it
 * is finishing), the sleep runs its full length, the result is kept. */
static void test_cancel_in_cleanup_keeps_result(void) {
    struct tk a, b, x;
    join_pair(&a, &b, 0, PT_FOREVER);
    tk_init(&x, "X");
    b.n = 42;
    b.cleanup_ticks = 10;
    x.ticks = 3;
    x.other = &b;
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_EINVAL);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.got.i, 42);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(pt_task_status(&b.task), PT_ENDED);
}

/* A sub-coroutine that returns 5, then sleeps in its cleanup and keeps
 * the wait's result. */
static PT_THREAD(sub_slow_cleanup(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct tk *k = (struct tk *)task;
    PT_SUB_BEGIN(loop, task, g);
    PT_TASK_RETURN(pt_int(5));
    PT_TASK_CLEANUP();
    PT_SLEEP(k->cleanup_ticks);
    k->sub_result = PT_WAIT_RESULT();
    k->sub_cleanups++;
    PT_SUB_END();
}

static PT_THREAD(sub_slow_cleanup_task(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_AWAIT(&task->gen, &k->sub, sub_slow_cleanup(loop, task, &k->sub));
    k->got = k->sub.value;
    PT_TASK_RETURN(k->got);
    PT_TASK_CLEANUP();
    k->cleanups++;
    k->cleanup_result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* The task is cancelled while its sub-coroutine's cleanup sleeps: that
 * sleep ends at once with PT_ECANCELLED, then both cleanups finish. Not
 * cancelled: the sub's result reaches the task after the sleep. */
static void test_sub_cleanup_wait_cancelled(void) {
    struct tk a, x;
    setup(0);
    tk_init(&a, "T");
    tk_init(&x, "X");
    a.cleanup_ticks = 10;
    x.ticks = 3;
    x.other = &a;
    spawn(&a, sub_slow_cleanup_task);
    spawn(&x, canceller);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(x.rc, PT_OK);
    CHECK_EQ_INT(a.sub_result, PT_ECANCELLED);
    CHECK_EQ_INT(a.sub_cleanups, 1);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(pt_task_status(&a.task), PT_CLOSED);
    CHECK_EQ_INT(since(0), 3);

    setup(0);
    tk_init(&a, "T");
    a.cleanup_ticks = 10;
    spawn(&a, sub_slow_cleanup_task);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.sub_result, PT_OK);
    CHECK_EQ_INT(a.got.i, 5);
    CHECK_EQ_INT(a.task.gen.value.i, 5);
    CHECK_EQ_INT(since(0), 10);
}

/* ---- the loop is not re-entered ---------------------------------------- */

static PT_THREAD(reenter(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    k->rc = pt_loop_run(loop);
    k->rc2 = pt_loop_run_until(loop, &k->other->task);
    k->result = pt_loop_run_once(loop, 1);
    note(k->name);
    PT_TASK_END();
}

/* Running the loop from inside one of its tasks is refused (PT_EBUSY, 0)
 * and changes nothing: the other task still runs, in its turn. */
static void test_run_inside_task(void) {
    struct tk a, b;
    setup(0);
    tk_init(&a, "A");
    tk_init(&b, "B");
    a.other = &b;
    b.ticks = 2;
    spawn(&a, reenter);
    spawn(&b, worker);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.rc, PT_EBUSY);
    CHECK_EQ_INT(a.rc2, 0);
    CHECK_EQ_INT(a.result, PT_EBUSY);
    CHECK_EQ_INT(b.runs, 1);
    CHECK_EQ_INT(b.woke_at, 2);
    CHECK_EQ_STR(trace.buf, "A B B-1 ");
}

int main(void) {
    test_join_result();
    test_join_failed();
    test_join_cancelled();
    test_join_finished();
    test_join_busy();
    test_join_timeout();
    test_join_timeout_zero();
    test_join_timeout_cancel_race();
    test_join_nested_timeouts();
#if PT_LOOP_SYNC
    test_cancel_waiting_sync();
#endif
    test_sub_coroutines();
    test_sub_failure();
    test_cancel_before_start();
    test_cancel_queued_and_in_cleanup();
    test_spawn_after_cancel_before_start();
    test_spawn_alive();
    test_join_and_cancel_never_spawned();
    test_result_survives_cleanup_wait();
    test_result_survives_full_heap();
    test_cancel_in_cleanup_keeps_result();
    test_sub_cleanup_wait_cancelled();
    test_run_inside_task();
    return CHECK_DONE();
}
