/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_gen_throw.c - the contract of errors in generators (pt/gen.h):
 * pt_gen_throw (g.throw()), pt_gen_thrown at the resume point, PT_FAIL (raise)
 * and PT_AWAIT_RAISE (an exception going up through `await`). Plain
 * generators, no loop; small enough for the boards.
 */
#include "pt/pt.h"

#include "runner.h"

static struct check_out trace; /* events in the order they happened */

static void note(const char *what) {
    check_out_puts(&trace, what);
    check_out_puts(&trace, " ");
}

/* --- throw at a yield: seen there, handled or raised ------------------- */

struct thrower {
    struct pt_gen gen;
    int fail; /* a thrown error: 0 handle it and go on, 1 finish with it (PT_FAIL) */
    int started, handled, after, cleaned;
    intptr_t seen, seen_value; /* pt_gen_thrown and value.i at the 1st resume */
    intptr_t seen2;            /* pt_gen_thrown at the 2nd resume */
};

/* Yields 1; at its resume looks for an error; yields 2; returns 3. */
static PT_THREAD(thrower(struct thrower *t)) {
    struct pt_gen *g = &t->gen;
    PT_GEN_BEGIN(g);
    t->started++;
    PT_YIELD_VALUE(g, pt_value_int(1));
    t->seen = pt_gen_thrown(g);
    t->seen_value = g->value.i;
    if (t->seen) {
        if (t->fail)
            PT_FAIL(g, pt_value_int(t->seen));
        t->handled++;
    }
    PT_YIELD_VALUE(g, pt_value_int(2));
    t->seen2 = pt_gen_thrown(g);
    t->after++;
    PT_RETURN(g, pt_value_int(3));
    PT_CLEANUP(g);
    t->cleaned++;
    PT_GEN_END(g);
}

static void thrower_init(struct thrower *t, int fail) {
    memset(t, 0, sizeof *t);
    t->fail = fail;
    t->seen = t->seen_value = t->seen2 = 99;
    pt_gen_init(&t->gen);
}

/* Started (at its first yield), then -5 thrown in. */
static char thrower_thrown(struct thrower *t, int fail) {
    thrower_init(t, fail);
    CHECK_EQ_INT(pt_gen_next(&t->gen, thrower(t)), PT_YIELDED);
    CHECK_EQ_INT(t->gen.value.i, 1);
    return pt_gen_throw(&t->gen, -5, thrower(t));
}

/* The generator resumes at its yield with pt_gen_thrown and value.i the
 * error. */
static void test_throw_is_seen_at_the_resume_point(void) {
    struct thrower t;
    thrower_thrown(&t, 0);
    CHECK_EQ_INT(t.seen, -5);
    CHECK_EQ_INT(t.seen_value, -5);
    CHECK_EQ_INT(t.started, 1);
}

/* Handled: it goes on and yields again; the driver sees that yield. */
static void test_handled_throw_goes_on_to_the_next_yield(void) {
    struct thrower t;
    CHECK_EQ_INT(thrower_thrown(&t, 0), PT_YIELDED);
    CHECK_EQ_INT(t.gen.value.i, 2);
    CHECK_EQ_INT(t.handled, 1);
    CHECK_EQ_INT(t.cleaned, 0);
    CHECK(!pt_gen_done(&t.gen));
}

/* ... and the error is seen at that resume only: the next send is plain,
 * and it ends as it would have. */
static void test_thrown_error_is_seen_at_that_resume_only(void) {
    struct thrower t;
    thrower_thrown(&t, 0);
    CHECK_EQ_INT(pt_gen_send(&t.gen, pt_value_int(8), thrower(&t)), PT_ENDED);
    CHECK_EQ_INT(t.seen2, 0);
    CHECK_EQ_INT(t.gen.value.i, 3);
    CHECK_EQ_INT(t.cleaned, 1);
}

/* Not handled: PT_FAIL finishes it PT_EXITED with the error as its value,
 * after its cleanup (once). */
static void test_throw_raised_with_pt_fail_exits_with_the_error(void) {
    struct thrower t;
    CHECK_EQ_INT(thrower_thrown(&t, 1), PT_EXITED);
    CHECK_EQ_INT(pt_gen_status(&t.gen), PT_EXITED);
    CHECK_EQ_INT(t.gen.value.i, -5);
    CHECK_EQ_INT(t.cleaned, 1);
    CHECK_EQ_INT(t.after, 0);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_EXITED); /* finished for good */
    CHECK_EQ_INT(t.gen.value.i, -5);
    CHECK_EQ_INT(t.cleaned, 1);
}

/* Not started: it fails with the error without running (as in Python). */
static void test_throw_into_an_unstarted_generator_fails_it_without_running(void) {
    struct thrower t;
    thrower_init(&t, 0);
    CHECK_EQ_INT(pt_gen_throw(&t.gen, -5, thrower(&t)), PT_EXITED);
    CHECK_EQ_INT(t.started, 0);
    CHECK_EQ_INT(t.cleaned, 0);
    CHECK_EQ_INT(t.gen.value.i, -5);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_EXITED);
    CHECK_EQ_INT(t.started, 0);
}

