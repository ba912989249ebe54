/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/sync.h - synchronisation between tasks on one loop, as asyncio's:
 * an event, a counting semaphore and a bounded queue of values (the lock
 * and condition: loop/lock.h; the barrier: loop/barrier.h). All are
 * caller-owned; their waiters are parked tasks linked through the tasks
 * themselves, in the order they came.
 *
 * A waiter that is woken has been granted what it waited for before it
 * runs, so nothing that happens in between takes it back: an event set
 * and cleared at once still lets through every waiter it woke (a pulse),
 * and a released unit goes to the longest waiter, never to a task that
 * asks later (FIFO: no barging). Queues are the exception, as asyncio's
 * are: a woken getter (putter) looks again when it runs, and if another
 * task took the value (slot) first it waits again at the tail, keeping
 * its first deadline (among timers with that same deadline it then comes
 * after those set meanwhile). Such a wait with a timeout holds its timer
 * from its start until it returns or its deadline passes, the time
 * between a wake-up and its turn included: one of pt_loop_init's cap. A
 * granted waiter cancelled before it runs passes what it was given on to
 * the next waiter.
 *
 * Every wait takes a timeout in ticks (PT_FOREVER: none); its result
 * (PT_WAIT_RESULT()) is PT_OK, PT_ETIMEDOUT or PT_EFULL (timers full).
 * A timeout of 0 tries once and does not wait: PT_ETIMEDOUT at once if the
 * event is clear, the semaphore taken, the queue empty (or full). A timeout
 * of 0 or PT_FOREVER needs no timer, so never gives PT_EFULL.
 */
#ifndef PT_LOOP_SYNC_H
#define PT_LOOP_SYNC_H

#include "core.h"

#if !PT_CONFIG_SYNC
#error                                                                                             \
    "loop/sync.h: events, semaphores and queues need PT_CONFIG_SYNC 1 (loop/config.h), in every file"
#endif

/*
 * Internal: the waits. PT__GRANT_WAIT: unless `try_expr` (which takes
 * what it tries for) succeeds at once, park on waiter list w until it is
 * granted (PT__WL_*, or an event's set). PT__WAIT_UNTIL_TRUE (a
 * queue's): wait until `try_expr` is true, parked on w between tries as
 * PT__WAIT_RETRY, whose wake-up leaves the timer set: the first deadline,
 * which the next park reads back (the task keeps no deadline of its own).
 */
#define PT__GRANT_WAIT(try_expr, w, timeout)                                                       \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        pt__gen->value.i = PT_OK;                                                                  \
        if (!(try_expr) &&                                                                         \
            pt__list_park(pt__loop, pt__task, pt__gen, &(w)->q, (timeout), PT__WAIT_LIST)) {       \
            PT__PARKED_HERE();                                                                     \
            if (pt__gen->value.p == (void *)(w)) /* granted */                                     \
                (void)pt__granted(pt__loop, pt__task, pt__gen, (w));                               \
        }                                                                                          \
    } while (0)

#define PT__WAIT_UNTIL_TRUE(try_expr, w, timeout)                                                  \
    do {                                                                                           \
        if (pt__not_running(pt__loop, pt__task, pt__gen))                                          \
            break;                                                                                 \
        pt__gen->value.i = PT_OK;                                                                  \
        if (!(try_expr) &&                                                                         \
            pt__list_park(pt__loop, pt__task, pt__gen, &(w)->q, (timeout), PT__WAIT_RETRY))        \
            for (;;) {                                                                             \
                PT__PARKED_HERE();                                                                 \
                if (pt__gen->value.p != (void *)(w)) /* not woken by w: timed out */               \
                    break;                                                                         \
                if (!pt__granted(pt__loop, pt__task, pt__gen, (w))) { /* its scope passed */       \
                    pt__timer_remove(pt__loop, pt__task);                                          \
                    break;                                                                         \
                }                                                                                  \
                if (!pt__retry_again(pt__loop, pt__task, pt__gen, &(w)->q, (timeout), (try_expr))) \
                    break;                                                                         \
            }                                                                                      \
    } while (0)

/* Park t on waiter list q, as a wait of `kind` (PT__WAIT_LIST or
 * PT__WAIT_RETRY), for `timeout` ticks; 0 if not parked: a timeout of 0
 * (PT_ETIMEDOUT), or pt__park said no. */
PT__OUTLINE int pt__list_park(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                              struct pt_waitq *q, pt_time_t timeout, unsigned kind) {
    if (timeout == 0) {
        g->value.i = PT_ETIMEDOUT;
        return 0;
    }
    if (!pt__park(l, t, g, timeout, kind, q))
        return 0;
    pt__waitq_push(q, t);
    return 1;
}

static inline void pt__wlist_init(struct pt__wlist *w, pt__give_fn give) {
    w->q.head = w->q.tail = NULL;
    w->give = give;
    /* (Compared here, in the file that has the object: each file has its
     * own copy of the PT__WL_* functions.) */
#if PT_CONFIG_DEBUG
    w->what = give == PT__WL_SEM     ? "semaphore"
              : give == PT__WL_LOCK  ? "lock"
              : give == PT__WL_QUEUE ? "queue"
                                     : "event, condition, barrier or writer";
#endif
}

/* What is left of a retrying wait of `timeout` (PT_FOREVER: no deadline)
 * once woken by its list: until the timer it kept, which is dropped
 * whatever `timeout` reads now; with none, 0 (it came due meanwhile)
 * unless the wait has no deadline. */
