/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/floor.c - the plain-C floor for workloads W1-W5 of
 * bench/WORKLOADS.md, anchor=floor: the least work each workload can be
 * done with, with no library and no generality beyond what the workload
 * needs. It is what the loops are compared against, not a loop of its own.
 *
 *   floor <W1a|W1b|W2|W3|W4a|W4b|W5>
 *
 *  W1   a task is a hand-written switch state machine (struct ftask: a step
 *       function pointer, a state, a count), called through its pointer
 *       (never inlined) from a FIFO ring of task pointers: pop, step, push
 *       back if it yielded. No clock, no I/O poll.
 *  W2   the same FIFO of step functions: a spawn initialises a task and
 *       pushes it; the run pops and calls it; a finished task is counted as
 *       reaped by the run loop. Task storage is re-used by every batch.
 *  W3   a binary min-heap of 16-byte (deadline, i) entries in one array,
 *       deadlines in ns from one clock read; firing: read the clock, pop
 *       and count every due entry, clock_nanosleep (TIMER_ABSTIME) until
 *       the next deadline.
 *  W4   an indexed binary heap: entries (deadline, id) in an array, pos[id]
 *       its slot, so a timer is removed from anywhere in O(log n). A loop
 *       turn = read the clock, expire what is due.
 *
 *  Both heaps order by deadline only: timers with equal deadlines come out
 *  in no particular order. ptloop and libuv also break ties by a start
 *  sequence number (FIFO for equal deadlines), a guarantee the workloads do
 *  not ask for and the floor does not pay for. In W4b all 1,000 timers of a
 *  round have the same deadline, so there removing the oldest costs the
 *  loops a sift-down of the whole heap height and the floor nothing.
 *  W5   clock_nanosleep: relative 500 ms then 700 ms; then two deadlines
 *       (start + 500 ms, start + 700 ms) slept to in order (TIMER_ABSTIME).
 *
 * Storage is allocated and touched before every timed region.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

/* ---- W1, W2: a FIFO of hand-written state machines -------------------- */

struct ftask;
typedef int (*ftask_step)(struct ftask *t); /* 1: yielded, 0: finished */

struct ftask {
    ftask_step step;
    unsigned state;
    long left;
};

struct fifo {
    struct ftask **ring;
    size_t mask, head, tail;
};

static long g_resumes, g_bodies, g_done;

BENCH_NOINLINE static int yielder_step(struct ftask *t) {
    switch (t->state) {
    case 0: /* start */
        break;
    case 1: /* resumed after a yield */
        g_resumes++;
        break;
    default:
        return 0;
    }
    if (t->left > 0) {
        t->left--;
        t->state = 1;
        return 1;
    }
    t->state = 2;
    return 0;
}

BENCH_NOINLINE static int trivial_step(struct ftask *t) {
    (void)t;
    g_bodies++;
    return 0;
}

static struct fifo fifo_make(size_t cap) {
    struct fifo q;
    size_t n = 1;
    while (n < cap)
        n *= 2;
    q.ring = (struct ftask **)bench_prealloc(n, sizeof *q.ring);
    q.mask = n - 1;
    q.head = q.tail = 0;
    return q;
}

/* Run until the FIFO is empty; returns how many tasks finished. */
static long fifo_run(struct fifo *q) {
    long finished = 0;
    while (q->head != q->tail) {
        struct ftask *t = q->ring[q->head++ & q->mask];
        if (t->step(t))
            q->ring[q->tail++ & q->mask] = t;
        else
            finished++;
    }
    return finished;
}

static void run_w1(const char *id, long ntasks, long yields) {
    struct ftask *ts = (struct ftask *)bench_prealloc((size_t)ntasks, sizeof *ts);
    struct fifo q = fifo_make((size_t)ntasks);
    uint64_t t0, t1;
    long i;

    t0 = bench_now_ns();
    for (i = 0; i < ntasks; i++) {
        ts[i].step = yielder_step;
        ts[i].state = 0;
        ts[i].left = yields;
        q.ring[q.tail++ & q.mask] = &ts[i];
    }
    g_done = fifo_run(&q);
    t1 = bench_now_ns();

    bench_check(id, "resumes", g_resumes, 1000000);
    bench_check(id, "finished", g_done, ntasks);
    bench_note(id, "switch state machines called through a pointer from a FIFO ring");
    bench_result(id, "ns_per_resume", (double)(t1 - t0) / 1e6, "ns");
    free(ts);
    free(q.ring);
}

#define W2_BATCH 10000
#define W2_BATCHES 100

