/*
 * loop/port.h - where the loop's time comes from and how it idles.
 *
 * Two hooks, chosen at compile time:
 *   pt_time_t PT_PORT_NOW(void)            the current tick count;
 *   void PT_PORT_IDLE(pt_time_t ticks)     wait up to `ticks` (or until an
 *                                          interrupt), e.g. `wfi`.
 * On a hosted POSIX system with PT_LOOP_IO, the clock is CLOCK_MONOTONIC in
 * milliseconds and idling is the select() of loop/io.h. On a board, define
 * both macros before including loop/loop.h, or include a ready-made port
 * first (loop/port/cortex_m.h, loop/port/avr.h). Without them,
 * the loop's clock moves only as a virtual clock (pt_loop_use_virtual_clock),
 * which is what tests use.
 */
#ifndef PT_LOOP_PORT_H
#define PT_LOOP_PORT_H

#include "types.h"

#if PT_LOOP_IO && !defined(PT_PORT_NOW)
#include <time.h>
#ifndef CLOCK_MONOTONIC
#error "loop/: define _POSIX_C_SOURCE=200809L (or use -std=gnu99) before any #include"
#endif
static inline uint64_t pt__posix_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
static inline pt_time_t pt__posix_now(void) {
    return (pt_time_t)(pt__posix_now_us() / 1000u);
}
#define PT__PORT_POSIX_CLOCK 1
#define PT_PORT_NOW() pt__posix_now()
#endif

#ifndef PT_PORT_NOW
#define PT_PORT_NOW() ((pt_time_t)0)
#define PT__PORT_NO_CLOCK 1
#endif
#ifndef PT_PORT_IDLE
#define PT_PORT_IDLE(ticks) ((void)(ticks))
#endif

#endif /* PT_LOOP_PORT_H */
