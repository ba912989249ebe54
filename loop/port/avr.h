/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/port/avr.h - the loop's clock and idle on an 8-bit AVR with avr-libc
 * (ATmega328P and its kin): Timer0's compare-match interrupt counts the
 * ticks, and the loop idles in the CPU's idle sleep mode (the timers keep
 * running) until the next interrupt.
 *
 * Use it in place of defining PT_CONFIG_PORT_NOW / PT_CONFIG_PORT_IDLE yourself:
 *
 *   #include "loop/port/avr.h"          // before loop/loop.h
 *   #include "loop/loop.h"
 *
 * and in exactly one file of the program, before that include,
 *
 *   #define PT_CONFIG_PORT_AVR_IMPLEMENTATION
 *
 * which defines the tick counter and Timer0's interrupt handler (the port
 * takes Timer0). Then, before running the loop,
 *
 *   pt_port_start(F_CPU);   // enables interrupts
 *
 * Limits: a tick is 1/PT_CONFIG_TICKS_PER_SEC s (default 1 ms). Timer0 counts
 * cpu_hz / 64 / PT_CONFIG_TICKS_PER_SEC cycles of the clock divided by 64, an 8-bit
 * count: from 64 kHz up to 16.384 MHz at 1 ms; outside what fits,
 * pt_port_start returns PT_EINVAL and leaves the timer off. The 32-bit tick
 * count wraps after 49.7 days at 1 ms; the loop's deadlines are wrap-safe
 * (loop/ticks.h). Idling may end one tick late, never early: a tick that
 * comes between the loop's reading of the clock and its sleep is only seen
 * at the next tick. Any other interrupt also ends the idle.
 */
#ifndef PT_LOOP_PORT_AVR_H
#define PT_LOOP_PORT_AVR_H

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <stdint.h>

#include "../result.h"
#include "../ticks.h"

#if defined(PT_CONFIG_PORT_NOW) || defined(PT_LOOP_PORT_H)
#error "loop/port/avr.h: include it before loop/loop.h, and define no other port"
#endif

/* Ticks since pt_port_start; read it with PT_CONFIG_PORT_NOW(). */
extern volatile pt_time_t pt_port_ticks;

/* Start Timer0: clear on compare match A, clock / 64, one interrupt per
 * tick. Enables interrupts. */
static inline int pt_port_start(uint32_t cpu_hz) {
    uint32_t count = cpu_hz / 64u / PT_CONFIG_TICKS_PER_SEC;
    if (count == 0 || count > 256u)
        return PT_EINVAL;
    TCCR0A = (uint8_t)(1u << WGM01);
    TCCR0B = (uint8_t)((1u << CS01) | (1u << CS00));
    OCR0A = (uint8_t)(count - 1u);
    TIMSK0 = (uint8_t)(1u << OCIE0A);
    sei();
    return PT_OK;
}

/* A 32-bit read takes four loads on an AVR: keep the interrupt out. */
static inline pt_time_t pt__port_now(void) {
    pt_time_t t;
    uint8_t sreg = SREG;
    cli();
    t = pt_port_ticks;
    SREG = sreg;
    return t;
}

/* Idle sleep until an interrupt: the next tick at the latest. Interrupts
 * must be on, or nothing would wake the CPU. */
static inline void pt__port_sleep(void) {
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_enable();
    sei();
    sleep_cpu();
    sleep_disable();
}

#define PT_CONFIG_PORT_NOW() pt__port_now()
#define PT_CONFIG_PORT_IDLE(ticks) ((void)(ticks), pt__port_sleep())

#ifdef PT_CONFIG_PORT_AVR_IMPLEMENTATION
volatile pt_time_t pt_port_ticks;

ISR(TIMER0_COMPA_vect) {
    pt_port_ticks++;
}
#endif

#endif /* PT_LOOP_PORT_AVR_H */
