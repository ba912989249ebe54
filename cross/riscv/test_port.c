/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/riscv/test_port.c - the contract of the RISC-V port
 * (loop/port/riscv.h) on the board's own machine timer, under
 * qemu-system-riscv32 -M sifive_e (mtime at 10 MHz): the loop's clock is
 * mtime in ticks, also for a timebase that is not a multiple of
 * PT_CONFIG_TICKS_PER_SEC; an idle never ends before its tick and leaves the timer
 * interrupt off; the 32-bit ticks wrap (mtime is set just before the
 * wrap: it is writable) and sleeps across the wrap last their time.
 * Registered by cross/meson.build for this board only; TAP on the UART.
 */
#define PT_CONFIG_PORT_RISCV_IMPLEMENTATION
#include "loop/port/riscv.h"

#include "loop/loop.h"

#include "tests/runner.h"

#define QEMU_MTIME_HZ 10000000u /* measured: cross/riscv32-sifive-e.ini */
#define LATE_MAX 2              /* ticks a wake-up may come late (as demos/on_chip.c) */
/* qemu's mtime follows the host's clock (no -icount): a host too busy to
 * run qemu for some milliseconds makes a wake-up that late (seen: about 1
 * in 100 idles late by 2 to 5 ms, at a load of 2.5 on 2 CPUs). So a case
 * that checks lateness runs up to TRIES times: never early in any run,
 * within LATE_MAX ticks in at least one. A port that is late by its own
 * fault is late every time. */
#define TRIES 5

#define MTIME_LO (*(volatile uint32_t *)0x0200BFF8u)
#define MTIME_HI (*(volatile uint32_t *)0x0200BFFCu)
#define MTIMECMP_LO (*(volatile uint32_t *)0x02004000u)
#define MTIMECMP_HI (*(volatile uint32_t *)0x02004004u)
#define CSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

static uint64_t mtime(void) {
    uint32_t hi, lo;
    do {
        hi = MTIME_HI;
        lo = MTIME_LO;
    } while (MTIME_HI != hi);
    return (uint64_t)hi << 32 | lo;
}

static void set_mtime(uint64_t m) {
    MTIME_LO = 0; /* no carry into the high word while it is written */
    MTIME_HI = (uint32_t)(m >> 32);
    MTIME_LO = (uint32_t)m;
}

/* The tick at mtime m, written the plain way (m * 1000 fits 64 bits for
 * every m used here), to check the port's overflow-free version. */
static uint64_t tick_at(uint64_t m, uint32_t hz) {
    return m * PT_CONFIG_TICKS_PER_SEC / hz;
}

/* The first mtime count of tick t, the plain way. */
static uint64_t mtime_of(uint64_t t, uint32_t hz) {
    return (t * hz + PT_CONFIG_TICKS_PER_SEC - 1u) / PT_CONFIG_TICKS_PER_SEC;
}

static uint32_t csr_mie(void) {
    uint32_t v;
    __asm__ volatile(CSR("csrr %0, mie") : "=r"(v));
    return v;
}

static uint32_t csr_mstatus(void) {
    uint32_t v;
    __asm__ volatile(CSR("csrr %0, mstatus") : "=r"(v));
    return v;
}

/* ---- the clock --------------------------------------------------------- */

static void test_start_refuses_a_zero_timebase(void) {
    CHECK_EQ_INT(pt_port_start(0), PT_EINVAL);
    CHECK_EQ_INT(pt_port_start(QEMU_MTIME_HZ), PT_OK);
    CHECK_EQ_INT(PT_CONFIG_TICKS_PER_SEC, 1000);
}

/* PT_CONFIG_PORT_NOW() is the tick of an mtime read between two others, for
 * mtime at several places (its high word too), for 10 MHz and for 32,768
 * Hz (not a multiple of 1000: 32.768 counts a tick). */
static void check_clock(uint32_t hz) {
    static const uint64_t at[] = {0, 12345, 0xFFFFF000u, 0x123456789ABull, 0x7FFFFFFFFFFFull};
    unsigned k;
    CHECK_EQ_INT(pt_port_start(hz), PT_OK);
    for (k = 0; k < sizeof at / sizeof at[0]; k++) {
        uint64_t a, b;
        pt_time_t now;
        set_mtime(at[k]);
        a = mtime();
        now = PT_CONFIG_PORT_NOW();
        b = mtime();
        CHECK(a >= at[k] && a - at[k] < QEMU_MTIME_HZ); /* the write took */
        CHECK((pt_time_t)(now - (pt_time_t)tick_at(a, hz)) <=
              (pt_time_t)(tick_at(b, hz) - tick_at(a, hz)));
    }
    CHECK_EQ_INT(pt_port_start(QEMU_MTIME_HZ), PT_OK);
}

