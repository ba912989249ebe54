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

/* The widths PT_LOOP_WIDE chooses (loop/config.h). */
#if PT_LOOP_WIDE
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

struct pt_loop;
struct pt_task;

/* A task's body: a generator function resumed by the loop. */
typedef char (*pt_task_fn)(struct pt_loop *loop, struct pt_task *task);

/*
 * A task. gen.value is the task's result once it has finished; while it is
 * parked it names what it waits on, and on wake-up it carries the result of
 * the wait. gen.aux holds the PT__T_* flags below.
 */
struct pt_task {
    struct pt_gen gen;
    pt_task_fn fn;
    struct pt_task *next;  /* in the ready queue, or in one waiter list */
    void *awaiter;         /* the task joining this one, or its group; for a
                              background task, the next background task */
    pt_time_t deadline;    /* when its timer fires, if heap_index != 0 */
    pt_seq_t seq;          /* orders timers with equal deadlines: FIFO */
    pt_index_t heap_index; /* 1-based slot in the timer heap; 0: none */
};

/* gen.aux bits. */
#define PT__T_QUEUED 0x01u     /* in the ready queue */
#define PT__T_PARKED 0x02u     /* waiting on the loop: not requeued */
#define PT__T_BACKGROUND 0x04u /* does not keep the loop alive */
#define PT__T_IN_GROUP 0x08u   /* awaiter is a struct pt_group */
#define PT__T_TIMED_OUT 0x10u  /* a join's deadline passed: cancelled */
#define PT__T_WAIT_SHIFT 5     /* bits 5..7: what it is parked on */
#define PT__T_WAIT_MASK 0xE0u

/* What a parked task waits on (besides, maybe, its timer). */
enum {
    PT__WAIT_NONE = 0, /* its timer only: a sleep */
    PT__WAIT_LIST = 1, /* a waiter list (event, semaphore, queue) */
    PT__WAIT_IO = 2,   /* a descriptor */
    PT__WAIT_JOIN = 3, /* another task */
    PT__WAIT_GROUP = 4 /* a task group */
};

/* A FIFO of tasks linked by their `next`: the ready queue, and the waiters
 * of an event, semaphore or queue (loop/sync.h). */
struct pt_waitq {
    struct pt_task *head, *tail;
};

/*
 * The loop: a FIFO of ready tasks and a min-heap of timed ones. The heap
 * is an array of task pointers the caller provides (one slot per task that
 * may wait with a deadline at the same time).
 */
struct pt_loop {
    struct pt_waitq ready; /* tasks to run, in order */
    struct pt_task **heap;
    pt_index_t heap_len, heap_cap;
    pt_time_t now;   /* the loop's clock, read once per iteration */
    pt_seq_t seq;    /* next timer sequence number */
    pt_index_t live; /* spawned tasks, not background, not finished */
    unsigned char flags;
#if PT_LOOP_BACKGROUND
    struct pt_task *background; /* background tasks, linked by awaiter */
#endif
#if PT_LOOP_IO
    struct pt__backend io; /* the readiness back end's own (loop/backend.h) */
#endif
};

/* A task group (loop/group.h): tasks spawned into it, awaited together. */
struct pt_group {
    struct pt_task **members; /* caller's array, in spawn order */
    pt_index_t cap, count, pending;
    struct pt_task *owner; /* the task waiting for the group, if any */
    unsigned char mode;    /* PT_GROUP_CANCEL_ON_FAIL or PT_GROUP_COLLECT */
    unsigned char failed;
    /* loop/group.h's code, called by the core when a member finishes (t)
     * or the owner's wait times out (NULL): a core compiled in a file that
     * never included loop/group.h still drives the groups of other files. */
    void (*event)(struct pt_loop *l, struct pt_group *g, struct pt_task *t);
};

#define PT__L_VIRTUAL 0x01u /* virtual clock: jump to the next deadline */
#define PT__L_STOP 0x02u    /* pt_loop_stop was called */
#define PT__L_RUNNING 0x04u /* running the ready tasks: not re-entered */

#endif /* PT_LOOP_TYPES_H */
