/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/wakeup.c - waking the loop from another thread, as asyncio's
 * call_soon_threadsafe: a POSIX thread computes three results and, after
 * each, calls pt_wakeup_signal (thread-safe, async-signal-safe); a task
 * waiting in PT_WAKEUP_WAIT wakes on the loop's thread and takes them.
 * Signals that come close together may wake the task once: it takes every
 * result that is ready, so none is lost. Real clock: nothing printed
 * depends on timing.
 */
#include <pthread.h>
#include <stdio.h>

#include "loop/loop.h"

#define JOBS 3

static struct pt_wakeup wake;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long results[JOBS];
static int finished; /* results[0..finished) are ready: under mutex */

/* The other thread: sum 1..n for three n, signalling after each. */
static void *compute(void *arg) {
    long n, i, sum;
    int job;
    (void)arg;
    for (job = 0; job < JOBS; job++) {
        for (n = 1000L * (job + 1), sum = 0, i = 1; i <= n; i++)
            sum += i;
        pthread_mutex_lock(&mutex);
        results[finished++] = sum;
        pthread_mutex_unlock(&mutex);
        pt_wakeup_signal(&wake);
    }
    return NULL;
}

struct collector {
    struct pt_task task;
    int taken; /* results printed so far */
};

static PT_THREAD(collect(struct pt_loop *loop, struct pt_task *task)) {
    struct collector *c = (struct collector *)task;
    PT_TASK_BEGIN(loop, task);
    while (c->taken < JOBS) {
        PT_WAKEUP_WAIT(&wake, PT_MS(10000)); /* a bound: a lost thread must not hang us */
        if (PT_WAIT_RESULT() != PT_OK)
            PT_TASK_FAIL(pt_value_int(PT_WAIT_RESULT()));
        pthread_mutex_lock(&mutex);
        while (c->taken < finished) {
            printf("job %d: %ld\n", c->taken + 1, results[c->taken]);
            c->taken++;
        }
        pthread_mutex_unlock(&mutex);
    }
    PT_TASK_END();
}

int main(void) {
    static union pt_io_slot slots[PT_IO_SLOTS(1024)]; /* for poll, epoll */
    static struct pt_timer_slot timers[4];
    static struct collector c;
    struct pt_loop loop;
    pthread_t thread;
    if (pt_loop_init(&loop, timers, 4) != PT_OK || pt_wakeup_init(&wake) != PT_OK)
        return 1;
    (void)pt_loop_io_table(&loop, slots, sizeof slots / sizeof slots[0]);
    (void)pt_loop_spawn(&loop, &c.task, collect);
    if (pthread_create(&thread, NULL, compute, NULL) != 0)
        return 1;
    (void)pt_loop_run(&loop);
    pthread_join(thread, NULL);
    pt_wakeup_close(&wake);
    pt_loop_close(&loop);
    printf("collector %s\n", pt_task_status(&c.task) == PT_ENDED ? "done" : "failed");
    return pt_task_status(&c.task) == PT_ENDED ? 0 : 1;
}
