/*
 * loop/heap.h - the timer min-heap: a binary heap of task pointers in an
 * array the caller provides, ordered by (deadline, seq). Each task keeps its
 * own 1-based slot number, so a task is removed from the middle in
 * O(log n) when it is woken early or cancelled: no cancelled entry stays
 * behind. Equal deadlines come out in the order they went in (seq).
 */
#ifndef PT_LOOP_HEAP_H
#define PT_LOOP_HEAP_H

#include "types.h"

/* Nonzero if a must fire before b. */
static inline int pt__heap_less(const struct pt_task *a, const struct pt_task *b) {
    if (a->deadline != b->deadline)
        return pt_time_before(a->deadline, b->deadline);
    return (pt_seq_t)(a->seq - b->seq) > (pt_seq_t)(((pt_seq_t)-1) >> 1);
}

static inline void pt__heap_place(struct pt_loop *l, pt_index_t i, struct pt_task *t) {
    l->heap[i - 1] = t;
    t->heap_index = i;
}

static inline void pt__heap_up(struct pt_loop *l, pt_index_t i, struct pt_task *t) {
    while (i > 1) {
        struct pt_task *parent = l->heap[i / 2 - 1];
        if (!pt__heap_less(t, parent))
            break;
        pt__heap_place(l, i, parent);
        i /= 2;
    }
    pt__heap_place(l, i, t);
}

static inline void pt__heap_down(struct pt_loop *l, pt_index_t i, struct pt_task *t) {
    pt_index_t n = l->heap_len;
    for (;;) {
        pt_index_t c = (pt_index_t)(i * 2);
        if (c > n || c < i) /* no child (c < i: the index overflowed) */
            break;
        if (c < n && pt__heap_less(l->heap[c], l->heap[c - 1]))
            c++;
        if (!pt__heap_less(l->heap[c - 1], t))
            break;
        pt__heap_place(l, i, l->heap[c - 1]);
        i = c;
    }
    pt__heap_place(l, i, t);
}

/* Add t with its deadline set; PT_EFULL (and nothing changed) if full. */
static inline int pt__heap_push(struct pt_loop *l, struct pt_task *t) {
    if (l->heap_len >= l->heap_cap)
        return PT_EFULL;
    t->seq = l->seq++;
    l->heap_len++;
    pt__heap_up(l, l->heap_len, t);
    return PT_OK;
}

/* Take t out, wherever it is. */
static inline void pt__heap_remove(struct pt_loop *l, struct pt_task *t) {
    pt_index_t i = t->heap_index;
    struct pt_task *last;
    if (i == 0)
        return;
    t->heap_index = 0;
    last = l->heap[--l->heap_len];
    if (last == t)
        return;
    /* Put the last entry in the hole, then restore order either way. */
    if (i > 1 && pt__heap_less(last, l->heap[i / 2 - 1]))
        pt__heap_up(l, i, last);
    else
        pt__heap_down(l, i, last);
}

/* The earliest timer, or NULL. */
static inline struct pt_task *pt__heap_min(const struct pt_loop *l) {
    return l->heap_len ? l->heap[0] : (struct pt_task *)0;
}

#endif /* PT_LOOP_HEAP_H */
