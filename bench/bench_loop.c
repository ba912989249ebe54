/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/bench_loop.c - workloads W1-W5 of bench/WORKLOADS.md on the
 * ptloop event loop (loop/loop.h), anchor=ptloop.
 *
 *   bench_loop <W1a|W1b|W2|W3|W4a|W4b|W4at|W4bt|W5>
 *
 * runs one workload once in this process and prints its RESULT lines (and
 * NOTE lines saying how it was mapped). bench/run_table.py runs every
 * workload in a fresh process, 3 times, beside the anchors (uv_loop.c,
 * asyncio_loop.py, floor.c).
 *
 * The loop allocates nothing: every struct pt_task and the timer heap's
 * array are caller-owned. Here they are allocated AND touched (so resident)
 * before each timed region (bench_prealloc), as WORKLOADS.md allows for
 * caller-owned storage; the NOTE lines repeat this. The loop runs on the
 * real clock (CLOCK_MONOTONIC in microseconds, select() to idle), never the
 * virtual one.
 *
 * Mapping of each workload to the loop's API:
 *
 *  W1a/W1b  a task is a struct pt_task whose body loops over PT_TASK_YIELD();
 *           all are pt_loop_spawn'ed, then pt_loop_run() runs until every task
 *           has finished. One loop turn = one pt_loop_run_once.
 *  W2       a spawner task, per batch: pt_group_init + 10,000 pt_group_spawn
 *           of a task whose body returns at once, then PT_GROUP_WAIT (the
 *           TaskGroup/gather idiom), then it reads each member's status
 *           (the reap). The same 10,000 struct pt_task are re-used by every
 *           batch; pt_loop_spawn re-initialises each one.
 *  W3       a timer is a sleeping task: 1,000,000 struct pt_task, task i
 *           doing PT_SLEEP(PT_MS(i % 1000)), and the heap array of
 *           1,000,000 pointers. A task's sleep starts when it first runs, so
 *           the schedule phase is: spawn all, then ONE non-blocking loop turn
 *           (pt_loop_run_once(loop, 0)) in which each runs and parks on its
 *           timer. The fire phase is pt_loop_run(); the woken task is the
 *           callback (it counts; the N-th records the time).
 *  W4a/W4b  a timer cannot be started and cancelled through the public API
 *           without a loop turn in between: a timer belongs to a task's
 *           wait, and the wait starts only when that task runs. So W4a/W4b
 *           call what the loop itself runs for it, on a caller-owned struct
 *           pt_task used as the timer (re-used: 1 timer in W4a, 1,000 in
 *           W4b; never spawned):
 *             start  = pt__sleep_start(loop, t, &t->gen, PT_MS(10000)),
 *                      exactly what PT_SLEEP(PT_MS(10000)) calls (-> pt__park:
 *                      deadline from the loop's cached now, pt__timer_add);
 *             cancel = pt__unpark(loop, t, t->gen.value.p) and the
 *                      flags pt__wake clears: the timer half of pt_task_cancel /
 *                      of an early wake (pt__timer_remove, flags cleared).
 *           Left out: the ready-queue push and the run of the woken task
 *           that pt_task_cancel also causes; W4at/W4bt below include them. The
 *           benchmarking code is a task; "one loop turn" is its
 *           PT_TASK_YIELD(). If a cancelled timer fired, the loop would run
 *           the timer task's body, which counts it: the run is then INVALID.
 *  W4at     (not a WORKLOADS.md id: W4a through the public API) 1,000,000
 *           times: pt_loop_spawn a task whose body is PT_SLEEP(PT_MS(10000)), one
 *           loop turn (the benchmarking task yields; the task runs and
 *           starts its sleep), pt_task_cancel it. The cancelled task is reaped in
 *           the next turn. So each pair costs a spawn, a turn, a task run, a
 *           heap push, a cancel (heap remove, ready push) and a reap.
 *  W4bt     (W4b through the public API) 1,000 rounds: spawn 1,000 such
 *           tasks, one turn (they start their sleeps), pt_task_cancel the 1,000
 *           in start order, one turn (they are reaped; this is the round's
 *           turn). Two turns per round instead of one.
 *  W5       a main task: PT_SLEEP(PT_MS(500)); PT_SLEEP(PT_MS(700)); then a
 *           group of two tasks sleeping 500 and 700 ms, PT_GROUP_WAIT.
 *
 * Validity: every count is checked (resumes, bodies, reaps, firings, entries
 * left, no cancelled timer fired); on a mismatch it prints INVALID and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "loop/loop.h"

#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
#define BENCH_LC "addrlabels"
#else
#define BENCH_LC "switch"
#endif

static struct pt_loop g_loop;

/* ---- W1: yield through the ready queue --------------------------------- */

struct yielder {
    struct pt_task task; /* first: the loop hands the body this pointer */
    long left;           /* yields still to do */
};

static long g_resumes;

static PT_THREAD(w1_task(struct pt_loop *loop, struct pt_task *task)) {
    struct yielder *y = (struct yielder *)task;
    PT_TASK_BEGIN(loop, task);
    while (y->left > 0) {
        y->left--;
        PT_TASK_YIELD();
        g_resumes++;
    }
    PT_TASK_END();
}

static void run_w1(const char *id, long ntasks, long yields) {
    struct yielder *ys = (struct yielder *)bench_prealloc((size_t)ntasks, sizeof *ys);
    uint64_t t0, t1;
    long i;
    int rc;

    pt_loop_init(&g_loop, NULL, 0);
    t0 = bench_now_ns();
    for (i = 0; i < ntasks; i++) {
        ys[i].left = yields;
        if (pt_loop_spawn(&g_loop, &ys[i].task, w1_task) != PT_OK)
            bench_invalid(id, "pt_loop_spawn failed at task", i, -1);
    }
    rc = pt_loop_run(&g_loop);
    t1 = bench_now_ns();

    bench_check(id, "pt_loop_run result", rc, PT_OK);
    bench_check(id, "resumes", g_resumes, 1000000);
    for (i = 0; i < ntasks; i++)
        bench_check(id, "task status", pt_task_status(&ys[i].task), PT_ENDED);
    bench_note(id, "tasks: caller-owned struct pt_task array, allocated before the timed region");
    bench_result(id, "ns_per_resume", (double)(t1 - t0) / 1e6, "ns");
    free(ys);
}

/* ---- W2: spawn, run and reap ------------------------------------------- */

#define W2_BATCH 10000
#define W2_BATCHES 100

struct w2_main {
    struct pt_task task;
    int batch;
};

static struct pt_task *g_w2_tasks;    /* W2_BATCH, re-used by every batch */
static struct pt_task **g_w2_members; /* the group's member array */
static struct pt_group g_w2_group;
static long g_w2_bodies, g_w2_reaped, g_w2_errors;

static PT_THREAD(w2_trivial(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    g_w2_bodies++;
    PT_TASK_END();
}

static PT_THREAD(w2_spawner(struct pt_loop *loop, struct pt_task *task)) {
    struct w2_main *m = (struct w2_main *)task;
    pt_index_t i;
    PT_TASK_BEGIN(loop, task);
    for (m->batch = 0; m->batch < W2_BATCHES; m->batch++) {
        pt_group_init(&g_w2_group, g_w2_members, W2_BATCH, PT_GROUP_COLLECT);
        for (i = 0; i < W2_BATCH; i++)
            if (pt_group_spawn(loop, &g_w2_group, &g_w2_tasks[i], w2_trivial) != PT_OK)
                g_w2_errors++;
        PT_GROUP_WAIT(&g_w2_group, PT_FOREVER);
        if (PT_WAIT_RESULT() != PT_OK)
            g_w2_errors++;
        /* The reap: observe each member's completion. */
        for (i = 0; i < g_w2_group.count; i++)
            if (pt_task_status(g_w2_members[i]) == PT_ENDED)
                g_w2_reaped++;
    }
    PT_TASK_END();
}

static void run_w2(void) {
    struct w2_main m;
    uint64_t t0, t1;
    int rc;

    memset(&m, 0, sizeof m); /* a task starts zeroed */
    g_w2_tasks = (struct pt_task *)bench_prealloc(W2_BATCH, sizeof *g_w2_tasks);
    g_w2_members = (struct pt_task **)bench_prealloc(W2_BATCH, sizeof *g_w2_members);
    pt_loop_init(&g_loop, NULL, 0);
    t0 = bench_now_ns();
    pt_loop_spawn(&g_loop, &m.task, w2_spawner);
    rc = pt_loop_run(&g_loop);
    t1 = bench_now_ns();

    bench_check("W2", "pt_loop_run result", rc, PT_OK);
    bench_check("W2", "errors (spawn or group wait)", g_w2_errors, 0);
    bench_check("W2", "batches", m.batch, W2_BATCHES);
    bench_check("W2", "bodies", g_w2_bodies, 1000000);
    bench_check("W2", "reaped", g_w2_reaped, 1000000);
    bench_note("W2",
               "spawn: pt_group_spawn into a pt_group, reap: PT_GROUP_WAIT + status; "
               "10,000 caller-owned tasks re-used per batch, re-initialised by pt_loop_spawn");
    bench_result("W2", "ns_per_task", (double)(t1 - t0) / 1e6, "ns");
    free(g_w2_tasks);
    free(g_w2_members);
}

/* ---- W3: one million timers -------------------------------------------- */

#define W3_N 1000000L

static struct pt_task *g_w3_tasks;
static long g_w3_fired, g_w3_bad;
static uint64_t g_w3_last_wall, g_w3_last_cpu;

static PT_THREAD(w3_task(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS((pt_time_t)((size_t)(task - g_w3_tasks) % 1000u)));
    if (PT_WAIT_RESULT() != PT_OK)
        g_w3_bad++;
    if (++g_w3_fired == W3_N) {
        g_w3_last_wall = bench_now_ns();
        g_w3_last_cpu = bench_cpu_ns();
    }
    PT_TASK_END();
}

static void run_w3(void) {
    struct pt_timer_slot *heap;
    uint64_t t0, c0, t1, c1;
    double base_rss;
    long i, parked;
    int rc;
    char note[200];

    g_w3_tasks = (struct pt_task *)bench_prealloc((size_t)W3_N, sizeof *g_w3_tasks);
    heap = (struct pt_timer_slot *)bench_prealloc((size_t)W3_N, sizeof *heap);
    if (pt_loop_init(&g_loop, heap, (size_t)W3_N) != PT_OK)
        bench_invalid("W3", "pt_loop_init (heap capacity)", 0, W3_N);
    base_rss = bench_rss_mib();

    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    for (i = 0; i < W3_N; i++)
        if (pt_loop_spawn(&g_loop, &g_w3_tasks[i], w3_task) != PT_OK)
            bench_invalid("W3", "pt_loop_spawn failed at task", i, -1);
    pt_loop_run_once(&g_loop, 0); /* each task runs once and starts its sleep */
    t1 = bench_now_ns();
    c1 = bench_cpu_ns();
    parked = (long)pt_loop_timers(&g_loop);

    rc = pt_loop_run(&g_loop);

    bench_check("W3", "timers after the schedule phase", parked, W3_N);
    bench_check("W3", "pt_loop_run result", rc, PT_OK);
    bench_check("W3", "sleeps that failed", g_w3_bad, 0);
    bench_check("W3", "firings", g_w3_fired, W3_N);
    bench_check("W3", "timers left", (long long)pt_loop_timers(&g_loop), 0);
    snprintf(note, sizeof note,
             "timer = a task in PT_SLEEP; %ld struct pt_task (%u bytes each) + heap of %ld "
             "slots (%u bytes each), preallocated and touched before the schedule phase (in "
             "base_rss)",
             W3_N, (unsigned)sizeof(struct pt_task), W3_N, (unsigned)sizeof(struct pt_timer_slot));
    bench_note("W3", note);
    bench_result("W3", "schedule_ns_per_timer", (double)(t1 - t0) / (double)W3_N, "ns");
    bench_result("W3", "schedule_cpu_ns_per_timer", (double)(c1 - c0) / (double)W3_N, "ns");
    bench_result("W3", "fire_cpu_ns_per_timer", (double)(g_w3_last_cpu - c1) / (double)W3_N, "ns");
    bench_result("W3", "fire_wall_s", (double)(g_w3_last_wall - t1) / 1e9, "s");
    bench_result("W3", "total_s", (double)(g_w3_last_wall - t0) / 1e9, "s");
    bench_result("W3", "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    bench_result("W3", "base_rss_mib", base_rss, "MiB");
    free(g_w3_tasks);
    free(heap);
}

/* ---- W4: timer churn --------------------------------------------------- */

#define W4_TIMEOUT PT_MS(10000)
#define W4_ROUND 1000

struct w4_main {
    struct pt_task task;
    long i;
    int round;
};

static struct pt_task *g_w4_timers; /* W4a/W4b: timers; W4at/W4bt: tasks */
static long g_w4_fired, g_w4_full, g_w4_bad, g_w4_reaped;
static long g_w4_peak = -1;
static uint64_t g_w4_t0, g_w4_t1;

static void w4_sample(const struct pt_loop *loop) {
    long n = (long)pt_loop_timers(loop);
    if (n > g_w4_peak)
        g_w4_peak = n;
}

/* The body a timer's task would run if its timer fired: it never must. */
static PT_THREAD(w4_fired_body(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    g_w4_fired++;
    PT_TASK_END();
}

/* Start t's timer (10 s) as PT_SLEEP does; cancel it as pt_task_cancel does. */
static inline void w4_start(struct pt_loop *loop, struct pt_task *t) {
    if (!pt__sleep_start(loop, t, &t->gen, W4_TIMEOUT))
        g_w4_full++;
}
static inline void w4_cancel(struct pt_loop *loop, struct pt_task *t) {
    pt__unpark(loop, t, t->gen.value.p);
    pt__set_place(t, PT__PLACE_NONE);
}

static PT_THREAD(w4a_main(struct pt_loop *loop, struct pt_task *task)) {
    struct pt_task *t = &g_w4_timers[0];
    int outer, inner;
    PT_TASK_BEGIN(loop, task);
    g_w4_t0 = bench_now_ns();
    for (outer = 0; outer < 1000; outer++) {
        for (inner = 0; inner < 1000; inner++) {
            w4_start(loop, t);
            w4_cancel(loop, t);
        }
        w4_sample(loop);
    }
    PT_TASK_YIELD(); /* the loop's one turn */
    g_w4_t1 = bench_now_ns();
    PT_TASK_END();
}

static PT_THREAD(w4b_main(struct pt_loop *loop, struct pt_task *task)) {
    struct w4_main *m = (struct w4_main *)task;
    int i;
    PT_TASK_BEGIN(loop, task);
    g_w4_t0 = bench_now_ns();
    for (m->round = 0; m->round < 1000; m->round++) {
        for (i = 0; i < W4_ROUND; i++)
            w4_start(loop, &g_w4_timers[i]);
        for (i = 0; i < W4_ROUND; i++)
            w4_cancel(loop, &g_w4_timers[i]);
        w4_sample(loop);
        PT_TASK_YIELD(); /* the round's loop turn */
    }
    g_w4_t1 = bench_now_ns();
    PT_TASK_END();
}

/* W4at/W4bt: a real task sleeping 10 s, cancelled by pt_task_cancel. */
static PT_THREAD(w4_sleeper(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(W4_TIMEOUT);
    /* Reached only if the sleep ended without a cancel. */
    if (PT_WAIT_RESULT() == PT_EFULL)
        g_w4_full++;
    else
        g_w4_fired++;
    PT_TASK_END();
}

static void w4_reap(struct pt_task *t) {
    if (pt_task_status(t) == PT_CLOSED)
        g_w4_reaped++;
    else
        g_w4_bad++;
}

static PT_THREAD(w4at_main(struct pt_loop *loop, struct pt_task *task)) {
    struct w4_main *m = (struct w4_main *)task;
    struct pt_task *t;
    PT_TASK_BEGIN(loop, task);
    g_w4_t0 = bench_now_ns();
    for (m->i = 0; m->i < 1000000; m->i++) {
        t = &g_w4_timers[m->i & 1];
        if (m->i >= 2)
            w4_reap(t); /* cancelled two pairs ago, finished one turn ago */
        if (pt_loop_spawn(loop, t, w4_sleeper) != PT_OK)
            g_w4_bad++;
        PT_TASK_YIELD(); /* a turn: t runs, its sleep (the timer) starts */
        t = &g_w4_timers[m->i & 1];
        if (pt_task_cancel(loop, t) != PT_OK)
            g_w4_bad++;
        if (m->i % 1000 == 999)
            w4_sample(loop);
    }
    PT_TASK_YIELD(); /* the final turn: the last cancelled task finishes */
    g_w4_t1 = bench_now_ns();
    w4_reap(&g_w4_timers[0]);
    w4_reap(&g_w4_timers[1]);
    PT_TASK_END();
}

static PT_THREAD(w4bt_main(struct pt_loop *loop, struct pt_task *task)) {
    struct w4_main *m = (struct w4_main *)task;
    int i;
    PT_TASK_BEGIN(loop, task);
    g_w4_t0 = bench_now_ns();
    for (m->round = 0; m->round < 1000; m->round++) {
        for (i = 0; i < W4_ROUND; i++) {
            if (m->round > 0)
                w4_reap(&g_w4_timers[i]);
            if (pt_loop_spawn(loop, &g_w4_timers[i], w4_sleeper) != PT_OK)
                g_w4_bad++;
        }
        PT_TASK_YIELD(); /* a turn: the 1,000 start their sleeps */
        for (i = 0; i < W4_ROUND; i++)
            if (pt_task_cancel(loop, &g_w4_timers[i]) != PT_OK)
                g_w4_bad++;
        w4_sample(loop);
        PT_TASK_YIELD(); /* the round's turn: the cancelled tasks finish */
    }
    g_w4_t1 = bench_now_ns();
    for (i = 0; i < W4_ROUND; i++)
        w4_reap(&g_w4_timers[i]);
    PT_TASK_END();
}

static void run_w4(const char *id) {
    struct w4_main m;
    struct pt_timer_slot *heap;
    long ntimers, after, i;
    int rc, tasks = 0;
    pt_task_fn body;

    if (strcmp(id, "W4a") == 0) {
        ntimers = 1;
        body = w4a_main;
    } else if (strcmp(id, "W4b") == 0) {
        ntimers = W4_ROUND;
        body = w4b_main;
    } else if (strcmp(id, "W4at") == 0) {
        ntimers = 2;
        body = w4at_main;
        tasks = 1;
    } else {
        ntimers = W4_ROUND;
        body = w4bt_main;
        tasks = 1;
    }
    g_w4_timers = (struct pt_task *)bench_prealloc((size_t)ntimers, sizeof *g_w4_timers);
    heap = (struct pt_timer_slot *)bench_prealloc((size_t)ntimers, sizeof *heap);
    pt_loop_init(&g_loop, heap, (size_t)ntimers);
    for (i = 0; !tasks && i < ntimers; i++) {
        /* A timer: a task that is never spawned; its body counts a firing. */
        pt_gen_init(&g_w4_timers[i].gen);
        g_w4_timers[i].fn = w4_fired_body;
    }

    memset(&m, 0, sizeof m); /* a task starts zeroed */
    pt_loop_spawn(&g_loop, &m.task, body);
    rc = pt_loop_run(&g_loop); /* the timed region is inside the task */
    after = (long)pt_loop_timers(&g_loop);

    bench_check(id, "pt_loop_run result", rc, PT_OK);
    bench_check(id, "timer heap full", g_w4_full, 0);
    bench_check(id, "cancelled timers that fired", g_w4_fired, 0);
    bench_check(id, "bad cancels / spawns / final states", g_w4_bad, 0);
    bench_check(id, "samples of the timer heap", g_w4_peak >= 0, 1);
    if (tasks)
        bench_check(id, "cancelled tasks reaped", g_w4_reaped, 1000000);
    if (!tasks)
        bench_check(id, "timers still pending", after, 0);
    if (tasks)
        bench_note(id, "public API: start = spawn a task + one turn in which it does "
                       "PT_SLEEP(PT_MS(10000)); cancel = pt_task_cancel; task storage re-used");
    else
        bench_note(id,
                   "timer-level: start = pt__sleep_start (what PT_SLEEP calls), cancel = "
                   "pt__unpark (the timer half of pt_task_cancel); caller-owned timers re-used");
    bench_result(id, "ns_per_start_cancel", (double)(g_w4_t1 - g_w4_t0) / 1e6, "ns");
    bench_result(id, "peak_timer_entries", (double)g_w4_peak, "entries");
    bench_result(id, "timer_entries_after_turn", (double)after, "entries");
    bench_result(id, "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    free(g_w4_timers);
    free(heap);
}

/* ---- W5: sleep accuracy ------------------------------------------------ */

struct w5_sleeper {
    struct pt_task task;
    pt_time_t ms;
};

static struct w5_sleeper g_w5_sleepers[2];
static struct pt_task *g_w5_members[2];
static struct pt_group g_w5_group;
static uint64_t g_w5_s0, g_w5_s1, g_w5_c0, g_w5_c1, g_w5_cpu0, g_w5_cpu1;
static long g_w5_errors;

static PT_THREAD(w5_sleep(struct pt_loop *loop, struct pt_task *task)) {
    struct w5_sleeper *s = (struct w5_sleeper *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(s->ms));
    if (PT_WAIT_RESULT() != PT_OK)
        g_w5_errors++;
    PT_TASK_END();
}

static PT_THREAD(w5_main(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    g_w5_s0 = bench_now_ns();
    PT_SLEEP(PT_MS(500));
    if (PT_WAIT_RESULT() != PT_OK)
        g_w5_errors++;
    PT_SLEEP(PT_MS(700));
    if (PT_WAIT_RESULT() != PT_OK)
        g_w5_errors++;
    g_w5_s1 = bench_now_ns();

    g_w5_c0 = bench_now_ns();
    g_w5_cpu0 = bench_cpu_ns();
    pt_group_init(&g_w5_group, g_w5_members, 2, PT_GROUP_COLLECT);
    g_w5_sleepers[0].ms = 500;
    g_w5_sleepers[1].ms = 700;
    if (pt_group_spawn(loop, &g_w5_group, &g_w5_sleepers[0].task, w5_sleep) != PT_OK ||
        pt_group_spawn(loop, &g_w5_group, &g_w5_sleepers[1].task, w5_sleep) != PT_OK)
        g_w5_errors++;
    PT_GROUP_WAIT(&g_w5_group, PT_FOREVER);
    if (PT_WAIT_RESULT() != PT_OK)
        g_w5_errors++;
    g_w5_c1 = bench_now_ns();
    g_w5_cpu1 = bench_cpu_ns();
    PT_TASK_END();
}

static void run_w5(void) {
    struct pt_task main_task = {0}; /* a task starts zeroed */
    struct pt_timer_slot heap[3];
    double conc;
    int rc;

    pt_loop_init(&g_loop, heap, 3);
    pt_loop_spawn(&g_loop, &main_task, w5_main);
    rc = pt_loop_run(&g_loop);

    bench_check("W5", "pt_loop_run result", rc, PT_OK);
    bench_check("W5", "errors (sleep or group wait)", g_w5_errors, 0);
    bench_check("W5", "main task status", pt_task_status(&main_task), PT_ENDED);
    conc = (double)(g_w5_c1 - g_w5_c0) / 1e6;
    bench_note("W5", "PT_SLEEP on the loop's microsecond clock; idle = select() with a timeout");
    bench_result("W5", "serial_ms", (double)(g_w5_s1 - g_w5_s0) / 1e6, "ms");
    bench_result("W5", "concurrent_ms", conc, "ms");
    bench_result("W5", "lateness_ms", conc - 700.0, "ms");
    bench_result("W5", "concurrent_cpu_s", (double)(g_w5_cpu1 - g_w5_cpu0) / 1e9, "s");
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv) {
    const char *id = argc > 1 ? argv[1] : "";
    char note[200];

    bench_anchor = "ptloop";
    snprintf(note, sizeof note, "cc=\"%s\" lc=%s sizeof(struct pt_task)=%u PT_CONFIG_WIDE=%d",
             BENCH_CC, BENCH_LC, (unsigned)sizeof(struct pt_task), PT_CONFIG_WIDE);
    if (strcmp(id, "W1a") == 0)
        run_w1(id, 1, 1000000);
    else if (strcmp(id, "W1b") == 0)
        run_w1(id, 10000, 100);
    else if (strcmp(id, "W2") == 0)
        run_w2();
    else if (strcmp(id, "W3") == 0)
        run_w3();
    else if (strcmp(id, "W4a") == 0 || strcmp(id, "W4b") == 0 || strcmp(id, "W4at") == 0 ||
             strcmp(id, "W4bt") == 0)
        run_w4(id);
    else if (strcmp(id, "W5") == 0)
        run_w5();
    else {
        fprintf(stderr, "usage: %s <W1a|W1b|W2|W3|W4a|W4b|W4at|W4bt|W5>\n", argv[0]);
        return 2;
    }
    bench_note(id, note);
    return 0;
}
