/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/riscv/board.c - board support linked into every RV32 test and demo
 * (SiFive E under qemu-system-riscv32 -M sifive_e, see
 * cross/riscv32-sifive-e.ini):
 *
 *  - stdin, stdout and stderr are UART0 (0x10013000), which qemu connects
 *    to its own standard output with -serial stdio: meson reads the TAP
 *    output there. (qemu 7.2 prints picolibc's semihosting console on its
 *    standard error, which meson does not parse.)
 *  - exit() reaches qemu through semihosting (picolibc's libsemihost:
 *    SYS_EXIT_EXTENDED), which exits with the program's status;
 *  - a trap (an illegal instruction, a bad access) prints its cause and
 *    address on the UART and exits with status 127, instead of hanging
 *    qemu in a trap loop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BOARD_UART(off) (*(volatile uint32_t *)(0x10013000u + (off)))
#define BOARD_UART_TXDATA 0x00 /* bit 31: FIFO full */
#define BOARD_UART_RXDATA 0x04 /* bit 31: FIFO empty */
#define BOARD_UART_TXCTRL 0x08 /* bit 0: enable */
#define BOARD_UART_RXCTRL 0x0C /* bit 0: enable */

static int board_put(char c, FILE *f) {
    (void)f;
    while (BOARD_UART(BOARD_UART_TXDATA) & 0x80000000u)
        ;
    BOARD_UART(BOARD_UART_TXDATA) = (uint8_t)c;
    return (uint8_t)c;
}

static int board_get(FILE *f) {
    uint32_t r;
    (void)f;
    while ((r = BOARD_UART(BOARD_UART_RXDATA)) & 0x80000000u)
        ;
    return (int)(r & 0xFFu);
}

/* picolibc's standard streams are these three pointers (defined here, its
 * semihosting ones are not linked). */
static FILE board_uart = FDEV_SETUP_STREAM(board_put, board_get, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &board_uart;
FILE *const stdout = &board_uart;
FILE *const stderr = &board_uart;

/* CSR instructions: GCC 12 and binutils 2.40 (the ISA spec of 2019) want
 * Zicsr named, and picolibc has no multilib with it in -march. */
#define BOARD_CSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

/* Machine-mode trap entry: mtvec's direct mode needs it 4-byte aligned. A
 * test program takes no interrupt (the port idles with interrupts off), so
 * any trap is a fault. */
__attribute__((aligned(4), noreturn, used)) static void board_trap(void) {
    uint32_t cause, epc, tval;
    __asm__ volatile(BOARD_CSR("csrr %0, mcause") : "=r"(cause));
    __asm__ volatile(BOARD_CSR("csrr %0, mepc") : "=r"(epc));
    __asm__ volatile(BOARD_CSR("csrr %0, mtval") : "=r"(tval));
    printf("pt-board: trap, mcause 0x%lx, mepc 0x%lx, mtval 0x%lx\n", (unsigned long)cause,
           (unsigned long)epc, (unsigned long)tval);
    _Exit(127);
}

/* Before main (picolibc's crt0 runs the constructors first). No divisor is
 * set: qemu's UART ignores the baud rate. */
__attribute__((constructor(101), used)) static void board_init(void) {
    __asm__ volatile(BOARD_CSR("csrw mtvec, %0")::"r"((uintptr_t)board_trap));
    BOARD_UART(BOARD_UART_TXCTRL) = 1u;
    BOARD_UART(BOARD_UART_RXCTRL) = 1u;
}