/* Finished: the throw returns its final status and changes nothing. */
static void test_throw_into_a_finished_generator_changes_nothing(void) {
    struct thrower t;
    thrower_init(&t, 0);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_ENDED);
    CHECK_EQ_INT(pt_gen_throw(&t.gen, -5, thrower(&t)), PT_ENDED);
    CHECK_EQ_INT(pt_gen_status(&t.gen), PT_ENDED);
    CHECK_EQ_INT(t.gen.value.i, 3);
    CHECK_EQ_INT(t.cleaned, 1);
    CHECK_EQ_INT(t.after, 1);
}

/* A plain send leaves pt_gen_thrown 0, the value sent in value.i. */
static void test_thrown_is_0_after_a_plain_send(void) {
    struct thrower t;
    thrower_init(&t, 0);
    CHECK_EQ_INT(pt_gen_next(&t.gen, thrower(&t)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_send(&t.gen, pt_value_int(7), thrower(&t)), PT_YIELDED);
    CHECK_EQ_INT(t.seen, 0);
    CHECK_EQ_INT(t.seen_value, 7);
    CHECK_EQ_INT(t.handled, 0);
}

/* --- throw into an await chain, three levels deep ----------------------- */

struct level {
    struct pt_gen gen;
    struct level *child;
    int depth;
    int raise; /* depths 1, 2: PT_AWAIT_RAISE rather than PT_AWAIT */
    int fail;  /* depth 3: 0 handles a throw, 1 fails with it, 2 fails with -8 at once */
    int after; /* went on past its await (depths 1, 2) */
    intptr_t seen;
};

static const char *const cleanup_names[] = {"c0", "c1", "c2", "c3"};

/* Depth 3 yields 10, looks for a thrown error, yields 20, returns 30.
 * Depths 2 and 1 await their child, note pt_gen_thrown after it, and
 * return the child's value + depth. Each notes its cleanup. */
static PT_THREAD(level(struct level *l)) {
    struct pt_gen *g = &l->gen;
    PT_GEN_BEGIN(g);
    if (l->depth == 3) {
        if (l->fail == 2)
            PT_FAIL(g, pt_value_int(-8));
        PT_YIELD_VALUE(g, pt_value_int(10));
        l->seen = pt_gen_thrown(g);
        if (l->seen && l->fail)
            PT_FAIL(g, pt_value_int(l->seen));
        PT_YIELD_VALUE(g, pt_value_int(20));
        PT_RETURN(g, pt_value_int(30));
    }
    if (l->raise)
        PT_AWAIT_RAISE(g, &l->child->gen, level(l->child));
    else
        PT_AWAIT(g, &l->child->gen, level(l->child));
    l->seen = pt_gen_thrown(g);
    l->after++;
    PT_RETURN(g, pt_value_int(l->child->gen.value.i + l->depth));
    PT_CLEANUP(g);
    note(cleanup_names[l->depth]);
    PT_GEN_END(g);
}

static void levels_init(struct level *l, int raise, int fail) {
    int i;
    memset(l, 0, 3 * sizeof *l);
    for (i = 0; i < 3; i++) {
        l[i].depth = i + 1;
        l[i].child = i < 2 ? &l[i + 1] : 0;
        l[i].raise = raise;
        l[i].fail = fail;
        l[i].seen = 99;
    }
    pt_gen_init(&l[0].gen);
    trace.len = 0;
    trace.buf[0] = '\0';
}

/* Started (stopped at the innermost yield 10), then -6 thrown into the
 * outermost. */
static char levels_thrown(struct level *l, int raise, int fail) {
    levels_init(l, raise, fail);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(l[0].gen.value.i, 10);
    return pt_gen_throw(&l[0].gen, -6, level(&l[0]));
}

/* The error goes down to the innermost child, which handles it and
 * yields again; the parents, still in their awaits, see nothing. */
static void test_throw_inside_await_goes_to_the_innermost_child(void) {
    struct level l[3];
    CHECK_EQ_INT(levels_thrown(l, 0, 0), PT_YIELDED);
    CHECK_EQ_INT(l[2].seen, -6);
    CHECK_EQ_INT(l[0].gen.value.i, 20);
    CHECK_EQ_INT(l[0].after, 0);
    CHECK_EQ_INT(l[1].after, 0);
    CHECK_EQ_STR(trace.buf, "");
}

/* ... and once it was handled, the chain ends as it would have, no
 * parent seeing the error after its await. */
static void test_throw_handled_by_the_child_is_not_seen_by_its_parents(void) {
    struct level l[3];
    levels_thrown(l, 0, 0);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_ENDED);
    CHECK_EQ_INT(l[0].gen.value.i, 33); /* 30 + 2 + 1 */
    CHECK_EQ_INT(l[1].seen, 0);
    CHECK_EQ_INT(l[0].seen, 0);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
}

