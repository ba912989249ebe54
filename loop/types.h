/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/types.h - the loop's structures: a task and the loop itself. All of
 * them are memory the caller owns; the loop only links them together.
 */
#ifndef PT_LOOP_TYPES_H
#define PT_LOOP_TYPES_H

#include <stdint.h>

#include "../pt/pt.h"
#include "backend.h"
#include "config.h"
#include "result.h"
#include "ticks.h"

/* The widths PT_CONFIG_WIDE chooses (loop/config.h). */
#if PT_CONFIG_WIDE
typedef uint32_t pt_seq_t;
typedef uint32_t pt_index_t;
#define PT_INDEX_MAX 0xFFFFFFFFu
#else
typedef uint16_t pt_seq_t;
typedef uint16_t pt_index_t;
#define PT_INDEX_MAX 0xFFFFu
#endif

/* PT__OUTLINE replaces `static inline` on a helper the loop calls from
 * several places: when optimising for size (-Os), one copy rather than one
 * per call; otherwise the compiler chooses, for speed. (GCC warns about
 * noinline on an inline function; `unused` keeps it as quiet as inline.) */
#if defined(__GNUC__) && defined(__OPTIMIZE_SIZE__)
#define PT__OUTLINE static __attribute__((noinline, unused))
#else
#define PT__OUTLINE static inline
#endif

/* PT__HOT: the iteration itself, inlined into the loops that run it
 * (pt_loop_run, pt_loop_run_until) unless optimising for size: a call per
 * iteration would cost about as much as a task's resume. */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define PT__HOT static inline __attribute__((always_inline))
#else
#define PT__HOT static inline
#endif

/* PT__RUNS: pt_loop_run and pt_loop_run_until, which hold the iterations
 * (PT__HOT). On an x86 host (not optimising for size) they are out of
 * line and start a cache line: how fast their loop of a few dozen
 * instructions runs depends on where it falls, by up to a fifth (W1a),
 * and where it falls would otherwise depend on the program around it. */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__) && (defined(__x86_64__) || defined(__i386__))
#define PT__RUNS static __attribute__((noinline, aligned(64), unused))
#else
#define PT__RUNS static inline
#endif

/* PT__SLOW: a helper off the hot path (it makes system calls, or runs
 * rarely), not inlined, so that what calls it stays small enough to be
 * inlined itself; when optimising for size the compiler chooses (one
 * caller: inlined, with no call to pay for). */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define PT__SLOW static __attribute__((noinline, unused))
#else
#define PT__SLOW static inline
#endif

/* PT__RARE(c): c is seldom true; the compiler lays that branch out of the
 * way of the one taken (pt__run_next: a yield's path stays as short as
 * with no other test). */
#if defined(__GNUC__)
#define PT__RARE(c) __builtin_expect(!!(c), 0)
#else
#define PT__RARE(c) (c)
#endif

struct pt_loop;
struct pt_task;

/* A task's body: a generator function resumed by the loop. */
typedef char (*pt_task_fn)(struct pt_loop *loop, struct pt_task *task);

struct pt_group;

