/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/cortex-m/startup.c - the start of a Cortex-M test program under
 * qemu: the vector table and the reset handler. The reset handler copies
 * .data from flash to RAM and hands over to newlib's crt0 (_start, from
 * --specs=rdimon.specs), which zeroes .bss, sets up semihosting (stdout and
 * exit() reach the host) and calls main. A fault ends the program with
 * status 127 instead of hanging qemu.
 */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t __data_load__, __data_start__, __data_end__, __stack_top__;
extern void _start(void);

void pt_board_reset(void);
void pt_board_reset(void) {
    const uint32_t *src = &__data_load__;
    uint32_t *dst = &__data_start__;
    while (dst < &__data_end__)
        *dst++ = *src++;
    _start();
}

void pt_board_fault(void);
void pt_board_fault(void) {
    _Exit(127);
}

/* Handlers a port may define (loop/port/cortex_m.h defines SysTick's). */
void SysTick_Handler(void) __attribute__((weak, alias("pt_board_fault")));
void PendSV_Handler(void) __attribute__((weak, alias("pt_board_fault")));

typedef void (*pt_board_vector)(void);

/* 16 system exceptions, then 32 device interrupts (both boards have 32). */
__attribute__((section(".vectors"), used)) static const pt_board_vector vectors[16 + 32] = {
    (pt_board_vector)(uintptr_t)&__stack_top__,
    pt_board_reset,
    pt_board_fault,        /* NMI */
    pt_board_fault,        /* HardFault */
    pt_board_fault,        /* MemManage (M3) */
    pt_board_fault,        /* BusFault (M3) */
    pt_board_fault,        /* UsageFault (M3) */
    [11] = pt_board_fault, /* SVCall */
    [14] = PendSV_Handler,
    [15] = SysTick_Handler,
};
