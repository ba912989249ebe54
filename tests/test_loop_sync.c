/*
 * tests/test_loop_sync.c - the contract of the loop's synchronisation
 * (loop/sync.h): event, semaphore and bounded queue; their wake order,
 * timeouts, and cancelled waiters. On the virtual clock.
 */
#include "loop/loop.h"

#include "check.h"
#include "loop_util.h"

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int id;
    int i, n;
    pt_time_t ticks;   /* a delay before acting */
    pt_time_t timeout; /* of the wait */
    long woke_at;      /* loop time after the wait (-1: never) */
    int result;        /* the result of the wait */
    int cleanups, cleanup_result;
    int stopped; /* the wait stopped (did not return at once) */
    pt_value item, items[16];
    struct pt_event *ev;
    struct pt_semaphore *sem;
    struct pt_queue *q;
    struct tk *other;
};

static void tk_init(struct tk *k, const char *name, int id) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->id = id;
    k->n = 1;
    k->timeout = PT_FOREVER;
    k->woke_at = -1;
    k->result = 99;
    k->cleanup_result = 99;
}

static void spawn(struct tk *k, pt_task_fn fn) {
    CHECK_EQ_INT(pt_spawn(&lp, &k->task, fn), PT_OK);
}

/* Wake order, by task id. */
static int order[64];
static int norder;

/* Loop iterations, counted by a task that yields (see ticker). */
static long iterations;

static PT_THREAD(ticker(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        iterations++;
        PT_TASK_YIELD();
    }
    PT_TASK_END();
}

#define CLEANUP_SECTION(k)                                                                         \
    PT_TASK_CLEANUP();                                                                             \
    (k)->cleanups++;                                                                               \
    (k)->cleanup_result = PT_WAIT_RESULT();                                                        \
    note_n((k)->name, -(long)(k)->cleanups);                                                       \
    PT_TASK_END()

/* After a wait: its result, when it ended, and in which order. */
#define AFTER_WAIT(k)                                                                              \
    do {                                                                                           \
        (k)->result = PT_WAIT_RESULT();                                                            \
        (k)->woke_at = (long)pt_loop_now(loop);                                                    \
        order[norder++] = (k)->id;                                                                 \
    } while (0)

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

static void test_event_set_wakes_all(void) {
    struct pt_event ev;
    struct tk w[4], s;
    int i;
    setup(0);
    norder = 0;
    pt_event_init(&ev);
    for (i = 0; i < 4; i++) {
        tk_init(&w[i], "w", i);
        w[i].ev = &ev;
        w[i].ticks = (pt_time_t)(4 - i); /* they start waiting in reverse */
        spawn(&w[i], ev_waiter);
    }
    tk_init(&s, "set", 9);
    s.ev = &ev;
    s.ticks = 10;
    spawn(&s, ev_setter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], 3 - i); /* in the order they waited */
        CHECK_EQ_INT(w[i].result, PT_OK);
        CHECK_EQ_INT(w[i].woke_at, 10);
    }
    CHECK(ev.set);
    CHECK_EQ_STR(trace.buf, "set w w-1 w w-1 w w-1 w w-1 ");
}

/* A set event lets a wait through without stopping; a cleared one stops
 * it again. */
static void test_event_already_set_and_clear(void) {
    struct pt_event ev;
    struct tk a, b, t, s;
    setup(0);
    iterations = 0;
    pt_event_init(&ev);
    tk_init(&t, "t", 8);
    t.n = 100;
    spawn(&t, ticker);
    tk_init(&a, "a", 0);
    a.ev = &ev;
    pt_event_set(&lp, &ev); /* nobody waits: nothing to wake */
    spawn(&a, ev_waiter);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &a.task), PT_ENDED);
    CHECK_EQ_INT(a.stopped, 0);
    CHECK_EQ_INT(a.result, PT_OK);

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
    pt_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Set and cleared again before the woken waiters run: they look again,
 * find it clear, and go on waiting (with their own deadline). */
