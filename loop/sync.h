/*
 * loop/sync.h - synchronisation between tasks on one loop: an event, a
 * counting semaphore and a bounded queue of values. All are caller-owned;
 * their waiters are parked tasks linked through the tasks themselves.
 *
 * A woken waiter checks its condition again when it runs, and keeps its
 * original deadline across retries (among timers with that same deadline it
 * then comes after those set meanwhile). Another task may have got there first:
 * a task that takes a semaphore's unit or a queue's value or slot before
 * the woken waiter runs keeps it, and the woken waiter waits again at the
 * tail of the list, behind the waiters that came after it. Likewise an
 * event cleared before its woken waiters run sends them back to waiting.
 * Every wait takes a timeout in ticks (PT_FOREVER: none); its result
 * (PT_WAIT_RESULT()) is PT_OK, PT_ETIMEDOUT or PT_EFULL (timer heap full).
 * A timeout of 0 tries once and does not wait: PT_ETIMEDOUT at once if the
 * event is clear, the semaphore taken, the queue empty (or full). A timeout
 * of 0 or PT_FOREVER needs no timer, so never gives PT_EFULL.
 */
#ifndef PT_LOOP_SYNC_H
#define PT_LOOP_SYNC_H

#include "core.h"

#if !PT_LOOP_SYNC
#error                                                                                             \
    "loop/sync.h: events, semaphores and queues need PT_LOOP_SYNC 1 (loop/config.h), in every file"
#endif

/*
 * Internal: wait until `try_expr` is true (it performs the operation when
 * it is), parked on waiter list q between tries.
 */
#define PT__WAIT_UNTIL_TRUE(try_expr, q, timeout)                                                  \
    do {                                                                                           \
        pt__task->deadline = pt_time_after(pt__loop->now, (timeout));                              \
        pt__gen->value.i = PT_OK;                                                                  \
        while (!(try_expr)) {                                                                      \
            if (!pt__list_wait(pt__loop, pt__task, pt__gen, (q), (timeout)))                       \
                break;                                                                             \
            PT__PARKED_HERE();                                                                     \
            if (pt__gen->value.p != (void *)(q)) /* not woken by q: timed out */                   \
                break;                                                                             \
            pt__gen->value.i = PT_OK;                                                              \
        }                                                                                          \
    } while (0)

/* Park on q until the task's deadline (kept in t->deadline). 0 if not
 * parked: the deadline has passed (PT_ETIMEDOUT) or the heap is full. */
static inline int pt__list_wait(struct pt_loop *l, struct pt_task *t, struct pt_gen *g,
                                struct pt_waitq *q, pt_time_t timeout) {
    pt_time_t left = PT_FOREVER;
    if (timeout != PT_FOREVER) {
        left = pt_time_until(l->now, t->deadline);
        if (left == 0) {
            g->value.i = PT_ETIMEDOUT;
            return 0;
        }
    }
    if (!pt__park(l, t, g, left, PT__WAIT_LIST, q))
        return 0;
    pt__waitq_push(q, t);
    return 1;
}

/* ---- event: set / clear; waiters wait while it is clear ----------------- */

struct pt_event {
    struct pt_waitq waiters;
    unsigned char set;
};

static inline void pt_event_init(struct pt_event *e) {
    e->waiters.head = e->waiters.tail = NULL;
    e->set = 0;
}

/* Set the event: every waiter wakes (and new waits pass) until cleared. */
static inline void pt_event_set(struct pt_loop *l, struct pt_event *e) {
    e->set = 1;
    while (e->waiters.head)
        pt__waitq_wake_one(l, &e->waiters);
}

static inline void pt_event_clear(struct pt_event *e) {
    e->set = 0;
}

/* int PT_EVENT_WAIT(struct pt_event *e, pt_time_t timeout)
 *   -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait until e is set (at once if it is). */
#define PT_EVENT_WAIT(e, timeout) PT__WAIT_UNTIL_TRUE((e)->set, &(e)->waiters, (timeout))

/* ---- counting semaphore ------------------------------------------------ */

/* The loop's semaphore (asyncio.Semaphore): its waiters are queued and woken
 * in order. (pt/sem.h's struct pt_sem is the plain protothread's: polled,
 * no queue.) */

struct pt_loop_sem {
    struct pt_waitq waiters;
    unsigned int count;
};

static inline void pt_loop_sem_init(struct pt_loop_sem *s, unsigned int count) {
    s->waiters.head = s->waiters.tail = NULL;
    s->count = count;
}

static inline int pt_loop_sem_try(struct pt_loop_sem *s) {
    if (s->count == 0)
        return 0;
    s->count--;
    return 1;
}

/* Give one unit back and wake the longest waiter. */
static inline void pt_loop_sem_release(struct pt_loop *l, struct pt_loop_sem *s) {
    s->count++;
    pt__waitq_wake_one(l, &s->waiters);
}

/* int PT_LOOP_SEM_ACQUIRE(struct pt_loop_sem *s, pt_time_t timeout)
 *   -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait until a unit is free, then take it. */
#define PT_LOOP_SEM_ACQUIRE(s, timeout)                                                            \
    PT__WAIT_UNTIL_TRUE(pt_loop_sem_try(s), &(s)->waiters, (timeout))

/* ---- bounded queue of values (a channel) -------------------------------- */

struct pt_queue {
    pt_value *slots; /* caller's array of `cap` values */
    pt_index_t cap, head, count;
    struct pt_waitq getters, putters;
};

static inline void pt_queue_init(struct pt_queue *q, pt_value *slots, pt_index_t cap) {
    q->slots = slots;
    q->cap = cap;
    q->head = q->count = 0;
    q->getters.head = q->getters.tail = NULL;
    q->putters.head = q->putters.tail = NULL;
}

/* Put v if there is room (then wake a getter); 0 if full. */
static inline int pt_queue_try_put(struct pt_loop *l, struct pt_queue *q, pt_value v) {
    if (q->count >= q->cap)
        return 0;
    q->slots[(pt_index_t)((q->head + q->count) % q->cap)] = v;
    q->count++;
    pt__waitq_wake_one(l, &q->getters);
    return 1;
}

/* Take the oldest value into *v (then wake a putter); 0 if empty. */
static inline int pt_queue_try_get(struct pt_loop *l, struct pt_queue *q, pt_value *v) {
    if (q->count == 0)
        return 0;
    *v = q->slots[q->head];
    q->head = (pt_index_t)((q->head + 1u) % q->cap);
    q->count--;
    pt__waitq_wake_one(l, &q->putters);
    return 1;
}

/* int PT_QUEUE_PUT(struct pt_queue *q, pt_value v, pt_time_t timeout)
 *   -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait for room, then put v. v is evaluated again on every try. */
#define PT_QUEUE_PUT(q, v, timeout)                                                                \
    PT__WAIT_UNTIL_TRUE(pt_queue_try_put(pt__loop, (q), (v)), &(q)->putters, (timeout))
/* int PT_QUEUE_GET(struct pt_queue *q, pt_value *dst, pt_time_t timeout)
 *   -> PT_OK | PT_ETIMEDOUT | PT_EFULL
 * Wait for a value, then store it in *dst (which must outlive the wait). */
#define PT_QUEUE_GET(q, dst, timeout)                                                              \
    PT__WAIT_UNTIL_TRUE(pt_queue_try_get(pt__loop, (q), (dst)), &(q)->getters, (timeout))

#endif /* PT_LOOP_SYNC_H */
