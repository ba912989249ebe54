/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_queue.c - the contract of the loop's bounded queue
 * (loop/sync.h): order, waiting for room and for values, timeouts, and
 * cancelled waiters. On the virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"
#include "sync_fixture.h"

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

/* Ten items through a queue of 3: the consumer is slow (gets every tick),
 * or the producer (puts every tick). Order is kept either way. */
static void queue_ten(struct tk *p, struct tk *c, int slow_consumer) {
    static struct pt_queue q;
    static pt_value slots[3];
    int i;
    fresh(0);
    pt_queue_init(&q, slots, 3);
    tk_init(p, "p", 0);
    tk_init(c, "c", 1);
    p->q = c->q = &q;
    p->n = c->n = 10;
    for (i = 0; i < 10; i++)
        p->items[i] = pt_value_int(100 + i);
    if (slow_consumer)
        c->ticks = 1; /* the producer waits on a full queue */
    else
        p->ticks = 1; /* the consumer waits on an empty one */
    spawn(p, producer);
    spawn(c, consumer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p->i, 10);
    CHECK_EQ_INT(c->i, 10);
    for (i = 0; i < 10; i++)
        CHECK_EQ_INT(c->items[i].i, 100 + i);
    CHECK_EQ_INT(q.count, 0);
}

/* 3 fit at once; then one more per get. */
static void test_queue_keeps_order_with_a_slow_consumer(void) {
    struct tk p, c;
    queue_ten(&p, &c, 1);
    CHECK_EQ_INT(p.woke_at, 7);
    CHECK_EQ_INT(c.woke_at, 10);
}

static void test_queue_keeps_order_with_a_slow_producer(void) {
    struct tk p, c;
    queue_ten(&p, &c, 0);
    CHECK_EQ_INT(p.woke_at, 10);
    CHECK_EQ_INT(c.woke_at, 10);
}

/* The producer stops at the fourth put, with the queue full, until a get
 * makes room. */
