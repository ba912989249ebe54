/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/port/arduino.h - the loop's clock and idle under the Arduino core
 * (any board, any architecture): the clock is millis(), and the core keeps
 * the timer behind it (Timer0 on an AVR board), so millis(), micros(),
 * delay() and PWM go on working beside the loop.
 *
 * Chosen by loop/port.h whenever ARDUINO is defined (the Arduino build
 * defines it) and no other clock is: a sketch includes <ptloop.h> and needs
 * nothing else, no start call, no implementation file. It may also be
 * included before loop/loop.h like the other ports. It brings in
 * <Arduino.h>, from C as from C++ (a sketch is C++).
 *
 *   pt_time_t PT_CONFIG_PORT_NOW(void)
 *       millis(), cut to pt_time_t: the ticks are milliseconds
 *   void PT_CONFIG_PORT_IDLE(pt_time_t ticks)
 *       what one turn of delay()'s wait does: yield() (the core's hook,
 *       which delay() also calls); then, on an AVR, the CPU's idle sleep
 *       until the next interrupt, at the latest the core's next Timer0
 *       overflow (1.024 ms at 16 MHz). Elsewhere the CPU does not sleep:
 *       define PT_CONFIG_PORT_IDLE before the first include for a deeper idle.
 *   uint32_t PT_CONFIG_DEBUG_NOW_US(void)
 *       micros() (for PT_CONFIG_DEBUG's slow-resume times), unless defined
 *
 * Limits: PT_CONFIG_TICKS_PER_SEC must be 1000 (anything else does not compile).
 * millis() is an unsigned long, 32 bits on the Arduino boards, and wraps
 * after 49.7 days; pt_time_t is uint32_t and wraps with it (where unsigned
 * long is wider, its low 32 bits wrap the same way), and the loop's
 * deadlines are wrap-safe (loop/ticks.h). A wake-up may come up to 2 ms late, never
 * early: on an AVR millis() steps by 2 now and then (Timer0 overflows every
 * 1.024 ms), and a tick that comes between the loop's reading of the clock
 * and its sleep is only seen at the next interrupt. The idle sleep turns
 * interrupts on (sei), or nothing would wake the CPU; any interrupt ends
 * it, and the loop then simply looks again. A task that calls delay()
 * holds the whole loop for that long: the other tasks wake late, and
 * PT_SLEEP is the waiting that lets them run.
 */
#ifndef PT_LOOP_PORT_ARDUINO_H
#define PT_LOOP_PORT_ARDUINO_H

#include <Arduino.h>
#include <stdint.h>

#include "../ticks.h"

#if defined(__AVR__)
#include <avr/interrupt.h>
#include <avr/sleep.h>
#endif

#ifdef PT_CONFIG_PORT_NOW
#error "loop/port/arduino.h: include it before loop/loop.h, and define no other port"
#endif
#if PT_CONFIG_TICKS_PER_SEC != 1000
#error "loop/port/arduino.h: the clock is millis(): PT_CONFIG_TICKS_PER_SEC must be 1000"
#endif

#define PT_CONFIG_PORT_NOW() ((pt_time_t)millis())

#ifndef PT_CONFIG_PORT_IDLE
/* Interrupts on before sleeping, or no interrupt could wake the CPU. */
static inline void pt__port_arduino_idle(void) {
    yield();
#if defined(__AVR__)
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_enable();
    sei();
    sleep_cpu();
    sleep_disable();
#endif
}
#define PT_CONFIG_PORT_IDLE(ticks) ((void)(ticks), pt__port_arduino_idle())
#endif

#ifndef PT_CONFIG_DEBUG_NOW_US
#define PT_CONFIG_DEBUG_NOW_US() ((uint32_t)micros())
#endif

#endif /* PT_LOOP_PORT_ARDUINO_H */
