/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/port/cortex_m.h - the loop's clock and idle on an ARM Cortex-M
 * (M0/M0+/M3/M4/M7, GCC or clang): SysTick interrupts count the ticks, and
 * the loop idles with `wfi` (wait for interrupt) until the next one.
 *
 * Use it in place of defining PT_CONFIG_PORT_NOW / PT_CONFIG_PORT_IDLE yourself:
 *
 *   #include "loop/port/cortex_m.h"     // before loop/loop.h
 *   #include "loop/loop.h"
 *
 * and in exactly one file of the program, before that include,
 *
 *   #define PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION
 *
 * which defines the tick counter and SysTick_Handler (the name CMSIS start-up
 * code puts in the vector table). Then, before running the loop,
 *
 *   pt_port_start(core_clock_hz);   // e.g. 16000000 on an nRF51
 *
 * Limits: a tick is 1/PT_CONFIG_TICKS_PER_SEC s (default 1 ms). SysTick counts
 * core_clock_hz / PT_CONFIG_TICKS_PER_SEC - 1 down to 0, a 24-bit field: if that
 * does not fit (above 16.7 GHz at 1 ms) pt_port_start returns PT_EINVAL
 * and leaves SysTick off. The 32-bit tick count wraps after 49.7 days at
 * 1 ms; the loop's deadlines are wrap-safe (loop/ticks.h). Idling may end
 * one tick late, never early: an interrupt that comes between the loop's
 * reading of the clock and its `wfi` is only seen at the next tick. Any
 * other interrupt also ends the idle; the loop then simply looks again.
 */
#ifndef PT_LOOP_PORT_CORTEX_M_H
#define PT_LOOP_PORT_CORTEX_M_H

#include <stdint.h>

#include "../result.h"
#include "../ticks.h"

#if defined(PT_CONFIG_PORT_NOW) || defined(PT_LOOP_PORT_H)
#error "loop/port/cortex_m.h: include it before loop/loop.h, and define no other port"
#endif

/* Ticks since pt_port_start. A 32-bit load is atomic on a Cortex-M. */
extern volatile pt_time_t pt_port_ticks;

/* SysTick's registers (the same on every Cortex-M: ARMv6-M / ARMv7-M). */
#define PT__SYST_CSR (*(volatile uint32_t *)0xE000E010u) /* control and status */
#define PT__SYST_RVR (*(volatile uint32_t *)0xE000E014u) /* reload value */
#define PT__SYST_CVR (*(volatile uint32_t *)0xE000E018u) /* current value */
#define PT__SYST_ENABLE_TICKINT_CORE 0x7u                /* on, interrupt, core clock */

/* Start SysTick: one interrupt every 1/PT_CONFIG_TICKS_PER_SEC s. */
static inline int pt_port_start(uint32_t core_clock_hz) {
    uint32_t reload = core_clock_hz / PT_CONFIG_TICKS_PER_SEC;
    if (reload == 0 || reload - 1 > 0xFFFFFFu)
        return PT_EINVAL;
    PT__SYST_RVR = reload - 1;
    PT__SYST_CVR = 0;
    PT__SYST_CSR = PT__SYST_ENABLE_TICKINT_CORE;
    return PT_OK;
}

#define PT_CONFIG_PORT_NOW() (pt_port_ticks)
/* Sleep until an interrupt: the next tick at the latest. */
#define PT_CONFIG_PORT_IDLE(ticks) ((void)(ticks), pt__port_wfi())

static inline void pt__port_wfi(void) {
    __asm__ volatile("wfi" ::: "memory");
}

#ifdef PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION
volatile pt_time_t pt_port_ticks;

void SysTick_Handler(void);
void SysTick_Handler(void) {
    pt_port_ticks++;
}
#endif

#endif /* PT_LOOP_PORT_CORTEX_M_H */
