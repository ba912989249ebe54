/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/port/riscv.h - the loop's clock and idle on a 32-bit RISC-V
 * microcontroller in machine mode with the standard machine timer (a
 * CLINT: SiFive E/FE310, qemu's sifive_e, virt and spike, ...): the ticks
 * are read from the 64-bit mtime counter, and the loop idles with `wfi`
 * until mtimecmp says the next deadline has come. Tickless: no interrupt
 * per tick, and no interrupt handler at all.
 *
 * Use it in place of defining PT_CONFIG_PORT_NOW / PT_CONFIG_PORT_IDLE yourself:
 *
 *   #include "loop/port/riscv.h"        // before loop/loop.h
 *   #include "loop/loop.h"
 *
 * and in exactly one file of the program, before that include,
 *
 *   #define PT_CONFIG_PORT_RISCV_IMPLEMENTATION
 *
 * which defines the variable holding mtime's frequency. Then, before
 * running the loop,
 *
 *   pt_port_start(mtime_hz);   // the timebase: 32768 on a HiFive1
 *
 * The timer's registers are hart 0's at the CLINT's usual place; define
 * PT_CONFIG_PORT_RISCV_MTIME and PT_CONFIG_PORT_RISCV_MTIMECMP (addresses) for another.
 *
 * The tick count is floor(mtime * PT_CONFIG_TICKS_PER_SEC / mtime_hz), computed
 * in 64 bits without overflow, of which pt_time_t keeps the low 32: it
 * wraps after 49.7 days at 1 ms, exactly as a counter would (the loop's
 * deadlines are wrap-safe: loop/ticks.h), and any timebase works, also one
 * that is not a multiple of PT_CONFIG_TICKS_PER_SEC (32768 Hz). Ticks of mtime
 * itself are not the loop's ticks: their rate differs between chips
 * (32,768 Hz on the FE310, 10 MHz under qemu 7.2) and 32 bits of 10 MHz
 * wrap in 7 minutes. Each reading of the clock takes two 64-bit
 * divisions, which an RV32 does in software.
 *
 * Idling sets mtimecmp to the first mtime count of the tick the wait ends
 * at, enables the timer interrupt in mie only, and executes `wfi` with
 * interrupts off in mstatus: the timer only wakes the hart, and no handler
 * runs. Then it clears mie.MTIE, sets mtimecmp back to its largest value
 * (no deadline), and restores mstatus, so an interrupt that woke it is
 * taken then. A deadline that passes before the
 * `wfi` leaves the interrupt pending and `wfi` returns at once: the idle
 * is never early. It may end one tick late: the wait is counted from the
 * tick it reads, which may be one after the loop's. Any other interrupt
 * enabled in mie also ends it; the loop then simply looks again.
 */
#ifndef PT_LOOP_PORT_RISCV_H
#define PT_LOOP_PORT_RISCV_H

#include <stdint.h>

#include "../result.h"
#include "../ticks.h"

#if defined(PT_CONFIG_PORT_NOW) || defined(PT_LOOP_PORT_H)
#error "loop/port/riscv.h: include it before loop/loop.h, and define no other port"
#endif

#ifndef PT_CONFIG_PORT_RISCV_MTIME
#define PT_CONFIG_PORT_RISCV_MTIME 0x0200BFF8u /* CLINT base + 0xBFF8 */
#endif
#ifndef PT_CONFIG_PORT_RISCV_MTIMECMP
#define PT_CONFIG_PORT_RISCV_MTIMECMP 0x02004000u /* CLINT base + 0x4000: hart 0's */
#endif

#define PT__RV_MTIME_LO (*(volatile uint32_t *)(uintptr_t)(PT_CONFIG_PORT_RISCV_MTIME))
#define PT__RV_MTIME_HI (*(volatile uint32_t *)(uintptr_t)(PT_CONFIG_PORT_RISCV_MTIME + 4u))
#define PT__RV_MTIMECMP_LO (*(volatile uint32_t *)(uintptr_t)(PT_CONFIG_PORT_RISCV_MTIMECMP))
#define PT__RV_MTIMECMP_HI (*(volatile uint32_t *)(uintptr_t)(PT_CONFIG_PORT_RISCV_MTIMECMP + 4u))
#define PT__RV_MSTATUS_MIE 0x8u
#define PT__RV_MIE_MTIE 0x80u

/* The CSR instructions. GCC 12 follows the 2019 ISA spec by default, in
 * which they are the Zicsr extension, and its assembler then wants that
 * named if -march does not name it (rv32imac, rv32ec): `.option arch`
 * (binutils 2.38). Older GCCs, and clang 14, have them in the base ISA. */
#if defined(__riscv_zicsr) || defined(__clang__) || !defined(__GNUC__) || __GNUC__ < 12
#define PT__RV_CSR(insn) insn
#else
#define PT__RV_CSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"
#endif

/* mtime's frequency, from pt_port_start. */
extern uint32_t pt__port_riscv_hz;

/* mtime: the high word read before and after the low one, so that a carry
 * between the two reads is seen. */
static inline uint64_t pt__port_mtime(void) {
    uint32_t hi, lo;
    do {
        hi = PT__RV_MTIME_HI;
        lo = PT__RV_MTIME_LO;
    } while (PT__RV_MTIME_HI != hi);
    return (uint64_t)hi << 32 | lo;
}

/* Ticks at mtime count m, in 64 bits: floor(m * PT_CONFIG_TICKS_PER_SEC / hz),
 * by whole seconds and the remainder, so that nothing overflows. */
static inline uint64_t pt__port_ticks_at(uint64_t m) {
    uint64_t s = m / pt__port_riscv_hz;
    uint64_t r = m - s * pt__port_riscv_hz;
    return s * PT_CONFIG_TICKS_PER_SEC + r * PT_CONFIG_TICKS_PER_SEC / pt__port_riscv_hz;
}

/* The first mtime count of tick t: ceil(t * hz / PT_CONFIG_TICKS_PER_SEC). */
static inline uint64_t pt__port_mtime_of(uint64_t t) {
    uint64_t s = t / PT_CONFIG_TICKS_PER_SEC;
    uint64_t r = t - s * PT_CONFIG_TICKS_PER_SEC;
    return s * pt__port_riscv_hz +
           (r * pt__port_riscv_hz + PT_CONFIG_TICKS_PER_SEC - 1u) / PT_CONFIG_TICKS_PER_SEC;
}

/* mtimecmp as one 64-bit value, in the order that never makes it lower
 * than both the old and the new value in between. */
static inline void pt__port_set_mtimecmp(uint64_t at) {
    PT__RV_MTIMECMP_LO = 0xFFFFFFFFu;
    PT__RV_MTIMECMP_HI = (uint32_t)(at >> 32);
    PT__RV_MTIMECMP_LO = (uint32_t)at;
}

/* Note mtime's frequency (the timebase) and leave the timer interrupt off:
 * mtimecmp's value at reset is unspecified. PT_EINVAL if it is 0. */
static inline int pt_port_start(uint32_t mtime_hz) {
    if (mtime_hz == 0)
        return PT_EINVAL;
    pt__port_riscv_hz = mtime_hz;
    __asm__ volatile(PT__RV_CSR("csrc mie, %0")::"r"(PT__RV_MIE_MTIE) : "memory");
    pt__port_set_mtimecmp(UINT64_MAX);
    return PT_OK;
}

static inline pt_time_t pt__port_now(void) {
    return (pt_time_t)pt__port_ticks_at(pt__port_mtime());
}

/* Sleep in `wfi` until tick now + ticks has begun (no deadline if ticks is
 * more than PT_TIME_MAX_DELAY, PT_FOREVER), or another interrupt. */
static inline void pt__port_idle(pt_time_t ticks) {
    uint32_t mstatus;
    __asm__ volatile(PT__RV_CSR("csrrc %0, mstatus, %1")
                     : "=r"(mstatus)
                     : "r"(PT__RV_MSTATUS_MIE)
                     : "memory");
    if (ticks <= PT_TIME_MAX_DELAY)
        pt__port_set_mtimecmp(pt__port_mtime_of(pt__port_ticks_at(pt__port_mtime()) + ticks));
    __asm__ volatile(PT__RV_CSR("csrs mie, %0")::"r"(PT__RV_MIE_MTIE) : "memory");
    __asm__ volatile("wfi" ::: "memory");
    __asm__ volatile(PT__RV_CSR("csrc mie, %0")::"r"(PT__RV_MIE_MTIE) : "memory");
    pt__port_set_mtimecmp(UINT64_MAX);
    __asm__ volatile(PT__RV_CSR("csrs mstatus, %0")::"r"(mstatus & PT__RV_MSTATUS_MIE) : "memory");
}

#define PT_CONFIG_PORT_NOW() pt__port_now()
#define PT_CONFIG_PORT_IDLE(ticks) pt__port_idle(ticks)

#ifdef PT_CONFIG_PORT_RISCV_IMPLEMENTATION
uint32_t pt__port_riscv_hz;
#endif

#endif /* PT_LOOP_PORT_RISCV_H */
