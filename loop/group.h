/*
 * loop/group.h - a task group: spawn tasks into it, then await them all, as
 * asyncio's TaskGroup and gather do. The members' results stay in the
 * members (members[i]->gen.value, pt_task_status), in spawn order.
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

#if !PT_LOOP_GROUPS
#error "loop/group.h: task groups need PT_LOOP_GROUPS 1 (loop/config.h), in every file"
#endif

enum { PT_GROUP_CANCEL_ON_FAIL = 0, PT_GROUP_COLLECT = 1 };

static inline void pt__group_event(struct pt_loop *l, struct pt_group *g, struct pt_task *t);

/* members: the caller's array of `cap` slots. */
static inline void pt_group_init(struct pt_group *g, struct pt_task **members, pt_index_t cap,
                                 unsigned char mode) {
    g->members = members;
    g->cap = cap;
    g->count = g->pending = 0;
    g->owner = NULL;
    g->mode = mode;
    g->failed = 0;
    g->event = pt__group_event;
}

/* Spawn t into the group; PT_EFULL if the group (or the loop) is full,
 * PT_EBUSY if t is alive (as pt_spawn). */
static inline int pt_group_spawn(struct pt_loop *l, struct pt_group *g, struct pt_task *t,
                                 pt_task_fn fn) {
    int rc = g->count < g->cap ? pt_spawn(l, t, fn) : PT_EFULL;
    if (rc != PT_OK)
        return rc;
    t->awaiter = g;
    t->gen.aux |= PT__T_IN_GROUP;
    g->members[g->count++] = t;
    g->pending++;
    return PT_OK;
}

/* Cancel every member that has not finished. (A former member spawned
 * again outside the group is no longer the group's: left alone.) */
static inline void pt_group_cancel(struct pt_loop *l, struct pt_group *g) {
    pt_index_t i;
    for (i = 0; i < g->count; i++)
        if (g->members[i]->awaiter == (void *)g)
            (void)pt_cancel(l, g->members[i]);
}

/* What the core tells the group (through g->event): member t finished, or,
 * with t NULL, the owner's wait timed out (cancel the members, then the
 * owner wakes when the last has finished). */
static inline void pt__group_event(struct pt_loop *l, struct pt_group *g, struct pt_task *t) {
    if (!t) {
        pt_group_cancel(l, g);
        return;
    }
    g->pending--;
    if (pt_task_status(t) == PT_EXITED && !g->failed) {
        g->failed = 1;
        if (g->mode == PT_GROUP_CANCEL_ON_FAIL)
            pt_group_cancel(l, g);
    }
    if (g->pending == 0 && g->owner)
        pt__wake_waiter(l, g->owner, g->failed ? PT_EFAILED : PT_OK);
}

static inline int pt__group_start(struct pt_loop *l, struct pt_task *t, struct pt_gen *gen,
                                  struct pt_group *g, pt_time_t timeout) {
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
 * int PT_GROUP_WAIT(struct pt_group *g, pt_time_t timeout)
 *   -> PT_OK | PT_EFAILED | PT_ETIMEDOUT | PT_EBUSY | PT_EFULL
 * Wait until every member has finished (at once if none is pending). A
 * group remembers a failure: once a member failed, every later wait on it
 * gives PT_EFAILED. Result: PT_OK, PT_EFAILED (a
 * member failed), PT_ETIMEDOUT (the timeout passed: the members were
 * cancelled, and this returns once they have all finished), PT_EBUSY
 * (another task already waits on the group), PT_EFULL.
 */
#define PT_GROUP_WAIT(g, timeout)                                                                  \
    PT__PARK_IF(pt__group_start(pt__loop, pt__task, pt__gen, (g), (timeout)))

#endif /* PT_LOOP_GROUP_H */
