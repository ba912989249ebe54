/*
 * tests/test_gen.c - the contract of generators (pt/gen.h): the send /
 * yield / return protocol, await (delegation), close and cleanup.
 */
#include "pt/pt.h"

#include "check.h"

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
        PT_YIELD_VALUE(g, pt_int(2 * g->value.i));
    }
    PT_RETURN(g, pt_int(d->sum));
    PT_GEN_END(g);
}

static void test_send_yield_return(void) {
    struct doubler d;
    d.started = 0;
    pt_gen_init(&d.gen);
    CHECK_EQ_INT(d.started, 0); /* created, not run */
    CHECK(!pt_gen_done(&d.gen));
    CHECK_EQ_INT(PT_SEND(&d.gen, pt_int(3), doubler(&d)), PT_YIELDED);
    CHECK_EQ_INT(d.started, 1);
    CHECK_EQ_INT(d.gen.value.i, 6);
    CHECK_EQ_INT(PT_SEND(&d.gen, pt_int(4), doubler(&d)), PT_YIELDED);
    CHECK_EQ_INT(d.gen.value.i, 8);
    CHECK_EQ_INT(PT_SEND(&d.gen, pt_int(0), doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(d.gen.value.i, 7); /* StopIteration.value */
    CHECK(pt_gen_done(&d.gen));
    CHECK_EQ_INT(pt_gen_status(&d.gen), PT_ENDED);
    /* Finished: further sends return the final status, run nothing and
     * leave the result alone. */
    CHECK_EQ_INT(PT_SEND(&d.gen, pt_int(9), doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(PT_NEXT(&d.gen, doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(doubler(&d), PT_ENDED); /* even called directly */
    CHECK_EQ_INT(d.gen.value.i, 7);
    CHECK_EQ_INT(d.started, 1);
    /* Closing a finished generator changes nothing. */
    CHECK_EQ_INT(PT_CLOSE(&d.gen, doubler(&d)), PT_ENDED);
    CHECK_EQ_INT(d.gen.value.i, 7);
    /* Initialised again, it is a new generator. */
    pt_gen_init(&d.gen);
    CHECK_EQ_INT(PT_SEND(&d.gen, pt_int(0), doubler(&d)), PT_ENDED);
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
    PT_YIELD_VALUE(g, pt_int(1));
    if (f->how == 1)
        PT_EXIT(g);
    if (f->how == 2)
        PT_RETURN(g, pt_str("result"));
    PT_CLEANUP(g);
    f->cleaned++;
    PT_GEN_END(g);
}

static void test_finish(void) {
    static const char expect_status[3] = {PT_ENDED, PT_EXITED, PT_ENDED};
    struct finisher f;
    for (f.how = 0; f.how < 3; f.how++) {
        f.cleaned = 0;
        pt_gen_init(&f.gen);
        CHECK_EQ_INT(PT_NEXT(&f.gen, finisher(&f)), PT_YIELDED);
        CHECK_EQ_INT(f.gen.value.i, 1);
        CHECK_EQ_INT(PT_SEND(&f.gen, pt_int(42), finisher(&f)), expect_status[f.how]);
        CHECK_EQ_INT(f.cleaned, 1);
        if (f.how == 2)
            CHECK_EQ_STR(f.gen.value.s, "result");
        else
            CHECK_EQ_INT(f.gen.value.i, 0); /* no result: None */
        CHECK_EQ_INT(PT_NEXT(&f.gen, finisher(&f)), expect_status[f.how]);
        CHECK_EQ_INT(f.cleaned, 1);
    }
}

/* --- close: cleanup once, then "closed" for good ----------------------- */

static void test_close(void) {
    struct finisher f;
    f.how = 0;
    f.cleaned = 0;
    pt_gen_init(&f.gen);
    CHECK_EQ_INT(PT_NEXT(&f.gen, finisher(&f)), PT_YIELDED);
    CHECK_EQ_INT(PT_CLOSE(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 1);
    CHECK_EQ_INT(pt_gen_status(&f.gen), PT_CLOSED);
    CHECK_EQ_INT(PT_NEXT(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(PT_SEND(&f.gen, pt_int(5), finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(PT_CLOSE(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 1);

    /* Never started: closed without running anything, as in Python. */
    f.cleaned = 0;
    pt_gen_init(&f.gen);
    CHECK_EQ_INT(PT_CLOSE(&f.gen, finisher(&f)), PT_CLOSED);
    CHECK_EQ_INT(f.cleaned, 0);
    CHECK_EQ_INT(PT_NEXT(&f.gen, finisher(&f)), PT_CLOSED);
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
        PT_YIELD_VALUE(g, pt_int(10));
        l->got = g->value.i;
        PT_YIELD_VALUE(g, pt_int(l->got + 1));
        PT_RETURN(g, pt_int(l->got * g->value.i));
    }
    PT_AWAIT(g, &l->child->gen, level(l->child));
    l->got = l->child->gen.value.i;
    if (l->depth == 2)
        PT_YIELD_VALUE(g, pt_int(l->got + 100));
    PT_RETURN(g, pt_int(l->got + l->depth));
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

static void test_await_three_deep(void) {
    struct level l[3];
    levels_init(l);
    trace.len = 0;
    /* The innermost yields pass through two parents to the driver... */
    CHECK_EQ_INT(PT_NEXT(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(l[0].gen.value.i, 10);
    /* ...and values sent to the outermost reach the innermost. */
    CHECK_EQ_INT(PT_SEND(&l[0].gen, pt_int(5), level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(l[2].got, 5);
    CHECK_EQ_INT(l[0].gen.value.i, 6);
    /* Innermost returns 5*7 = 35; depth 2 gets it and yields 135. */
    CHECK_EQ_INT(PT_SEND(&l[0].gen, pt_int(7), level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(l[1].got, 35);
    CHECK_EQ_INT(l[0].gen.value.i, 135);
    CHECK_EQ_STR(trace.buf, "c3 ");
    /* Depth 2 returns 35+2; depth 1 returns 37+1. */
    CHECK_EQ_INT(PT_NEXT(&l[0].gen, level(&l[0])), PT_ENDED);
    CHECK_EQ_INT(l[0].gen.value.i, 38);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_ENDED);
    CHECK_EQ_INT(pt_gen_status(&l[1].gen), PT_ENDED);
}

static void test_close_inside_await(void) {
    struct level l[3];
    levels_init(l);
    trace.len = 0;
    CHECK_EQ_INT(PT_NEXT(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(PT_SEND(&l[0].gen, pt_int(5), level(&l[0])), PT_YIELDED);
    /* Suspended in the innermost: cleanups run innermost first, once. */
    CHECK_EQ_INT(PT_CLOSE(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");
    CHECK_EQ_INT(pt_gen_status(&l[2].gen), PT_CLOSED);
    CHECK_EQ_INT(pt_gen_status(&l[1].gen), PT_CLOSED);
    CHECK_EQ_INT(PT_NEXT(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_INT(PT_CLOSE(&l[0].gen, level(&l[0])), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "c3 c2 c1 ");

    /* Suspended in the middle one (depth 2's own yield). */
    levels_init(l);
    trace.len = 0;
    CHECK_EQ_INT(PT_NEXT(&l[0].gen, level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(PT_SEND(&l[0].gen, pt_int(5), level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(PT_SEND(&l[0].gen, pt_int(7), level(&l[0])), PT_YIELDED);
    CHECK_EQ_INT(PT_CLOSE(&l[0].gen, level(&l[0])), PT_CLOSED);
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
    PT_RETURN(g, pt_int(99));
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

static void test_await_wait(void) {
    struct gate s;
    s.open = 0;
    s.passed = 0;
    pt_gen_init(&s.gen);
    CHECK_EQ_INT(PT_NEXT(&s.gen, gate_parent(&s)), PT_WAITING);
    CHECK_EQ_INT(PT_NEXT(&s.gen, gate_parent(&s)), PT_WAITING);
    CHECK_EQ_INT(s.passed, 0);
    s.open = 1;
    /* The second await finds its condition true and does not stop. */
    CHECK_EQ_INT(PT_NEXT(&s.gen, gate_parent(&s)), PT_ENDED);
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
    PT_YIELD_VALUE(g, pt_int(77));
    PT_RETURN(g, pt_int(78));
    PT_GEN_END(g);
}

static PT_THREAD(slow_cleanup(struct slow *s)) {
    struct pt_gen *g = &s->gen;
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_int(1));
    PT_CLEANUP(g);
    s->cleaned++;
    PT_YIELD_VALUE(g, pt_int(2));
    PT_AWAIT(g, &s->child, one_yield(&s->child)); /* not cut short by a close */
    s->awaited = (int)s->child.value.i;
    s->cleaned_tail++;
    PT_GEN_END(g);
}

static void test_cleanup_that_stops(void) {
    struct slow s = {{0}, {0}, 0, 0, 0};
    pt_gen_init(&s.gen);
    CHECK_EQ_INT(PT_NEXT(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    /* Close: the cleanup starts and stops; the generator is not done. */
    CHECK_EQ_INT(PT_CLOSE(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(s.gen.value.i, 2);
    CHECK(!pt_gen_done(&s.gen));
    /* Closing again goes on with the same cleanup, never restarts it. */
    CHECK_EQ_INT(PT_CLOSE(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(s.gen.value.i, 77);
    CHECK_EQ_INT(PT_CLOSE(&s.gen, slow_cleanup(&s)), PT_CLOSED);
    CHECK_EQ_INT(s.cleaned, 1);
    CHECK_EQ_INT(s.cleaned_tail, 1);
    CHECK_EQ_INT(s.awaited, 78);

    /* Normal end into a stopping cleanup: sends drive it to PT_ENDED. */
    s.cleaned = s.cleaned_tail = 0;
    pt_gen_init(&s.gen);
    CHECK_EQ_INT(PT_NEXT(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(PT_NEXT(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(s.gen.value.i, 2);
    CHECK_EQ_INT(PT_NEXT(&s.gen, slow_cleanup(&s)), PT_YIELDED);
    CHECK_EQ_INT(PT_NEXT(&s.gen, slow_cleanup(&s)), PT_ENDED);
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
    PT_RETURN(g, pt_int(42));
    PT_CLEANUP(g);
    PT_YIELD_VALUE(g, pt_int(7));
    r->got = g->value.i;
    PT_GEN_END(g);
}

/* The value slot carries the cleanup's yields both ways, yet the result
 * returned before the cleanup is the one the generator finishes with (as
 * Python's `return 42` in a try whose finally yields). */
static void test_result_survives_cleanup_yield(void) {
    struct ret_then_yield r = {{0}, 0};
    pt_gen_init(&r.gen);
    CHECK_EQ_INT(PT_NEXT(&r.gen, ret_then_yield(&r)), PT_YIELDED);
    CHECK_EQ_INT(r.gen.value.i, 7);
    CHECK_EQ_INT(PT_SEND(&r.gen, pt_int(99), ret_then_yield(&r)), PT_ENDED);
    CHECK_EQ_INT(r.got, 99);
    CHECK_EQ_INT(r.gen.value.i, 42);
}

int main(void) {
    test_send_yield_return();
    test_finish();
    test_close();
    test_await_three_deep();
    test_close_inside_await();
    test_await_wait();
    test_cleanup_that_stops();
    test_result_survives_cleanup_yield();
    return CHECK_DONE();
}
