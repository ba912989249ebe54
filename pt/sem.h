/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/sem.h - counting semaphores for protothreads (protothreads 1.4 names).
 *
 * A semaphore is a counter: PT_SEM_WAIT waits until it is above zero and
 * takes one; PT_SEM_SIGNAL adds one. Waiters are not queued: whichever is
 * scheduled first after a signal takes it. The counter is an unsigned int;
 * signalling it past UINT_MAX wraps, as in 1.4: signal at most as often as
 * the resource allows. (The loop's semaphore, whose waiters are queued, is
 * struct pt_semaphore in loop/sync.h.)
 */
#ifndef PT_SEM_H
#define PT_SEM_H

#include "thread.h"

struct pt_sem {
    unsigned int count;
};

#define PT_SEM_INIT(s, c) ((s)->count = (c))

#define PT_SEM_WAIT(pt, s)                                                                         \
    do {                                                                                           \
        PT_WAIT_UNTIL(pt, (s)->count > 0);                                                         \
        --(s)->count;                                                                              \
    } while (0)

#define PT_SEM_SIGNAL(pt, s) (++(s)->count)

#endif /* PT_SEM_H */