/*
 * A task's state, besides its generator's own (pt/gen.h: the state byte,
 * the resume point, `value` and `ret`):
 *
 *   gen.aux, two fields, read and written only through the accessors
 *   below (pt__place to pt__clear_flag):
 *     bits 0-3  flags (PT__T_*), one meaning each
 *       bit 0  BACKGROUND  spawned by pt_loop_spawn_background: keeps no
 *                          run going; `up` is up.background
 *       bit 1  IN_GROUP    a member of a task group: `up` is up.group
 *       bit 2  TIMED_OUT   the deadline of this wait passed (cleared when it
 *                          parks); PT_COND_WAIT's: its condition's (lock.h)
 *       bit 3  CANCELLED   a cancel came during this wait and is still to
 *                          be delivered, cleared as it is: only PARKED (its
 *                          wait ends PT_ECANCELLED when it wakes) or
 *                          QUEUED_GRANTED (at its turn, as it leaves the
 *                          queue, its wait ends PT_ECANCELLED and the
 *                          grant goes on to the list's next waiter:
 *                          pt__run_special; till then gen.value.p names
 *                          the list). (Granted after a cancel, in its
 *                          cleanup, a task keeps the grant.)
 *     bits 4-7  where it is (PT__PLACE_*), one value each
 *               NONE            in no list: running, finished, or not
 *                               spawned yet (pt_gen_init's 0)
 *               QUEUED          in the ready queue
 *               QUEUED_GRANTED  in the ready queue, woken by a waiter list
 *                               that granted it something (a unit, the
 *                               lock), until its turn; gen.value.p is that
 *                               list
 *               PARKED + kind   waiting on the loop (8 to 15), kind
 *                               (PT__WAIT_*) saying on what: NONE (its
 *                               timer only), IO, LIST, RETRY, SHIELD,
 *                               JOIN, NEXT or GROUP
 *     The kind is in the byte the flags share, as a byte of its own would
 *     make a task a word bigger on a 32-bit target; the place is the top
 *     half, so that it reads as aux >> 4, with no mask (every park and
 *     wake reads it).
 *   up: named by the flags above: up.joiners (neither BACKGROUND nor
 *       IN_GROUP), up.background or up.group.
 *   next: its link in the one list it is in: the ready queue (QUEUED,
 *         QUEUED_GRANTED), a waiter list or the joiners of the task it
 *         joins (PARKED).
 *   gen.value: the wait's channel, as a generator's value slot carries
 *         values both ways: while PARKED, the object waited on (what the
 *         kind names: a list, a task, a group, a descriptor's struct
 *         pt_io; NULL for a sleep); when it wakes, the wait's result (an
 *         int), or, QUEUED_GRANTED, the list that woke it; once finished,
 *         its result (pt/gen.h). A word of its own for the object would
 *         make every task a word bigger.
 *   spawned: PT__SPAWNED(the task) from its spawn until it finishes.
 * A callback handle (loop/call.h) is a struct pt_task too, never spawned:
 * gen.state PT__T_CALLBACK (with PT__GEN_CLOSING once cancelled), fn its
 * callback, gen.ret.p the callback's argument; of the places NONE,
 * QUEUED and PARKED + PT__WAIT_NONE (on its timer alone), of the flags
 * BACKGROUND (a timeout scope's).
 */
union pt__task_up {
    struct pt_task *joiners;    /* the first task joining it (the others
                                   follow through their `next`) */
    struct pt_task *background; /* the next background task of its loop */
    struct pt_group *group;     /* its group */
};

struct pt_task {
    union pt__task_up up; /* first, as a struct pt_waitq's head is: a
                             list of joiners starts where the task does,
                             and pt__unpark walks both alike */
    struct pt_task *next; /* in the ready queue, in one waiter list, or in
                             the joiners of the task it joins */
    struct pt_gen gen;
    pt_task_fn fn;
    uintptr_t spawned; /* PT__SPAWNED(this task) from its spawn until it
                          finishes, else anything: what says it is alive;
                          left-over bytes do not hold it, so its memory
                          needs no zeroing */
#if PT_CONFIG_TIMERS != PT_TIMERS_HEAP
    pt_time_t deadline;    /* when its timer fires, if it has one */
    struct pt_task *tnext; /* the next timer in the circular list; NULL: none */
#elif !PT_CONFIG_GEN_AUX32
    pt_index_t heap_index;  /* its slot in the timer heap, or one below it;
                               0: none (the slot holds the deadline) */
#endif
#if PT_CONFIG_DEBUG         /* (loop/debug.h) */
    struct pt_loop *loop;   /* the loop it was last spawned on */
    const char *name;       /* pt_task_set_name's; NULL: none */
    struct pt_task *dnext;  /* the next of its loop's live tasks */
    struct pt_task **dprev; /* what points at it there: unlinked in O(1) */
    unsigned line;          /* the source line of its last stop (PT__NOTE_LINE) */
#endif
};

/* What a spawn writes in a task's `spawned`: its own address, inverted,
 * which memory left over from anything else holds only by a chance of one
 * in 2^(bits of a pointer), as no data is stored at its own address's
 * inverse. */
