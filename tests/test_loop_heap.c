/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_heap.c - the timers' order (loop/timers.h) for any
 * number of timers: equal deadlines fire in the order they were set even
 * when more timers than half the heap's sequence numbers' range come
 * between them, and across the renumbering that happens before its counter
 * wraps. On the virtual clock; built wide (32-bit sequence numbers) and
 * narrow (16-bit, as on 32-bit targets) on the host, and with the list
 * (which has no counter: the same order, nothing to renumber).
 */
#include "loop/loop.h"

#include "loop_util.h"
#include "runner.h"

struct sleeper {
    struct pt_task task; /* first member: the loop hands it back */
    int id;
    pt_time_t ticks; /* how long it sleeps */
    pt_time_t woke;  /* loop time it woke at */
};

/* Wake order, by id. */
static int order[16];
static int norder;

/* Sleeps `ticks` once. */
static PT_THREAD(sleep_once(struct pt_loop *loop, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(s->ticks);
    s->woke = pt_loop_now(loop);
    order[norder++] = s->id;
    PT_TASK_END();
}

/* Sets spin_n zero-tick timers one after the other, then sleeps `ticks`
 * (long counters: more than a 16-bit int holds). */
static long spin_i, spin_n;

static PT_THREAD(spin_then_sleep(struct pt_loop *loop, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(loop, task);
    for (spin_i = 0; spin_i < spin_n; spin_i++)
        PT_SLEEP(0);
#if PT_CONFIG_WIDE && PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    /* Stands in for 2^31 more timers, which would take minutes. */
    loop->seq = (pt_seq_t)(loop->seq + 0x80000000u);
#endif
    PT_SLEEP(s->ticks);
    s->woke = pt_loop_now(loop);
    order[norder++] = s->id;
    PT_TASK_END();
}

static void start(struct sleeper *s, int id, pt_time_t ticks, pt_task_fn fn) {
    memset(s, 0, sizeof *s);
    s->id = id;
    s->ticks = ticks;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &s->task, fn), PT_OK);
}

/* Two equal deadlines (100) set with more than half the sequence numbers'
 * range of other timers between them (32,769 with 16-bit numbers). */
