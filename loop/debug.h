/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/debug.h - the debug mode, asyncio's debug mode in spirit: build
 * every file of the program with PT_CONFIG_DEBUG=1 (loop/config.h). At 0, the
 * default, it costs nothing: no struct has a field more, no function an
 * instruction more, and what it would refuse is unchecked (the behaviour
 * of each misuse is then undefined: a queue or a list may be corrupted).
 *
 * Misuse refused, as values (loop/sched/, through its hooks):
 *   - a wait (PT_SLEEP, PT_IO_WAIT, PT_EVENT_WAIT, PT_SEMAPHORE_ACQUIRE,
 *     PT_JOIN, ... : every one goes through the core's pt__park) made for
 *     a task the loop is not resuming: from a generator driven by hand,
 *     outside the loop, or naming another task than the one whose body it
 *     is in. The wait does not wait and its result is PT_EINVAL; the loop
 *     and the task named are left as they were: every wait checks at its
 *     start, before it changes anything (even one that would end at once:
 *     a set event, a free unit or lock, a finished task).
 *   - a task of another loop: pt_task_cancel(l, t), PT_JOIN and PT_JOIN_SHIELD
 *     of a task last spawned on another loop than l -> PT_EINVAL (each
 *     task records its loop when spawned).
 *   - spawning a task that is alive (new, queued, parked or running):
 *     PT_EBUSY, nothing changed. This one holds in every build: the
 *     task's own state says it, at no cost.
 *
 * Task names, for messages; with PT_CONFIG_DEBUG 0 a name is not kept:
 *
 *   void pt_task_set_name(struct pt_task *t, const char *name)
 *       name (a string that outlives the task; NULL: none) before or after
 *       the spawn; a respawn keeps it. PT_CONFIG_DEBUG 0: does nothing.
 *   const char *pt_task_name(const struct pt_task *t)
 *       its name, or "" if it has none (always "" with PT_CONFIG_DEBUG 0)
 *
 * What a task is doing, and the loop's live tasks (for when pt_loop_run
 * returns PT_EBUSY: who is left waiting, on what):
 *
 *   void pt_task_describe(const struct pt_loop *l, const struct pt_task *t,
 *                         struct pt_task_info *info)
 *       fill *info (below) for t, a task of l's or one not spawned: in
 *       every build (the name "" with PT_CONFIG_DEBUG 0; with PT_CONFIG_DEBUG 1 a
 *       deadline is read from t's own loop, whatever l is)
 *   int pt_loop_walk(const struct pt_loop *l, pt_walk_fn fn, void *arg)
 *       fn(arg, &info) for each live task of l (spawned, not finished:
 *       background tasks included, callbacks not), the newest first
 *     -> the number of tasks | PT_EINVAL (PT_CONFIG_DEBUG 0: no task list)
 *       fn may cancel tasks, not run the loop.
 *   int pt_loop_dump(const struct pt_loop *l, FILE *f)        (PT_CONFIG_POSIX)
 *       pt_loop_walk printing a header and one line per task to f (NULL:
 *       stderr): its name or address, state, what it waits on (sleep;
 *       descriptor N readable / writable; event, semaphore, lock, queue at
 *       its address; join of task X; group ...), its deadline
 *     -> as pt_loop_walk (with PT_CONFIG_DEBUG 0 it prints why there is no list)
 *
 * Slow resumes (asyncio's slow_callback_duration): after each resume of a
 * task, the loop tells a callback if the resume took longer than the
 * loop's threshold, measured with PT_CONFIG_DEBUG_NOW_US() (loop/config.h: in
 * microseconds from CLOCK_MONOTONIC on a POSIX host, whatever the tick;
 * the port's clock on a board; no clock, nothing is slow). Callbacks run
 * by pt_call_soon and the like are not timed. Nothing is timed until a
 * callback is set; then two clock reads per resume.
 *
 *   void pt_loop_set_slow_callback(struct pt_loop *l, pt_slow_fn fn, void *arg)
 *       fn(arg, l, task, us) after a resume longer than the threshold
 *       (task may have finished in it); NULL: none (pt_loop_init's)
 *   void pt_loop_set_slow_duration(struct pt_loop *l, uint32_t us)
 *       the threshold, at any time (pt_loop_init: PT_CONFIG_DEBUG_SLOW_US, 100 ms)
 *   void pt_slow_print(void *f, struct pt_loop *l, const struct pt_task *t,
 *                      uint32_t us)                           (PT_CONFIG_POSIX)
 *       a ready-made pt_slow_fn: one warning line to the FILE * f (NULL:
 *       stderr) with the task's name or address, how long, the loop time
 *   PT_CONFIG_DEBUG 0: the setters do nothing; no resume is timed.
 *
 * Limits: one task list per loop, linked through the tasks (no array, no
 * count to outgrow); a resume longer than 71 minutes is misread (a 32-bit
 * microsecond count wraps); a port clock that does not count whole
 * microseconds per tick is rounded down (define PT_CONFIG_DEBUG_NOW_US()).
 * Misuse the debug mode does not see: a task struct reused (zeroed,
 * freed) while alive, a group or a sync object shared by two loops.
 */
#ifndef PT_LOOP_DEBUG_H
#define PT_LOOP_DEBUG_H

#include "core.h"

#if PT_CONFIG_POSIX
#include <stdio.h>
#endif

/* ---- names ------------------------------------------------------------- */

static inline void pt_task_set_name(struct pt_task *t, const char *name) {
#if PT_CONFIG_DEBUG
    t->name = name;
#else
    (void)t;
    (void)name;
#endif
}

static inline const char *pt_task_name(const struct pt_task *t) {
#if PT_CONFIG_DEBUG
    return t->name ? t->name : "";
#else
    (void)t;
    return "";
#endif
}

/* ---- what a task is doing ---------------------------------------------- */

/* A description of one task, as pt_task_describe and pt_loop_walk give it.
 * The strings are constants. */
struct pt_task_info {
    const struct pt_task *task;
    const char *name;  /* pt_task_name: "" if none */
    const char *state; /* "new" (spawned, never run), "queued", "running",
                          "parked", "done", "unspawned" */
    /* While parked: "sleep", "descriptor", "event, condition, barrier or
     * writer", "semaphore", "lock", "queue" (PT_CONFIG_DEBUG 0: those three are
     * "semaphore, lock or queue"), "join", "shielded join", "group", "next
     * of group"; "" otherwise. */
    const char *waits_on;
    const void *object;          /* what it waits on: a struct pt_io, the joined
                                    struct pt_task, a struct pt_group, or the
                                    waiter list it is in (the object's own, or a
                                    queue's getters or putters, a writer's
                                    listeners); NULL if none */
    const struct pt_task *joins; /* the task it joins (either join); else NULL */
    int fd;                      /* a descriptor wait's descriptor; else -1 */
    unsigned events;             /* ... its PT_READABLE | PT_WRITABLE; else 0 */
    int timed;                   /* nonzero: parked with a deadline, `deadline` */
    pt_time_t deadline;          /* (loop time) */
    unsigned char background;    /* pt_loop_spawn_background's */
    unsigned char cancelling;    /* cancelled, its cleanup not run yet */
    unsigned char cleanup;       /* in its cleanup section */
    unsigned line;               /* PT_CONFIG_DEBUG: the source line of its last wait or
                                    PT_TASK_YIELD (of a task failed with PT_ELOST:
                                    the one whose resume point was lost); 0: none
                                    yet, or PT_CONFIG_DEBUG 0 */
};

typedef void (*pt_walk_fn)(void *arg, const struct pt_task_info *info);

/* What kind of waiter list w is (the first member of each sync object). */
static inline const char *pt__debug_list_kind(const void *w) {
#if PT_CONFIG_DEBUG
    return ((const struct pt__wlist *)w)->what; /* (pt__wlist_init's) */
#else
    /* No name kept: whether it gives back what it granted (PT__WL_*,
     * loop/features/waitlist.h) is all the list says, in any file. */
    return ((const struct pt__wlist *)w)->give ? "semaphore, lock or queue"
                                               : "event, condition, barrier or writer";
#endif
}

static inline void pt_task_describe(const struct pt_loop *l, const struct pt_task *t,
                                    struct pt_task_info *info) {
    /* By PT__WAIT_* (a list's kind is read from the list). */
    static const char *const waits[8] = {"sleep", "descriptor",    "",     "", "shielded join",
                                         "join",  "next of group", "group"};
    unsigned char life = pt__gen_life(t->gen.state);
    info->task = t;
    info->name = pt_task_name(t);
    info->waits_on = "";
    info->object = NULL;
    info->joins = NULL;
    info->fd = -1;
    info->events = 0;
    info->timed = 0;
    info->deadline = 0;
    info->background = pt__flag(t, PT__T_BACKGROUND);
    info->cancelling = (t->gen.state & PT__GEN_CLOSING) != 0 && life < PT__GEN_CLEANUP;
    info->cleanup = life == PT__GEN_CLEANUP;
#if PT_CONFIG_DEBUG
    info->line = t->line;
#else
    info->line = 0;
#endif
    if (!t->fn)
        info->state = "unspawned";
    else if (pt_task_done(t))
        info->state = "done";
    else if (pt__parked(t)) {
        unsigned kind = pt__wait_kind(t);
        info->state = "parked";
        info->object = t->gen.value.p;
        info->waits_on = waits[kind];
        if (kind == PT__WAIT_LIST || kind == PT__WAIT_RETRY)
            info->waits_on = pt__debug_list_kind(info->object);
        if (kind == PT__WAIT_JOIN || kind == PT__WAIT_SHIELD)
            info->joins = (const struct pt_task *)info->object;
#if PT_CONFIG_IO
        if (kind == PT__WAIT_IO) {
            info->fd = ((const struct pt_io *)info->object)->fd;
            info->events = ((const struct pt_io *)info->object)->events;
        }
#endif
        if (pt__timer_pending(t)) {
#if PT_CONFIG_DEBUG
            l = t->loop; /* (its own, whatever the caller gave) */
#endif
            info->timed = 1;
            info->deadline = pt__timer_when(l, t); /* (the loop keeps it) */
        }
    } else if (pt__queued(t))
        info->state = life == PT__GEN_NEW ? "new" : "queued";
    else
        info->state = "running"; /* alive and in no queue: only while it runs */
}

/* ---- the live tasks ----------------------------------------------------- */

static inline int pt_loop_walk(const struct pt_loop *l, pt_walk_fn fn, void *arg) {
#if PT_CONFIG_DEBUG
    const struct pt_task *t = l->tasks, *next;
    struct pt_task_info info;
    int n = 0;
    for (; t; t = next) {
        next = t->dnext; /* (read first: fn may cancel t, which unlinks nothing) */
        pt_task_describe(l, t, &info);
        fn(arg, &info);
        n++;
    }
    return n;
#else
    (void)l;
    (void)fn;
    (void)arg;
    return PT_EINVAL;
#endif
}

/* ---- slow resumes -------------------------------------------------------- */

static inline void pt_loop_set_slow_callback(struct pt_loop *l, pt_slow_fn fn, void *arg) {
#if PT_CONFIG_DEBUG
    l->slow_fn = fn;
    l->slow_arg = arg;
#else
    (void)l;
    (void)fn;
    (void)arg;
#endif
}

static inline void pt_loop_set_slow_duration(struct pt_loop *l, uint32_t us) {
#if PT_CONFIG_DEBUG
    l->slow_us = us;
#else
    (void)l;
    (void)us;
#endif
}

/* ---- printers for a host ------------------------------------------------- */

#if PT_CONFIG_POSIX
/* "name" 0x... , or the address alone. */
static inline void pt__debug_print_task(FILE *f, const struct pt_task *t) {
    if (*pt_task_name(t))
        fprintf(f, "\"%s\" %p", pt_task_name(t), (const void *)t);
    else
        fprintf(f, "task %p", (const void *)t);
}

/* One line of pt_loop_dump (a pt_walk_fn); p is {FILE *, the loop}. */
struct pt__debug_dump {
    FILE *f;
    const struct pt_loop *l;
};

/* The descriptor a task waits on, if it waits on one (none without a back
 * end): 1 if printed. */
static inline int pt__debug_print_fd(FILE *f, const struct pt_task_info *in) {
#if PT_CONFIG_IO
    if (in->fd >= 0) {
        fprintf(f, "descriptor %d%s%s", in->fd, in->events & PT_READABLE ? " readable" : "",
                in->events & PT_WRITABLE ? " writable" : "");
        return 1;
    }
#endif
    (void)f;
    (void)in;
    return 0;
}

static inline void pt__debug_dump_one(void *p, const struct pt_task_info *in) {
    FILE *f = ((struct pt__debug_dump *)p)->f;
    const struct pt_loop *l = ((struct pt__debug_dump *)p)->l;
    fprintf(f, "  ");
    pt__debug_print_task(f, in->task);
    fprintf(f, ": %s", in->state);
    if (in->background)
        fprintf(f, ", background");
    if (in->cancelling)
        fprintf(f, ", cancelled");
    if (in->cleanup)
        fprintf(f, ", in its cleanup");
    if (*in->waits_on) {
        fprintf(f, " on ");
        if (pt__debug_print_fd(f, in))
            ; /* (printed) */
        else if (in->joins) {
            fprintf(f, "%s of ", in->waits_on);
            pt__debug_print_task(f, in->joins);
        } else if (in->object)
            fprintf(f, "%s %p", in->waits_on, in->object);
        else
            fprintf(f, "%s", in->waits_on);
    }
    if (in->timed)
        fprintf(f, ", until %llu (in %llu)", (unsigned long long)in->deadline,
                (unsigned long long)pt_time_until(pt__now_peek(l), in->deadline));
    else if (*in->waits_on)
        fprintf(f, ", no deadline");
    fprintf(f, "\n");
}

static inline int pt_loop_dump(const struct pt_loop *l, FILE *f) {
    struct pt__debug_dump d;
    int n;
    d.f = f ? f : stderr;
    d.l = l;
#if PT_CONFIG_DEBUG
    fprintf(d.f, "ptloop: live tasks at loop time %llu, newest first:\n",
            (unsigned long long)pt__now_peek(l));
#endif
    n = pt_loop_walk(l, pt__debug_dump_one, &d);
    if (n == PT_EINVAL)
        fprintf(d.f, "ptloop: no task list: build with PT_CONFIG_DEBUG=1 (loop/debug.h)\n");
    else if (n == 0)
        fprintf(d.f, "  (none)\n");
    return n;
}

static inline void pt_slow_print(void *f, struct pt_loop *l, const struct pt_task *t, uint32_t us) {
    FILE *out = f ? (FILE *)f : stderr;
    fprintf(out, "ptloop: slow resume of ");
    pt__debug_print_task(out, t);
    fprintf(out, ": %lu.%03lu ms at loop time %llu\n", (unsigned long)(us / 1000u),
            (unsigned long)(us % 1000u), (unsigned long long)pt_loop_now(l));
}
#endif /* PT_CONFIG_POSIX */

#endif /* PT_LOOP_DEBUG_H */