static void run_w2(void) {
    struct ftask *ts = (struct ftask *)bench_prealloc(W2_BATCH, sizeof *ts);
    struct fifo q = fifo_make(W2_BATCH);
    uint64_t t0, t1;
    long reaped = 0;
    int b, i;

    t0 = bench_now_ns();
    for (b = 0; b < W2_BATCHES; b++) {
        for (i = 0; i < W2_BATCH; i++) {
            ts[i].step = trivial_step;
            ts[i].state = 0;
            ts[i].left = 0;
            q.ring[q.tail++ & q.mask] = &ts[i];
        }
        reaped += fifo_run(&q);
    }
    t1 = bench_now_ns();

    bench_check("W2", "bodies", g_bodies, 1000000);
    bench_check("W2", "reaped", reaped, 1000000);
    bench_note("W2", "FIFO ring of step functions; 10,000 task structs re-used per batch");
    bench_result("W2", "ns_per_task", (double)(t1 - t0) / 1e6, "ns");
    free(ts);
    free(q.ring);
}

/* ---- W3: a heap of (deadline, i) --------------------------------------- */

#define W3_N 1000000L

struct w3_entry {
    uint64_t deadline; /* ns, CLOCK_MONOTONIC */
    uint64_t i;
};

static int w3_less(const struct w3_entry *a, const struct w3_entry *b) {
    return a->deadline < b->deadline;
}