static void test_clock_is_mtime_in_ticks(void) {
    check_clock(QEMU_MTIME_HZ);
}

static void test_clock_with_a_timebase_not_a_multiple_of_the_tick(void) {
    check_clock(32768u);
}

/* The port's conversions (private helpers), exactly: mtime count to tick
 * and tick to its first count, against the plain formulas where those do
 * not overflow, and by their defining property (tick t spans counts
 * mtime_of(t) .. mtime_of(t + 1) - 1) where they would. An idle's wake-up
 * shows them only to within qemu's latency of some microseconds. */
static void test_conversions_are_exact(void) {
    static const uint32_t hz[] = {QEMU_MTIME_HZ, 32768u, 1000u, 0xFFFFFFFFu};
    static const uint64_t t[] = {0, 1, 999, 1000, 1001, 32767, 0xFFFFFFFFu};
    static const uint64_t big[] = {0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFF0ull / 1001u};
    unsigned h, k;
    for (h = 0; h < sizeof hz / sizeof hz[0]; h++) {
        CHECK_EQ_INT(pt_port_start(hz[h]), PT_OK);
        for (k = 0; k < sizeof t / sizeof t[0]; k++) {
            uint64_t m = pt__port_mtime_of(t[k]);
            CHECK(m == mtime_of(t[k], hz[h]));
            CHECK(pt__port_ticks_at(m) == t[k]);
            CHECK(t[k] == 0 || pt__port_ticks_at(m - 1) == t[k] - 1);
            CHECK(pt__port_ticks_at(t[k]) == tick_at(t[k], hz[h]));
        }
        for (k = 0; k < sizeof big / sizeof big[0]; k++) {
            uint64_t tk = pt__port_ticks_at(big[k]);
            CHECK(pt__port_mtime_of(tk) <= big[k] && big[k] < pt__port_mtime_of(tk + 1));
        }
    }
    CHECK_EQ_INT(pt_port_start(QEMU_MTIME_HZ), PT_OK);
}

/* ---- idling ------------------------------------------------------------ */

/* An idle of n ticks ends when tick now + n has begun by mtime (never
 * earlier), and at most late_max ticks after it (in one of TRIES). */
static void check_idle(uint32_t hz, pt_time_t n, pt_time_t late_max) {
    unsigned k;
    int in_time = 0;
    CHECK_EQ_INT(pt_port_start(hz), PT_OK);
    for (k = 0; k < TRIES && !in_time; k++) {
        uint64_t before = mtime(), after;
        PT_CONFIG_PORT_IDLE(n);
        after = mtime();
        CHECK(after >= mtime_of(tick_at(before, hz) + n, hz));
        in_time = tick_at(after, hz) - tick_at(before, hz) <= (uint64_t)n + late_max;
    }
    CHECK(in_time);
    CHECK_EQ_INT(pt_port_start(QEMU_MTIME_HZ), PT_OK);
}

/* 0: its tick has begun, it returns at once. */
static void test_idle_ends_at_its_tick(void) {
    static const pt_time_t n[] = {0, 1, 2, 7, 50, 250};
    unsigned k;
    for (k = 0; k < sizeof n / sizeof n[0]; k++)
        check_idle(QEMU_MTIME_HZ, n[k], LATE_MAX);
}

/* At 32,768 Hz a "tick" is 3.3 us of qemu's time: only never early. */
static void test_idle_with_a_timebase_not_a_multiple_of_the_tick(void) {
    static const pt_time_t n[] = {1, 3, 1000};
    unsigned k;
    for (k = 0; k < sizeof n / sizeof n[0]; k++)
        check_idle(32768u, n[k], PT_TIME_MAX_DELAY);
}

/* After an idle the timer interrupt is off again (mie.MTIE clear,
 * mtimecmp at its maximum), and mstatus.MIE is as it was: with interrupts
 * on, no trap came (board.c's trap handler would end the program). */
