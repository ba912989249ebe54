/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_thread.c - the contract of plain protothreads (pt/thread.h,
 * pt/sem.h): when they stop, what they return, how they finish.
 */
#include "pt/pt.h"

#include "runner.h"

/* --- PT_YIELD stops exactly once per yield ----------------------------- */

struct counter {
    struct pt pt;
    int i, ran;
};

static PT_THREAD(yield_three(struct counter *c)) {
    PT_BEGIN(&c->pt);
    for (c->i = 0; c->i < 3; c->i++) {
        c->ran++;
        PT_YIELD(&c->pt);
    }
    PT_END(&c->pt);
}

/* Run through its three yields (ran is then 3). */
static void yield_three_times(struct counter *c) {
    c->i = c->ran = 0;
    PT_INIT(&c->pt);
    CHECK_EQ_INT(yield_three(c), PT_YIELDED);
    CHECK_EQ_INT(c->ran, 1);
    CHECK_EQ_INT(yield_three(c), PT_YIELDED);
    CHECK_EQ_INT(yield_three(c), PT_YIELDED);
    CHECK_EQ_INT(c->ran, 3);
}

static void test_yield_stops_once_per_yield(void) {
    struct counter c;
    yield_three_times(&c);
    CHECK_EQ_INT(yield_three(&c), PT_ENDED);
}

/* As in protothreads 1.4, an ended protothread is re-initialised: the
 * next call starts it over. */
static void test_ended_protothread_starts_over_when_called_again(void) {
    struct counter c;
    yield_three_times(&c);
    CHECK_EQ_INT(yield_three(&c), PT_ENDED);
    CHECK_EQ_INT(yield_three(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 4);
}

/* --- PT_WAIT_UNTIL / PT_WAIT_WHILE do not stop when already satisfied --- */

struct waiter {
    struct pt pt;
    int flag, passed;
};

static PT_THREAD(wait_flag(struct waiter *w)) {
    PT_BEGIN(&w->pt);
    PT_WAIT_UNTIL(&w->pt, w->flag);
    w->passed++;
    PT_WAIT_WHILE(&w->pt, w->flag);
    w->passed++;
    PT_END(&w->pt);
}

/* flag already set: through the first wait without stopping */
static void test_wait_until_a_true_condition_does_not_stop(void) {
    struct waiter w = {{0}, 1, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING);
    CHECK_EQ_INT(w.passed, 1);
}

static void test_wait_while_stops_until_the_condition_is_false(void) {
    struct waiter w = {{0}, 1, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING);
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING); /* still set: still waiting */
    w.flag = 0;
    CHECK_EQ_INT(wait_flag(&w), PT_ENDED);
    CHECK_EQ_INT(w.passed, 2);
}

static void test_wait_until_stops_until_the_condition_is_true(void) {
    struct waiter w = {{0}, 0, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING); /* flag 0: waits at the first */
    CHECK_EQ_INT(w.passed, 0);
    w.flag = 1;
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING);
    CHECK_EQ_INT(w.passed, 1);
}

/* --- PT_YIELD_UNTIL stops at least once, even if the condition holds --- */

static PT_THREAD(yield_until_flag(struct waiter *w)) {
    PT_BEGIN(&w->pt);
    PT_YIELD_UNTIL(&w->pt, w->flag);
    w->passed++;
    PT_END(&w->pt);
}

