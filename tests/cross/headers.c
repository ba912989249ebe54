/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/cross/headers.c - one translation unit per public header, for the
 * cross-compile check (tests/cross/check.sh).
 *
 * Compiled with -DPT_CROSS_HEADER='"pt/xxx.h"': it includes that header
 * alone (so the header must be self-contained) and then instantiates what
 * the header provides, found by its include guard: a raw local
 * continuation, a protothread, a semaphore, a generator, and the
 * protothreads 1.4 names of pt/compat/. Functions have external linkage so
 * that nothing is "unused"; nothing here is ever linked or run.
 */
#ifndef PT_CROSS_HEADER
#error "compile with -DPT_CROSS_HEADER='\"pt/<header>.h\"'"
#endif
#include PT_CROSS_HEADER

#ifndef PT_LC_H
#error "every public header brings in pt/lc.h"
#endif

/* pt/lc.h on its own: one hand-made resume point. */
#if !defined(PT_THREAD_H)
pt_lc_t lc_state;
unsigned char lc_flag;

unsigned char lc_step(void) {
    PT_LC_RESUME(lc_state)
    lc_flag = 1;
    PT_LC_SET(lc_state);
    if (lc_flag) {
        lc_flag = 0;
        return 1;
    }
    PT_LC_END(lc_state)
    PT_LC_INIT(lc_state);
    return 0;
}
#endif

/* pt/thread.h: a protothread that waits, yields, spawns and exits. */
#ifdef PT_THREAD_H
volatile unsigned char thr_ticks;
unsigned char thr_count;

PT_THREAD(thr_child(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_YIELD_UNTIL(pt, thr_ticks > 1);
    PT_END(pt);
}

PT_THREAD(thr_parent(struct pt *pt, struct pt *child)) {
    PT_BEGIN(pt);
    for (thr_count = 0; thr_count < 3; thr_count++) {
        PT_WAIT_UNTIL(pt, thr_ticks != 0);
        thr_ticks = 0;
        PT_YIELD(pt);
    }
    PT_SPAWN(pt, child, thr_child(child));
    if (thr_ticks == 7)
        PT_EXIT(pt);
    thr_count = 0;
    PT_END(pt);
}

char thr_drive(void) {
    static struct pt pt, child;
    PT_INIT(&pt);
    return PT_SCHEDULE(thr_parent(&pt, &child));
}
#endif

/* pt/sem.h: a bounded buffer's producer and consumer. */
#ifdef PT_SEM_H
struct pt_sem sem_full, sem_empty;
unsigned char sem_item;

PT_THREAD(sem_producer(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_SEM_WAIT(pt, &sem_empty);
    sem_item++;
    PT_SEM_SIGNAL(pt, &sem_full);
    PT_END(pt);
}

PT_THREAD(sem_consumer(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_SEM_WAIT(pt, &sem_full);
    sem_item--;
    PT_SEM_SIGNAL(pt, &sem_empty);
    PT_END(pt);
}

void sem_setup(void) {
    PT_SEM_INIT(&sem_full, 0);
    PT_SEM_INIT(&sem_empty, 1);
}
#endif

/* pt/gen.h: generators that yield, receive, await, return and clean up. */
#ifdef PT_GEN_H
PT_THREAD(gen_count(struct pt_gen *g, intptr_t n)) {
    PT_GEN_BEGIN(g);
    while (n-- > 0)
        PT_YIELD_VALUE(g, pt_value_int(n));
    PT_RETURN(g, pt_value_str("done"));
    PT_GEN_END(g);
}

intptr_t gen_total;

PT_THREAD(gen_outer(struct pt_gen *g, struct pt_gen *child)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, PT_NONE);
    gen_total += g->value.i;
    PT_AWAIT(g, child, gen_count(child, 3));
    PT_CLEANUP(g);
    gen_total = 0;
    PT_GEN_END(g);
}

char gen_drive(void) {
    static struct pt_gen g, child;
    char st;
    pt_gen_init(&g);
    st = pt_gen_next(&g, gen_outer(&g, &child));
    st = pt_gen_send(&g, pt_value_int(5), gen_outer(&g, &child));
    if (!pt_gen_done(&g))
        st = pt_gen_close(&g, gen_outer(&g, &child));
    return st;
}
#endif

/* pt/compat/pt.h: a program written for protothreads 1.4. */
#ifdef PT_COMPAT_PT_H
static int compat_flag;
lc_t compat_lc;

PT_THREAD(compat_thread(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_WAIT_WHILE(pt, compat_flag == 0);
    PT_YIELD(pt);
    PT_RESTART(pt);
    PT_END(pt);
}

int compat_main(void) {
    static struct pt pt;
    LC_INIT(compat_lc)
    PT_INIT(&pt);
    compat_flag = 1;
    return PT_SCHEDULE(compat_thread(&pt));
}
#endif

/* pt/compat/pt-sem.h: 1.4's semaphores. */
#ifdef PT_COMPAT_PT_SEM_H
static struct pt_sem compat_sem;

PT_THREAD(compat_sem_thread(struct pt *pt)) {
    PT_BEGIN(pt);
    PT_SEM_WAIT(pt, &compat_sem);
    PT_SEM_SIGNAL(pt, &compat_sem);
    PT_END(pt);
}

void compat_sem_setup(void) {
    PT_SEM_INIT(&compat_sem, 1);
}
#endif
