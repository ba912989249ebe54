/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_gen.c - the contract of generators (pt/gen.h): the send /
 * yield / return protocol, await (delegation), close and cleanup.
 */
#include "pt/pt.h"

#include "runner.h"

static struct check_out trace; /* events in the order they happened */

static void note(const char *what) {
    check_out_puts(&trace, what);
    check_out_puts(&trace, " ");
}

/* --- send in, yield out, return a result ------------------------------ */

struct doubler {
    struct pt_gen gen;
    intptr_t sum;
    int started;
};

/* Yields twice each value sent; on 0 returns the sum of what it got. */
static PT_THREAD(doubler(struct doubler *d)) {
    struct pt_gen *g = &d->gen;
    PT_GEN_BEGIN(g);
    d->started++;
    d->sum = 0;
    while (g->value.i != 0) { /* the first value sent is visible at once */
        d->sum += g->value.i;
        PT_YIELD_VALUE(g, pt_value_int(2 * g->value.i));
    }
    PT_RETURN(g, pt_value_int(d->sum));
    PT_GEN_END(g);
}

static void test_created_generator_has_not_run(void) {
    struct doubler d;
    d.started = 0;
    pt_gen_init(&d.gen);
    CHECK_EQ_INT(d.started, 0); /* created, not run */
    CHECK(!pt_gen_done(&d.gen));
}

/* The doubler sent 3 (yields 6), 4 (yields 8), then 0: it returns 7. */
static void doubler_sent_3_4_0(struct doubler *d) {
    d->started = 0;
    pt_gen_init(&d->gen);
    CHECK_EQ_INT(pt_gen_send(&d->gen, pt_value_int(3), doubler(d)), PT_YIELDED);
    CHECK_EQ_INT(d->gen.value.i, 6);
    CHECK_EQ_INT(pt_gen_send(&d->gen, pt_value_int(4), doubler(d)), PT_YIELDED);
    CHECK_EQ_INT(d->gen.value.i, 8);
    CHECK_EQ_INT(pt_gen_send(&d->gen, pt_value_int(0), doubler(d)), PT_ENDED);
}

/* The first send starts it, and the value sent is visible at once. */
static void test_first_send_starts_it_with_the_value_sent(void) {
    struct doubler d;
    d.started = 0;
    pt_gen_init(&d.gen);
    CHECK_EQ_INT(pt_gen_send(&d.gen, pt_value_int(3), doubler(&d)), PT_YIELDED);
    CHECK_EQ_INT(d.started, 1);
    CHECK_EQ_INT(d.gen.value.i, 6);
}

static void test_each_send_gets_the_next_yielded_value(void) {
    struct doubler d;
    doubler_sent_3_4_0(&d);
    CHECK_EQ_INT(d.started, 1);
}

/* The returned value is the result (StopIteration.value). */
static void test_return_ends_it_with_its_result(void) {
    struct doubler d;
    doubler_sent_3_4_0(&d);
    CHECK_EQ_INT(d.gen.value.i, 7); /* StopIteration.value */
    CHECK(pt_gen_done(&d.gen));
    CHECK_EQ_INT(pt_gen_status(&d.gen), PT_ENDED);
}

/* Finished: further sends return the final status, run nothing and leave
 * the result alone. */
