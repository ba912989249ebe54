/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/timers/heap.h - PT_TIMERS_HEAP: the timers in a min-heap, a 4-ary
 * heap in an array of slots the caller provides, ordered by (deadline,
 * seq). A slot holds the deadline and the sequence number beside the task
 * pointer, so that sifting compares slots next to each other in the array
 * and never reads a task: in a big heap each task read would be a cache
 * miss. Each task keeps a 1-based slot number, so a task is removed from
 * the middle in O(log n) when it is woken early or cancelled: no cancelled
 * entry stays behind. The number names its slot or a slot below it: an
 * entry that moves up, as every entry on the path does when the earliest
 * is taken out, is not told (in a big heap each such write would be a
 * cache miss on its task); one that moves down or jumps is. Its slot is
 * found by walking up from the number (pt__heap_find): at most the heap's
 * depth of reads, all on one path. Equal deadlines come out in the order they
 * went in: by seq, a counter compared as a plain number. Before it would
 * wrap, the pending timers are renumbered 0..n-1 in their order
 * (pt__heap_renumber), so the order holds for any number of timers.
 */
#ifndef PT_LOOP_TIMERS_HEAP_H
#define PT_LOOP_TIMERS_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "../types.h"

/* Nonzero if slot a must fire before slot b: its deadline is earlier, or
 * the same and its seq smaller. One comparison does both: a is compared
 * with b's deadline a tick later when a's seq is smaller, so equal
 * deadlines (which timers set in the same iteration share: the loop reads
 * its time once per iteration) need no test of their own. It orders as
 * the two tests would, except for deadlines exactly half the clock's
 * range apart, which pt_time_before cannot order either (each is before
 * the other). */
static inline int pt__heap_less(const struct pt_timer_slot *a, const struct pt_timer_slot *b) {
    return pt_time_before(a->deadline, (pt_time_t)(b->deadline + (a->seq < b->seq)));
}

/*
 * Put slot v in slot k (0-based; its task's slot number becomes k + 1) of a heap
 * that is in order but for that slot: v moves up past later parents, or
 * else down past earlier children. The heap is 4-ary (the children of k
 * are 4k+1..4k+4): half the levels of a binary heap, and the four children
 * compared at each are next to each other in memory, where a big heap
 * misses the cache once a level. One loop for push and remove keeps the
 * code small; comparing with k0 (where v started) keeps the comparisons as
 * few as with two loops: no parent once moving down, no children once
 * moved up.
 */
PT__HOT void pt__heap_sift(struct pt_loop *l, size_t k, struct pt_timer_slot v) {
    struct pt_timer_slot *h = l->heap;
    size_t c, k0 = k, i, end;
    for (;; k = c) {
        /* Up, unless it moved down (0 < k <= k0), if the parent is later. */
        c = (k - 1) / 4;
        if (!(k - 1 < k0 && pt__heap_less(&v, &h[c]))) {
            /* Else down, unless it moved up, if the earliest child is
             * earlier (no child if 4k + 1 would overflow, as only a narrow
             * size_t can: then it is past any index). */
            c = 4 * k + 1;
            if (k < k0 || c >= l->ntimers ||
                (sizeof(size_t) <= sizeof(pt_index_t) && k > (SIZE_MAX - 1) / 4))
                break;
            end = l->ntimers - c < 4 ? l->ntimers : c + 4;
#if PT_CONFIG_PREFETCH > 0 /* (the grandchildren: the next level's reads) */
            for (i = c; i < end && 4 * i + 1 < l->ntimers; i++)
                __builtin_prefetch(&h[4 * i + 1]);
#endif
            for (i = c + 1; i < end; i++)
                if (pt__heap_less(&h[i], &h[c]))
                    c = i;
            if (!pt__heap_less(&h[c], &v))
                break;
        }
        h[k] = h[c];
        if (c < k) /* (a parent moved down: its number must follow it) */
            PT__HEAP_INDEX(h[k].task) = (pt_index_t)(k + 1);
    }
    h[k] = v;
    PT__HEAP_INDEX(v.task) = (pt_index_t)(k + 1);
}

