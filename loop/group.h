/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/group.h - a task group: spawn tasks into it, then await them all, as
 * asyncio's TaskGroup and gather do, or take them as they finish, as
 * asyncio.wait(FIRST_COMPLETED) and as_completed do (PT_GROUP_NEXT). The
 * members' results stay in the members (gen.value, pt_task_status); the
 * members array holds the finished ones first, in the order they finished.
 *
 *   PT_GROUP_CANCEL_ON_FAIL  the first member that fails (PT_TASK_FAIL /
 *                            PT_EXIT) cancels the others (TaskGroup); the
 *                            wait's result is then PT_EFAILED;
 *   PT_GROUP_COLLECT         every member runs to its end whatever the
 *                            others do (gather with return_exceptions);
 *                            the result is PT_EFAILED if any failed.
 */
#ifndef PT_LOOP_GROUP_H
#define PT_LOOP_GROUP_H

#include "core.h"

#if !PT_CONFIG_GROUPS
#error "loop/group.h: task groups need PT_CONFIG_GROUPS 1 (loop/config.h), in every file"
#endif

enum { PT_GROUP_CANCEL_ON_FAIL = 0, PT_GROUP_COLLECT = 1 };

static inline void pt__group_event(struct pt_loop *l, struct pt_group *g, struct pt_task *t);

/* members: the caller's array of `cap` slots. */
static inline void pt_group_init(struct pt_group *g, struct pt_task **members, pt_index_t cap,
                                 unsigned char mode) {
    g->members = members;
    g->cap = cap;
    g->count = g->pending = g->taken = 0;
    g->owner = NULL;
    g->parent = NULL;
    g->mode = mode;
    g->failed = 0;
    g->event = pt__group_event;
}

/* Spawn t into the group; PT_EFULL if the group (or the loop) is full,
 * PT_EBUSY if t is alive (as pt_loop_spawn). */
static inline int pt_group_spawn(struct pt_loop *l, struct pt_group *g, struct pt_task *t,
                                 pt_task_fn fn) {
    int rc = g->count < g->cap ? pt_loop_spawn(l, t, fn) : PT_EFULL;
    if (rc != PT_OK)
        return rc;
    t->up.group = g;
    pt__set_flag(t, PT__T_IN_GROUP);
    g->members[g->count++] = t;
    g->pending++;
    return PT_OK;
}

/* int PT_GROUP_SPAWN(struct pt_group *g, struct pt_task *t, pt_task_fn fn)
 *   -> as pt_group_spawn
 * pt_group_spawn by the running task, which becomes the group's parent (the
 * body of asyncio's `async with TaskGroup()`): in PT_GROUP_CANCEL_ON_FAIL
 * mode, a member's failure also ends the wait the parent is in then with
 * PT_ECANCELLED (a join or another group's wait cancels what it waits for,
 * as a cancel does), unless that is its wait on this group; the parent
 * itself is not cancelled, and its PT_GROUP_WAIT then gives PT_EFAILED. */
#define PT_GROUP_SPAWN(g, t, fn) pt__group_spawn_in(pt__loop, pt__task, (g), (t), (fn))

static inline int pt__group_spawn_in(struct pt_loop *l, struct pt_task *parent, struct pt_group *g,
                                     struct pt_task *t, pt_task_fn fn) {
    int rc = pt_group_spawn(l, g, t, fn);
    if (rc == PT_OK)
        g->parent = parent;
    return rc;
}

/* Cancel every member that has not finished. (A former member spawned
 * again outside the group is no longer the group's: left alone.) */
static inline void pt_group_cancel(struct pt_loop *l, struct pt_group *g) {
    pt_index_t i;
    for (i = 0; i < g->count; i++)
        if (g->members[i]->up.group == g)
            (void)pt_task_cancel(l, g->members[i]);
}

/* Wake the owner (parked on g), which g lets go first (the core leaves a
 * group's owner to it): its wait ends with `result`, or as its marks say
 * (pt__wake: cancelled, timed out). */
static inline void pt__group_wake(struct pt_loop *l, struct pt_group *g, int result) {
    struct pt_task *owner = g->owner;
    g->owner = NULL;
    pt__wake(l, owner, result);
}

/* What the core tells the group (through g->event): member t finished, or,
 * with t NULL, the owner's wait timed out or was cancelled (marked so):
 * PT_GROUP_NEXT's ends now; PT_GROUP_WAIT's cancels the members, then the
 * owner wakes when the last has finished. */
static inline void pt__group_event(struct pt_loop *l, struct pt_group *g, struct pt_task *t) {
    if (!t) {
        if (pt__wait_kind(g->owner) == PT__WAIT_NEXT)
            pt__group_wake(l, g, PT_OK);
        else
            pt_group_cancel(l, g);
        return;
    }
    { /* completion order: t goes next to the finished ones */
        pt_index_t done = (pt_index_t)(g->count - g->pending), i = done;
        while (g->members[i] != t)
            i++;
        g->members[i] = g->members[done];
        g->members[done] = t;
    }
    g->pending--;
    if (pt_task_status(t) == PT_EXITED && !g->failed) {
        g->failed = 1;
        if (g->mode == PT_GROUP_CANCEL_ON_FAIL) {
            struct pt_task *p = g->parent;
            pt_group_cancel(l, g);
            /* The parent's wait elsewhere ends cancelled (PT_GROUP_SPAWN). */
            if (p && pt__parked(p) && p->gen.value.p != (void *)g &&
                !pt__flag(p, PT__T_CANCELLED)) {
                if (pt__wait_kind(p) == PT__WAIT_RETRY) /* (its kept timer goes too) */
                    pt__timer_remove(l, p);
                (void)pt__cancel(l, p, PT__T_CANCELLED);
            }
        }
    }
    if (!g->owner)
        return;
    if (pt__wait_kind(g->owner) == PT__WAIT_NEXT) /* it takes t when it runs */
        pt__group_wake(l, g, PT_OK);
    else if (g->pending == 0)
        pt__group_wake(l, g, g->failed ? PT_EFAILED : PT_OK);
}