static void equal_deadlines_far_apart(struct sleeper *a, struct sleeper *b) {
    setup(0);
    norder = 0;
    spin_n = 32769L;
    start(a, 0, 100, sleep_once);
    start(b, 1, 100, spin_then_sleep);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* They still fire in the order they were set. */
static void test_equal_deadlines_far_apart_fire_in_the_order_set(void) {
    struct sleeper a, b;
    equal_deadlines_far_apart(&a, &b);
    CHECK_EQ_INT(norder, 2);
    CHECK_EQ_INT(order[0], 0);
    CHECK_EQ_INT(order[1], 1);
}

static void test_equal_deadlines_far_apart_fire_on_time(void) {
    struct sleeper a, b;
    equal_deadlines_far_apart(&a, &b);
    CHECK_EQ_INT(a.woke, 100);
    CHECK_EQ_INT(b.woke, 100);
}

/* The heap's counter about to wrap (lp.seq is the next one given) with
 * timers pending: they are renumbered. Deadlines 10, 20, 30, 10, ... */
static void renumber_pending(struct sleeper *s) {
    int i;
    setup(0);
    norder = 0;
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    lp.seq = (pt_seq_t)((pt_seq_t)0 - 4u);
#endif
    for (i = 0; i < 8; i++)
        start(&s[i], i, (pt_time_t)(10 + 10 * (i % 3)), sleep_once);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ... in their order, equal deadlines and all: ids 0 3 6 wake first, then
 * 1 4 7, then 2 5. */
static void test_renumbering_keeps_the_order_of_pending_timers(void) {
    static const int expect[8] = {0, 3, 6, 1, 4, 7, 2, 5};
    struct sleeper s[8];
    int i;
    renumber_pending(s);
    CHECK_EQ_INT(norder, 8);
    for (i = 0; i < 8; i++)
        CHECK_EQ_INT(order[i], expect[i]);
}

static void test_renumbered_timers_fire_on_time(void) {
    struct sleeper s[8];
    int i;
    renumber_pending(s);
    for (i = 0; i < 8; i++)
        CHECK_EQ_INT(s[i].woke, 10 + 10 * (i % 3));
}

/* The count goes on from the pending ones. */
static void test_after_renumbering_the_count_goes_on_from_the_pending(void) {
    struct sleeper s[8];
    renumber_pending(s);
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    CHECK(lp.seq < 16u);
#endif
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A deadline one tick later, set before two at the earlier deadline, fires
 * after both: a smaller sequence number orders equal deadlines only (the
 * heap compares the two in one test, loop/timers/heap.h). */
static void test_a_deadline_one_tick_later_set_first_fires_after(void) {
    struct sleeper s[3];
    setup(0);
    norder = 0;
    start(&s[0], 0, 11, sleep_once);
    start(&s[1], 1, 10, sleep_once);
    start(&s[2], 2, 10, sleep_once);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(norder, 3);
    CHECK_EQ_INT(order[0], 1);
    CHECK_EQ_INT(order[1], 2);
    CHECK_EQ_INT(order[2], 0);
    CHECK_EQ_INT(s[0].woke, 11);
}

/* Sleeps `ticks`, then cancels the task in `id`'s place of `risen`. */
static struct sleeper *risen;

static PT_THREAD(sleep_then_cancel(struct pt_loop *loop, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(s->ticks);
    CHECK_EQ_INT(pt_task_cancel(loop, &risen[s->id].task), PT_OK);
    PT_TASK_END();
}

/* Eight sleepers due at 10, 20, ... 80 and, set last, a task that sleeps
 * 35 and then cancels the one due at 60 (id 5). The three timers due before
 * it have been taken out by then, and each took the entries on its path a
 * level up: the one it cancels went from the sixth slot to the second,
 * while its slot number, in a heap, still names the sixth
 * (loop/timers/heap.h). */
#define RISEN_N 8
#define RISEN_ID 5
static struct sleeper risen_s[RISEN_N], risen_c;

static void cancel_a_risen_timer(void) {
    int i;
    setup(0);
    norder = 0;
    risen = risen_s;
    for (i = 0; i < RISEN_N; i++)
        start(&risen_s[i], i, (pt_time_t)(10 * (i + 1)), sleep_once);
    start(&risen_c, RISEN_ID, 35, sleep_then_cancel);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* It is the one cancelled: it never wakes, and it ends cancelled. */
static void test_a_timer_that_rose_as_earlier_ones_fired_is_cancelled_where_it_is(void) {
    cancel_a_risen_timer();
    CHECK_EQ_INT(pt_task_status(&risen_s[RISEN_ID].task), PT_CLOSED);
    CHECK_EQ_INT(risen_s[RISEN_ID].woke, 0);
}

/* ... and every other timer fires once, on time, in its order. */
static void test_cancelling_a_risen_timer_leaves_the_others_in_order(void) {
    int i, n = 0;
    cancel_a_risen_timer();
    CHECK_EQ_INT(norder, RISEN_N - 1);
    for (i = 0; i < RISEN_N; i++) {
        if (i == RISEN_ID)
            continue;
        CHECK_EQ_INT(order[n++], i);
        CHECK_EQ_INT(risen_s[i].woke, 10 * (i + 1));
    }
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A task with a heap timer costs no more memory than one without: where
 * the value slot's alignment leaves four bytes free in struct pt_gen (a
 * 64-bit target), the slot number lives there, and the deadline lives in
 * the slot only. The generator is as big as one without that word, and a
 * task is its generator and four words (up, queue link, function, spawn
 * mark). */
#if PT_CONFIG_GEN_AUX32
struct gen_without_aux32 {
    pt_lc_t lc;
    unsigned char state, aux;
    pt_value value, ret;
};
#endif

static void test_a_task_with_a_heap_timer_is_no_bigger_on_a_64_bit_target(void) {
#if PT_CONFIG_GEN_AUX32
    CHECK_EQ_INT(sizeof(struct pt_gen), sizeof(struct gen_without_aux32));
#if !PT_CONFIG_DEBUG && PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    CHECK_EQ_INT(sizeof(struct pt_task), sizeof(struct pt_gen) + 4 * sizeof(void *));
#endif
#endif
}

/* ... because the slot number is in that word: a lone sleeper is in slot
 * 1 while it sleeps, and in none once it has woken. */
static void test_a_sleepers_slot_number_is_in_its_generators_spare_word(void) {
    struct sleeper s;
    setup(0);
    norder = 0;
    start(&s, 0, 10, sleep_once);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK);
    CHECK_EQ_INT(pt_loop_timers(&lp), 1);
#if PT_CONFIG_GEN_AUX32 && PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    CHECK_EQ_INT(s.task.gen.aux32, 1);
#endif
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(s.woke, 10);
#if PT_CONFIG_GEN_AUX32 && PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    CHECK_EQ_INT(s.task.gen.aux32, 0);
#endif
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(equal_deadlines_far_apart_fire_in_the_order_set)                                             \
    X(equal_deadlines_far_apart_fire_on_time)                                                      \
    X(renumbering_keeps_the_order_of_pending_timers)                                               \
    X(renumbered_timers_fire_on_time)                                                              \
    X(after_renumbering_the_count_goes_on_from_the_pending)                                        \
    X(a_deadline_one_tick_later_set_first_fires_after)                                             \
    X(a_timer_that_rose_as_earlier_ones_fired_is_cancelled_where_it_is)                            \
    X(cancelling_a_risen_timer_leaves_the_others_in_order)                                         \
    X(a_task_with_a_heap_timer_is_no_bigger_on_a_64_bit_target)                                    \
    X(a_sleepers_slot_number_is_in_its_generators_spare_word)
/* clang-format on */
TEST_MAIN(TEST_CASES)
