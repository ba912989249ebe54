/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/uv_loop.c - workloads W1-W5 of bench/WORKLOADS.md on libuv,
 * anchor=libuv: the same work as bench_loop.c, written as libuv users write
 * it.
 *
 *   uv_loop <W1a|W1b|W2|W3|W4a|W4b|W5>
 *
 * libuv allocates nothing per handle either: handles are caller-owned. As in
 * bench_loop.c, the handle arrays are allocated and touched before each
 * timed region (the NOTE lines say so).
 *
 * Mapping:
 *  W1a/W1b  a task is a uv_idle_t: libuv calls every active idle handle once
 *           per loop turn, in FIFO order, and polls for I/O once per turn
 *           (epoll_wait with a zero timeout while idle handles are active).
 *           So a yield = returning from the idle callback; a resume = the
 *           next call. The first call is the task's start (not a resume);
 *           after its last resume the task stops its handle (uv_idle_stop).
 *           uv_run(UV_RUN_DEFAULT) returns once all have stopped.
 *  W2       a task is a uv_idle_t started for one call: spawn = uv_idle_init
 *           + uv_idle_start, body = the callback (which uv_close's its
 *           handle), reap = the close callback (after which the handle may
 *           be re-initialised). 10,000 handles re-used by every batch; main
 *           spawns a batch and runs uv_run until all are closed.
 *  W3       1,000,000 uv_timer_t (uv_timer_init + uv_timer_start(i % 1000 ms))
 *           then uv_run; the timer callback counts.
 *  W4a/W4b  a re-used uv_timer_t (W4a: 1; W4b: 1,000): start =
 *           uv_timer_start(10000 ms), cancel = uv_timer_stop. The benchmarking
 *           task is a uv_idle_t; "one loop turn" is the next call of its
 *           callback. The timer structure's size is loop->timer_heap.nelts
 *           (a private field of uv_loop_t, in uv/unix.h).
 *  W5       uv_timer_t: 500 ms, then (from its callback) 700 ms; then two
 *           timers of 500 and 700 ms started together.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "bench_common.h"

static uv_loop_t *g_loop;

/* ---- W1 ---------------------------------------------------------------- */

struct yielder {
    uv_idle_t h; /* first member: the callback's handle is the task */
    long left;
    int started;
};

static long g_resumes, g_finished;

static void w1_cb(uv_idle_t *h) {
    struct yielder *y = (struct yielder *)h;
    if (y->started)
        g_resumes++;
    y->started = 1;
    if (y->left > 0) {
        y->left--; /* yield */
        return;
    }
    uv_idle_stop(h);
    g_finished++;
}

static void close_all(void) {
    /* Untimed: close every handle so that the loop can be closed. */
    uv_run(g_loop, UV_RUN_DEFAULT);
    uv_loop_close(g_loop);
}