static void test_idle_leaves_the_timer_interrupt_off(void) {
    uint32_t on = 0x8u;
    PT_CONFIG_PORT_IDLE(3);
    CHECK_EQ_INT(csr_mie() & 0x80u, 0);
    CHECK(MTIMECMP_LO == 0xFFFFFFFFu && MTIMECMP_HI == 0xFFFFFFFFu);
    CHECK_EQ_INT(csr_mstatus() & 0x8u, 0);
    __asm__ volatile(CSR("csrs mstatus, %0")::"r"(on) : "memory");
    PT_CONFIG_PORT_IDLE(3);
    CHECK_EQ_INT(csr_mstatus() & 0x8u, 0x8u);
    CHECK_EQ_INT(csr_mie() & 0x80u, 0);
    PT_CONFIG_PORT_IDLE(3);
    __asm__ volatile(CSR("csrc mstatus, %0")::"r"(on) : "memory");
}

/* ---- sleeping across the wrap ------------------------------------------ */

static struct pt_loop lp;
static struct pt_timer_slot heap[4];

struct sleeper {
    struct pt_task task;
    pt_time_t ticks, start, woke;
};

static struct sleeper sleepers[3];
static struct sleeper *woken[3];
static unsigned nwoken;

static PT_THREAD(sleeper_run(struct pt_loop *l, struct pt_task *task)) {
    struct sleeper *s = (struct sleeper *)task;
    PT_TASK_BEGIN(l, task);
    s->start = pt_loop_now(l);
    PT_SLEEP(s->ticks);
    s->woke = PT_CONFIG_PORT_NOW();
    if (nwoken < 3)
        woken[nwoken++] = s;
    PT_TASK_END();
}

/* The 32-bit ticks wrap 2^32 ticks (49.7 days) after mtime 0: mtime is set
 * 40 ms before. Sleeps that end before, after and well after the wrap each
 * last their time (never less; at most LATE_MAX more in one of TRIES) and
 * end in deadline order, the loop idling between. */
static void test_sleeps_across_the_tick_wrap(void) {
    static const pt_time_t ticks[] = {PT_MS(300), PT_MS(20), PT_MS(60)};
    unsigned k, t;
    int in_time = 0;
    for (t = 0; t < TRIES && !in_time; t++) {
        set_mtime(mtime_of(0x100000000ull - PT_MS(40), QEMU_MTIME_HZ));
        CHECK(PT_CONFIG_PORT_NOW() > 0xFFFFFF00u);
        (void)pt_loop_init(&lp, heap, sizeof heap / sizeof heap[0]);
        nwoken = 0;
        for (k = 0; k < 3; k++) {
            sleepers[k].ticks = ticks[k];
            CHECK_EQ_INT(pt_loop_spawn(&lp, &sleepers[k].task, sleeper_run), PT_OK);
        }
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(nwoken, 3);
        CHECK(woken[0] == &sleepers[1] && woken[1] == &sleepers[2] && woken[2] == &sleepers[0]);
        in_time = 1;
        for (k = 0; k < 3; k++) {
            pt_time_t slept = sleepers[k].woke - sleepers[k].start;
            CHECK(slept >= sleepers[k].ticks);
            in_time &= slept <= sleepers[k].ticks + LATE_MAX;
        }
        CHECK(sleepers[1].woke > 0xFFFFFF00u); /* before the wrap */
        CHECK(sleepers[2].woke < 1000u);       /* after it */
        CHECK(PT_CONFIG_PORT_NOW() < 1000u);
        CHECK_EQ_INT(mtime() >> 32,
                     QEMU_MTIME_HZ / PT_CONFIG_TICKS_PER_SEC); /* 2^32 ticks of 10^4 */
    }
    CHECK(in_time);
}

static void start(void) {
    (void)pt_port_start(QEMU_MTIME_HZ);
}

#define TEST_CASES(X)                                                                              \
    X(start_refuses_a_zero_timebase)                                                               \
    X(clock_is_mtime_in_ticks)                                                                     \
    X(clock_with_a_timebase_not_a_multiple_of_the_tick)                                            \
    X(conversions_are_exact)                                                                       \
    X(idle_ends_at_its_tick)                                                                       \
    X(idle_with_a_timebase_not_a_multiple_of_the_tick)                                             \
    X(idle_leaves_the_timer_interrupt_off)                                                         \
    X(sleeps_across_the_tick_wrap)
TEST_MAIN_INIT(TEST_CASES, start)