/* The child fails with it; a plain PT_AWAIT goes on after the child with
 * the child's status and value to look at. */
static void test_child_failed_by_a_throw_ends_a_plain_await(void) {
    struct level l[3];
    CHECK_EQ_INT(levels_thrown(l, 0, 1), PT_ENDED);
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_EXITED);
    CHECK_EQ_INT(l[2].gen.value.i, -6);
    CHECK_EQ_INT(l[1].after, 1);
    CHECK_EQ_INT(l[1].seen, 0);
    CHECK_EQ_INT(pt_gen_status(&l[0].gen), PT_ENDED);
    CHECK_EQ_INT(l[0].gen.value.i, -6 + 2 + 1);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
}

/* PT_AWAIT_RAISE passes the child's failure up: every level fails with
 * the error, cleanups innermost first, nothing after the awaits runs. */
static void test_await_raise_propagates_a_thrown_failure_up(void) {
    struct level l[3];
    CHECK_EQ_INT(levels_thrown(l, 1, 1), PT_EXITED);
    CHECK_EQ_INT(l[0].gen.value.i, -6);
    CHECK_EQ_INT(pt_gen_status(&l[1].gen), PT_EXITED);
    CHECK_EQ_INT(l[1].gen.value.i, -6);
    CHECK_EQ_INT(l[0].after + l[1].after, 0);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
}

/* ... also a failure of the child's own (no throw), on its first run. */
static void test_await_raise_propagates_a_childs_own_failure(void) {
    struct level l[3];
    levels_init(l, 1, 2);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_EXITED);
    CHECK_EQ_INT(l[0].gen.value.i, -8);
    CHECK_EQ_INT(l[0].after + l[1].after, 0);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
}

/* PT_AWAIT_RAISE of a child that ends well goes on as PT_AWAIT. */
static void test_await_raise_of_a_child_that_ends_well_goes_on(void) {
    struct level l[3];
    levels_init(l, 1, 0);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_ENDED);
    CHECK_EQ_INT(l[0].gen.value.i, 33);
    CHECK_EQ_INT(l[0].after + l[1].after, 2);
}

/* --- throw into the cleanup section ------------------------------------- */

struct cleaner {
    struct pt_gen gen;
    int cleaned, tail;
};

/* Returns 42; its cleanup yields 2, then 3. */
static PT_THREAD(cleaner(struct cleaner *c)) {
    struct pt_gen *g = &c->gen;
    PT_GEN_BEGIN(g);
    PT_RETURN(g, pt_value_int(42));
    PT_CLEANUP(g);
    c->cleaned++;
    PT_YIELD_VALUE(g, pt_value_int(2));
    PT_YIELD_VALUE(g, pt_value_int(3));
    c->tail++;
    PT_GEN_END(g);
}

/* Stopped at the cleanup's first yield, -4 thrown in: the cleanup goes on
 * (to its next yield), runs to its end, and then the generator fails with
 * the error, which replaces the result it had returned. */
static void test_throw_in_the_cleanup_lets_it_finish_then_fails(void) {
    struct cleaner c;
    memset(&c, 0, sizeof c);
    pt_gen_init(&c.gen);
    CHECK_EQ_INT(pt_gen_next(&c.gen, cleaner(&c)), PT_YIELDED);
    CHECK_EQ_INT(c.gen.value.i, 2);
    CHECK_EQ_INT(pt_gen_throw(&c.gen, -4, cleaner(&c)), PT_YIELDED);
    CHECK_EQ_INT(c.gen.value.i, 3);
    CHECK_EQ_INT(c.tail, 0);
    CHECK_EQ_INT(pt_gen_next(&c.gen, cleaner(&c)), PT_EXITED);
    CHECK_EQ_INT(c.gen.value.i, -4);
    CHECK_EQ_INT(c.cleaned, 1);
    CHECK_EQ_INT(c.tail, 1);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(throw_is_seen_at_the_resume_point)                                                           \
    X(handled_throw_goes_on_to_the_next_yield)                                                     \
    X(thrown_error_is_seen_at_that_resume_only)                                                    \
    X(throw_raised_with_pt_fail_exits_with_the_error)                                              \
    X(throw_into_an_unstarted_generator_fails_it_without_running)                                  \
    X(throw_into_a_finished_generator_changes_nothing)                                             \
    X(thrown_is_0_after_a_plain_send)                                                              \
    X(throw_inside_await_goes_to_the_innermost_child)                                              \
    X(throw_handled_by_the_child_is_not_seen_by_its_parents)                                       \
    X(child_failed_by_a_throw_ends_a_plain_await)                                                  \
    X(await_raise_propagates_a_thrown_failure_up)                                                  \
    X(await_raise_propagates_a_childs_own_failure)                                                 \
    X(await_raise_of_a_child_that_ends_well_goes_on)                                               \
    X(throw_in_the_cleanup_lets_it_finish_then_fails)
/* clang-format on */
TEST_MAIN(TEST_CASES)
