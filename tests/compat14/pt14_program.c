/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * A program written the way a protothreads 1.4 user writes one, used to
 * check that pt/compat/ is a drop-in replacement for Adam Dunkels'
 * protothreads 1.4. It includes only "pt.h" and "pt-sem.h", defines for
 * itself the helpers 1.4 programs define (struct timer, clock_time,
 * timer_set, ...) and uses every macro of 1.4's pt.h and pt-sem.h.
 *
 * Built with -I pt/compat it must print exactly what it prints when built
 * with the original 1.4 headers: tests/compat14/expected.txt.
 *
 * Like any 1.4 program it includes <stdio.h> before "pt.h": 1.4's
 * labels-as-values back end uses NULL without including <stddef.h>.
 */
#include <stdio.h>

#include "pt-sem.h"
#include "pt.h"

/* ---- the program's own clock and timers, as in the 1.4 examples ---- */

typedef unsigned int clock_time_t;

struct timer {
    clock_time_t start;
    clock_time_t interval;
};

static clock_time_t now;

static clock_time_t clock_time(void) {
    return now;
}

static void timer_set(struct timer *t, clock_time_t interval) {
    t->interval = interval;
    t->start = clock_time();
}

static int timer_expired(struct timer *t) {
    return clock_time() - t->start >= t->interval;
}

/* Set by the blinker, awaited by the parent. */
static int door_open;

/* ---- blinker: PT_WAIT_UNTIL on a timer ---- */

static PT_THREAD(blinker(struct pt *pt)) {
    static struct timer t;
    static int blinks;

    PT_BEGIN(pt);

    for (blinks = 1; blinks <= 3; ++blinks) {
        timer_set(&t, 3);
        PT_WAIT_UNTIL(pt, timer_expired(&t));
        printf("  blinker: blink %d at t=%u\n", blinks, clock_time());
    }
    door_open = 1;
    printf("  blinker: door opened\n");

    PT_END(pt);
}

/* ---- counter: a child that yields `limit` times, then ends ---- */

static PT_THREAD(counter(struct pt *pt, int limit)) {
    static int n;

    PT_BEGIN(pt);

    for (n = 1; n <= limit; ++n) {
        printf("    counter %d/%d\n", n, limit);
        PT_YIELD(pt);
    }

    PT_END(pt);
}

/* ---- quitter: a child that leaves through PT_EXIT ---- */

static PT_THREAD(quitter(struct pt *pt)) {
    static int tries;

    PT_BEGIN(pt);

    tries = 0;
    for (;;) {
        ++tries;
        if (tries == 3) {
            printf("    quitter: exit after %d tries\n", tries);
            PT_EXIT(pt);
        }
        PT_YIELD(pt);
    }

    PT_END(pt);
}

/* ---- parent: PT_SPAWN, PT_WAIT_THREAD, PT_WAIT_WHILE ---- */

static PT_THREAD(parent(struct pt *pt)) {
    static struct pt child;

    PT_BEGIN(pt);

    printf("  parent: spawn counter\n");
    PT_SPAWN(pt, &child, counter(&child, 3));
    printf("  parent: counter ended\n");

    PT_INIT(&child);
    PT_WAIT_THREAD(pt, quitter(&child));
    printf("  parent: quitter exited\n");

    PT_WAIT_WHILE(pt, !door_open);
    printf("  parent: through the door at t=%u\n", clock_time());

    PT_END(pt);
}

/* ---- restarter: PT_RESTART; code above PT_BEGIN runs on every call ---- */

static int restarter_calls;

static PT_THREAD(restarter(struct pt *pt)) {
    static int runs;

    ++restarter_calls;

    PT_BEGIN(pt);

    ++runs;
    printf("  restarter: run %d (call %d)\n", runs, restarter_calls);
    PT_YIELD(pt);
    if (runs < 3) {
        PT_RESTART(pt);
    }
    printf("  restarter: done\n");

    PT_END(pt);
}

/* ---- poller: PT_YIELD_UNTIL yields at least once ---- */

static PT_THREAD(poller(struct pt *pt)) {
    static int polls;

    PT_BEGIN(pt);

    polls = 0;
    PT_WAIT_UNTIL(pt, polls == 0); /* already true: no stop */
    printf("  poller: started at t=%u\n", clock_time());
    PT_YIELD_UNTIL(pt, (++polls, clock_time() >= 4));
    printf("  poller: t=%u after %d polls\n", clock_time(), polls);
    PT_YIELD_UNTIL(pt, 1);
    printf("  poller: yielded once more at t=%u\n", clock_time());

    PT_END(pt);
}

/* ---- bounded buffer: producer and consumer with three semaphores ---- */

#define BUFSIZE 3
#define NUM_ITEMS 6

static struct pt_sem full, empty, mutex;
static int buffer[BUFSIZE];
static int head, tail;
static int item;

static void add_to_buffer(int value) {
    buffer[head] = value;
    head = (head + 1) % BUFSIZE;
}

static int get_from_buffer(void) {
    int value = buffer[tail];
    tail = (tail + 1) % BUFSIZE;
    return value;
}

