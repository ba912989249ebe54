/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * BlinkAndReport - ptloop's event loop in a sketch: two tasks, each a
 * function that sleeps without holding up the other, on a loop whose clock
 * is millis(). The loop takes no timer of its own (loop/port/arduino.h), so
 * millis(), delay() and the PWM pins keep working beside it.
 *
 *   blink    toggles the built-in LED every 500 ms;
 *   report   every second, prints how often the LED has toggled.
 *
 * Each task's line gives the loop's clock when the task woke ("at") and
 * millis() as it prints: the loop's clock is millis(), read as each turn of
 * the loop begins. On an Uno (115200 baud) it begins:
 *
 *   delay(250) took 249 ms of millis()
 *   tasks start at 249 ms
 *   blink 1 at 749 ms, millis() 749: LED on
 *   report 1 at 1249 ms, millis() 1249: 1 toggles
 *   blink 2 at 1249 ms, millis() 1250: LED off
 *   blink 3 at 1750 ms, millis() 1750: LED on
 *
 * (millis() moves at Timer0's overflows, 1.024 ms apart, by 2 now and
 * then: it measures delay(250) as 249 to 251 ms, and a wake-up may come
 * up to 2 ms late (loop/port/arduino.h), never early. Tasks due at the
 * same moment run in the order their sleeps began.) tests/arduino/check.py builds this sketch
 * for the Uno, runs it under simavr and checks every interval.
 */
#include <ptloop.h>

static struct pt_loop tasks;      /* the event loop ("loop" is Arduino's) */
static struct pt_timer_slot timers[2]; /* room for 2 tasks sleeping at once */

struct blinker {
    struct pt_task task; /* first: the loop hands the task function &task */
    unsigned toggles;    /* locals do not survive a sleep: state lives here */
};

struct reporter {
    struct pt_task task;
    unsigned n;
};

static struct blinker blinker;
static struct reporter reporter;

/* Prints "<what> <n> at <t> ms, millis() <now>" (the caller ends the line). */
static void say(const __FlashStringHelper *what, unsigned n, pt_time_t t) {
    Serial.print(what);
    Serial.print(' ');
    Serial.print(n);
    Serial.print(F(" at "));
    Serial.print((unsigned long)t);
    Serial.print(F(" ms, millis() "));
    Serial.print(millis());
}

static PT_THREAD(blink(struct pt_loop *ev, struct pt_task *task)) {
    struct blinker *b = (struct blinker *)task;
    PT_TASK_BEGIN(ev, task);
    for (;;) {
        PT_SLEEP(PT_MS(500)); /* the other task runs meanwhile */
        b->toggles++;
        digitalWrite(LED_BUILTIN, b->toggles % 2 ? HIGH : LOW);
        say(F("blink"), b->toggles, pt_loop_now(ev));
        Serial.println(b->toggles % 2 ? F(": LED on") : F(": LED off"));
    }
    PT_TASK_END();
}

static PT_THREAD(report(struct pt_loop *ev, struct pt_task *task)) {
    struct reporter *r = (struct reporter *)task;
    PT_TASK_BEGIN(ev, task);
    for (;;) {
        PT_SLEEP(PT_MS(1000));
        r->n++;
        say(F("report"), r->n, pt_loop_now(ev));
        Serial.print(F(": "));
        Serial.print(blinker.toggles);
        Serial.println(F(" toggles"));
    }
    PT_TASK_END();
}

void setup() {
    unsigned long start;
    Serial.begin(115200);
    pinMode(LED_BUILTIN, OUTPUT);

    start = millis();
    delay(250); /* still what it was: the loop leaves the core's timer alone */
    Serial.print(F("delay(250) took "));
    Serial.print(millis() - start);
    Serial.println(F(" ms of millis()"));

    pt_loop_init(&tasks, timers, 2);
    pt_loop_spawn(&tasks, &blinker.task, blink);
    pt_loop_spawn(&tasks, &reporter.task, report);
    Serial.print(F("tasks start at "));
    Serial.print((unsigned long)pt_loop_now(&tasks));
    Serial.println(F(" ms"));
}

void loop() {
    /* One turn of the event loop: if no task is due yet, idle once (on an
     * AVR the CPU sleeps until the next interrupt, 1.024 ms at most), then
     * run the tasks that are due; loop() comes back for the next turn.
     * With 0 in place of 1 it never idles, for a loop() with more to do. */
    pt_loop_run_once(&tasks, 1);
}
