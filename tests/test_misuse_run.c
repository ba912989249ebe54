/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_misuse_run.c - misuse that C lets compile is caught when it
 * happens: a resume point inside a switch of the body's own (the switch
 * back end's dispatch cannot reach it: the body ends with PT_EXITED, a
 * generator with PT_GEN_ELOST, a loop task with PT_ELOST; with the
 * addrlabels back end such a switch simply works), and a task body that
 * leaves by a plain `return` (it fails with PT_ERETURN, its cleanup runs,
 * its joiner sees PT_EFAILED, and the loop is never stuck re-entering it).
 * pt/compat keeps 1.4's rule. The compile-time half:
 * tests/misuse/default_in_body.c. On the virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"

#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
#define SWITCH_WORKS 1 /* labels as values: a switch may enclose a wait */
#else
#define SWITCH_WORKS 0
#endif

/* The body's own switch takes this case: a value that no resume point's
 * number (a counter, or a line) can take. */
enum { MODE = 30000 };

struct m {
    struct pt_task task; /* first member: the loop hands it back */
    struct pt pt;
    struct pt_gen gen, sub;
    long mode;
    int before, inside, after, cleanups, sub_cleanups, result;
    struct m *other;
};

static void m_init(struct m *k) {
    memset(k, 0, sizeof *k);
    k->mode = MODE;
}

/* Runs the loop one iteration at a time, at most `n` of them, until t
 * has finished: a task entered again and again fails this, never hangs. */
static int finished_within(struct pt_task *t, int n) {
    while (n-- > 0 && !pt_task_done(t))
        CHECK_EQ_INT(pt_loop_run_once(&lp, 1), PT_OK);
    return pt_task_done(t);
}

/* ---- a resume point inside a switch of the body's own ----------------- */

static PT_THREAD(plain_switch(struct m *k)) {
    PT_BEGIN(&k->pt);
    k->before++;
    switch (k->mode) {
    case MODE:
        PT_YIELD(&k->pt);
        k->inside++;
        break;
    }
    k->after++;
    PT_END(&k->pt);
}

static void test_protothread_resumed_inside_a_switch_of_its_own(void) {
    struct m k;
    m_init(&k);
    PT_INIT(&k.pt);
    CHECK_EQ_INT(plain_switch(&k), PT_YIELDED);
#if SWITCH_WORKS
    CHECK_EQ_INT(plain_switch(&k), PT_ENDED);
    CHECK_EQ_INT(k.inside, 1);
    CHECK_EQ_INT(k.after, 1);
#else /* exits, as PT_EXIT: not a normal end, and nothing more runs */
    CHECK_EQ_INT(plain_switch(&k), PT_EXITED);
    CHECK_EQ_INT(k.inside, 0);
    CHECK_EQ_INT(k.after, 0);
#endif
    CHECK_EQ_INT(k.before, 1);
}

static PT_THREAD(gen_switch(struct m *k)) {
    struct pt_gen *g = &k->gen;
    PT_GEN_BEGIN(g);
    switch (k->mode) {
    case MODE:
        PT_YIELD_VALUE(g, pt_value_int(1));
        k->inside++;
        break;
    }
    PT_RETURN(g, pt_value_int(7));
    PT_CLEANUP(g);
    k->cleanups++;
    PT_GEN_END(g);
}

static void test_generator_resumed_inside_a_switch_of_its_own(void) {
    struct m k;
    m_init(&k);
    pt_gen_init(&k.gen);
    CHECK_EQ_INT(pt_gen_next(&k.gen, gen_switch(&k)), PT_YIELDED);
#if SWITCH_WORKS
    CHECK_EQ_INT(pt_gen_next(&k.gen, gen_switch(&k)), PT_ENDED);
    CHECK_EQ_INT(k.gen.value.i, 7);
    CHECK_EQ_INT(k.inside, 1);
#else /* fails with PT_GEN_ELOST, after its cleanup */
    CHECK_EQ_INT(pt_gen_next(&k.gen, gen_switch(&k)), PT_EXITED);
    CHECK_EQ_INT(k.gen.value.i, PT_GEN_ELOST);
    CHECK_EQ_INT(k.inside, 0);
#endif
    CHECK_EQ_INT(k.cleanups, 1);
}

static PT_THREAD(task_switch(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    switch (k->mode) {
    case MODE:
        PT_SLEEP(5);
        k->inside++;
        break;
    }
    PT_TASK_RETURN(pt_value_int(7));
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

static PT_THREAD(joiner(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* k runs body, j joins it. */
static void spawn_with_joiner(struct m *k, struct m *j, pt_task_fn body) {
    setup(0);
    m_init(k);
    m_init(j);
    j->other = k;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &k->task, body), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &j->task, joiner), PT_OK);
}

static void test_task_resumed_inside_a_switch_of_its_own(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, task_switch);
    CHECK(finished_within(&k.task, 20));
    if (!pt_task_done(&k.task))
        return;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
#if SWITCH_WORKS
    CHECK_EQ_INT(pt_task_status(&k.task), PT_ENDED);
    CHECK_EQ_INT(j.result, PT_OK);
    CHECK_EQ_INT(k.inside, 1);
#else /* fails with PT_ELOST, after its cleanup */
    CHECK_EQ_INT(pt_task_status(&k.task), PT_EXITED);
    CHECK_EQ_INT(pt_task_error(&k.task), PT_ELOST);
    CHECK_EQ_INT(j.result, PT_EFAILED);
    CHECK_EQ_INT(k.inside, 0);
#endif
    CHECK_EQ_INT(k.cleanups, 1);
}