static PT_THREAD(producer(struct pt *pt)) {
    static int produced;

    PT_BEGIN(pt);

    for (produced = 1; produced <= NUM_ITEMS; ++produced) {
        PT_SEM_WAIT(pt, &full);
        PT_SEM_WAIT(pt, &mutex);
        add_to_buffer(produced * 10);
        printf("  producer: put %d, %u free\n", produced * 10, full.count);
        PT_YIELD(pt); /* still holding the mutex */
        PT_SEM_SIGNAL(pt, &mutex);
        PT_SEM_SIGNAL(pt, &empty);
    }

    PT_END(pt);
}

static PT_THREAD(consumer(struct pt *pt)) {
    static int consumed;
    static struct timer pace;

    PT_BEGIN(pt);

    for (consumed = 0; consumed < NUM_ITEMS; ++consumed) {
        PT_SEM_WAIT(pt, &empty);
        PT_SEM_WAIT(pt, &mutex);
        item = get_from_buffer();
        PT_SEM_SIGNAL(pt, &mutex);
        PT_SEM_SIGNAL(pt, &full);
        printf("  consumer: got %d\n", item);
        timer_set(&pace, 2);
        PT_WAIT_UNTIL(pt, timer_expired(&pace));
    }

    PT_END(pt);
}

static struct pt producer_pt, consumer_pt;
static char producer_status, consumer_status;

/* One step of both; "finished" once neither needs scheduling. */
static char run_pair(void) {
    if (PT_SCHEDULE(producer_status)) {
        producer_status = producer(&producer_pt);
    }
    if (PT_SCHEDULE(consumer_status)) {
        consumer_status = consumer(&consumer_pt);
    }
    if (PT_SCHEDULE(producer_status) || PT_SCHEDULE(consumer_status)) {
        return PT_WAITING;
    }
    return PT_ENDED;
}

static PT_THREAD(bounded_buffer(struct pt *pt)) {
    PT_BEGIN(pt);

    PT_SEM_INIT(&full, BUFSIZE);
    PT_SEM_INIT(&empty, 0);
    PT_SEM_INIT(&mutex, 1);
    PT_INIT(&producer_pt);
    PT_INIT(&consumer_pt);
    producer_status = PT_WAITING;
    consumer_status = PT_WAITING;

    PT_WAIT_THREAD(pt, run_pair());
    printf("  buffer: producer %d, consumer %d, full %u empty %u mutex %u\n", producer_status,
           consumer_status, full.count, empty.count, mutex.count);

    PT_END(pt);
}

/* ---- a semaphore taker, called directly from main ---- */

static PT_THREAD(taker(struct pt *pt, struct pt_sem *s)) {
    PT_BEGIN(pt);

    PT_SEM_WAIT(pt, s);
    PT_SEM_WAIT(pt, s);

    PT_END(pt);
}

/* ---- the scheduler ---- */

struct task {
    const char *name;
    char (*thread)(struct pt *);
    struct pt state;
    char status;
};

static struct task tasks[] = {
    {"blinker", blinker, {0}, PT_WAITING},       {"parent", parent, {0}, PT_WAITING},
    {"restarter", restarter, {0}, PT_WAITING},   {"poller", poller, {0}, PT_WAITING},
    {"buffer", bounded_buffer, {0}, PT_WAITING},
};

#define NUM_TASKS (int)(sizeof tasks / sizeof tasks[0])

int main(void) {
    static struct pt direct;
    static struct pt_sem sem;
    int i, live, calls;
    char status;

    printf("PT_WAITING=%d PT_YIELDED=%d PT_EXITED=%d PT_ENDED=%d\n", PT_WAITING, PT_YIELDED,
           PT_EXITED, PT_ENDED);
    printf("PT_SCHEDULE of 0..3: %d %d %d %d\n", PT_SCHEDULE(PT_WAITING), PT_SCHEDULE(PT_YIELDED),
           PT_SCHEDULE(PT_EXITED), PT_SCHEDULE(PT_ENDED));

    for (i = 0; i < NUM_TASKS; ++i) {
        PT_INIT(&tasks[i].state);
    }
    live = 1;
    for (now = 0; live && now < 50; ++now) {
        printf("t=%u\n", now);
        live = 0;
        for (i = 0; i < NUM_TASKS; ++i) {
            if (PT_SCHEDULE(tasks[i].status)) {
                tasks[i].status = tasks[i].thread(&tasks[i].state);
                live = 1;
            }
        }
        printf("  =>");
        for (i = 0; i < NUM_TASKS; ++i) {
            printf(" %s %d", tasks[i].name, tasks[i].status);
        }
        printf("\n");
    }

    printf("direct calls:\n");
    PT_INIT(&direct);
    for (i = 0; i < 4; ++i) {
        status = quitter(&direct);
        printf("  quitter -> %d, PT_SCHEDULE %d\n", status, PT_SCHEDULE(status));
    }
    PT_INIT(&direct);
    calls = 1;
    while (PT_SCHEDULE(counter(&direct, 2))) {
        ++calls;
    }
    printf("  counter(2) finished after %d calls\n", calls);

    PT_SEM_INIT(&sem, 1);
    PT_INIT(&direct);
    status = taker(&direct, &sem);
    printf("  taker -> %d, count %u\n", status, sem.count);
    status = taker(&direct, &sem);
    printf("  taker -> %d, count %u\n", status, sem.count);
    PT_SEM_SIGNAL(&direct, &sem);
    printf("  signalled, count %u\n", sem.count);
    status = taker(&direct, &sem);
    printf("  taker -> %d, count %u\n", status, sem.count);

    return 0;
}