static void test_yield_until_stops_once_even_if_the_condition_holds(void) {
    struct waiter w = {{0}, 1, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(yield_until_flag(&w), PT_YIELDED);
    CHECK_EQ_INT(w.passed, 0);
    CHECK_EQ_INT(yield_until_flag(&w), PT_ENDED);
    CHECK_EQ_INT(w.passed, 1);
}

static void test_yield_until_stops_until_the_condition_holds(void) {
    struct waiter w = {{0}, 0, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(yield_until_flag(&w), PT_YIELDED);
    CHECK_EQ_INT(yield_until_flag(&w), PT_YIELDED);
    w.flag = 1;
    CHECK_EQ_INT(yield_until_flag(&w), PT_ENDED);
    CHECK_EQ_INT(w.passed, 1);
}

/* --- PT_EXIT and PT_RESTART -------------------------------------------- */

struct stepper {
    struct pt pt;
    int step, exit_at, restart_at;
};

static PT_THREAD(step_until(struct stepper *s)) {
    PT_BEGIN(&s->pt);
    for (;;) {
        s->step++;
        if (s->step == s->exit_at)
            PT_EXIT(&s->pt);
        if (s->step == s->restart_at)
            PT_RESTART(&s->pt);
        PT_YIELD(&s->pt);
    }
    PT_END(&s->pt);
}

static void test_exit_ends_it_as_exited(void) {
    struct stepper s = {{0}, 0, 3, 0};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(step_until(&s), PT_YIELDED);
    CHECK_EQ_INT(step_until(&s), PT_YIELDED);
    CHECK_EQ_INT(step_until(&s), PT_EXITED);
    CHECK_EQ_INT(s.step, 3);
    CHECK(!PT_SCHEDULE(PT_EXITED));
}

static void test_restart_starts_it_over_from_the_top(void) {
    struct stepper s = {{0}, 0, 0, 2};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(step_until(&s), PT_YIELDED); /* step 1 */
    CHECK_EQ_INT(step_until(&s), PT_WAITING); /* step 2: restart */
    CHECK_EQ_INT(step_until(&s), PT_YIELDED); /* from the top: step 3 */
    CHECK_EQ_INT(s.step, 3);
}

/* --- A protothread without any resume point still compiles and runs -- */

static PT_THREAD(no_stop(struct stepper *s)) {
    PT_BEGIN(&s->pt);
    s->step++;
    if (s->exit_at)
        PT_EXIT(&s->pt);
    PT_END(&s->pt);
}

static void test_thread_without_a_resume_point_ends(void) {
    struct stepper s = {{0}, 0, 0, 0};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(no_stop(&s), PT_ENDED);
    CHECK_EQ_INT(s.step, 1);
}

static void test_thread_without_a_resume_point_exits(void) {
    struct stepper s = {{0}, 0, 0, 0};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(no_stop(&s), PT_ENDED);
    s.exit_at = 1;
    CHECK_EQ_INT(no_stop(&s), PT_EXITED);
    CHECK_EQ_INT(s.step, 2);
}

/* --- Status values and PT_SCHEDULE are those of protothreads 1.4 ------- */

static void test_status_values_are_those_of_1_4(void) {
    CHECK_EQ_INT(PT_WAITING, 0);
    CHECK_EQ_INT(PT_YIELDED, 1);
    CHECK_EQ_INT(PT_EXITED, 2);
    CHECK_EQ_INT(PT_ENDED, 3);
}

static void test_schedule_is_true_until_it_exits_or_ends(void) {
    CHECK(PT_SCHEDULE(PT_WAITING));
    CHECK(PT_SCHEDULE(PT_YIELDED));
    CHECK(!PT_SCHEDULE(PT_EXITED));
    CHECK(!PT_SCHEDULE(PT_ENDED));
}

/* --- PT_SPAWN / PT_WAIT_THREAD: a parent runs a child to its end ------- */

struct parent {
    struct pt pt;
    struct counter child;
    int after;
};

static PT_THREAD(spawner(struct parent *p)) {
    PT_BEGIN(&p->pt);
    PT_SPAWN(&p->pt, &p->child.pt, yield_three(&p->child));
    p->after = p->child.ran;
    PT_END(&p->pt);
}

static void test_spawn_waits_through_each_child_yield(void) {
    struct parent p;
    int calls = 0;
    p.child.ran = 0;
    p.after = -1;
    PT_INIT(&p.pt);
    while (PT_SCHEDULE(spawner(&p)))
        calls++;
    /* The child yields three times: the parent waits through each. */
    CHECK_EQ_INT(calls, 3);
    CHECK_EQ_INT(p.after, 3);
}

/* --- Semaphores: a bounded buffer between a producer and a consumer ---- */

#define SLOTS 2
#define ITEMS 7

struct buffer {
    struct pt_sem full, empty;
    int items[SLOTS], head, tail;
    int produced, consumed, sum;
    struct pt prod, cons;
};

static PT_THREAD(produce(struct buffer *b)) {
    PT_BEGIN(&b->prod);
    while (b->produced < ITEMS) {
        PT_SEM_WAIT(&b->prod, &b->empty);
        b->items[b->head] = ++b->produced;
        b->head = (b->head + 1) % SLOTS;
        PT_SEM_SIGNAL(&b->prod, &b->full);
    }
    PT_END(&b->prod);
}

static PT_THREAD(consume(struct buffer *b)) {
    PT_BEGIN(&b->cons);
    while (b->consumed < ITEMS) {
        PT_SEM_WAIT(&b->cons, &b->full);
        CHECK_EQ_INT(b->items[b->tail], b->consumed + 1); /* in order */
        b->sum += b->items[b->tail];
        b->tail = (b->tail + 1) % SLOTS;
        b->consumed++;
        PT_SEM_SIGNAL(&b->cons, &b->empty);
    }
    PT_END(&b->cons);
}

/* Producer and consumer run in turns until both end (at most 100 rounds);
 * the most items ever in flight. */
static int run_buffer(struct buffer *b) {
    int rounds = 0, p = PT_WAITING, c = PT_WAITING, most = 0;
    memset(b, 0, sizeof *b);
    PT_SEM_INIT(&b->full, 0);
    PT_SEM_INIT(&b->empty, SLOTS);
    PT_INIT(&b->prod);
    PT_INIT(&b->cons);
    while ((PT_SCHEDULE(p) || PT_SCHEDULE(c)) && rounds < 100) {
        if (PT_SCHEDULE(p))
            p = produce(b);
        if (b->produced - b->consumed > most)
            most = b->produced - b->consumed;
        if (PT_SCHEDULE(c))
            c = consume(b);
        rounds++;
    }
    return most;
}

/* Never more in flight than there are slots. */
static void test_semaphore_bounds_the_items_in_flight(void) {
    struct buffer b;
    CHECK(run_buffer(&b) <= SLOTS);
}

/* Every item, once, in order (the consumer checks the order). */
static void test_semaphore_passes_every_item_in_order(void) {
    struct buffer b;
    (void)run_buffer(&b);
    CHECK_EQ_INT(b.consumed, ITEMS);
    CHECK_EQ_INT(b.sum, ITEMS * (ITEMS + 1) / 2);
}

static void test_semaphore_counts_end_where_they_started(void) {
    struct buffer b;
    (void)run_buffer(&b);
    CHECK_EQ_INT(b.full.count, 0);
    CHECK_EQ_INT(b.empty.count, SLOTS);
}

/* --- Two resume points on one line (only where __COUNTER__ names them) - */

#if defined(__COUNTER__) && !(defined(PT_CONFIG_LC_NO_COUNTER) && PT_CONFIG_LC_NO_COUNTER)
static PT_THREAD(two_on_a_line(struct counter *c)) {
    PT_BEGIN(&c->pt);
    /* clang-format off */
    c->ran++; PT_YIELD(&c->pt); c->ran++; PT_YIELD(&c->pt); c->ran++;
    /* clang-format on */
    PT_END(&c->pt);
}

static void test_two_resume_points_on_one_line(void) {
    struct counter c = {{0}, 0, 0};
    PT_INIT(&c.pt);
    CHECK_EQ_INT(two_on_a_line(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 1);
    CHECK_EQ_INT(two_on_a_line(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 2);
    CHECK_EQ_INT(two_on_a_line(&c), PT_ENDED);
    CHECK_EQ_INT(c.ran, 3);
}
#define SAME_LINE_CASES(X) X(two_resume_points_on_one_line)
#else
#define SAME_LINE_CASES(X)
#endif

/* --- With labels as values, switch statements may enclose a yield ----- */

#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
static PT_THREAD(switchy(struct counter *c)) {
    PT_BEGIN(&c->pt);
    for (c->i = 0; c->i < 3; c->i++) {
        switch (c->i) {
        case 1:
            c->ran += 10;
            PT_YIELD(&c->pt);
            c->ran += 100;
            break;
        default:
            c->ran += 1;
            PT_YIELD(&c->pt);
            break;
        }
    }
    PT_END(&c->pt);
}

static void test_switch_may_enclose_a_yield(void) {
    struct counter c = {{0}, 0, 0};
    int stops = 0;
    PT_INIT(&c.pt);
    while (PT_SCHEDULE(switchy(&c)))
        stops++;
    CHECK_EQ_INT(stops, 3);
    CHECK_EQ_INT(c.ran, 1 + 10 + 100 + 1);
}
#define SWITCH_INSIDE_CASES(X) X(switch_may_enclose_a_yield)
#else
#define SWITCH_INSIDE_CASES(X)
#endif

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(yield_stops_once_per_yield)                                                                  \
    X(ended_protothread_starts_over_when_called_again)                                             \
    X(wait_until_a_true_condition_does_not_stop)                                                   \
    X(wait_while_stops_until_the_condition_is_false)                                               \
    X(wait_until_stops_until_the_condition_is_true)                                                \
    X(yield_until_stops_once_even_if_the_condition_holds)                                          \
    X(yield_until_stops_until_the_condition_holds)                                                 \
    X(exit_ends_it_as_exited)                                                                      \
    X(restart_starts_it_over_from_the_top)                                                         \
    X(thread_without_a_resume_point_ends)                                                          \
    X(thread_without_a_resume_point_exits)                                                         \
    X(status_values_are_those_of_1_4)                                                              \
    X(schedule_is_true_until_it_exits_or_ends)                                                     \
    X(spawn_waits_through_each_child_yield)                                                        \
    X(semaphore_bounds_the_items_in_flight)                                                        \
    X(semaphore_passes_every_item_in_order)                                                        \
    X(semaphore_counts_end_where_they_started)                                                     \
    SAME_LINE_CASES(X)                                                                             \
    SWITCH_INSIDE_CASES(X)
/* clang-format on */
TEST_MAIN(TEST_CASES)