static inline pt_time_t pt__retry_left(struct pt_loop *l, struct pt_task *t, pt_time_t timeout) {
    pt_time_t left;
    if (!pt__timer_pending(t))
        return timeout == PT_FOREVER ? PT_FOREVER : 0;
    left = pt_time_until(pt_loop_now(l), pt__timer_when(l, t));
    pt__timer_remove(l, t);
    return left;
}

/* A retrying wait of `timeout` woken by q has tried again: done (0, its
 * kept timer dropped) if `tried` is true, else parked again (nonzero)
 * until its first deadline, or not (0, with the wait's result). */
static inline int pt__retry_again(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                  struct pt_waitq *q, pt_time_t timeout, int tried) {
    if (tried) {
        pt__timer_remove(l, t);
        return 0;
    }
    return pt__list_park(l, t, g, q, pt__retry_left(l, t, timeout), PT__WAIT_RETRY);
}

/* ---- event: set / clear; waiters wait while it is clear ----------------- */

struct pt_event {
    struct pt__wlist w;
    unsigned char set;
};

static inline void pt_event_init(struct pt_event *e) {
    pt__wlist_init(&e->w, PT__WL_KEEP);
    e->set = 0;
}

/* Set the event: every task waiting now wakes with PT_OK, even if the
 * event is cleared before it runs; later waits pass until it is cleared. */
static inline void pt_event_set(struct pt_loop *l, struct pt_event *e) {
    e->set = 1;
    while (pt__waitq_wake_one(l, &e->w.q))
        ;
}

static inline void pt_event_clear(struct pt_event *e) {
    e->set = 0;
}

/* Nonzero while e is set. */
static inline int pt_event_is_set(const struct pt_event *e) {
    return e->set;
}

/* void PT_EVENT_WAIT(struct pt_event *e, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait until e is set (at once if it is). */
#define PT_EVENT_WAIT(e, timeout) PT__GRANT_WAIT((e)->set, &(e)->w, (timeout))

/* ---- counting semaphore ------------------------------------------------ */

/* The loop's semaphore (asyncio.Semaphore; struct pt_semaphore is in
 * loop/types.h): units go to its waiters in the order they came. (pt/sem.h's
 * struct pt_sem is the plain protothread's: polled, no queue.) */

static inline void pt_semaphore_init(struct pt_semaphore *s, unsigned int count) {
    pt__wlist_init(&s->w, PT__WL_SEM);
    s->count = count;
}

/* Take a unit if one is free (none is while tasks wait: they had it
 * first). 1 if taken. */
static inline int pt_semaphore_try(struct pt_semaphore *s) {
    if (s->count == 0)
        return 0;
    s->count--;
    return 1;
}

/* Give one unit back: to the longest waiter, or to the count. */
static inline void pt_semaphore_release(struct pt_loop *l, struct pt_semaphore *s) {
    pt__wl_sem(l, &s->w);
}

/* void PT_SEMAPHORE_ACQUIRE(struct pt_semaphore *s, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Take a unit: at once if one is free, else when it is given to this
 * task, in turn. */
#define PT_SEMAPHORE_ACQUIRE(s, timeout) PT__GRANT_WAIT(pt_semaphore_try(s), &(s)->w, (timeout))

/* ---- bounded queue of values (a channel) -------------------------------- */

struct pt_queue {
    pt_value *slots; /* caller's array of `cap` values */
    pt_index_t cap, head, count;
    struct pt__wlist getters, putters;
};

static inline void pt_queue_init(struct pt_queue *q, pt_value *slots, pt_index_t cap) {
    q->slots = slots;
    q->cap = cap;
    q->head = q->count = 0;
    pt__wlist_init(&q->getters, PT__WL_QUEUE);
    pt__wlist_init(&q->putters, PT__WL_QUEUE);
}

/* Put v if there is room (then wake a getter); 0 if full. */
static inline int pt_queue_try_put(struct pt_loop *l, struct pt_queue *q, pt_value v) {
    if (q->count >= q->cap)
        return 0;
    q->slots[(pt_index_t)((q->head + q->count) % q->cap)] = v;
    q->count++;
    pt__waitq_wake_one(l, &q->getters.q);
    return 1;
}

/* Take the oldest value into *v (then wake a putter); 0 if empty. */
static inline int pt_queue_try_get(struct pt_loop *l, struct pt_queue *q, pt_value *v) {
    if (q->count == 0)
        return 0;
    *v = q->slots[q->head];
    q->head = (pt_index_t)((q->head + 1u) % q->cap);
    q->count--;
    pt__waitq_wake_one(l, &q->putters.q);
    return 1;
}

/* void PT_QUEUE_PUT(struct pt_queue *q, pt_value v, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait for room, then put v. v is evaluated again on every try, and so is
 * timeout (of PT_QUEUE_GET too): only the first try's sets the deadline,
 * and its being PT_FOREVER or not must not change. */
#define PT_QUEUE_PUT(q, v, timeout)                                                                \
    PT__WAIT_UNTIL_TRUE(pt_queue_try_put(pt__loop, (q), (v)), &(q)->putters, (timeout))
/* void PT_QUEUE_GET(struct pt_queue *q, pt_value *dst, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait for a value, then store it in *dst (which must outlive the wait). */
#define PT_QUEUE_GET(q, dst, timeout)                                                              \
    PT__WAIT_UNTIL_TRUE(pt_queue_try_get(pt__loop, (q), (dst)), &(q)->getters, (timeout))

#endif /* PT_LOOP_SYNC_H */