/* The slot (0-based) of t, which has a timer: its number's or one above
 * it. A slot past the end is not t's (a copy of its entry may be left
 * there), nor is another task's; the root is tried first, as the earliest
 * timer is the one taken out most. */
static inline size_t pt__heap_find(const struct pt_loop *l, const struct pt_task *t) {
    const struct pt_timer_slot *h = l->heap;
    size_t i = (size_t)PT__HEAP_INDEX(t) - 1u;
    if (h[0].task == t)
        return 0;
    while (i != 0 && (i >= l->ntimers || h[i].task != t))
        i = (i - 1) / 4;
    return i;
}

/* Take t out, wherever it is (if it has a timer): the last entry fills
 * its slot. */
static inline void pt__timer_remove(struct pt_loop *l, struct pt_task *t) {
    size_t i;
    if (PT__HEAP_INDEX(t) == 0)
        return;
    i = pt__heap_find(l, t);
    PT__HEAP_INDEX(t) = 0;
    if (--l->ntimers != i) /* (it was not the last) */
        pt__heap_sift(l, i, l->heap[l->ntimers]);
}

/*
 * The sequence counter is at its last value: number the pending timers
 * 0..n-1 in the order they fire. Take the earliest out again and again,
 * with its rank as its seq, each to the slot the removal frees at the end
 * (a heapsort in place: the array ends latest first); then push them back
 * latest first, each of which goes to the top. Once per 2^16 (or 2^32)
 * timers set, O(n log n), with no code of its own but two loops.
 */
static void pt__heap_renumber(struct pt_loop *l) {
    struct pt_timer_slot *h = l->heap, v;
    pt_index_t n = l->ntimers, i;
    for (i = 0; i < n; i++) {
        v = h[0];
        pt__timer_remove(l, v.task);
        v.seq = (pt_seq_t)i;
        h[l->ntimers] = v;
    }
    for (i = 0; i < n; i++)
        pt__heap_sift(l, l->ntimers++, h[i]);
    l->seq = (pt_seq_t)n;
}

static inline void pt__timers_init(struct pt_loop *l, struct pt_timer_slot *heap) {
    l->heap = heap;
    l->seq = 0;
}

/* t has no timer (a task or handle set up anew). */
static inline void pt__timer_init(struct pt_task *t) {
    PT__HEAP_INDEX(t) = 0;
}

static inline int pt__timer_pending(const struct pt_task *t) {
    return PT__HEAP_INDEX(t) != 0;
}

/* The earliest timer: the root. */
static inline struct pt_task *pt__timer_first(const struct pt_loop *l) {
    return l->ntimers ? l->heap[0].task : NULL;
}

/* When the earliest fires (there is one); when t's fires (it has one):
 * the deadline is the slot's only. */
static inline pt_time_t pt__timer_first_when(const struct pt_loop *l) {
    return l->heap[0].deadline;
}
static inline pt_time_t pt__timer_when(const struct pt_loop *l, const struct pt_task *t) {
    return l->heap[pt__heap_find(l, t)].deadline;
}

static inline int pt__timer_add(struct pt_loop *l, struct pt_task *t, pt_time_t when) {
    if (l->ntimers >= l->timers_cap)
        return PT_EFULL;
    if (l->seq == (pt_seq_t)-1) /* ntimers < timers_cap <= PT_INDEX_MAX: room after it */
        pt__heap_renumber(l);
    {
        struct pt_timer_slot v;
        v.deadline = when;
        v.seq = l->seq++;
        v.task = t;
        pt__heap_sift(l, l->ntimers++, v);
    }
    return PT_OK;
}

#endif /* PT_LOOP_TIMERS_HEAP_H */