static void test_finished_generator_runs_nothing_more(void) {
    struct doubler d;
    doubler_sent_3_4_0(&d);
    CHECK_EQ_INT(pt_gen_send(&d.gen, pt_value_int(9), doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(pt_gen_next(&d.gen, doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(doubler(&d), PT_ENDED); /* even called directly */
    CHECK_EQ_INT(d.gen.value.i, 7);
    CHECK_EQ_INT(d.started, 1);
}

/* Closing a finished generator changes nothing. */
static void test_close_of_a_finished_generator_changes_nothing(void) {
    struct doubler d;
    doubler_sent_3_4_0(&d);
    CHECK_EQ_INT(pt_gen_close(&d.gen, doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(d.gen.value.i, 7);
}

/* Initialised again, it is a new generator. */
static void test_initialised_again_it_is_a_new_generator(void) {
    struct doubler d;
    doubler_sent_3_4_0(&d);
    pt_gen_init(&d.gen);
    CHECK_EQ_INT(pt_gen_send(&d.gen, pt_value_int(0), doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(d.gen.value.i, 0);
    CHECK_EQ_INT(d.started, 2);
}

/* --- ways to finish: end, PT_EXIT, PT_RETURN; cleanup once each ------- */

struct finisher {
    struct pt_gen gen;
    int how, cleaned;
};

static PT_THREAD(finisher(struct finisher *f)) {
    struct pt_gen *g = &f->gen;
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    if (f->how == 1)
        PT_EXIT(g);
    if (f->how == 2)
        PT_RETURN(g, pt_value_str("result"));
    PT_CLEANUP(g);
    f->cleaned++;
    PT_GEN_END(g);
}

/* Finished (how: 0 at its end, 1 by PT_EXIT, 2 by PT_RETURN) with the
 * status `status`: its cleanup ran once, and stays run. */
static void finish(struct finisher *f, int how, int status) {
    f->how = how;
    f->cleaned = 0;
    pt_gen_init(&f->gen);
    CHECK_EQ_INT(pt_gen_next(&f->gen, finisher(f)), PT_YIELDED);
    CHECK_EQ_INT(f->gen.value.i, 1);
    CHECK_EQ_INT(pt_gen_send(&f->gen, pt_value_int(42), finisher(f)), status);
    CHECK_EQ_INT(f->cleaned, 1);
    CHECK_EQ_INT(pt_gen_next(&f->gen, finisher(f)), status);
    CHECK_EQ_INT(f->cleaned, 1);
}

static void test_end_runs_the_cleanup_once_with_no_result(void) {
    struct finisher f;
    finish(&f, 0, PT_ENDED);
    CHECK_EQ_INT(f.gen.value.i, 0); /* no result: None */
}

static void test_exit_runs_the_cleanup_once_with_no_result(void) {
    struct finisher f;
    finish(&f, 1, PT_EXITED);
    CHECK_EQ_INT(f.gen.value.i, 0);
}

static void test_return_runs_the_cleanup_once_and_keeps_its_result(void) {
    struct finisher f;
    finish(&f, 2, PT_ENDED);
    CHECK_EQ_STR(f.gen.value.s, "result");
}

/* --- close: cleanup once, then "closed" for good ----------------------- */

/* Started, then closed while suspended at its yield. */
static void close_started(struct finisher *f) {
    f->how = 0;
    f->cleaned = 0;
    pt_gen_init(&f->gen);
    CHECK_EQ_INT(pt_gen_next(&f->gen, finisher(f)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_close(&f->gen, finisher(f)), PT_CLOSED);
}

static void test_close_runs_the_cleanup_once(void) {
    struct finisher f;
    close_started(&f);
    CHECK_EQ_INT(f.cleaned, 1);
    CHECK_EQ_INT(pt_gen_status(&f.gen), PT_CLOSED);
}

/* Closed for good: nexts, sends and closes change nothing. */
static void test_closed_generator_stays_closed(void) {
    struct finisher f;
    close_started(&f);
    CHECK_EQ_INT(pt_gen_next(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_send(&f.gen, pt_value_int(5), finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_close(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 1);
}

/* Never started: closed without running anything, as in Python. */
static void test_close_of_an_unstarted_generator_runs_nothing(void) {
    struct finisher f;
    f.how = 0;
    f.cleaned = 0;
    pt_gen_init(&f.gen);
    CHECK_EQ_INT(pt_gen_close(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 0);
    CHECK_EQ_INT(pt_gen_next(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 0);
}

/* --- await, three levels deep ------------------------------------------ */

struct level {
    struct pt_gen gen;
    struct level *child;
    int depth;
    intptr_t got;
};

static const char *const cleanup_names[] = {"c0", "c1", "c2", "c3"};

/*
 * Depth 3 (innermost) yields 10, gets x, yields x+1, gets y, returns x*y.
 * Depths 2 and 1 await their child, yield child's result + 100 (depth 2
 * only), and return child's result + depth. Each notes its cleanup.
 */
static PT_THREAD(level(struct level *l)) {
    struct pt_gen *g = &l->gen;
    PT_GEN_BEGIN(g);
    if (l->depth == 3) {
        PT_YIELD_VALUE(g, pt_value_int(10));
        l->got = g->value.i;
        PT_YIELD_VALUE(g, pt_value_int(l->got + 1));
        PT_RETURN(g, pt_value_int(l->got * g->value.i));
    }
    PT_AWAIT(g, &l->child->gen, level(l->child));
    l->got = l->child->gen.value.i;
    if (l->depth == 2)
        PT_YIELD_VALUE(g, pt_value_int(l->got + 100));
    PT_RETURN(g, pt_value_int(l->got + l->depth));
    PT_CLEANUP(g);
    note(cleanup_names[l->depth]);
    PT_GEN_END(g);
}

static void levels_init(struct level *l) {
    int i;
    for (i = 0; i < 3; i++) {
        l[i].depth = i + 1;
        l[i].child = i < 2 ? &l[i + 1] : 0;
        l[i].got = 0;
    }
    pt_gen_init(&l[0].gen);
}

/* The innermost yields pass through two parents to the driver... */
static void test_await_passes_the_innermost_yield_out(void) {
    struct level l[3];
    levels_init(l);
    trace.len = 0;
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(l[0].gen.value.i, 10);
}

/* ...and values sent to the outermost reach the innermost. */
static void levels_sent_5(struct level *l) {
    levels_init(l);
    trace.len = 0;
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_send(&l[0].gen, pt_value_int(5), level(&l[0])), PT_YIELDED);
}

static void test_await_passes_a_sent_value_in(void) {
    struct level l[3];
    levels_sent_5(l);
    CHECK_EQ_INT(l[2].got, 5);
    CHECK_EQ_INT(l[0].gen.value.i, 6);
}

/* Innermost returns 5*7 = 35; depth 2 gets it and yields 135. */
static void levels_sent_5_7(struct level *l) {
    levels_sent_5(l);
    CHECK_EQ_INT(pt_gen_send(&l[0].gen, pt_value_int(7), level(&l[0])), PT_YIELDED);
}

static void test_await_gives_the_parent_its_childs_result(void) {
    struct level l[3];
    levels_sent_5_7(l);
    CHECK_EQ_INT(l[1].got, 35);
    CHECK_EQ_INT(l[0].gen.value.i, 135);
    CHECK_EQ_STR(trace.buf, "c3 ");
}

/* Depth 2 returns 35+2; depth 1 returns 37+1: cleanups innermost first. */
static void test_await_chain_ends_innermost_first(void) {
    struct level l[3];
    levels_sent_5_7(l);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_ENDED);
    CHECK_EQ_INT(l[0].gen.value.i, 38);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_ENDED);
    CHECK_EQ_INT(pt_gen_status(&l[1].gen), PT_ENDED);
}

/* Suspended in the innermost: cleanups run innermost first, once. */
static void test_close_inside_await_cleans_up_innermost_first(void) {
    struct level l[3];
    levels_sent_5(l);
    CHECK_EQ_INT(pt_gen_close(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_status(&l[1].gen), PT_CLOSED);
}

static void test_closed_await_chain_stays_closed(void) {
    struct level l[3];
    levels_sent_5(l);
    CHECK_EQ_INT(pt_gen_close(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_next(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_close(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
}

/* Suspended in the middle one (depth 2's own yield). */
static void test_close_in_the_middle_level_cleans_up_the_rest(void) {
    struct level l[3];
    levels_sent_5_7(l);
    CHECK_EQ_INT(pt_gen_close(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_ENDED); /* it had finished */
}

/* --- a wait inside a child reaches the driver as PT_WAITING ----------- */

struct gate {
    struct pt_gen gen, child;
    int open, passed;
};

static PT_THREAD(gate_child(struct pt_gen *g, const int *open)) {
    PT_GEN_BEGIN(g);
    PT_WAIT_UNTIL(g, *open);
    PT_RETURN(g, pt_value_int(99));
    PT_GEN_END(g);
}

static PT_THREAD(gate_parent(struct gate *s)) {
    struct pt_gen *g = &s->gen;
    PT_GEN_BEGIN(g);
    PT_AWAIT(g, &s->child, gate_child(&s->child, &s->open));
    s->passed++;
    PT_AWAIT(g, &s->child, gate_child(&s->child, &s->open)); /* no stop */
    s->passed++;
    PT_RETURN(g, s->child.value);
    PT_GEN_END(g);
}

static void gate_closed(struct gate *s) {
    s->open = 0;
    s->passed = 0;
    pt_gen_init(&s->gen);
    CHECK_EQ_INT(pt_gen_next(&s->gen, gate_parent(s)), PT_WAITING);
}

static void test_await_of_a_waiting_child_waits(void) {
    struct gate s;
    gate_closed(&s);
    CHECK_EQ_INT(pt_gen_next(&s.gen, gate_parent(&s)), PT_WAITING);
    CHECK_EQ_INT(s.passed, 0);
}

/* The second await finds its condition true and does not stop. */
static void test_await_of_a_ready_child_does_not_stop(void) {
    struct gate s;
    gate_closed(&s);
    s.open = 1;
    CHECK_EQ_INT(pt_gen_next(&s.gen, gate_parent(&s)), PT_ENDED);
    CHECK_EQ_INT(s.passed, 2);
    CHECK_EQ_INT(s.gen.value.i, 99);
}

/* --- a cleanup that stops, and what a close does to it ------------------ */

struct slow {
    struct pt_gen gen, child;
    int cleaned, cleaned_tail, awaited;
};

static PT_THREAD(one_yield(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(77));
    PT_RETURN(g, pt_value_int(78));
    PT_GEN_END(g);
}

static PT_THREAD(slow_cleanup(struct slow *s)) {
    struct pt_gen *g = &s->gen;
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_int(1));
    PT_CLEANUP(g);
    s->cleaned++;
    PT_YIELD_VALUE(g, pt_value_int(2));
    PT_AWAIT(g, &s->child, one_yield(&s->child)); /* not cut short by a close */
    s->awaited = (int)s->child.value.i;
    s->cleaned_tail++;
    PT_GEN_END(g);
}

/* Close: the cleanup starts and stops; the generator is not done. */
static void close_into_a_stopping_cleanup(struct slow *s) {
    memset(s, 0, sizeof *s);
    pt_gen_init(&s->gen);
    CHECK_EQ_INT(pt_gen_next(&s->gen, slow_cleanup(s)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_close(&s->gen, slow_cleanup(s)), PT_YIELDED);
}

static void test_close_into_a_cleanup_that_stops_is_not_done(void) {
    struct slow s;
    close_into_a_stopping_cleanup(&s);
    CHECK_EQ_INT(s.gen.value.i, 2);
    CHECK(!pt_gen_done(&s.gen));
}

/* Closing again goes on with the same cleanup, never restarts it, and an
 * await in it is not cut short. */
static void test_closing_again_goes_on_with_the_same_cleanup(void) {
    struct slow s;
    close_into_a_stopping_cleanup(&s);
    CHECK_EQ_INT(pt_gen_close(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(s.gen.value.i, 77);
    CHECK_EQ_INT(pt_gen_close(&s.gen, slow_cleanup(&s)), PT_CLOSED);
    CHECK_EQ_INT(s.cleaned, 1);
    CHECK_EQ_INT(s.cleaned_tail, 1);
    CHECK_EQ_INT(s.awaited, 78);
}

/* Normal end into a stopping cleanup: sends drive it to PT_ENDED. */
static void test_end_into_a_cleanup_that_stops_is_driven_by_sends(void) {
    struct slow s = {{0}, {0}, 0, 0, 0};
    pt_gen_init(&s.gen);
    CHECK_EQ_INT(pt_gen_next(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(s.gen.value.i, 2);
    CHECK_EQ_INT(pt_gen_next(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(pt_gen_next(&s.gen, slow_cleanup(&s)), PT_ENDED);
    CHECK_EQ_INT(s.cleaned, 1);
    CHECK_EQ_INT(s.cleaned_tail, 1);
}

/* Returns 42; its cleanup yields 7 and receives what is sent. */
struct ret_then_yield {
    struct pt_gen gen;
    intptr_t got; /* what the cleanup received */
};

static PT_THREAD(ret_then_yield(struct ret_then_yield *r)) {
    struct pt_gen *g = &r->gen;
    PT_GEN_BEGIN(g);
    PT_RETURN(g, pt_value_int(42));
    PT_CLEANUP(g);
    PT_YIELD_VALUE(g, pt_value_int(7));
    r->got = g->value.i;
    PT_GEN_END(g);
}

/* The value slot carries the cleanup's yields both ways, yet the result
 * returned before the cleanup is the one the generator finishes with (as
 * Python's `return 42` in a try whose finally yields). */
static void test_result_survives_a_yield_in_the_cleanup(void) {
    struct ret_then_yield r = {{0}, 0};
    pt_gen_init(&r.gen);
    CHECK_EQ_INT(pt_gen_next(&r.gen, ret_then_yield(&r)), PT_YIELDED);
    CHECK_EQ_INT(r.gen.value.i, 7);
    CHECK_EQ_INT(pt_gen_send(&r.gen, pt_value_int(99), ret_then_yield(&r)), PT_ENDED);
    CHECK_EQ_INT(r.got, 99);
    CHECK_EQ_INT(r.gen.value.i, 42);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(created_generator_has_not_run)                                                               \
    X(first_send_starts_it_with_the_value_sent)                                                    \
    X(each_send_gets_the_next_yielded_value)                                                       \
    X(return_ends_it_with_its_result)                                                              \
    X(finished_generator_runs_nothing_more)                                                        \
    X(close_of_a_finished_generator_changes_nothing)                                               \
    X(initialised_again_it_is_a_new_generator)                                                     \
    X(end_runs_the_cleanup_once_with_no_result)                                                    \
    X(exit_runs_the_cleanup_once_with_no_result)                                                   \
    X(return_runs_the_cleanup_once_and_keeps_its_result)                                           \
    X(close_runs_the_cleanup_once)                                                                 \
    X(closed_generator_stays_closed)                                                               \
    X(close_of_an_unstarted_generator_runs_nothing)                                                \
    X(await_passes_the_innermost_yield_out)                                                        \
    X(await_passes_a_sent_value_in)                                                                \
    X(await_gives_the_parent_its_childs_result)                                                    \
    X(await_chain_ends_innermost_first)                                                            \
    X(close_inside_await_cleans_up_innermost_first)                                                \
    X(closed_await_chain_stays_closed)                                                             \
    X(close_in_the_middle_level_cleans_up_the_rest)                                                \
    X(await_of_a_waiting_child_waits)                                                              \
    X(await_of_a_ready_child_does_not_stop)                                                        \
    X(close_into_a_cleanup_that_stops_is_not_done)                                                 \
    X(closing_again_goes_on_with_the_same_cleanup)                                                 \
    X(end_into_a_cleanup_that_stops_is_driven_by_sends)                                            \
    X(result_survives_a_yield_in_the_cleanup)
/* clang-format on */
TEST_MAIN(TEST_CASES)
