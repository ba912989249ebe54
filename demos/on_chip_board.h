/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/on_chip_board.h - what demos/on_chip.c needs of each board beyond
 * the loop's port: the core clock, printing with the format kept in flash,
 * and polling a UART. cross/meson.build defines PT_BOARD_<board>.
 *
 *   microbit     nRF51 UART (qemu: -serial stdio), 16 MHz
 *   mps2-an385   CMSDK APB UART0 (qemu: -serial stdio), 25 MHz
 *   atmega328p   USART0, shared with stdout (cross/avr/board.c), F_CPU
 *   sifive_e     UART0, shared with stdout (cross/riscv/board.c); the
 *                port's clock is mtime, 10 MHz under qemu 7.2
 */
#ifndef DEMOS_ON_CHIP_BOARD_H
#define DEMOS_ON_CHIP_BOARD_H

#include <stdint.h>

#if defined(PT_BOARD_MICROBIT)
#define BOARD_CPU_HZ 16000000u
#define BOARD_UART(off) (*(volatile uint32_t *)(0x40002000u + (off)))
static inline void board_uart_init(void) {
    BOARD_UART(0x500) = 4; /* ENABLE */
    BOARD_UART(0x000) = 1; /* TASKS_STARTRX */
    BOARD_UART(0x008) = 1; /* TASKS_STARTTX */
}
static inline int board_uart_ready(void) {
    return BOARD_UART(0x108) != 0; /* EVENTS_RXDRDY */
}
static inline char board_uart_get(void) {
    BOARD_UART(0x108) = 0;
    return (char)BOARD_UART(0x518); /* RXD */
}
static inline void board_uart_put(char c) {
    BOARD_UART(0x11C) = 0; /* EVENTS_TXDRDY */
    BOARD_UART(0x51C) = (uint8_t)c;
    while (!BOARD_UART(0x11C))
        ;
}

#elif defined(PT_BOARD_MPS2_AN385)
#define BOARD_CPU_HZ 25000000u
#define BOARD_UART(off) (*(volatile uint32_t *)(0x40004000u + (off)))
static inline void board_uart_init(void) {
    BOARD_UART(0x10) = 16; /* BAUDDIV: the smallest allowed */
    BOARD_UART(0x08) = 3;  /* CTRL: TX and RX enabled */
}
static inline int board_uart_ready(void) {
    return (BOARD_UART(0x04) & 2u) != 0; /* STATE: RX full */
}
static inline char board_uart_get(void) {
    return (char)BOARD_UART(0x00);
}
static inline void board_uart_put(char c) {
    while (BOARD_UART(0x04) & 1u) /* STATE: TX full */
        ;
    BOARD_UART(0x00) = (uint8_t)c;
}

#elif defined(PT_BOARD_ATMEGA328P)
#include <avr/io.h>
#include <avr/pgmspace.h>
#define BOARD_CPU_HZ F_CPU
static inline void board_uart_init(void) {
    UCSR0B |= (uint8_t)(1u << RXEN0); /* the transmitter is stdout's */
}
static inline int board_uart_ready(void) {
    return (UCSR0A & (1u << RXC0)) != 0;
}
static inline char board_uart_get(void) {
    return (char)UDR0;
}
static inline void board_uart_put(char c) {
    putchar(c);
}
/* Keep the formats in flash: RAM is 2 KiB. */
#define BOARD_PRINTF(...) printf_P(__VA_ARGS__)
#define BOARD_STR(s) PSTR(s)

#elif defined(PT_BOARD_SIFIVE_E)
/* pt_port_start's clock here is mtime's timebase, not the core clock: 10
 * MHz under qemu 7.2 (cross/riscv32-sifive-e.ini), 32768 Hz on a HiFive1. */
#define BOARD_CPU_HZ 10000000u
#define BOARD_UART(off) (*(volatile uint32_t *)(0x10013000u + (off)))
static inline void board_uart_init(void) {
    BOARD_UART(0x0C) = 1; /* RXCTRL: enabled, watermark 0 */
}
static inline int board_uart_ready(void) {
    return (BOARD_UART(0x14) & 2u) != 0; /* IP: RXWM, more than 0 received */
}
static inline char board_uart_get(void) {
    return (char)BOARD_UART(0x04); /* RXDATA */
}
static inline void board_uart_put(char c) {
    putchar(c);
}

#else
#error "demos/on_chip_board.h: unknown board (define PT_BOARD_<board>; see cross/meson.build)"
#endif

#ifndef BOARD_STR
#define BOARD_PRINTF(...) printf(__VA_ARGS__)
#define BOARD_STR(s) s
#endif

#endif /* DEMOS_ON_CHIP_BOARD_H */
