/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/port.h - where the loop's time comes from and how it idles.
 *
 * Two hooks, chosen at compile time:
 *   pt_time_t PT_CONFIG_PORT_NOW(void)            the current tick count;
 *   void PT_CONFIG_PORT_IDLE(pt_time_t ticks)     wait up to `ticks` (or until an
 *                                          interrupt), e.g. `wfi`.
 * On a POSIX host (PT_CONFIG_POSIX, loop/config.h) the clock is CLOCK_MONOTONIC in
 * microseconds (loop/ticks.h), and idling is the readiness back end's
 * wait. Under the Arduino core (ARDUINO defined) the clock is millis():
 * loop/port/arduino.h, chosen here ahead of the others. On a board, define
 * both macros before including loop/loop.h, or include a ready-made port
 * first (loop/port/cortex_m.h, loop/port/avr.h, loop/port/riscv.h: RV32's
 * machine timer, tickless).
 *
 * A loop without a clock would never see a deadline pass: where none is
 * known, the build stops, unless PT_CONFIG_PORT_VIRTUAL is 1 (tests, simulation):
 * then every loop runs on its virtual clock from pt_loop_init, where time
 * jumps to the next deadline whenever nothing is ready.
 */
#ifndef PT_LOOP_PORT_H
#define PT_LOOP_PORT_H

#include "config.h"
#include "ticks.h"

/* The Arduino core owns the board's timer and counts millis() with it: its
 * port comes first, unless another clock was defined or only the virtual
 * clock is wanted. */
#if defined(ARDUINO) && !defined(PT_CONFIG_PORT_NOW) &&                                            \
    !(defined(PT_CONFIG_PORT_VIRTUAL) && PT_CONFIG_PORT_VIRTUAL)
#include "port/arduino.h"
#endif

#if PT_CONFIG_POSIX && !defined(PT_CONFIG_PORT_NOW)
#include <time.h>
#ifndef CLOCK_MONOTONIC
#error "loop/: define _POSIX_C_SOURCE=200809L (or use -std=gnu99) before any #include"
#endif
static inline uint64_t pt__posix_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
#if PT_CONFIG_TICKS_PER_SEC != 1000000 && (1000000 % PT_CONFIG_TICKS_PER_SEC != 0)
#error "loop/port.h: on the POSIX clock PT_CONFIG_TICKS_PER_SEC must divide 1000000"
#endif
static inline pt_time_t pt__posix_now(void) {
    return (pt_time_t)(pt__posix_now_us() / (1000000u / PT_CONFIG_TICKS_PER_SEC));
}
#define PT__PORT_POSIX_CLOCK 1
#define PT_CONFIG_PORT_NOW() pt__posix_now()
#endif

#ifndef PT_CONFIG_PORT_VIRTUAL
#define PT_CONFIG_PORT_VIRTUAL 0
#endif
#ifndef PT_CONFIG_PORT_NOW
/* A Unix host where <unistd.h> said no POSIX version: the build asked for
 * strict ISO C (-std=c99) and no POSIX, which is what to tell. */
#if !PT_CONFIG_PORT_VIRTUAL && !PT_CONFIG_POSIX && defined(__STDC_HOSTED__) && __STDC_HOSTED__ &&  \
    (defined(__unix__) || defined(__unix) || defined(__APPLE__)) && !defined(_POSIX_C_SOURCE)
#error "loop/: define _POSIX_C_SOURCE=200809L (or use -std=gnu99) before any #include"
#elif !PT_CONFIG_PORT_VIRTUAL
#error                                                                                             \
    "loop/: no clock. Define PT_CONFIG_PORT_NOW (and PT_CONFIG_PORT_IDLE), include a port from loop/port/, or define PT_CONFIG_PORT_VIRTUAL=1 for the virtual clock only (loop/config.h)"
#endif
#define PT_CONFIG_PORT_NOW() ((pt_time_t)0)
#define PT__PORT_NO_CLOCK 1 /* pt_loop_init starts the virtual clock */
#endif
#ifndef PT_CONFIG_PORT_IDLE
#define PT_CONFIG_PORT_IDLE(ticks) ((void)(ticks))
#endif

#endif /* PT_LOOP_PORT_H */
