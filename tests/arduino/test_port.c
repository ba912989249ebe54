/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/arduino/test_port.c - the contract of the Arduino port
 * (loop/port/arduino.h), on an Uno's Arduino core under simavr: the loop's
 * clock is millis(), its deadlines hold across millis()'s wrap, its idle
 * sleeps until the next interrupt and calls yield(), and Timer0 stays the
 * core's. The times are simulated time, on the core's own Timer0.
 *
 * A C file, so the port is checked from C here and from C++ by the example
 * sketch. It includes loop/loop.h only: with ARDUINO defined the port is
 * chosen by loop/port.h. Built by tests/arduino/check.py against the core
 * (not its main(): this program has its own, which calls the core's init())
 * and cross/avr/board.c (stdout on USART0, the exit line run_simavr.py
 * reads).
 */
#include "loop/loop.h"

#ifndef PT_LOOP_PORT_ARDUINO_H
#error "with ARDUINO defined, loop/port.h chooses loop/port/arduino.h"
#endif

#include <avr/interrupt.h>
#include <avr/io.h>

#include "../runner.h"

#define LATE_MAX 2 /* ms a wake-up may come after its deadline (the port's limit) */

/* millis()'s count (the core's wiring.c), to start it just before the wrap. */
extern volatile unsigned long timer0_millis;

/* The core's yield() is an empty weak hook: this one counts the calls. */
static unsigned yields;
void yield(void) {
    yields++;
}

static struct pt_loop lp;
static struct pt_timer_slot heap[4];

static void fresh(void) {
    (void)pt_loop_init(&lp, heap, sizeof heap / sizeof heap[0]);
}

static void set_millis(unsigned long ms) {
    uint8_t sreg = SREG;
    cli();
    timer0_millis = ms;
    SREG = sreg;
}

/* A task that sleeps `ms` ticks once and notes when, in wake order. */
struct sleeper {
    struct pt_task task;
    pt_time_t ms, start, woke;
    unsigned long woke_millis;
};

static struct sleeper sleepers[3];
static struct sleeper *woken[3];
static unsigned nwoken;

static PT_THREAD(sleeper_run(struct pt_loop *l, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(l, task);
    s->start = pt_loop_now(l);
    PT_SLEEP(s->ms);
    s->woke = pt_loop_now(l);
    s->woke_millis = millis();
    if (nwoken < 3)
        woken[nwoken++] = s;
    PT_TASK_END();
}

static void spawn_sleeper(struct sleeper *s, pt_time_t ms) {
    s->ms = ms;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &s->task, sleeper_run), PT_OK);
}

/* It slept its time by the loop's clock, and millis() agrees it is due. */
static void check_slept(const struct sleeper *s) {
    pt_time_t slept = s->woke - s->start;
    CHECK(slept >= s->ms && slept <= s->ms + LATE_MAX);
    CHECK((pt_time_t)(s->woke_millis - s->start) >= s->ms);
}

/* ---- the clock --------------------------------------------------------- */

/* PT_CONFIG_PORT_NOW() is millis(): the same count, read together. */
static void test_clock_is_millis(void) {
    unsigned k;
    for (k = 0; k < 3; k++) {
        uint8_t sreg = SREG;
        pt_time_t now;
        unsigned long ms;
        cli(); /* (millis() keeps them off too: the count cannot move) */
        now = PT_CONFIG_PORT_NOW();
        ms = millis();
        SREG = sreg;
        CHECK_EQ_INT(now, ms);
        delay(37);
    }
    CHECK_EQ_INT(PT_CONFIG_TICKS_PER_SEC, 1000);
}

/* A loop reads its time from it: pt_loop_init and every turn. */
static void test_loop_time_is_millis(void) {
    unsigned long before = millis();
    fresh();
    CHECK(pt_loop_now(&lp) - before <= 1);
    delay(20);
    before = millis();
    pt_loop_run_once(&lp, 0);
    CHECK(pt_loop_now(&lp) - before <= 1);
}

/* The debug mode times resumes in microseconds: micros(). */
static void test_debug_clock_is_micros(void) {
    unsigned k;
    for (k = 0; k < 5; k++) {
        uint32_t a = (uint32_t)micros(), d = PT_CONFIG_DEBUG_NOW_US(), b = (uint32_t)micros();
        CHECK(a <= d && d <= b);
        delayMicroseconds(333);
    }
}

/* ---- sleeping on it ---------------------------------------------------- */

/* A sleep ends when its time has passed by millis(), at most LATE_MAX ms
 * after, with the loop idling meanwhile. */
static void test_sleep_lasts_its_time(void) {
    fresh();
    nwoken = 0;
    spawn_sleeper(&sleepers[0], PT_MS(100));
    spawn_sleeper(&sleepers[1], PT_MS(7));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(nwoken, 2);
    CHECK(woken[0] == &sleepers[1] && woken[1] == &sleepers[0]);
    check_slept(&sleepers[0]);
    check_slept(&sleepers[1]);
}

