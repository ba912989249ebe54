/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/size/loop_core.c - the loop core as a library, for the size report:
 * every entry point of the core (ready queue, timer heap, tasks, sleep,
 * join, cancel, the run modes; no descriptors) made into one out-of-line
 * function, so that the object's text is what the core costs in flash
 * once, whatever the program does with it. size_report.py compiles it with
 * PT_CONFIG_SYNC, PT_CONFIG_GROUPS, PT_CONFIG_BACKGROUND and PT_CONFIG_CALLBACKS
 * at 0 for the core, then with each at 1 for what that adds. Task bodies are the user's code
 * and are not counted (thread_fn.c and gen_fn.c give that cost).
 */
/* A board reads its port's clock (loop/port/), which is not the core's cost: a
 * stand-in that costs nothing. */
#define PT_CONFIG_PORT_NOW() 0u
#include "loop/core.h"

int size_loop_init(struct pt_loop *l, struct pt_timer_slot *heap, size_t cap);
int size_loop_init(struct pt_loop *l, struct pt_timer_slot *heap, size_t cap) {
    return pt_loop_init(l, heap, cap);
}

int size_spawn(struct pt_loop *l, struct pt_task *t, pt_task_fn fn);
int size_spawn(struct pt_loop *l, struct pt_task *t, pt_task_fn fn) {
    return pt_loop_spawn(l, t, fn);
}

int size_cancel(struct pt_loop *l, struct pt_task *t);
int size_cancel(struct pt_loop *l, struct pt_task *t) {
    return pt_task_cancel(l, t);
}

/* What PT_SLEEP and PT_JOIN call where they are written. */
int size_sleep(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, pt_time_t ticks);
int size_sleep(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, pt_time_t ticks) {
    return pt__sleep_start(l, t, g, ticks);
}

int size_join(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, struct pt_task *other,
              pt_time_t timeout);
int size_join(struct pt_loop *l, struct pt_task *t, struct pt_gen *g, struct pt_task *other,
              pt_time_t timeout) {
    return pt__join_start(l, t, g, other, timeout, PT__WAIT_JOIN);
}

#if PT_CONFIG_CALLBACKS
/* Callbacks and what a timeout scope calls where it is written. */
#include "loop/timeout.h"

int size_call_at(struct pt_loop *l, struct pt_handle *h, pt_time_t when, pt_callback_fn fn,
                 void *arg);
int size_call_at(struct pt_loop *l, struct pt_handle *h, pt_time_t when, pt_callback_fn fn,
                 void *arg) {
    return pt_call_at(l, h, when, fn, arg);
}

int size_call_soon(struct pt_loop *l, struct pt_handle *h, pt_callback_fn fn, void *arg);
int size_call_soon(struct pt_loop *l, struct pt_handle *h, pt_callback_fn fn, void *arg) {
    return pt_call_soon(l, h, fn, arg);
}

int size_handle_cancel(struct pt_loop *l, struct pt_handle *h);
int size_handle_cancel(struct pt_loop *l, struct pt_handle *h) {
    return pt_handle_cancel(l, h);
}

void size_timeout_begin(struct pt_loop *l, struct pt_task *t, struct pt_timeout *sc,
                        pt_time_t ticks);
void size_timeout_begin(struct pt_loop *l, struct pt_task *t, struct pt_timeout *sc,
                        pt_time_t ticks) {
    pt__timeout_begin(l, t, &t->gen, sc, ticks, 0);
}

int size_timeout_end(struct pt_loop *l, struct pt_timeout *sc);
int size_timeout_end(struct pt_loop *l, struct pt_timeout *sc) {
    return pt__timeout_end(l, sc);
}
#endif

int size_run(struct pt_loop *l);
int size_run(struct pt_loop *l) {
    return pt_loop_run(l);
}

void size_run_once(struct pt_loop *l);
void size_run_once(struct pt_loop *l) {
    pt_loop_run_once(l, 0);
}
