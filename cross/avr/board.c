/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/avr/board.c - board support linked into every AVR test and demo
 * (ATmega328P at 16 MHz, run under simavr by cross/avr/run_simavr.py).
 *
 *  - stdout and stderr go to USART0, set up before main(), so printf works
 *    unchanged (simavr prints what is written to UDR0);
 *  - at exit (main returning or exit()), a line with the RAM use and one
 *    with the exit status, then `cli; sleep`, which stops simavr:
 *        pt-board: ram 2048, static S, heap H, stack peak P, never used N
 *        pt-board: exit STATUS
 *    S + H + P + N = 2048; S is .data + .bss, H what malloc took (0 if it
 *    is not linked). run_simavr.py moves these lines to stderr and exits
 *    with STATUS.
 *
 * Stack high-water mark: right after reset the RAM above .bss is painted
 * with a byte pattern; at exit the bytes above the heap still holding it
 * are "never used", those from the lowest overwritten one up to RAMEND the
 * "stack peak". So it counts bytes written: stack reserved but never
 * written (the unused end of a local array) counts as never used. Checked
 * two ways: a function with an N-byte local array it fills moves the peak
 * by exactly N (and the peak is the sum of the frames in the disassembly),
 * and a RAM dump taken with avr-gdb at board_exit gives the same figures.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/sleep.h>
#include <stdint.h>
#include <stdio.h>

#define BOARD_PAINT 0xA5 /* not 0x00 or 0xFF, the commonest stack bytes */

extern char __heap_start;                    /* end of .data/.bss/.noinit (linker script) */
extern char *__brkval __attribute__((weak)); /* top of malloc's heap; absent if no malloc */

/* .init3 runs after SP and r1 are set (.init2), before .data/.bss are
 * initialised (.init4) and before anything is pushed. naked: no prologue or
 * ret, the code falls through into the next .init section (avr-libc's
 * documented way to run C code there). volatile keeps it a plain loop, not a
 * call to memset. */
__attribute__((naked, used, section(".init3"))) static void board_paint(void) {
    for (uint16_t a = (uint16_t)&__heap_start; a <= RAMEND; a++)
        *(volatile uint8_t *)a = BOARD_PAINT;
}

static int board_put(char c, FILE *f) {
    (void)f;
    loop_until_bit_is_set(UCSR0A, UDRE0);
    UDR0 = (uint8_t)c;
    return 0;
}

static FILE board_uart = FDEV_SETUP_STREAM(board_put, NULL, _FDEV_SETUP_WRITE);

/* .init8: after .data/.bss (.init4) and constructors (.init6), just before
 * main (.init9). UBRR0 = 0 is 1 Mbaud at 16 MHz: simavr times the UART, so
 * the fastest rate keeps the busy-wait per character short. 8N1 is UCSR0C's
 * reset value. */
__attribute__((naked, used, section(".init8"))) static void board_init(void) {
    UBRR0 = 0;
    UCSR0B = _BV(TXEN0);
    stdout = stderr = &board_uart;
}

void board_exit(int status) __attribute__((noreturn, used));
void board_exit(int status) {
    uint16_t heap_top = (uint16_t)&__heap_start;
    if (&__brkval && __brkval)
        heap_top = (uint16_t)__brkval;
    uint16_t a = heap_top;
    while (a <= RAMEND && *(volatile uint8_t *)a == BOARD_PAINT)
        a++;
    /* Counted before printing: this printf's own stack is not in the figure. */
    printf_P(PSTR("pt-board: ram %u, static %u, heap %u, stack peak %u, never used %u\n"),
             RAMEND + 1 - RAMSTART, (uint16_t)&__heap_start - RAMSTART,
             heap_top - (uint16_t)&__heap_start, RAMEND + 1 - a, a - heap_top);
    printf_P(PSTR("pt-board: exit %d\n"), status);
    sleep_enable();
    cli();
    for (;;)
        sleep_cpu();
}

/* main() returns into `jmp exit`; exit (libgcc's, or avr-libc's, which
 * does `cli` first) is the label _exit at the top of .fini9, from which the
 * code falls through .fini8 ... .fini0 with the status still in r24:r25,
 * the first argument register. .fini8 is the first code after it: jump to
 * board_exit with r24:r25 untouched. */
__attribute__((naked, used, section(".fini8"))) static void board_fini(void) {
    __asm__ volatile("jmp board_exit");
}