#define PT__SPAWNED(t) (~(uintptr_t)(const void *)(t))

/* A task's 1-based slot in the timer heap or one below it (the heap finds
 * which: loop/timers/heap.h), 0 if it has no timer: on a
 * 64-bit target in its generator's spare word (PT_CONFIG_GEN_AUX32, pt/gen.h),
 * so that the heap makes a task no bigger. */
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP && PT_CONFIG_GEN_AUX32
#define PT__HEAP_INDEX(t) ((t)->gen.aux32)
#elif PT_CONFIG_TIMERS == PT_TIMERS_HEAP
#define PT__HEAP_INDEX(t) ((t)->heap_index)
#endif

/*
 * A slot of the timer heap (PT_TIMERS_HEAP, loop/timers/heap.h): the
 * caller gives pt_loop_init an array of them, one per timer that may be
 * pending at once. Its fields are the heap's: the deadline and sequence
 * number kept beside the task, so that ordering reads no task.
 */
struct pt_timer_slot {
    pt_time_t deadline;
    struct pt_task *task;
    pt_seq_t seq; /* orders equal deadlines: FIFO */
};

/* gen.aux's flags, bits 0-3 (the diagram above struct pt_task). */
#define PT__T_BACKGROUND 0x01u
#define PT__T_IN_GROUP 0x02u
#define PT__T_TIMED_OUT 0x04u
#define PT__T_CANCELLED 0x08u
/* gen.state bit 7, which a generator never sets: a callback handle
 * (loop/call.h), a task the loop calls instead of resuming. */
#define PT__T_CALLBACK 0x80u

/* What a parked task waits on (the kind of its place PARKED + kind,
 * besides, maybe, its timer). From PT__WAIT_JOIN on, its timeout (or a
 * cancel) does not end the wait itself: a join's cancels what it waits
 * for, and it waits on until that has finished; a group's goes to the
 * group (struct pt_group's event), which cancels the members and waits on
 * (PT__WAIT_GROUP) or ends the wait (PT__WAIT_NEXT). */
enum {
    PT__WAIT_NONE = 0,   /* its timer only: a sleep */
    PT__WAIT_IO = 1,     /* a descriptor */
    PT__WAIT_LIST = 2,   /* a waiter list (loop/sync.h, lock.h, barrier.h) */
    PT__WAIT_RETRY = 3,  /* a waiter list, to try again when woken (a queue's,
                            a writer's drain and close): a wake from the list
                            leaves its timer set, the first deadline, which
                            the wait reads back when it parks again (and
                            PT_COND_WAIT's lock, after a timeout: lock.h) */
    PT__WAIT_SHIELD = 4, /* another task, shielded: left alone */
    PT__WAIT_JOIN = 5,   /* another task */
    PT__WAIT_NEXT = 6,   /* the next member of a group to finish */
    PT__WAIT_GROUP = 7   /* every member of a task group */
};

/* Where a task is: gen.aux's bits 4-7 (the diagram above struct pt_task).
 * A parked task's place is PT__PLACE_PARKED + its PT__WAIT_* kind. */
enum {
    PT__PLACE_NONE = 0,
    PT__PLACE_QUEUED = 1,
    PT__PLACE_QUEUED_GRANTED = 2,
    PT__PLACE_PARKED = 8 /* to 15 */
};
#define PT__PLACE_BITS 0xF0u /* bits 4-7 */

/* The accessors of gen.aux's two fields: no other code takes it apart. */
static inline unsigned pt__place(const struct pt_task *t) {
    return t->gen.aux >> 4;
}
static inline void pt__set_place(struct pt_task *t, unsigned place) {
    t->gen.aux = (unsigned char)((t->gen.aux & ~PT__PLACE_BITS) | place << 4);
}
/* pt__set_place, and the flags `f` cleared at the same time. */
static inline void pt__set_place_clearing(struct pt_task *t, unsigned place, unsigned f) {
    t->gen.aux = (unsigned char)((t->gen.aux & ~(PT__PLACE_BITS | f)) | place << 4);
}
/* Nonzero if t is in the ready queue (granted something or not). */
static inline int pt__queued(const struct pt_task *t) {
    return pt__place(t) == PT__PLACE_QUEUED || pt__place(t) == PT__PLACE_QUEUED_GRANTED;
}
/* Nonzero if t waits on the loop. */
static inline int pt__parked(const struct pt_task *t) {
    return pt__place(t) >= PT__PLACE_PARKED;
}
/* Nonzero if t is queued or parked: neither running nor finished (nor
 * never spawned). */