static inline int pt__group_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *gen,
                                  struct pt_group *g, pt_time_t timeout) {
    if (pt__not_running(l, t, gen))
        return 0;
    if (g->pending == 0) {
        gen->value.i = g->failed ? PT_EFAILED : PT_OK;
        return 0;
    }
    if (g->owner) {
        gen->value.i = PT_EBUSY;
        return 0;
    }
    if (!pt__park(l, t, gen, timeout, PT__WAIT_GROUP, g))
        return 0;
    g->owner = t;
    return 1;
}

/*
 * void PT_GROUP_WAIT(struct pt_group *g, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_EFAILED | PT_ETIMEDOUT | PT_EBUSY | PT_EFULL
 * Wait until every member has finished (at once if none is pending). A
 * group remembers a failure: once a member failed, every later wait on it
 * gives PT_EFAILED. Result: PT_OK, PT_EFAILED (a
 * member failed), PT_ETIMEDOUT (the timeout passed: the members were
 * cancelled, and this returns once they have all finished), PT_EBUSY
 * (another task already waits on the group), PT_EFULL.
 */
#define PT_GROUP_WAIT(g, timeout)                                                                  \
    PT__PARK_IF(pt__group_start(pt__loop, pt__task, pt__gen, (g), (timeout)))

/* The error of the first member that failed (its error value, or
 * PT_EFAILED if it gave none), or 0 if none has failed. */
static inline int pt_group_error(const struct pt_group *g) {
    pt_index_t i, done = (pt_index_t)(g->count - g->pending);
    for (i = 0; i < done; i++)
        if (pt_task_status(g->members[i]) == PT_EXITED)
            return pt_task_error(g->members[i]);
    return 0;
}

/* Members finished and not yet taken by PT_GROUP_NEXT, plus those still
 * running: what PT_GROUP_NEXT can still give. */
static inline pt_index_t pt_group_left(const struct pt_group *g) {
    return (pt_index_t)(g->count - g->taken);
}

/* Internal: take the next finished member into *dst, or park for one.
 * Nonzero: parked. */
static inline int pt__group_next(struct pt_loop *l, struct pt_task *t, struct pt_gen *gen,
                                 struct pt_group *g, struct pt_task **dst, pt_time_t timeout) {
    if (pt__not_running(l, t, gen))
        return 0;
    if (g->taken < (pt_index_t)(g->count - g->pending)) {
        *dst = g->members[g->taken++];
        gen->value.i = PT_OK;
        return 0;
    }
    gen->value.i = g->taken >= g->count ? PT_EINVAL : PT_EBUSY;
    if (gen->value.i == PT_EINVAL || g->owner)
        return 0;
    if (!pt__park(l, t, gen, timeout, PT__WAIT_NEXT, g))
        return 0;
    g->owner = t;
    return 1;
}

/*
 * void PT_GROUP_NEXT(struct pt_group *g, struct pt_task **dst, pt_time_t timeout)
 *   then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EINVAL | PT_EBUSY | PT_EFULL
 * Take the members in the order they finish (as_completed): *dst (which
 * must outlive the wait) is set to the next member that has finished and
 * was not taken yet, waiting for one if need be. The first call after the
 * spawns is asyncio.wait(FIRST_COMPLETED). A timeout or a cancel of this
 * task cancels no member (as asyncio.wait). PT_EINVAL: every member has
 * been taken; PT_EBUSY: another task waits on the group.
 */
#define PT_GROUP_NEXT(g, dst, timeout)                                                             \
    do {                                                                                           \
        while (pt__group_next(pt__loop, pt__task, pt__gen, (g), (dst), (timeout))) {               \
            PT__PARKED_HERE();                                                                     \
            if (PT_WAIT_RESULT() != PT_OK)                                                         \
                break;                                                                             \
        }                                                                                          \
    } while (0)

/*
 * void PT_GROUP_WAIT_RAISE(struct pt_group *g, pt_time_t timeout)
 * PT_GROUP_WAIT, then, if it did not end PT_OK, the task fails with the
 * error (pt_group_error for PT_EFAILED), as an exception propagates out of
 * a TaskGroup (a PT_ECANCELLED ends it cancelled, as PT_JOIN_RAISE does).
 */
#define PT_GROUP_WAIT_RAISE(g, timeout)                                                            \
    do {                                                                                           \
        PT_GROUP_WAIT((g), (timeout));                                                             \
        if (PT_WAIT_RESULT() != PT_OK)                                                             \
            PT__TASK_RAISE(PT_WAIT_RESULT() == PT_EFAILED ? pt_group_error(g) : PT_WAIT_RESULT()); \
    } while (0)

#endif /* PT_LOOP_GROUP_H */