static void sleep_until_ns(uint64_t when) {
    struct timespec ts;
    ts.tv_sec = (time_t)(when / 1000000000u);
    ts.tv_nsec = (long)(when % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

static void run_w3(void) {
    struct w3_entry *heap = (struct w3_entry *)bench_prealloc((size_t)W3_N, sizeof *heap);
    uint64_t t0, c0, t1, c1, now, last_wall = 0, last_cpu = 0;
    double base_rss;
    long n = 0, fired = 0, i;

    base_rss = bench_rss_mib();
    t0 = bench_now_ns();
    c0 = bench_cpu_ns();
    now = t0;
    for (i = 0; i < W3_N; i++) {
        struct w3_entry e;
        long k = n++;
        e.deadline = now + (uint64_t)(i % 1000) * 1000000u;
        e.i = (uint64_t)i;
        while (k > 0 && w3_less(&e, &heap[(k - 1) / 2])) {
            heap[k] = heap[(k - 1) / 2];
            k = (k - 1) / 2;
        }
        heap[k] = e;
    }
    t1 = bench_now_ns();
    c1 = bench_cpu_ns();

    while (n > 0) {
        now = bench_now_ns();
        while (n > 0 && heap[0].deadline <= now) {
            /* pop the minimum */
            struct w3_entry last = heap[--n];
            long k = 0;
            for (;;) {
                long c = 2 * k + 1;
                if (c >= n)
                    break;
                if (c + 1 < n && w3_less(&heap[c + 1], &heap[c]))
                    c++;
                if (!w3_less(&heap[c], &last))
                    break;
                heap[k] = heap[c];
                k = c;
            }
            heap[k] = last;
            if (++fired == W3_N) {
                last_wall = bench_now_ns();
                last_cpu = bench_cpu_ns();
            }
        }
        if (n > 0)
            sleep_until_ns(heap[0].deadline);
    }

    bench_check("W3", "firings", fired, W3_N);
    bench_note("W3",
               "array heap of 16-byte (deadline ns, i) entries (no FIFO tie-break), preallocated "
               "and touched before the schedule phase; clock_nanosleep between deadlines");
    bench_result("W3", "schedule_ns_per_timer", (double)(t1 - t0) / (double)W3_N, "ns");
    bench_result("W3", "schedule_cpu_ns_per_timer", (double)(c1 - c0) / (double)W3_N, "ns");
    bench_result("W3", "fire_cpu_ns_per_timer", (double)(last_cpu - c1) / (double)W3_N, "ns");
    bench_result("W3", "fire_wall_s", (double)(last_wall - t1) / 1e9, "s");
    bench_result("W3", "total_s", (double)(last_wall - t0) / 1e9, "s");
    bench_result("W3", "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    bench_result("W3", "base_rss_mib", base_rss, "MiB");
    free(heap);
}

/* ---- W4: an indexed heap ----------------------------------------------- */

struct w4_entry {
    uint64_t deadline;
    uint64_t id;
};

struct iheap {
    struct w4_entry *e;
    uint32_t *pos; /* pos[id]: slot + 1, 0 when not in the heap */
    uint32_t len;
};

static int w4_less(const struct w4_entry *a, const struct w4_entry *b) {
    return a->deadline < b->deadline;
}

static void ih_place(struct iheap *h, uint32_t k, struct w4_entry e) {
    h->e[k] = e;
    h->pos[e.id] = k + 1;
}

static void ih_up(struct iheap *h, uint32_t k, struct w4_entry e) {
    while (k > 0 && w4_less(&e, &h->e[(k - 1) / 2])) {
        ih_place(h, k, h->e[(k - 1) / 2]);
        k = (k - 1) / 2;
    }
    ih_place(h, k, e);
}

static void ih_down(struct iheap *h, uint32_t k, struct w4_entry e) {
    for (;;) {
        uint32_t c = 2 * k + 1;
        if (c >= h->len)
            break;
        if (c + 1 < h->len && w4_less(&h->e[c + 1], &h->e[c]))
            c++;
        if (!w4_less(&h->e[c], &e))
            break;
        ih_place(h, k, h->e[c]);
        k = c;
    }
    ih_place(h, k, e);
}

static void ih_start(struct iheap *h, uint32_t id, uint64_t deadline) {
    struct w4_entry e;
    e.deadline = deadline;
    e.id = id;
    h->len++;
    ih_up(h, h->len - 1, e);
}

static void ih_cancel(struct iheap *h, uint32_t id) {
    uint32_t k;
    struct w4_entry last;
    if (h->pos[id] == 0)
        return;
    k = h->pos[id] - 1;
    h->pos[id] = 0;
    last = h->e[--h->len];
    if (k == h->len)
        return;
    if (k > 0 && w4_less(&last, &h->e[(k - 1) / 2]))
        ih_up(h, k, last);
    else
        ih_down(h, k, last);
}

static long g_w4_fired;

/* One loop turn: read the clock, fire what is due (nothing should be). */
static void ih_turn(struct iheap *h) {
    uint64_t now = bench_now_ns();
    while (h->len > 0 && h->e[0].deadline <= now) {
        g_w4_fired++;
        ih_cancel(h, h->e[0].id);
    }
}

static void run_w4(const char *id) {
    int tight = strcmp(id, "W4a") == 0;
    uint32_t n = tight ? 1 : 1000, i, outer;
    struct iheap h;
    uint64_t t0, t1, now;
    long peak = -1;

    h.e = (struct w4_entry *)bench_prealloc(n, sizeof *h.e);
    h.pos = (uint32_t *)bench_prealloc(n, sizeof *h.pos);
    h.len = 0;

    t0 = bench_now_ns();
    now = t0; /* the loop's notion of now, cached per turn */
    for (outer = 0; outer < 1000; outer++) {
        if (tight) {
            for (i = 0; i < 1000; i++) {
                ih_start(&h, 0, now + 10000000000u);
                ih_cancel(&h, 0);
            }
        } else {
            for (i = 0; i < n; i++)
                ih_start(&h, i, now + 10000000000u);
            for (i = 0; i < n; i++)
                ih_cancel(&h, i);
        }
        if ((long)h.len > peak)
            peak = (long)h.len;
        if (!tight) {
            ih_turn(&h);
            now = bench_now_ns();
        }
    }
    if (tight)
        ih_turn(&h);
    t1 = bench_now_ns();

    bench_check(id, "cancelled timers that fired", g_w4_fired, 0);
    for (i = 0; i < n; i++)
        bench_check(id, "timer still in the heap", h.pos[i], 0);
    bench_note(
        id, "indexed array heap of (deadline, id) entries, no FIFO tie-break; timer ids re-used");
    bench_result(id, "ns_per_start_cancel", (double)(t1 - t0) / 1e6, "ns");
    bench_result(id, "peak_timer_entries", (double)peak, "entries");
    bench_result(id, "timer_entries_after_turn", (double)h.len, "entries");
    bench_result(id, "peak_rss_mib", bench_peak_rss_mib(), "MiB");
    free(h.e);
    free(h.pos);
}

/* ---- W5: clock_nanosleep ----------------------------------------------- */

static void run_w5(void) {
    uint64_t s0, s1, c0, c1, cpu0, cpu1;
    struct timespec ts;
    double conc;

    s0 = bench_now_ns();
    ts.tv_sec = 0;
    ts.tv_nsec = 500000000L;
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
    }
    ts.tv_sec = 0;
    ts.tv_nsec = 700000000L;
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
    }
    s1 = bench_now_ns();

    c0 = bench_now_ns();
    cpu0 = bench_cpu_ns();
    sleep_until_ns(c0 + 500000000u); /* the first "task" */
    sleep_until_ns(c0 + 700000000u); /* the second */
    c1 = bench_now_ns();
    cpu1 = bench_cpu_ns();

    conc = (double)(c1 - c0) / 1e6;
    bench_note("W5", "clock_nanosleep (relative, then TIMER_ABSTIME)");
    bench_result("W5", "serial_ms", (double)(s1 - s0) / 1e6, "ms");
    bench_result("W5", "concurrent_ms", conc, "ms");
    bench_result("W5", "lateness_ms", conc - 700.0, "ms");
    bench_result("W5", "concurrent_cpu_s", (double)(cpu1 - cpu0) / 1e9, "s");
}

int main(int argc, char **argv) {
    const char *id = argc > 1 ? argv[1] : "";
    char note[160];

    bench_anchor = "floor";
    snprintf(note, sizeof note, "cc=\"%s\"", BENCH_CC);
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
