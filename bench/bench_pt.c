/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/bench_pt.c - what one resume costs: nanoseconds per resume of
 *
 *   hand-switch   a hand-written state machine: a function with an explicit
 *                 state variable and a switch on it;
 *   ptloop-<be>   a plain protothread (struct pt, PT_YIELD in a loop);
 *   ptloop-gen-<be> a generator (struct pt_gen, PT_YIELD_VALUE), driven by
 *                 pt_gen_next, the driver reading .value;
 *
 * where <be> is the local-continuation back end this file is built with
 * (PT_CONFIG_LC_ADDRLABELS=0: switch, =1: addrlabels). All three do the same work:
 * each resume hands the driver the next value of a counter, which the driver
 * adds into a sum, until the coroutine has handed out N values and ends.
 *
 * Usage: bench_pt [N]     N resumes per run (default 100000000).
 *
 * A measurement, never a test: it fails (prints INVALID, exits 1) only when
 * a coroutine did not produce the right values the right number of times,
 * never because of a time. Each variant runs 3 times, interleaved; the
 * median is reported (min and max on the human summary line).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_common.h"
#include "pt/pt.h"

#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
#define BACKEND "addrlabels"
#else
#define BACKEND "switch"
#endif

#if defined(__VERSION__)
#define BENCH_CC __VERSION__
#else
#define BENCH_CC "unknown"
#endif

#define DEFAULT_N 100000000ULL
#define RUNS 3

/* ---- (a) the hand-written switch state machine ------------------------- */

enum { HAND_START, HAND_RUNNING };

struct hand {
    unsigned char state;
    uint64_t i, n, value;
};

BENCH_NOINLINE static char hand_counter(struct hand *h) {
    switch (h->state) {
    case HAND_START:
        h->i = 0;
        break;
    case HAND_RUNNING:
        h->i++;
        break;
    default:
        break;
    }
    if (h->i < h->n) {
        h->value = h->i;
        h->state = HAND_RUNNING;
        return PT_YIELDED;
    }
    h->state = HAND_START;
    return PT_ENDED;
}

/* ---- (b) a plain protothread ------------------------------------------- */

struct ctr {
    struct pt pt;
    uint64_t i, n, value;
};

BENCH_NOINLINE static PT_THREAD(pt_counter(struct ctr *c)) {
    PT_BEGIN(&c->pt);
    for (c->i = 0; c->i < c->n; c->i++) {
        c->value = c->i;
        PT_YIELD(&c->pt);
    }
    PT_END(&c->pt);
}

/* ---- (c) a generator --------------------------------------------------- */

struct gctr {
    struct pt_gen gen;
    uint64_t i, n;
};

BENCH_NOINLINE static char gen_counter(struct gctr *c) {
    PT_GEN_BEGIN(&c->gen);
    for (c->i = 0; c->i < c->n; c->i++)
        PT_YIELD_VALUE(&c->gen, pt_value_int((intptr_t)c->i));
    PT_GEN_END(&c->gen);
}

/* ---- drivers: each returns the sum and stores the number of values ----- */

struct outcome {
    uint64_t sum;   /* sum of the values handed out */
    uint64_t count; /* resumes that handed out a value */
    char last;      /* status of the final call */
    double seconds;
};

static double now(void) {
    return (double)bench_now_ns() * 1e-9;
}

static struct outcome run_hand(uint64_t n) {
    struct outcome o = {0, 0, 0, 0.0};
    struct hand h;
    char st;
    double t0;
    h.state = HAND_START;
    h.i = h.value = 0;
    h.n = n;
    t0 = now();
    while ((st = hand_counter(&h)) == PT_YIELDED) {
        o.sum += h.value;
        o.count++;
    }
    o.seconds = now() - t0;
    o.last = st;
    return o;
}

static struct outcome run_pt(uint64_t n) {
    struct outcome o = {0, 0, 0, 0.0};
    struct ctr c;
    char st;
    double t0;
    PT_INIT(&c.pt);
    c.i = c.value = 0;
    c.n = n;
    t0 = now();
    while ((st = pt_counter(&c)) == PT_YIELDED) {
        o.sum += c.value;
        o.count++;
    }
    o.seconds = now() - t0;
    o.last = st;
    return o;
}