/* ---- a body that leaves by a plain return ----------------------------- */

static PT_THREAD(returns_0(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    k->before++;
    PT_TASK_YIELD();
    if (k->mode)
        return 0; /* the misuse: not PT_TASK_RETURN */
    k->after++;
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

static PT_THREAD(returns_ended(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    k->before++;
    PT_SLEEP(3);
    if (k->mode)
        return PT_ENDED; /* the misuse: a status, but not through the macros */
    k->after++;
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

/* The task failed with PT_ERETURN: its joiner saw PT_EFAILED, its cleanup
 * ran once, and nothing after the return. */
static void check_ereturn(struct m *k, struct m *j) {
    CHECK(finished_within(&k->task, 20));
    if (!pt_task_done(&k->task))
        return; /* (the loop would re-enter it for ever) */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&k->task), PT_EXITED);
    CHECK_EQ_INT(pt_task_error(&k->task), PT_ERETURN);
    CHECK_EQ_INT(j->result, PT_EFAILED);
    CHECK_EQ_INT(k->before, 1);
    CHECK_EQ_INT(k->after, 0);
    CHECK_EQ_INT(k->cleanups, 1);
}

static void test_task_returning_0_mid_body_fails_with_ereturn(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, returns_0);
    check_ereturn(&k, &j);
}

static void test_task_returning_pt_ended_mid_body_fails_with_ereturn(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, returns_ended);
    check_ereturn(&k, &j);
}

static PT_THREAD(cleanup_returns(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    k->before++;
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_YIELD();
    if (k->mode)
        return 0; /* the misuse, in the cleanup section */
    k->after++;
    PT_TASK_END();
}

static void test_task_returning_in_its_cleanup_fails_with_ereturn_at_once(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, cleanup_returns);
    check_ereturn(&k, &j);
}

static PT_THREAD(sub_returns(struct pt_loop *loop, struct pt_task *task, struct pt_gen *g)) {
    struct m *k = (struct m *)task;
    PT_SUB_BEGIN(loop, task, g);
    PT_SLEEP(2);
    if (k->mode == MODE)
        return 0; /* the misuse, in a sub-coroutine */
    if (k->mode)
        return PT_ENDED;
    PT_TASK_CLEANUP();
    k->sub_cleanups++;
    PT_SUB_END();
}

static PT_THREAD(awaits_sub(struct pt_loop *loop, struct pt_task *task)) {
    struct m *k = (struct m *)task;
    PT_TASK_BEGIN(loop, task);
    k->before++;
    PT_AWAIT(&task->gen, &k->sub, sub_returns(loop, task, &k->sub));
    k->after++;
    PT_TASK_CLEANUP();
    k->cleanups++;
    PT_TASK_END();
}

static void test_sub_coroutine_returning_0_fails_its_task_with_ereturn(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, awaits_sub);
    check_ereturn(&k, &j);
}

static void test_sub_coroutine_returning_pt_ended_fails_its_task_with_ereturn(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, awaits_sub);
    k.mode = 1;
    check_ereturn(&k, &j);
}

static void test_sub_coroutine_stops_pass_through_its_task(void) {
    struct m k, j;
    spawn_with_joiner(&k, &j, awaits_sub);
    k.mode = 0; /* no misuse: it sleeps and ends */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&k.task), PT_ENDED);
    CHECK_EQ_INT(j.result, PT_OK);
    CHECK_EQ_INT(k.after, 1);
    CHECK_EQ_INT(k.sub_cleanups, 1);
    CHECK_EQ_INT((long)pt_loop_now(&lp), 2);
}

/* ---- pt/compat keeps protothreads 1.4's rule ---------------------------- */

/* From here on PT_BEGIN is 1.4's (a program written for 1.4 includes only
 * this header): a resume its dispatch does not hold leaves the dispatch,
 * and the function ends as at PT_END. */
#include "pt/compat/pt.h"

static PT_THREAD(compat_switch(struct m *k)) {
    PT_BEGIN(&k->pt);
    k->before++;
    switch (k->mode) {
    case MODE:
        PT_YIELD(&k->pt);
        k->inside++;
        break;
    }
    k->after++;
    PT_END(&k->pt);
}

static void test_compat_protothread_resumed_inside_a_switch_ends_as_in_1_4(void) {
    struct m k;
    m_init(&k);
    PT_INIT(&k.pt);
    CHECK_EQ_INT(compat_switch(&k), PT_YIELDED);
    CHECK_EQ_INT(compat_switch(&k), PT_ENDED);
    CHECK_EQ_INT(k.inside, SWITCH_WORKS);
    CHECK_EQ_INT(k.after, SWITCH_WORKS);
}

#define TEST_CASES(X)                                                                              \
    X(protothread_resumed_inside_a_switch_of_its_own)                                              \
    X(generator_resumed_inside_a_switch_of_its_own)                                                \
    X(task_resumed_inside_a_switch_of_its_own)                                                     \
    X(task_returning_0_mid_body_fails_with_ereturn)                                                \
    X(task_returning_pt_ended_mid_body_fails_with_ereturn)                                         \
    X(task_returning_in_its_cleanup_fails_with_ereturn_at_once)                                    \
    X(sub_coroutine_returning_0_fails_its_task_with_ereturn)                                       \
    X(sub_coroutine_returning_pt_ended_fails_its_task_with_ereturn)                                \
    X(sub_coroutine_stops_pass_through_its_task)                                                   \
    X(compat_protothread_resumed_inside_a_switch_ends_as_in_1_4)

TEST_MAIN(TEST_CASES)