static void test_event_set_then_clear(void) {
    struct pt_event ev;
    struct tk a, b, s;
    setup(0);
    norder = 0;
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.ev = b.ev = &ev;
    b.timeout = 50;
    tk_init(&s, "pulse", 9);
    s.ev = &ev;
    s.ticks = 10;
    s.n = 2;
    spawn(&a, ev_waiter);
    spawn(&b, ev_waiter);
    spawn(&s, ev_setter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY); /* a waits for good */
    CHECK_EQ_INT(b.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(b.woke_at, 50);
    CHECK_EQ_INT(a.result, 99);
    CHECK_EQ_STR(trace.buf, "pulse b b-1 ");
    pt_cancel(&lp, &a.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
}

static void test_event_timeout(void) {
    struct pt_event ev;
    struct tk a, b, s;
    setup(1000);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.ev = b.ev = &ev;
    a.timeout = 20;
    b.timeout = 40;
    tk_init(&s, "set", 9);
    s.ev = &ev;
    s.ticks = 30;
    spawn(&a, ev_waiter);
    spawn(&b, ev_waiter);
    spawn(&s, ev_setter);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 1020);
    CHECK_EQ_INT(b.result, PT_OK);
    CHECK_EQ_INT(b.woke_at, 1030);
    CHECK_EQ_INT(since(1000), 30); /* b's timer went when it woke */
    CHECK_EQ_STR(trace.buf, "a a-1 set b b-1 ");

    /* A zero timeout: a clear event times out at once, without stopping. */
    setup(0);
    pt_event_init(&ev);
    tk_init(&a, "a", 0);
    a.ev = &ev;
    a.timeout = 0;
    spawn(&a, ev_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 0);
    /* ... a set one lets it through. */
    pt_event_set(&lp, &ev);
    tk_init(&a, "a", 0);
    a.ev = &ev;
    a.timeout = 0;
    spawn(&a, ev_waiter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
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

/* As documented in loop/sync.h: a release wakes the longest waiter, but a
 * task that takes the unit before the woken one runs wins it, and the
 * woken waiter waits again at the tail, behind those who came after it. */
static void test_semaphore_woken_waiter_loses(void) {
    struct pt_semaphore sem;
    struct tk u[2], b, r;
    int i;
    setup(0);
    norder = 0;
    pt_semaphore_init(&sem, 0);
    for (i = 0; i < 2; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = &sem;
        u[i].ticks = (pt_time_t)(1 + i);
        u[i].n = -1; /* keep it */
        spawn(&u[i], sem_user);
    }
    tk_init(&b, "b", 8);
    b.sem = &sem;
    b.ticks = 5;
    spawn(&b, sem_give_and_take);
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 6;
    r.n = 2;
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(b.result, 1);
    CHECK_EQ_INT(norder, 2);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 0);
    CHECK_EQ_INT(u[0].woke_at, 6);
    CHECK_EQ_INT(u[1].woke_at, 6);
}

/* A count of 2: two get through at once, the third waits until one of
 * them releases. */
static void test_semaphore_count(void) {
    struct pt_semaphore sem;
    struct tk u[3], t;
    int i;
    setup(0);
    iterations = 0;
    norder = 0;
    pt_semaphore_init(&sem, 2);
    tk_init(&t, "t", 8);
    t.n = 1000;
    spawn(&t, ticker);
    for (i = 0; i < 3; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = &sem;
        u[i].n = 10 * (i + 1); /* held for 10, 20, 30 */
        spawn(&u[i], sem_user);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_INT(u[0].stopped, 0);
    CHECK_EQ_INT(u[1].stopped, 0);
    CHECK_EQ_INT(u[2].woke_at, -1);
    CHECK_EQ_INT(pt_loop_run_until(&lp, &u[2].task), PT_ENDED);
    CHECK_EQ_INT(u[2].stopped, 1);
    CHECK_EQ_INT(u[2].woke_at, 10);
    CHECK_EQ_INT(u[2].result, PT_OK);
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(sem.count, 2);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 1);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 1);
    CHECK_EQ_INT(pt_semaphore_try(&sem), 0);
    CHECK_EQ_INT(sem.count, 0);
    pt_cancel(&lp, &t.task);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Waiters are woken in the order they began to wait (with nobody taking
 * the unit first: see test_semaphore_woken_waiter_loses). */
static void test_semaphore_fifo(void) {
    struct pt_semaphore sem;
    struct tk u[6], r;
    int i;
    static const int expect[6] = {5, 3, 1, 0, 2, 4};
    static const pt_time_t start[6] = {4, 3, 5, 2, 6, 1};
    setup(0);
    norder = 0;
    pt_semaphore_init(&sem, 0);
    for (i = 0; i < 6; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = &sem;
        u[i].ticks = start[i];
        u[i].n = -1; /* keep it */
        spawn(&u[i], sem_user);
    }
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 10;
    r.n = 6;
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(order[i], expect[i]);
    CHECK_EQ_INT(sem.count, 0);

    /* One release per iteration: still in order, one at a time. */
    setup(0);
    norder = 0;
    pt_semaphore_init(&sem, 0);
    for (i = 0; i < 6; i++) {
        tk_init(&u[i], "u", i);
        u[i].sem = &sem;
        u[i].ticks = start[i];
        u[i].n = 1; /* hold it a tick, then pass it on */
        spawn(&u[i], sem_user);
    }
    for (i = 0; i < 7; i++) /* t = 0, then 1 .. 6: one starts waiting each */
        pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(since(0), 6);
    CHECK_EQ_INT(norder, 0);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 6);
    for (i = 0; i < 6; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(u[i].result, PT_OK);
    }
    CHECK_EQ_INT(u[5].woke_at, 6);
    CHECK_EQ_INT(u[4].woke_at, 11);
    CHECK_EQ_INT(sem.count, 1);
}

static void test_semaphore_timeout(void) {
    struct pt_semaphore sem;
    struct tk a, b, r;
    setup(0);
    norder = 0;
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    a.sem = b.sem = &sem;
    a.timeout = 10;
    b.timeout = 30;
    a.n = b.n = -1;
    tk_init(&r, "r", 9);
    r.sem = &sem;
    r.ticks = 20;
    r.n = 1;
    spawn(&a, sem_user);
    spawn(&b, sem_user);
    spawn(&r, sem_releaser);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 10);
    CHECK_EQ_INT(b.result, PT_OK); /* the timed-out a did not take it */
    CHECK_EQ_INT(b.woke_at, 20);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_INT(since(0), 20);
    CHECK_EQ_STR(trace.buf, "a a-1 r b b-1 ");

    /* A zero timeout with no unit: at once, without stopping. */
    setup(0);
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    a.timeout = 0;
    spawn(&a, sem_user);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(sem.count, 0);
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

/* A woken waiter that finds the unit taken waits again until its first
 * deadline, not a new one. */
static void test_semaphore_retry_keeps_deadline(void) {
    struct pt_semaphore sem;
    struct tk a, r, x;
    setup(0);
    norder = 0;
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
    CHECK_EQ_INT(x.result, 1);
    CHECK_EQ_INT(a.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(a.woke_at, 20);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_STR(trace.buf, "r x a a-1 ");
}

/* Cancelled waiters do not consume units: neither one cancelled while
 * parked, nor one cancelled after a release woke it but before it ran. */
static void test_semaphore_cancelled_waiter(void) {
    struct pt_semaphore sem;
    struct tk a, b, c;
    setup(0);
    norder = 0;
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    tk_init(&b, "b", 1);
    tk_init(&c, "c", 2);
    a.sem = b.sem = c.sem = &sem;
    a.n = b.n = c.n = -1;
    spawn(&a, sem_user);
    spawn(&b, sem_user);
    spawn(&c, sem_user);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_OK); /* parked */
    pt_semaphore_release(&lp, &sem);              /* wakes b */
    CHECK_EQ_INT(pt_cancel(&lp, &b.task), PT_OK); /* woken, not yet run */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);        /* c gets the unit */
    CHECK_EQ_INT(a.result, 99);
    CHECK_EQ_INT(b.result, 99);
    CHECK_EQ_INT(c.result, PT_OK);
    CHECK_EQ_INT(a.cleanups, 1);
    CHECK_EQ_INT(b.cleanups, 1);
    CHECK_EQ_INT(a.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(b.cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(sem.count, 0);
    CHECK_EQ_STR(trace.buf, "a-1 b-1 c c-1 ");

    /* A woken waiter cancelled with no one behind it: the unit stays. */
    setup(0);
    pt_semaphore_init(&sem, 0);
    tk_init(&a, "a", 0);
    a.sem = &sem;
    spawn(&a, sem_user);
    pt_loop_run_once(&lp, 0);
    pt_semaphore_release(&lp, &sem);
    CHECK_EQ_INT(pt_cancel(&lp, &a.task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(sem.count, 1);
    CHECK_EQ_INT(a.result, 99);
}

/* ---- queue ------------------------------------------------------------------- */

/* Puts items[0..n-1], with timeout; `ticks` between puts. The number put
 * is in i; the result of the last put in result. */
static PT_THREAD(producer(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        if (k->ticks)
            PT_SLEEP(k->ticks);
        PT_QUEUE_PUT(k->q, k->items[k->i], k->timeout);
        k->result = PT_WAIT_RESULT();
        if (k->result != PT_OK)
            break;
        note_n(k->name, (long)k->items[k->i].i);
    }
    k->woke_at = (long)pt_loop_now(loop);
    CLEANUP_SECTION(k);
}

/* Gets n items into items[], with timeout; `ticks` between gets. */
static PT_THREAD(consumer(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    for (k->i = 0; k->i < k->n; k->i++) {
        if (k->ticks)
            PT_SLEEP(k->ticks);
        PT_QUEUE_GET(k->q, &k->items[k->i], k->timeout);
        k->result = PT_WAIT_RESULT();
        if (k->result != PT_OK)
            break;
        order[norder++] = k->id;
        note_n(k->name, (long)k->items[k->i].i);
    }
    k->woke_at = (long)pt_loop_now(loop);
    CLEANUP_SECTION(k);
}

/* Order is kept through a small queue, whichever side is faster; a put
 * into a full queue waits, a get from an empty one waits. */
static void test_queue_order(void) {
    struct pt_queue q;
    pt_value slots[3];
    struct tk p, c;
    int i, pass;
    for (pass = 0; pass < 2; pass++) {
        setup(0);
        norder = 0;
        pt_queue_init(&q, slots, 3);
        tk_init(&p, "p", 0);
        tk_init(&c, "c", 1);
        p.q = c.q = &q;
        p.n = c.n = 10;
        for (i = 0; i < 10; i++)
            p.items[i] = pt_int(100 + i);
        if (pass == 0)
            c.ticks = 1; /* a slow consumer: the producer waits on a full queue */
        else
            p.ticks = 1; /* a slow producer: the consumer waits on an empty one */
        spawn(&p, producer);
        spawn(&c, consumer);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(p.i, 10);
        CHECK_EQ_INT(c.i, 10);
        for (i = 0; i < 10; i++)
            CHECK_EQ_INT(c.items[i].i, 100 + i);
        CHECK_EQ_INT(q.count, 0);
        if (pass == 0) {
            /* 3 fit at once; then one more per get. */
            CHECK_EQ_INT(p.woke_at, 7);
            CHECK_EQ_INT(c.woke_at, 10);
        } else {
            CHECK_EQ_INT(p.woke_at, 10);
            CHECK_EQ_INT(c.woke_at, 10);
        }
    }
    /* The producer stopped at the fourth put, with the queue full. */
    setup(0);
    pt_queue_init(&q, slots, 3);
    tk_init(&p, "p", 0);
    p.q = &q;
    p.n = 4;
    for (i = 0; i < 4; i++)
        p.items[i] = pt_int(i);
    spawn(&p, producer);
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_STR(trace.buf, "p0 p1 p2 ");
    CHECK_EQ_INT(q.count, 3);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_EBUSY);
    CHECK(pt_queue_try_get(&lp, &q, &p.item));
    CHECK_EQ_INT(p.item.i, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_STR(trace.buf, "p0 p1 p2 p3 p-1 ");
    CHECK_EQ_INT(q.count, 3);
}

/* Several getters: served in the order they began to wait. */
static void test_queue_getters_fifo(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk c[4], p;
    int i;
    static const int expect[4] = {2, 0, 3, 1};
    setup(0);
    norder = 0;
    pt_queue_init(&q, slots, 1);
    for (i = 0; i < 4; i++) {
        tk_init(&c[i], "c", i);
        c[i].q = &q;
    }
    c[2].ticks = 0;
    c[0].ticks = 1;
    c[3].ticks = 2;
    c[1].ticks = 3; /* getters wait from t = 0, 1, 2, 3: 2, 0, 3, 1 */
    for (i = 0; i < 4; i++) {
        c[i].n = 1;
        spawn(&c[i], consumer);
    }
    tk_init(&p, "p", 9);
    p.q = &q;
    p.n = 4;
    p.ticks = 10;
    for (i = 0; i < 4; i++)
        p.items[i] = pt_int(i);
    spawn(&p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(c[expect[i]].items[0].i, i);
    }
}

static void test_queue_timeouts(void) {
    struct pt_queue q;
    pt_value slots[2];
    struct tk p, c;
    /* A get on an empty queue times out. */
    setup(0);
    pt_queue_init(&q, slots, 2);
    tk_init(&c, "c", 0);
    c.q = &q;
    c.n = 1;
    c.timeout = 25;
    spawn(&c, consumer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c.woke_at, 25);
    CHECK_EQ_INT(c.items[0].i, 0);

    /* A put on a full queue times out; its value is not put. */
    setup(0);
    pt_queue_init(&q, slots, 2);
    tk_init(&p, "p", 0);
    p.q = &q;
    p.n = 3;
    p.timeout = 15;
    p.items[0] = pt_int(1);
    p.items[1] = pt_int(2);
    p.items[2] = pt_int(3);
    spawn(&p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(p.i, 2);
    CHECK_EQ_INT(p.woke_at, 15);
    CHECK_EQ_INT(q.count, 2);
    CHECK(pt_queue_try_get(&lp, &q, &p.item));
    CHECK_EQ_INT(p.item.i, 1);
    CHECK(pt_queue_try_get(&lp, &q, &p.item));
    CHECK_EQ_INT(p.item.i, 2);
    CHECK(!pt_queue_try_get(&lp, &q, &p.item));

    /* A get whose value comes before the deadline: its timer goes. */
    setup(0);
    pt_queue_init(&q, slots, 2);
    tk_init(&c, "c", 0);
    tk_init(&p, "p", 1);
    c.q = p.q = &q;
    c.timeout = 100;
    p.ticks = 30;
    p.items[0] = pt_int(5);
    spawn(&c, consumer);
    spawn(&p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_OK);
    CHECK_EQ_INT(c.items[0].i, 5);
    CHECK_EQ_INT(c.woke_at, 30);
    CHECK_EQ_INT(since(0), 30);
}

/* A cancelled getter leaves the list: the value goes to the next one; so
 * does a value put for a getter that is cancelled before it ran. The same
 * for putters and room. */
static void test_queue_cancelled_waiters(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk c[3], p[3];
    int i;
    setup(0);
    norder = 0;
    pt_queue_init(&q, slots, 1);
    for (i = 0; i < 3; i++) {
        tk_init(&c[i], "c", i);
        c[i].q = &q;
        spawn(&c[i], consumer);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &c[0].task), PT_OK);
    CHECK(pt_queue_try_put(&lp, &q, pt_int(42))); /* wakes c[1] */
    CHECK_EQ_INT(pt_cancel(&lp, &c[1].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c[2].result, PT_OK);
    CHECK_EQ_INT(c[2].items[0].i, 42);
    CHECK_EQ_INT(c[0].items[0].i, 0);
    CHECK_EQ_INT(c[1].items[0].i, 0);
    CHECK_EQ_INT(q.count, 0);
    CHECK_EQ_STR(trace.buf, "c-1 c-1 c42 c-1 ");

    /* Putters on a full queue. */
    setup(0);
    pt_queue_init(&q, slots, 1);
    CHECK(pt_queue_try_put(&lp, &q, pt_int(1)));
    for (i = 0; i < 3; i++) {
        tk_init(&p[i], "p", i);
        p[i].q = &q;
        p[i].items[0] = pt_int(10 + i);
        spawn(&p[i], producer);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_cancel(&lp, &p[0].task), PT_OK);
    CHECK(pt_queue_try_get(&lp, &q, &p[0].item)); /* room: wakes p[1] */
    CHECK_EQ_INT(p[0].item.i, 1);
    CHECK_EQ_INT(pt_cancel(&lp, &p[1].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p[2].result, PT_OK);
    CHECK_EQ_INT(q.count, 1);
    CHECK(pt_queue_try_get(&lp, &q, &p[0].item));
    CHECK_EQ_INT(p[0].item.i, 12);
    CHECK_EQ_STR(trace.buf, "p-1 p-1 p12 p-1 ");
}

/* Many items through a queue of 5 slots, in uneven batches: the ring's
 * indices wrap many times, the order holds, a put is refused only when
 * full and a get only when empty. */
static void test_queue_wraps(void) {
    static pt_value slots[5];
    struct pt_queue q;
    pt_value v;
    long put = 0, got = 0;
    int round, j, bad = 0;
    setup(0);
    pt_queue_init(&q, slots, 5);
    for (round = 0; round < 1000; round++) {
        int nput = 1 + round % 6, nget = 1 + (round * 7) % 5;
        for (j = 0; j < nput; j++) {
            if (pt_queue_try_put(&lp, &q, pt_int(put)))
                put++;
            else if (q.count != 5)
                bad++;
        }
        for (j = 0; j < nget; j++) {
            if (pt_queue_try_get(&lp, &q, &v)) {
                if (v.i != got)
                    bad++;
                got++;
            } else if (q.count != 0) {
                bad++;
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(got > 2000);
    CHECK_EQ_INT(put - got, q.count);
}

int main(void) {
    test_event_set_wakes_all();
    test_event_already_set_and_clear();
    test_event_set_then_clear();
    test_event_timeout();
    test_semaphore_count();
    test_semaphore_fifo();
    test_semaphore_woken_waiter_loses();
    test_semaphore_timeout();
    test_semaphore_retry_keeps_deadline();
    test_semaphore_cancelled_waiter();
    test_queue_order();
    test_queue_getters_fifo();
    test_queue_timeouts();
    test_queue_cancelled_waiters();
    test_queue_wraps();
    return CHECK_DONE();
}