static void test_queue_put_into_a_full_queue_waits_for_room(void) {
    struct pt_queue q;
    pt_value slots[3];
    struct tk p;
    int i;
    fresh(0);
    pt_queue_init(&q, slots, 3);
    tk_init(&p, "p", 0);
    p.q = &q;
    p.n = 4;
    for (i = 0; i < 4; i++)
        p.items[i] = pt_value_int(i);
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

/* Added: sync.h's PT_QUEUE_PUT "v is evaluated again on every try": the
 * value a waiting putter puts is the one its expression has when room
 * comes. */
static void test_queue_put_evaluates_its_value_on_every_try(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk p;
    fresh(0);
    pt_queue_init(&q, slots, 1);
    CHECK(pt_queue_try_put(&lp, &q, pt_value_int(1)));
    tk_init(&p, "p", 0);
    p.q = &q;
    p.items[0] = pt_value_int(2);
    spawn(&p, producer);
    pt_loop_run_once(&lp, 0); /* full: it waits */
    CHECK_EQ_INT(p.result, 99);
    p.items[0] = pt_value_int(3);
    CHECK(pt_queue_try_get(&lp, &q, &p.item));
    CHECK_EQ_INT(p.item.i, 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p.result, PT_OK);
    CHECK(pt_queue_try_get(&lp, &q, &p.item));
    CHECK_EQ_INT(p.item.i, 3);
}

/* Several getters: served in the order they began to wait. */
static void test_queue_serves_getters_in_fifo_order(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk c[4], p;
    int i;
    static const int expect[4] = {2, 0, 3, 1};
    fresh(0);
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
        p.items[i] = pt_value_int(i);
    spawn(&p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 4);
    for (i = 0; i < 4; i++) {
        CHECK_EQ_INT(order[i], expect[i]);
        CHECK_EQ_INT(c[expect[i]].items[0].i, i);
    }
}

/* C gets from an empty queue of 2 with `timeout`. */
static void queue_get_empty(struct tk *c, pt_time_t timeout) {
    static struct pt_queue q;
    static pt_value slots[2];
    fresh(0);
    pt_queue_init(&q, slots, 2);
    tk_init(c, "c", 0);
    c->q = &q;
    c->n = 1;
    c->timeout = timeout;
    spawn(c, consumer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c->result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c->items[0].i, 0);
}

/* P puts 1, 2, 3 into a queue of 2 with `timeout`: the third does not
 * fit, and its value is not put. */
static void queue_put_full(struct tk *p, pt_time_t timeout) {
    static struct pt_queue q;
    static pt_value slots[2];
    fresh(0);
    pt_queue_init(&q, slots, 2);
    tk_init(p, "p", 0);
    p->q = &q;
    p->n = 3;
    p->timeout = timeout;
    p->items[0] = pt_value_int(1);
    p->items[1] = pt_value_int(2);
    p->items[2] = pt_value_int(3);
    spawn(p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(p->result, PT_ETIMEDOUT);
    CHECK_EQ_INT(p->i, 2);
    CHECK_EQ_INT(q.count, 2);
    CHECK(pt_queue_try_get(&lp, &q, &p->item));
    CHECK_EQ_INT(p->item.i, 1);
    CHECK(pt_queue_try_get(&lp, &q, &p->item));
    CHECK_EQ_INT(p->item.i, 2);
    CHECK(!pt_queue_try_get(&lp, &q, &p->item));
}

static void test_queue_get_on_an_empty_queue_times_out(void) {
    struct tk c;
    queue_get_empty(&c, 25);
    CHECK_EQ_INT(c.woke_at, 25);
}

static void test_queue_put_on_a_full_queue_times_out_without_putting(void) {
    struct tk p;
    queue_put_full(&p, 15);
    CHECK_EQ_INT(p.woke_at, 15);
}

/* Added: sync.h "A timeout of 0 tries once and does not wait: PT_ETIMEDOUT
 * at once if ... the queue empty (or full)". */
static void test_queue_get_with_zero_timeout_on_an_empty_queue_times_out(void) {
    struct tk c;
    queue_get_empty(&c, 0);
    CHECK_EQ_INT(c.woke_at, 0);
}

static void test_queue_put_with_zero_timeout_on_a_full_queue_times_out(void) {
    struct tk p;
    queue_put_full(&p, 0);
    CHECK_EQ_INT(p.woke_at, 0);
}

/* A get whose value comes before the deadline: its timer goes. */
static void test_queue_get_served_before_its_deadline_drops_its_timer(void) {
    struct pt_queue q;
    pt_value slots[2];
    struct tk p, c;
    fresh(0);
    pt_queue_init(&q, slots, 2);
    tk_init(&c, "c", 0);
    tk_init(&p, "p", 1);
    c.q = p.q = &q;
    c.timeout = 100;
    p.ticks = 30;
    p.items[0] = pt_value_int(5);
    spawn(&c, consumer);
    spawn(&p, producer);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_OK);
    CHECK_EQ_INT(c.items[0].i, 5);
    CHECK_EQ_INT(c.woke_at, 30);
    CHECK_EQ_INT(since(0), 30);
}

/* Added: sync.h "A timeout of 0 or PT_FOREVER needs no timer" and
 * PT_EFULL, for the queue: with no timer slot at all, a get without a
 * timeout waits for its value, one with a zero timeout times out, one
 * with a timeout is PT_EFULL at once. */
static void test_queue_get_needs_a_timer_only_for_a_timeout(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk c[3];
    int i;
    static const pt_time_t timeout[3] = {PT_FOREVER, 0, 5};
    fresh_without_timers();
    pt_queue_init(&q, slots, 1);
    for (i = 0; i < 3; i++) {
        tk_init(&c[i], "c", i);
        c[i].q = &q;
        c[i].timeout = timeout[i];
        spawn(&c[i], consumer);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(c[0].result, 99); /* waiting */
    CHECK_EQ_INT(c[1].result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c[2].result, PT_EFULL);
    CHECK(pt_queue_try_put(&lp, &q, pt_value_int(8)));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c[0].result, PT_OK);
    CHECK_EQ_INT(c[0].items[0].i, 8);
}

/* A cancelled getter leaves the list: the value goes to the next one; so
 * does a value put for a getter that is cancelled before it ran. */
static void test_cancelled_queue_getters_pass_the_value_on(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk c[3];
    int i;
    fresh(0);
    pt_queue_init(&q, slots, 1);
    for (i = 0; i < 3; i++) {
        tk_init(&c[i], "c", i);
        c[i].q = &q;
        spawn(&c[i], consumer);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &c[0].task), PT_OK);
    CHECK(pt_queue_try_put(&lp, &q, pt_value_int(42))); /* wakes c[1] */
    CHECK_EQ_INT(pt_task_cancel(&lp, &c[1].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c[2].result, PT_OK);
    CHECK_EQ_INT(c[2].items[0].i, 42);
    CHECK_EQ_INT(c[0].items[0].i, 0);
    CHECK_EQ_INT(c[1].items[0].i, 0);
    CHECK_EQ_INT(q.count, 0);
    CHECK_EQ_STR(trace.buf, "c-1 c-1 c42 c-1 ");
}

/* The same for putters on a full queue and room. */
static void test_cancelled_queue_putters_pass_the_room_on(void) {
    struct pt_queue q;
    pt_value slots[1];
    struct tk p[3];
    int i;
    fresh(0);
    pt_queue_init(&q, slots, 1);
    CHECK(pt_queue_try_put(&lp, &q, pt_value_int(1)));
    for (i = 0; i < 3; i++) {
        tk_init(&p[i], "p", i);
        p[i].q = &q;
        p[i].items[0] = pt_value_int(10 + i);
        spawn(&p[i], producer);
    }
    pt_loop_run_once(&lp, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &p[0].task), PT_OK);
    CHECK(pt_queue_try_get(&lp, &q, &p[0].item)); /* room: wakes p[1] */
    CHECK_EQ_INT(p[0].item.i, 1);
    CHECK_EQ_INT(pt_task_cancel(&lp, &p[1].task), PT_OK);
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
static void test_queue_ring_wraps_keeping_order_and_limits(void) {
    static pt_value slots[5];
    struct pt_queue q;
    pt_value v;
    long put = 0, got = 0;
    int round, j, bad = 0;
    fresh(0);
    pt_queue_init(&q, slots, 5);
    for (round = 0; round < 1000; round++) {
        int nput = 1 + round % 6, nget = 1 + (round * 7) % 5;
        for (j = 0; j < nput; j++) {
            if (pt_queue_try_put(&lp, &q, pt_value_int(put)))
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

/* A getter waiting until 100, woken by a put at 30 whose value another
 * takes before it runs: c on an empty queue of one, its wake-up done. */
static void getter_woken_at_30(struct pt_queue *q, pt_value *slot, struct tk *c, int taken) {
    pt_value v;
    fresh(0);
    pt_queue_init(q, slot, 1);
    tk_init(c, "c", 0);
    c->q = q;
    c->timeout = 100;
    spawn(c, consumer);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);    /* c waits */
    pt_loop_use_virtual_clock(&lp, 30);               /* (time passes) */
    CHECK(pt_queue_try_put(&lp, q, pt_value_int(7))); /* wakes c */
    if (taken)
        CHECK(pt_queue_try_get(&lp, q, &v));
}

/* A getter beaten to the value waits on until its first deadline (not a
 * new one from the wake-up), and holds its timer meanwhile. */
static void test_queue_getter_beaten_to_the_value_waits_until_its_first_deadline(void) {
    struct pt_queue q;
    pt_value slot[1];
    struct tk c;
    getter_woken_at_30(&q, slot, &c, 1);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c.woke_at, 100);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Its deadline passes between the wake-up and its turn: with the value
 * gone it times out then, its timer gone without a wake-up ... */
static void test_queue_getter_beaten_to_the_value_past_its_deadline_times_out(void) {
    struct pt_queue q;
    pt_value slot[1];
    struct tk c;
    getter_woken_at_30(&q, slot, &c, 1);
    pt_loop_use_virtual_clock(&lp, 150);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(c.woke_at, 150);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* ... and with the value there, it takes it: it was woken in time. */
static void test_queue_getter_woken_in_time_takes_the_value_past_its_deadline(void) {
    struct pt_queue q;
    pt_value slot[1];
    struct tk c;
    getter_woken_at_30(&q, slot, &c, 0);
    pt_loop_use_virtual_clock(&lp, 150);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(c.result, PT_OK);
    CHECK_EQ_INT(c.items[0].i, 7);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A getter in a timeout scope of 50 ticks: gets with k->timeout (read at
 * every try) into item, its result in `result`; then notes the timers
 * pending (i) and sleeps 5 ticks, that sleep's result in cleanup_result,
 * when it ended in woke_at. */
struct scoped {
    struct tk k;
    struct pt_timeout sc;
};

static PT_THREAD(scoped_getter(struct pt_loop *loop, struct pt_task *task)) {
    struct scoped *s = (struct scoped *)task;
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&s->sc, 50);
    PT_QUEUE_GET(s->k.q, &s->k.item, s->k.timeout);
    s->k.result = PT_WAIT_RESULT();
    (void)PT_TIMEOUT_END(&s->sc);
    s->k.i = (int)pt_loop_timers(loop); /* (none left: the scope's is done) */
    PT_SLEEP(5);
    s->k.cleanup_result = PT_WAIT_RESULT();
    s->k.woke_at = (long)pt_loop_now(loop);
    PT_TASK_END();
}

/* At 50 (its timer set before the getter's scope's): puts a value, which
 * wakes the getter, takes it back, and makes the getter's timeout
 * PT_FOREVER for its next try. */
static PT_THREAD(teaser(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    pt_value v;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(50);
    CHECK(pt_queue_try_put(loop, k->q, pt_value_int(7)));
    CHECK(pt_queue_try_get(loop, k->q, &v));
    k->other->timeout = PT_FOREVER;
    PT_TASK_END();
}

/* A getter woken (its timer kept) whose scope passes before its turn ends
 * PT_ETIMEDOUT without its timer, though its timeout now reads
 * PT_FOREVER: its next wait sets a timer of its own, as any. */
static void test_queue_getter_cut_by_a_scope_after_its_wake_up_keeps_no_timer(void) {
    struct pt_queue q;
    pt_value slot[1];
    struct tk t;
    struct scoped g;
    fresh(0);
    pt_queue_init(&q, slot, 1);
    tk_init(&t, "t", 0);
    memset(&g, 0, sizeof g);
    tk_init(&g.k, "g", 1);
    t.q = g.k.q = &q;
    t.other = &g.k;
    g.k.timeout = 100;
    spawn(&t, teaser);
    spawn(&g.k, scoped_getter);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(g.k.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(g.k.i, 0);
    CHECK_EQ_INT(g.k.cleanup_result, PT_OK);
    CHECK_EQ_INT(g.k.woke_at, 55);
    CHECK_EQ_INT(since(0), 55); /* (no timer of its left behind) */
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(queue_keeps_order_with_a_slow_consumer)                                                      \
    X(queue_keeps_order_with_a_slow_producer)                                                      \
    X(queue_put_into_a_full_queue_waits_for_room)                                                  \
    X(queue_put_evaluates_its_value_on_every_try)                                                  \
    X(queue_serves_getters_in_fifo_order)                                                          \
    X(queue_get_on_an_empty_queue_times_out)                                                       \
    X(queue_put_on_a_full_queue_times_out_without_putting)                                         \
    X(queue_get_with_zero_timeout_on_an_empty_queue_times_out)                                     \
    X(queue_put_with_zero_timeout_on_a_full_queue_times_out)                                       \
    X(queue_get_served_before_its_deadline_drops_its_timer)                                        \
    X(queue_get_needs_a_timer_only_for_a_timeout)                                                  \
    X(queue_getter_beaten_to_the_value_waits_until_its_first_deadline)                             \
    X(queue_getter_beaten_to_the_value_past_its_deadline_times_out)                                \
    X(queue_getter_woken_in_time_takes_the_value_past_its_deadline)                                \
    X(queue_getter_cut_by_a_scope_after_its_wake_up_keeps_no_timer)                                \
    X(cancelled_queue_getters_pass_the_value_on)                                                   \
    X(cancelled_queue_putters_pass_the_room_on)                                                    \
    X(queue_ring_wraps_keeping_order_and_limits)
/* clang-format on */
TEST_MAIN(TEST_CASES)