static inline int pt__queued_or_parked(const struct pt_task *t) {
    return pt__place(t) != PT__PLACE_NONE;
}
/* What t waits on (PT__WAIT_*), while it is parked. */
static inline unsigned pt__wait_kind(const struct pt_task *t) {
    return pt__place(t) - PT__PLACE_PARKED;
}
/* Nonzero if t has any of the flags `f` (PT__T_*). */
static inline int pt__flag(const struct pt_task *t, unsigned f) {
    return (t->gen.aux & f) != 0;
}
static inline void pt__set_flag(struct pt_task *t, unsigned f) {
    t->gen.aux = (unsigned char)(t->gen.aux | f);
}
static inline void pt__clear_flag(struct pt_task *t, unsigned f) {
    t->gen.aux = (unsigned char)(t->gen.aux & ~f);
}

/* A FIFO of tasks linked by their `next`: the ready queue, and the waiters
 * of an event, semaphore or queue (loop/sync.h). `tail` means nothing
 * while `head` is NULL: taking the last one out leaves it as it was. */
struct pt_waitq {
    struct pt_task *head, *tail;
};

/*
 * A waiter list of a synchronisation object: the first member of each.
 * A waiter it wakes is granted what it waited for (a unit, the lock, a
 * set event) before it runs; `give` is what gives it back if that waiter
 * is cancelled before it could run (pt__wlist_give): one of PT__WL_*
 * (loop/features/waitlist.h), NULL for nothing. A function, not a kind the core
 * switches on, so that the code giving back a unit, the lock or a queue's
 * turn is in a program only if it initialises such an object.
 */
struct pt__wlist;
typedef void (*pt__give_fn)(struct pt_loop *l, struct pt__wlist *w);
struct pt__wlist {
    struct pt_waitq q;
    pt__give_fn give; /* PT__WL_* */
#if PT_CONFIG_DEBUG
    const char *what; /* what object it is (loop/debug.h) */
#endif
};

/* The loop's semaphore (loop/sync.h) and lock (loop/lock.h): here, since
 * the core gives back what a cancelled waiter was granted. */
struct pt_semaphore {
    struct pt__wlist w;
    unsigned int count;
};
struct pt_lock {
    struct pt__wlist w;
    struct pt_task *owner; /* NULL: free */
};

/* The debug mode's slow-resume callback (loop/debug.h): `task`'s resume
 * took `us` microseconds, more than the loop's threshold. */
typedef void (*pt_slow_fn)(void *arg, struct pt_loop *loop, const struct pt_task *task,
                           uint32_t us);

/*
 * The loop: a FIFO of ready tasks and the timed ones in deadline order
 * (loop/timers.h): a min-heap in an array of timer slots the caller
 * provides (one slot per task that may wait with a deadline at the same
 * time), or a list through the tasks.
 */