static void walk_close(uv_handle_t *h, void *arg) {
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

static void run_w1(const char *id, long ntasks, long yields) {
    struct yielder *ys = (struct yielder *)bench_prealloc((size_t)ntasks, sizeof *ys);
    uint64_t t0, t1;
    long i;

    t0 = bench_now_ns();
    for (i = 0; i < ntasks; i++) {
        ys[i].left = yields;
        uv_idle_init(g_loop, &ys[i].h);
        uv_idle_start(&ys[i].h, w1_cb);
    }
    uv_run(g_loop, UV_RUN_DEFAULT);
    t1 = bench_now_ns();

    bench_check(id, "resumes", g_resumes, 1000000);
    bench_check(id, "finished", g_finished, ntasks);
    bench_note(id, "task = uv_idle_t (one callback per loop turn); handles preallocated");
    bench_result(id, "ns_per_resume", (double)(t1 - t0) / 1e6, "ns");
    uv_walk(g_loop, walk_close, NULL);
    close_all();
    free(ys);
}

/* ---- W2 ---------------------------------------------------------------- */

#define W2_BATCH 10000
#define W2_BATCHES 100

static long g_bodies, g_reaped;

static void w2_close_cb(uv_handle_t *h) {
    (void)h;
    g_reaped++;
}

static void w2_cb(uv_idle_t *h) {
    g_bodies++;
    uv_close((uv_handle_t *)h, w2_close_cb); /* also stops it */
}

static void run_w2(void) {
    uv_idle_t *hs = (uv_idle_t *)bench_prealloc(W2_BATCH, sizeof *hs);
    uint64_t t0, t1;
    int b, i;

    t0 = bench_now_ns();
    for (b = 0; b < W2_BATCHES; b++) {
        for (i = 0; i < W2_BATCH; i++) {
            uv_idle_init(g_loop, &hs[i]);
            uv_idle_start(&hs[i], w2_cb);
        }
        uv_run(g_loop, UV_RUN_DEFAULT); /* until all are closed */
        if (g_reaped != (long)(b + 1) * W2_BATCH)
            bench_invalid("W2", "reaped after a batch", g_reaped, (long long)(b + 1) * W2_BATCH);
    }
    t1 = bench_now_ns();

    bench_check("W2", "bodies", g_bodies, 1000000);
    bench_check("W2", "reaped", g_reaped, 1000000);
    bench_note("W2", "task = uv_idle_t run once then uv_close'd, reaped in the close callback; "
                     "10,000 handles re-used per batch, re-initialised by uv_idle_init");
    bench_result("W2", "ns_per_task", (double)(t1 - t0) / 1e6, "ns");
    uv_loop_close(g_loop);
    free(hs);
}

/* ---- W3 ---------------------------------------------------------------- */

#define W3_N 1000000L

static long g_fired;
static uint64_t g_last_wall, g_last_cpu;

static void w3_cb(uv_timer_t *t) {
    (void)t;
    if (++g_fired == W3_N) {
        g_last_wall = bench_now_ns();
        g_last_cpu = bench_cpu_ns();
    }
}

static void run_w3(void) {
    uv_timer_t *ts = (uv_timer_t *)bench_prealloc((size_t)W3_N, sizeof *ts);
    uint64_t t0, c0, t1, c1;
    double base_rss;
    long i;
    char note[160];

    uv_update_time(g_loop);
    base_rss = bench_rss_mib();
    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    for (i = 0; i < W3_N; i++) {
        uv_timer_init(g_loop, &ts[i]);
        uv_timer_start(&ts[i], w3_cb, (uint64_t)(i % 1000), 0);
    }
    t1 = bench_now_ns();
    c1 = bench_cpu_ns();
    uv_run(g_loop, UV_RUN_DEFAULT);

    bench_check("W3", "firings", g_fired, W3_N);
    snprintf(note, sizeof note,
             "%ld uv_timer_t (%u bytes each), preallocated and touched before the schedule "
             "phase (in base_rss)",
             W3_N, (unsigned)sizeof(uv_timer_t));
    bench_note("W3", note);
    bench_result("W3", "schedule_ns_per_timer", (double)(t1 - t0) / (double)W3_N, "ns");
    bench_result("W3", "schedule_cpu_ns_per_timer", (double)(c1 - c0) / (double)W3_N, "ns");
    bench_result("W3", "fire_cpu_ns_per_timer", (double)(g_last_cpu - c1) / (double)W3_N, "ns");
    bench_result("W3", "fire_wall_s", (double)(g_last_wall - t1) / 1e9, "s");
    bench_result("W3", "total_s", (double)(g_last_wall - t0) / 1e9, "s");
    bench_result("W3", "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    bench_result("W3", "base_rss_mib", base_rss, "MiB");
    free(ts);
}

/* ---- W4 ---------------------------------------------------------------- */

#define W4_TIMEOUT 10000u
#define W4_ROUND 1000

static uv_timer_t *g_timers;
static uv_idle_t g_bench; /* the benchmarking task */
static long g_w4_fired, g_w4_errors, g_peak = -1;
static int g_round, g_tight;
static uint64_t g_t0, g_t1;

static long timer_entries(void) {
    return (long)g_loop->timer_heap.nelts;
}

static void w4_sample(void) {
    long n = timer_entries();
    if (n > g_peak)
        g_peak = n;
}

static void w4_fired_cb(uv_timer_t *t) {
    (void)t;
    g_w4_fired++;
}

static void w4_cb(uv_idle_t *h) {
    int i, outer;
    if (g_round == 0)
        g_t0 = bench_now_ns();
    if (g_tight && g_round == 0) {
        uv_timer_t *t = &g_timers[0];
        for (outer = 0; outer < 1000; outer++) {
            for (i = 0; i < 1000; i++) {
                if (uv_timer_start(t, w4_fired_cb, W4_TIMEOUT, 0) != 0)
                    g_w4_errors++;
                uv_timer_stop(t);
            }
            w4_sample();
        }
    } else if (!g_tight && g_round < 1000) {
        for (i = 0; i < W4_ROUND; i++)
            if (uv_timer_start(&g_timers[i], w4_fired_cb, W4_TIMEOUT, 0) != 0)
                g_w4_errors++;
        for (i = 0; i < W4_ROUND; i++)
            uv_timer_stop(&g_timers[i]);
        w4_sample();
    } else {
        /* After the final turn. */
        g_t1 = bench_now_ns();
        uv_idle_stop(h);
    }
    g_round++;
}

static void run_w4(const char *id) {
    int i, n;
    long after;

    g_tight = strcmp(id, "W4a") == 0;
    n = g_tight ? 1 : W4_ROUND;
    g_timers = (uv_timer_t *)bench_prealloc((size_t)n, sizeof *g_timers);
    for (i = 0; i < n; i++)
        uv_timer_init(g_loop, &g_timers[i]);
    uv_idle_init(g_loop, &g_bench);
    uv_idle_start(&g_bench, w4_cb);
    uv_run(g_loop, UV_RUN_DEFAULT); /* the timed region is in w4_cb */
    after = timer_entries();

    bench_check(id, "uv_timer_start errors", g_w4_errors, 0);
    bench_check(id, "cancelled timers that fired", g_w4_fired, 0);
    bench_check(id, "benchmark turns", g_round, g_tight ? 2 : 1001);
    bench_note(id, "start = uv_timer_start(10 s), cancel = uv_timer_stop, on re-used "
                   "uv_timer_t; entries = loop->timer_heap.nelts");
    bench_result(id, "ns_per_start_cancel", (double)(g_t1 - g_t0) / 1e6, "ns");
    bench_result(id, "peak_timer_entries", (double)g_peak, "entries");
    bench_result(id, "timer_entries_after_turn", (double)after, "entries");
    bench_result(id, "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    uv_walk(g_loop, walk_close, NULL);
    close_all();
    free(g_timers);
}

/* ---- W5 ---------------------------------------------------------------- */

static uv_timer_t g_w5[3];
static uint64_t g_s0, g_s1, g_c0, g_c1, g_cpu0, g_cpu1;
static int g_w5_done;

static void w5_conc_cb(uv_timer_t *t) {
    (void)t;
    if (++g_w5_done == 2) {
        g_c1 = bench_now_ns();
        g_cpu1 = bench_cpu_ns();
    }
}

static void w5_second_cb(uv_timer_t *t) {
    (void)t;
    g_s1 = bench_now_ns();
    g_c0 = bench_now_ns();
    g_cpu0 = bench_cpu_ns();
    uv_timer_start(&g_w5[1], w5_conc_cb, 500, 0);
    uv_timer_start(&g_w5[2], w5_conc_cb, 700, 0);
}

static void w5_first_cb(uv_timer_t *t) {
    uv_timer_start(t, w5_second_cb, 700, 0);
}

static void run_w5(void) {
    double conc;
    int i;
    for (i = 0; i < 3; i++)
        uv_timer_init(g_loop, &g_w5[i]);
    uv_update_time(g_loop);
    g_s0 = bench_now_ns();
    uv_timer_start(&g_w5[0], w5_first_cb, 500, 0);
    uv_run(g_loop, UV_RUN_DEFAULT);

    bench_check("W5", "concurrent timers fired", g_w5_done, 2);
    conc = (double)(g_c1 - g_c0) / 1e6;
    bench_note("W5", "uv_timer_t (ms timeouts on the loop's cached clock); idle = epoll_wait");
    bench_result("W5", "serial_ms", (double)(g_s1 - g_s0) / 1e6, "ms");
    bench_result("W5", "concurrent_ms", conc, "ms");
    bench_result("W5", "lateness_ms", conc - 700.0, "ms");
    bench_result("W5", "concurrent_cpu_s", (double)(g_cpu1 - g_cpu0) / 1e9, "s");
    uv_walk(g_loop, walk_close, NULL);
    close_all();
}

int main(int argc, char **argv) {
    const char *id = argc > 1 ? argv[1] : "";
    char note[200];

    bench_anchor = "libuv";
    g_loop = uv_default_loop();
    snprintf(note, sizeof note, "cc=\"%s\" libuv=%s", BENCH_CC, uv_version_string());
    if (strcmp(id, "W1a") == 0)
        run_w1(id, 1, 1000000);
    else if (strcmp(id, "W1b") == 0)
        run_w1(id, 10000, 100);
    else if (strcmp(id, "W2") == 0)
        run_w2();
    else if (strcmp(id, "W3") == 0)
        run_w3();
    else if (strcmp(id, "W4a") == 0 || strcmp(id, "W4b") == 0)
        run_w4(id);
    else if (strcmp(id, "W5") == 0)
        run_w5();
    else {
        fprintf(stderr, "usage: %s <W1a|W1b|W2|W3|W4a|W4b|W5>\n", argv[0]);
        return 2;
    }
    bench_note(id, note);
    return 0;
}