/* millis() wraps from 0xFFFFFFFF to 0 (49.7 days); pt_time_t wraps with
 * it. Sleeps that end before, after and well after the wrap each last their
 * time and end in deadline order. */
static void test_sleeps_across_the_millis_wrap(void) {
    set_millis(0xFFFFFFFFul - 40u);
    fresh();
    nwoken = 0;
    spawn_sleeper(&sleepers[0], PT_MS(300));
    spawn_sleeper(&sleepers[1], PT_MS(20));
    spawn_sleeper(&sleepers[2], PT_MS(60));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(nwoken, 3);
    CHECK(woken[0] == &sleepers[1] && woken[1] == &sleepers[2] && woken[2] == &sleepers[0]);
    check_slept(&sleepers[0]);
    check_slept(&sleepers[1]);
    check_slept(&sleepers[2]);
    CHECK(sleepers[1].woke > 0xFFFF0000ul); /* before the wrap */
    CHECK(sleepers[2].woke < 1000u);        /* after it */
    CHECK(millis() < 1000u);
}

/* ---- idling ------------------------------------------------------------ */

/* Each idle is one sleep of the CPU until the next interrupt: Timer0's
 * overflow, every 1024 us at 16 MHz (the only interrupt on here). So ten
 * take more than nine overflow periods and at most ten. */
static void test_idle_sleeps_until_the_next_tick(void) {
    unsigned long start, took;
    unsigned k;
    PT_CONFIG_PORT_IDLE(1); /* from just after an overflow */
    start = micros();
    for (k = 0; k < 10; k++)
        PT_CONFIG_PORT_IDLE(1);
    took = micros() - start;
    CHECK(took > 9u * 1024u && took <= 10u * 1024u + 100u);
}

/* Idling calls yield(), as delay() does, once per idle; a loop that may
 * not wait never idles. */
static void test_idle_calls_yield(void) {
    unsigned before = yields;
    PT_CONFIG_PORT_IDLE(5);
    CHECK_EQ_INT(yields - before, 1);

    fresh();
    spawn_sleeper(&sleepers[0], PT_MS(30));
    before = yields;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK(yields - before >= 20); /* about one per ms of the sleep */
}

/* pt_loop_run_once(loop, 0), a sketch's loop() beside other work, never
 * waits for a task that is not due: no idle, no time passes. */
static void test_run_once_without_blocking_never_idles(void) {
    unsigned before, k;
    unsigned long start;
    fresh();
    spawn_sleeper(&sleepers[0], PT_MS(1000));
    pt_loop_run_once(&lp, 0); /* it starts, and sleeps */
    before = yields;
    start = millis();
    for (k = 0; k < 100; k++)
        pt_loop_run_once(&lp, 0);
    CHECK(millis() - start <= 2);
    CHECK_EQ_INT(yields - before, 0);
    CHECK_EQ_INT(pt_task_cancel(&lp, &sleepers[0].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* ---- the core's timer -------------------------------------------------- */

/* Timer0's registers as the core's init() left them (start_core). */
static uint8_t core_tccr0a, core_tccr0b, core_timsk0, core_ocr0a, core_ocr0b;

/* Timer0 runs as the core set it (overflow interrupt, clock / 64): after
 * every case before this one, and a loop idling once more, none of its
 * registers has changed. */
static void test_timer0_is_left_to_the_core(void) {
    CHECK(core_timsk0 & (1u << TOIE0));
    fresh();
    spawn_sleeper(&sleepers[0], PT_MS(15));
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(TCCR0A, core_tccr0a);
    CHECK_EQ_INT(TCCR0B, core_tccr0b);
    CHECK_EQ_INT(TIMSK0, core_timsk0);
    CHECK_EQ_INT(OCR0A, core_ocr0a);
    CHECK_EQ_INT(OCR0B, core_ocr0b);
}

/* The core's start-up (its main() calls init() before setup()): Timer0
 * and millis() on, interrupts on. init() also turns USART0 off (it frees
 * pins 0 and 1): stdout needs its transmitter back. simavr then leaves
 * UDRE0 clear (a chip sets it: the buffer is empty) until a byte is
 * written: an empty line, written without waiting for it, starts it. */
static void start_core(void) {
    init();
    core_tccr0a = TCCR0A;
    core_tccr0b = TCCR0B;
    core_timsk0 = TIMSK0;
    core_ocr0a = OCR0A;
    core_ocr0b = OCR0B;
    UCSR0B |= (uint8_t)(1u << TXEN0);
    UDR0 = '\n';
}

#define TEST_CASES(X)                                                                              \
    X(clock_is_millis)                                                                             \
    X(loop_time_is_millis)                                                                         \
    X(debug_clock_is_micros)                                                                       \
    X(sleep_lasts_its_time)                                                                        \
    X(sleeps_across_the_millis_wrap)                                                               \
    X(idle_sleeps_until_the_next_tick)                                                             \
    X(idle_calls_yield)                                                                            \
    X(run_once_without_blocking_never_idles)                                                       \
    X(timer0_is_left_to_the_core)

TEST_MAIN_INIT(TEST_CASES, start_core)