struct pt_loop {
    uint32_t agree; /* the options of the file that initialised it (loop/agree.h);
                       first, so that a file built with other options finds it */
#if PT_CONFIG_BACKGROUND
    struct pt_task *background; /* background tasks, newest first, linked by
                                   their up.background */
#endif
    struct pt_waitq ready; /* tasks to run, in order */
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    struct pt_timer_slot *heap;
    pt_seq_t seq; /* next timer sequence number */
#else
    struct pt_task *timers; /* the latest timer; its tnext is the earliest */
#endif
    pt_index_t ntimers, timers_cap; /* pending, and at most */
    pt_time_t now;                  /* the loop's clock, read once per iteration */
    pt_index_t live;                /* spawned tasks, not background, not finished */
    unsigned char flags;
#if PT_CONFIG_STALL_CHECK
    /* Waits the loop cannot see (a PT_WAIT_UNTIL polled again): on the
     * virtual clock, what tells a run that only they are left
     * (loop/features/stall.h). */
    pt_index_t polls;      /* tasks re-queued this iteration by such a poll */
    pt_index_t polls_seen; /* the last iteration's, if it re-queued nothing else; 0: none */
    uintptr_t polls_hash;  /* ... and which tasks, where (a hash) */
#endif
#if PT_CONFIG_CALLBACKS
    struct pt_timeout *timeouts; /* open timeout scopes, newest first */
#endif
#if PT_CONFIG_DEBUG          /* (loop/debug.h) */
    struct pt_task *tasks;   /* its live tasks, newest first */
    struct pt_task *running; /* the task being resumed; NULL between */
    pt_slow_fn slow_fn;      /* told of a resume longer than slow_us; NULL: none */
    void *slow_arg;
    uint32_t slow_us;
#endif
#if PT_CONFIG_IO
    struct pt__backend io; /* the readiness back end's own (loop/backend.h) */
    pt_time_t io_backoff;  /* the next sleep after a failed poll (loop/iowait.h) */
    unsigned io_ahead;     /* the wake-up latency expected, us (loop/iowait.h) */
#endif
};

#if PT_CONFIG_CALLBACKS
/* A callback handle (loop/call.h): a task the loop calls instead of
 * resuming. Caller-owned, zeroed before its first use. */
struct pt_handle {
    struct pt_task task;
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    pt_time_t when; /* its call's time: a heap's task has no deadline */
#endif
};
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
#define PT__HANDLE_WHEN(h) ((h)->when)
#else
#define PT__HANDLE_WHEN(h) ((h)->task.deadline)
#endif

/* A timeout scope (loop/timeout.h). */
struct pt_timeout {
    struct pt_handle timer; /* fires at the deadline */
    struct pt_task *task;   /* the task it covers */
    struct pt_gen *gen;     /* the generator that opened it: the task's, or
                               a sub-coroutine's */
    struct pt_timeout *next;
    unsigned char state; /* PT__TO_* */
};

/* A timeout scope's state: closed (or never opened), open, its deadline
 * passed, or open without a timer (the timers were full: it counts as
 * passed). */
enum { PT__TO_CLOSED = 0, PT__TO_OPEN = 1, PT__TO_PASSED = 2, PT__TO_FULL = 3 };
#endif

/* A task group (loop/group.h): tasks spawned into it, awaited together. */
struct pt_group {
    struct pt_task **members; /* caller's array: the finished members
                                 first, in the order they finished */
    pt_index_t cap, count, pending;
    pt_index_t taken;       /* members handed out by PT_GROUP_NEXT */
    struct pt_task *owner;  /* the task waiting for the group, if any */
    struct pt_task *parent; /* the task that spawned into it (PT_GROUP_SPAWN), or NULL */
    unsigned char mode;     /* PT_GROUP_CANCEL_ON_FAIL or PT_GROUP_COLLECT */
    unsigned char failed;
    /* loop/group.h's code, called by the core when a member finishes (t)
     * or the owner's wait times out (NULL): a core compiled in a file that
     * never included loop/group.h still drives the groups of other files. */
    void (*event)(struct pt_loop *l, struct pt_group *g, struct pt_task *t);
};

#define PT__L_VIRTUAL 0x01u /* virtual clock: jump to the next deadline */
#define PT__L_STOP 0x02u    /* pt_loop_stop was called */
#define PT__L_RUNNING 0x04u /* in pt_loop_run*: not re-entered */
#define PT__L_STALE                                                                                \
    0x08u                 /* `now` is an earlier iteration's: read the clock first                 \
                             (unless PT__L_VIRTUAL) */
#define PT__L_STALL 0x10u /* with PT__L_STOP: only waits the loop cannot see are left */

#endif /* PT_LOOP_TYPES_H */
