/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/bench_common.h - what the C programs of the W1-W5 benchmarks share
 * (bench_loop.c, uv_loop.c, floor.c; workloads in bench/WORKLOADS.md):
 * the clocks, RSS, the RESULT line and the INVALID exit.
 *
 *   wall time   CLOCK_MONOTONIC, in ns;
 *   CPU time    CLOCK_PROCESS_CPUTIME_ID (user + system of the process), ns;
 *   peak RSS    getrusage(RUSAGE_SELF).ru_maxrss (KiB on Linux), in MiB;
 *   RSS now     /proc/self/statm (resident pages), in MiB.
 *
 * Needs _POSIX_C_SOURCE=200809L (set project-wide by meson).
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* A real call, as across translation units (GCC's noipa also stops
 * specialising the function for its one caller). */
#if defined(__has_attribute)
#if __has_attribute(noipa)
#define BENCH_NOINLINE __attribute__((noipa))
#elif __has_attribute(noinline)
#define BENCH_NOINLINE __attribute__((noinline))
#endif
#endif
#ifndef BENCH_NOINLINE
#define BENCH_NOINLINE
#endif

#if defined(__VERSION__)
#define BENCH_CC __VERSION__
#else
#define BENCH_CC "unknown"
#endif

static inline uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bench_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline double bench_peak_rss_mib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static inline double bench_rss_mib(void) {
    unsigned long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static const char *bench_anchor = "unknown";

static inline void bench_result(const char *workload, const char *metric, double value,
                                const char *unit) {
    printf("RESULT anchor=%s workload=%s metric=%s value=%.3f unit=%s\n", bench_anchor, workload,
           metric, value, unit);
}

/* A note the table runner collects (lines not starting with RESULT). */
static inline void bench_note(const char *workload, const char *text) {
    printf("NOTE anchor=%s workload=%s %s\n", bench_anchor, workload, text);
}

/* Fail the run: its counts are wrong, so it has no figures. */
static inline void bench_invalid(const char *workload, const char *what, long long got,
                                 long long want) {
    printf("INVALID anchor=%s workload=%s %s: got %lld, expected %lld\n", bench_anchor, workload,
           what, got, want);
    fflush(stdout);
    exit(1);
}

static inline void bench_check(const char *workload, const char *what, long long got,
                               long long want) {
    if (got != want)
        bench_invalid(workload, what, got, want);
}

/* Caller-owned storage, allocated and touched (so resident) before any
 * timed region: page faults are not part of what is timed. */
static inline void *bench_prealloc(size_t n, size_t size) {
    size_t bytes = n * size, i;
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(p, 0, bytes);
    /* (volatile: the compiler may turn malloc + memset into calloc) */
    for (i = 0; i < bytes; i += 4096)
        ((volatile char *)p)[i] = 0;
    return p;
}

#endif /* BENCH_COMMON_H */