static struct outcome run_gen(uint64_t n) {
    struct outcome o = {0, 0, 0, 0.0};
    struct gctr c;
    char st;
    double t0;
    pt_gen_init(&c.gen);
    c.i = 0;
    c.n = n;
    t0 = now();
    while ((st = pt_gen_next(&c.gen, gen_counter(&c))) == PT_YIELDED) {
        o.sum += (uint64_t)(uintptr_t)c.gen.value.i;
        o.count++;
    }
    o.seconds = now() - t0;
    o.last = st;
    return o;
}

/* ---- reporting --------------------------------------------------------- */

struct variant {
    const char *anchor;
    struct outcome (*run)(uint64_t n);
    double ns[RUNS]; /* ns per resume of each run */
};

/* 0 + 1 + ... + (n - 1), modulo 2^64 like the sums above. */
static uint64_t expected_sum(uint64_t n) {
    if (n % 2 == 0)
        return (n / 2) * (n - 1);
    return n * ((n - 1) / 2);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place; returns the median. */
static double median(double *v) {
    qsort(v, RUNS, sizeof v[0], cmp_double);
    return v[RUNS / 2];
}

static uint64_t parse_n(int argc, char **argv) {
    char *end;
    unsigned long long n;
    if (argc < 2)
        return DEFAULT_N;
    errno = 0;
    n = strtoull(argv[1], &end, 10);
    if (argc > 2 || errno != 0 || end == argv[1] || *end != '\0' || argv[1][0] == '-' || n == 0 ||
        n > (unsigned long long)INTPTR_MAX) {
        fprintf(stderr, "usage: %s [N]   (N: resumes per run, 1 .. %lld; default %llu)\n", argv[0],
                (long long)INTPTR_MAX, DEFAULT_N);
        exit(2);
    }
    return (uint64_t)n;
}

int main(int argc, char **argv) {
    struct variant v[] = {
        {"hand-switch", run_hand, {0}},
        {"ptloop-" BACKEND, run_pt, {0}},
        {"ptloop-gen-" BACKEND, run_gen, {0}},
    };
    const size_t nv = sizeof v / sizeof v[0];
    const uint64_t n = parse_n(argc, argv);
    const uint64_t want = expected_sum(n);
    double med[sizeof v / sizeof v[0]];
    size_t i;
    int r, invalid = 0;

    printf("# bench_pt: backend=%s compiler=\"%s\" N=%llu runs=%d (median reported)\n", BACKEND,
           BENCH_CC, (unsigned long long)n, RUNS);

    /* Interleaved, so that a slow stretch of the machine hits all alike. */
    for (r = 0; r < RUNS; r++) {
        for (i = 0; i < nv; i++) {
            struct outcome o = v[i].run(n);
            /* One call per value, plus the final call that ends it. */
            v[i].ns[r] = o.seconds * 1e9 / (double)(n + 1);
            if (o.count != n || o.sum != want || o.last != PT_ENDED) {
                printf("INVALID anchor=%s count=%llu expected=%llu checksum=%llu expected=%llu "
                       "final_status=%d\n",
                       v[i].anchor, (unsigned long long)o.count, (unsigned long long)n,
                       (unsigned long long)o.sum, (unsigned long long)want, (int)o.last);
                invalid = 1;
            } else if (r == 0) {
                printf("# %s: %llu values, checksum %llu (ok)\n", v[i].anchor,
                       (unsigned long long)o.count, (unsigned long long)o.sum);
            }
        }
    }
    if (invalid)
        return 1;

    for (i = 0; i < nv; i++) {
        med[i] = median(v[i].ns);
        printf("RESULT anchor=%s workload=pt_resume metric=ns_per_resume value=%.3f unit=ns\n",
               v[i].anchor, med[i]);
    }
    for (i = 0; i < nv; i++)
        printf("# %-22s median %.3f ns/resume  (min %.3f, max %.3f)  %.2fx hand-switch\n",
               v[i].anchor, med[i], v[i].ns[0], v[i].ns[RUNS - 1],
               med[0] > 0 ? med[i] / med[0] : 0.0);
    printf("SUMMARY ptloop-%s: protothread %.3f ns/resume (%.2fx hand-written switch %.3f ns), "
           "generator %.3f ns/resume (%.2fx)\n",
           BACKEND, med[1], med[0] > 0 ? med[1] / med[0] : 0.0, med[0], med[2],
           med[0] > 0 ? med[2] / med[0] : 0.0);
    return 0;
}
