/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/call.h - callbacks: call a function soon, later or at a time, as
 * asyncio's loop.call_soon / call_later / call_at, with a handle that can
 * be cancelled. The handle is caller-owned (zeroed before its first use)
 * and holds everything: no allocation, and a handle is free again as soon
 * as its callback has been called (it may schedule itself anew).
 *
 * Callbacks share the ready queue and the timers with the tasks, under
 * the same rules: call_soon runs in the order of scheduling, after what is
 * ready already (at the next iteration if scheduled by a task or callback
 * that runs now); timers with the same deadline run in the order they
 * were set. A pending callback keeps pt_loop_run going, as a task does.
 *
 *   static struct pt_handle h;
 *   static void tick(struct pt_loop *loop, void *arg) {
 *       puts(arg);
 *       pt_call_later(loop, &h, PT_MS(1000), tick, arg);   // again
 *   }
 *   pt_call_soon(&loop, &h, tick, "tick");
 */
#ifndef PT_LOOP_CALL_H
#define PT_LOOP_CALL_H

#include "core.h"

#if !PT_CONFIG_CALLBACKS
#error "loop/call.h: callbacks need PT_CONFIG_CALLBACKS 1 (loop/config.h), in every file"
#endif

/* Nonzero while h's callback is scheduled and not cancelled. */
static inline int pt_handle_pending(const struct pt_handle *h) {
    return pt__queued_or_parked(&h->task) && !(h->task.gen.state & PT__GEN_CLOSING);
}

/* When h's timer is due (call_later / call_at), while it is pending. */
static inline pt_time_t pt_handle_when(const struct pt_handle *h) {
    return PT__HANDLE_WHEN(h);
}

/* Internal: make h a handle calling fn(loop, arg); PT_EBUSY if it is
 * scheduled (a cancelled one still in the ready queue included: the loop
 * drops it at its turn), PT_EFULL if 65,535 (or 2^32-1) tasks and
 * callbacks are pending. */
static inline int pt__call_prepare(struct pt_loop *l, struct pt_handle *h, pt_callback_fn fn,
                                   void *arg) {
    struct pt_task *t = &h->task;
    if (pt__queued_or_parked(t))
        return PT_EBUSY;
    if ((pt_index_t)(l->live + 1u) == 0)
        return PT_EFULL;
    t->gen.state = PT__T_CALLBACK;
    t->gen.aux = 0; /* PT__PLACE_NONE, no flag */
    t->fn = (pt_task_fn)(void (*)(void))fn;
    t->gen.ret.p = arg;
    pt__timer_init(t);
    return PT_OK;
}

/* Call fn(loop, arg) soon: at the back of the ready queue. PT_OK, PT_EBUSY
 * (h is scheduled), PT_EFULL. */
static inline int pt_call_soon(struct pt_loop *l, struct pt_handle *h, pt_callback_fn fn,
                               void *arg) {
    int rc = pt__call_prepare(l, h, fn, arg);
    if (rc != PT_OK)
        return rc;
    l->live++;
    pt__ready_push(l, &h->task);
    return PT_OK;
}

/* Call fn(loop, arg) once the loop's clock reaches `when` (at the next
 * iteration if it has). PT_OK, PT_EBUSY, PT_EFULL (also: the timers are full,
 * pt_loop_init's cap). */
static inline int pt_call_at(struct pt_loop *l, struct pt_handle *h, pt_time_t when,
                             pt_callback_fn fn, void *arg) {
    int rc = pt__call_prepare(l, h, fn, arg);
    if (rc != PT_OK)
        return rc;
    PT__HANDLE_WHEN(h) = when;
    if (pt__timer_add(l, &h->task, when) != PT_OK)
        return PT_EFULL;
    pt__set_place(&h->task, PT__PLACE_PARKED + PT__WAIT_NONE); /* on its timer only, as a sleep */
    l->live++;
    return PT_OK;
}

/* Call fn(loop, arg) `delay` ticks from the loop's time: as pt_call_at. */
static inline int pt_call_later(struct pt_loop *l, struct pt_handle *h, pt_time_t delay,
                                pt_callback_fn fn, void *arg) {
    return pt_call_at(l, h, pt_time_after(pt_loop_now(l), delay), fn, arg);
}

/* Cancel h's call: it will not be made. PT_OK; PT_EINVAL if h is not
 * pending (made already, cancelled, or never scheduled). */
static inline int pt_handle_cancel(struct pt_loop *l, struct pt_handle *h) {
    if (!(h->task.gen.state & PT__T_CALLBACK))
        return PT_EINVAL;
    return pt__handle_drop(l, &h->task) ? PT_OK : PT_EINVAL;
}

#endif /* PT_LOOP_CALL_H */
