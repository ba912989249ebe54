/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/on_chip.c - the loop on a microcontroller, on real ticks: three
 * tasks, their timers and a semaphore, and a task echoing the UART, through
 * one of the ports (loop/port/cortex_m.h, loop/port/avr.h,
 * loop/port/riscv.h). Built by the cross builds (the cross files in
 * cross/) and run under the emulator:
 *
 *   blink   wakes every 100 ms, 10 times, and says when;
 *   sensor  takes a reading every 250 ms, 4 times, and releases the
 *           semaphore for each;
 *   logger  acquires the semaphore (1 s timeout) and logs each reading;
 *   echo    (background) sends back each character the UART receives,
 *           polling once a tick; cancelled when the others are done.
 *
 * Every wake-up is checked against the tick counter: a task never wakes
 * before its deadline, nor more than 2 ticks after it. The last line is
 * "on_chip: ok" (exit status 0) or "on_chip: FAILED" (1).
 */
#include <stdio.h>

#if defined(__AVR__)
#define PT_CONFIG_PORT_AVR_IMPLEMENTATION
#include "loop/port/avr.h"
#elif defined(__arm__)
#define PT_CONFIG_PORT_CORTEX_M_IMPLEMENTATION
#include "loop/port/cortex_m.h"
#elif defined(__riscv)
#define PT_CONFIG_PORT_RISCV_IMPLEMENTATION
#include "loop/port/riscv.h"
#else
#error "demos/on_chip.c: a Cortex-M, AVR or RISC-V build (see cross/)"
#endif

#include "loop/loop.h"
#include "on_chip_board.h"

/* Ticks a wake-up may come after its deadline (never before). Under qemu
 * the RV32 board's mtime is the host's clock, so a loaded host delays the
 * emulated hart (not the port) by a few milliseconds now and then. */
#if defined(PT_BOARD_SIFIVE_E)
#define LATE_MAX 10
#else
#define LATE_MAX 2
#endif

static pt_time_t t0;
static int failures;

/* Check one wake-up: `due` is when it should have come. */
static void check_wake(const char *who, pt_time_t due, pt_time_t now) {
    if (pt_time_before(now, due) || now - due > LATE_MAX) {
        BOARD_PRINTF(BOARD_STR("%s woke at tick %lu, due %lu\n"), who, (unsigned long)(now - t0),
                     (unsigned long)(due - t0));
        failures++;
    }
}

struct blink {
    struct pt_task task; /* first: the loop hands the body &task */
    pt_time_t due;
    unsigned char n;
};

static PT_THREAD(blink_run(struct pt_loop *loop, struct pt_task *task)) {
    struct blink *b = (struct blink *)task;
    PT_TASK_BEGIN(loop, task);
    for (b->n = 1; b->n <= 10; b->n++) {
        b->due = pt_loop_now(loop) + PT_MS(100);
        PT_SLEEP(PT_MS(100));
        check_wake("blink", b->due, PT_CONFIG_PORT_NOW());
        BOARD_PRINTF(BOARD_STR("%5lu ms  blink %u\n"),
                     (unsigned long)PT_TO_MS(pt_loop_now(loop) - t0), (unsigned)b->n);
    }
    PT_TASK_END();
}

static struct pt_semaphore readings; /* released once per reading */
static unsigned reading;             /* the last reading */

struct sensor {
    struct pt_task task;
    pt_time_t due;
    unsigned char n;
};

static PT_THREAD(sensor_run(struct pt_loop *loop, struct pt_task *task)) {
    struct sensor *s = (struct sensor *)task;
    PT_TASK_BEGIN(loop, task);
    for (s->n = 1; s->n <= 4; s->n++) {
        s->due = pt_loop_now(loop) + PT_MS(250);
        PT_SLEEP(PT_MS(250));
        check_wake("sensor", s->due, PT_CONFIG_PORT_NOW());
        reading = 100u * s->n + 7u; /* stands for an ADC read */
        pt_semaphore_release(loop, &readings);
    }
    PT_TASK_END();
}

struct logger {
    struct pt_task task;
    unsigned char n;
};

static PT_THREAD(logger_run(struct pt_loop *loop, struct pt_task *task)) {
    struct logger *g = (struct logger *)task;
    PT_TASK_BEGIN(loop, task);
    for (g->n = 1; g->n <= 4; g->n++) {
        PT_SEMAPHORE_ACQUIRE(&readings, PT_MS(1000));
        if (PT_WAIT_RESULT() != PT_OK || reading != 100u * g->n + 7u) {
            BOARD_PRINTF(BOARD_STR("logger: wait result %d, reading %u\n"), PT_WAIT_RESULT(),
                         reading);
            failures++;
        }
        BOARD_PRINTF(BOARD_STR("%5lu ms  logger: reading %u = %u\n"),
                     (unsigned long)PT_TO_MS(pt_loop_now(loop) - t0), (unsigned)g->n, reading);
    }
    PT_TASK_END();
}

static unsigned echoed;

static PT_THREAD(echo_run(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        while (!board_uart_ready())
            PT_SLEEP(PT_MS(1)); /* the UART is polled 1,000 times a second */
        board_uart_put(board_uart_get());
        echoed++;
    }
    PT_TASK_END();
}

int main(void) {
    static struct pt_loop loop;
    static struct pt_timer_slot heap[4]; /* at most 4 timers at once */
    static struct blink blink;
    static struct sensor sensor;
    static struct logger logger;
    static struct pt_task echo;
    pt_time_t ticks;

    board_uart_init();
    if (pt_port_start(BOARD_CPU_HZ) != PT_OK) {
        BOARD_PRINTF(BOARD_STR("on_chip: no tick at %lu Hz\n"), (unsigned long)BOARD_CPU_HZ);
        return 1;
    }
    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    pt_semaphore_init(&readings, 0);
    t0 = PT_CONFIG_PORT_NOW();
    (void)pt_loop_spawn(&loop, &blink.task, blink_run);
    (void)pt_loop_spawn(&loop, &sensor.task, sensor_run);
    (void)pt_loop_spawn(&loop, &logger.task, logger_run);
    (void)pt_loop_spawn_background(&loop, &echo, echo_run);
    if (pt_loop_run(&loop) != PT_OK)
        failures++;

    ticks = PT_CONFIG_PORT_NOW() - t0;
    BOARD_PRINTF(BOARD_STR("%lu ticks of %lu Hz, %u characters echoed\n"), (unsigned long)ticks,
                 (unsigned long)PT_CONFIG_TICKS_PER_SEC, echoed);
    if (ticks < PT_MS(1000)) /* blink alone sleeps 10 x 100 ms */
        failures++;
    if (failures)
        BOARD_PRINTF(BOARD_STR("on_chip: FAILED\n"));
    else
        BOARD_PRINTF(BOARD_STR("on_chip: ok\n"));
    return failures ? 1 : 0;
}
