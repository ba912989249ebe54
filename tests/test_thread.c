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

static void test_yield(void) {
    struct counter c = {{0}, 0, 0};
    PT_INIT(&c.pt);
    CHECK_EQ_INT(yield_three(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 1);
    CHECK_EQ_INT(yield_three(&c), PT_YIELDED);
    CHECK_EQ_INT(yield_three(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 3);
    CHECK_EQ_INT(yield_three(&c), PT_ENDED);
    /* As in protothreads 1.4, an ended protothread is re-initialised: the
     * next call starts it over. */
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

static void test_wait(void) {
    struct waiter w = {{0}, 1, 0};
    PT_INIT(&w.pt);
    /* flag already set: through the first wait without stopping */
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING);
    CHECK_EQ_INT(w.passed, 1);
    CHECK_EQ_INT(wait_flag(&w), PT_WAITING); /* still set: still waiting */
    w.flag = 0;
    CHECK_EQ_INT(wait_flag(&w), PT_ENDED);
    CHECK_EQ_INT(w.passed, 2);

    PT_INIT(&w.pt);
    w.passed = 0;
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

static void test_yield_until(void) {
    struct waiter w = {{0}, 1, 0};
    PT_INIT(&w.pt);
    CHECK_EQ_INT(yield_until_flag(&w), PT_YIELDED);
    CHECK_EQ_INT(w.passed, 0);
    CHECK_EQ_INT(yield_until_flag(&w), PT_ENDED);
    CHECK_EQ_INT(w.passed, 1);

    w.flag = 0;
    w.passed = 0;
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

static void test_exit_restart(void) {
    struct stepper s = {{0}, 0, 3, 0};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(step_until(&s), PT_YIELDED);
    CHECK_EQ_INT(step_until(&s), PT_YIELDED);
    CHECK_EQ_INT(step_until(&s), PT_EXITED);
    CHECK_EQ_INT(s.step, 3);
    CHECK(!PT_SCHEDULE(PT_EXITED));

    s.step = 0;
    s.exit_at = 0;
    s.restart_at = 2;
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

static void test_no_resume_point(void) {
    struct stepper s = {{0}, 0, 0, 0};
    PT_INIT(&s.pt);
    CHECK_EQ_INT(no_stop(&s), PT_ENDED);
    s.exit_at = 1;
    CHECK_EQ_INT(no_stop(&s), PT_EXITED);
    CHECK_EQ_INT(s.step, 2);
}

/* --- Status values and PT_SCHEDULE are those of protothreads 1.4 ------- */

static void test_status_values(void) {
    CHECK_EQ_INT(PT_WAITING, 0);
    CHECK_EQ_INT(PT_YIELDED, 1);
    CHECK_EQ_INT(PT_EXITED, 2);
    CHECK_EQ_INT(PT_ENDED, 3);
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

static void test_spawn(void) {
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

static void test_semaphore(void) {
    struct buffer b = {{0}, {0}, {0}, 0, 0, 0, 0, 0, {0}, {0}};
    int rounds = 0, p = PT_WAITING, c = PT_WAITING;
    PT_SEM_INIT(&b.full, 0);
    PT_SEM_INIT(&b.empty, SLOTS);
    PT_INIT(&b.prod);
    PT_INIT(&b.cons);
    while ((PT_SCHEDULE(p) || PT_SCHEDULE(c)) && rounds < 100) {
        if (PT_SCHEDULE(p))
            p = produce(&b);
        /* Never more in flight than there are slots. */
        CHECK(b.produced - b.consumed <= SLOTS);
        if (PT_SCHEDULE(c))
            c = consume(&b);
        rounds++;
    }
    CHECK_EQ_INT(b.consumed, ITEMS);
    CHECK_EQ_INT(b.sum, ITEMS * (ITEMS + 1) / 2);
    CHECK_EQ_INT(b.full.count, 0);
    CHECK_EQ_INT(b.empty.count, SLOTS);
}

/* --- Two resume points on one line (only where __COUNTER__ names them) - */

#if defined(__COUNTER__) && !(defined(PT_LC_NO_COUNTER) && PT_LC_NO_COUNTER)
static PT_THREAD(two_on_a_line(struct counter *c)) {
    PT_BEGIN(&c->pt);
    /* clang-format off */
    c->ran++; PT_YIELD(&c->pt); c->ran++; PT_YIELD(&c->pt); c->ran++;
    /* clang-format on */
    PT_END(&c->pt);
}

static void test_same_line(void) {
    struct counter c = {{0}, 0, 0};
    PT_INIT(&c.pt);
    CHECK_EQ_INT(two_on_a_line(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 1);
    CHECK_EQ_INT(two_on_a_line(&c), PT_YIELDED);
    CHECK_EQ_INT(c.ran, 2);
    CHECK_EQ_INT(two_on_a_line(&c), PT_ENDED);
    CHECK_EQ_INT(c.ran, 3);
}
#define SAME_LINE_CASES(X) X(same_line)
#else
#define SAME_LINE_CASES(X)
#endif

/* --- With labels as values, switch statements may enclose a yield ----- */

#if defined(PT_LC_ADDRLABELS) && PT_LC_ADDRLABELS
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

static void test_switch_inside(void) {
    struct counter c = {{0}, 0, 0};
    int stops = 0;
    PT_INIT(&c.pt);
    while (PT_SCHEDULE(switchy(&c)))
        stops++;
    CHECK_EQ_INT(stops, 3);
    CHECK_EQ_INT(c.ran, 1 + 10 + 100 + 1);
}
#define SWITCH_INSIDE_CASES(X) X(switch_inside)
#else
#define SWITCH_INSIDE_CASES(X)
#endif

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(yield)                                                                                       \
    X(wait)                                                                                        \
    X(yield_until)                                                                                 \
    X(exit_restart)                                                                                \
    X(no_resume_point)                                                                             \
    X(status_values)                                                                               \
    X(spawn)                                                                                       \
    X(semaphore)                                                                                   \
    SAME_LINE_CASES(X)                                                                             \
    SWITCH_INSIDE_CASES(X)
/* clang-format on */
TEST_MAIN(TEST_CASES)
