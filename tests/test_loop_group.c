/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_loop_group.c - the contract of task groups (loop/group.h):
 * cancel-on-fail (TaskGroup) and collect (gather) modes, waiting with a
 * timeout, limits, and results in spawn order. On the virtual clock.
 */
#include "loop/loop.h"

#include "runner.h"

#include "loop_util.h"

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int n;                   /* what to return (negative: fail with it) */
    pt_time_t ticks;         /* how long it works */
    pt_time_t timeout;       /* of a group wait */
    long done_at;            /* loop time it finished its work (-1: never) */
    long cleaned_at;         /* loop time its cleanup ran (-1: never) */
    pt_time_t cleanup_ticks; /* how long its cleanup sleeps */
    int result, cleanups, cleanup_result, rc;
    struct pt_group *group;
    struct pt_event *ev; /* if set, a member waits on it instead */
    struct tk *other;
};

static void tk_init(struct tk *k, const char *name, int n, pt_time_t ticks) {
    memset(k, 0, sizeof *k);
    k->name = name;
    k->n = n;
    k->ticks = ticks;
    k->timeout = PT_FOREVER;
    k->done_at = -1;
    k->cleaned_at = -1;
    k->result = 99;
    k->cleanup_result = 99;
    k->rc = 99;
}

#define CLEANUP_SECTION(k)                                                                         \
    PT_TASK_CLEANUP();                                                                             \
    (k)->cleanups++;                                                                               \
    (k)->cleanup_result = PT_WAIT_RESULT();                                                        \
    (k)->cleaned_at = (long)pt_loop_now(loop);                                                     \
    note_n((k)->name, -(long)(k)->cleanups);                                                       \
    if ((k)->cleanup_ticks)                                                                        \
        PT_SLEEP((k)->cleanup_ticks);                                                              \
    PT_TASK_END()

/* A member: works `ticks` (or waits on its event), then returns n or
 * fails with it. */
static PT_THREAD(member(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->ev)
        PT_EVENT_WAIT(k->ev, PT_FOREVER);
    else
        PT_SLEEP(k->ticks);
    k->done_at = (long)pt_loop_now(loop);
    note(k->name);
    if (k->n < 0)
        PT_TASK_FAIL(pt_value_int(k->n));
    PT_TASK_RETURN(pt_value_int(k->n));
    CLEANUP_SECTION(k);
}

/* The owner: waits for its group with `timeout`. */
static PT_THREAD(owner(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    if (k->ticks)
        PT_SLEEP(k->ticks);
    PT_GROUP_WAIT(k->group, k->timeout);
    k->result = PT_WAIT_RESULT();
    k->done_at = (long)pt_loop_now(loop);
    note(k->name);
    PT_TASK_END();
}

struct fixture {
    struct pt_group g;
    struct pt_task *slots[4];
    struct tk m[4], own;
};

/* A group of `count` members (names "a".."d"), and its owner "W", in a
 * cleared fixture. (Each case's fixture is on its stack, not static: one
 * per case would not fit in the 2 KiB of RAM of an ATmega328P.) */
static void start(struct fixture *f, unsigned char mode, int count, const int *n,
                  const pt_time_t *ticks, pt_time_t timeout) {
    static const char *const names[4] = {"a", "b", "c", "d"};
    int i;
    memset(f, 0, sizeof *f);
    setup(0);
    pt_group_init(&f->g, f->slots, 4, mode);
    tk_init(&f->own, "W", 0, 0);
    f->own.group = &f->g;
    f->own.timeout = timeout;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &f->own.task, owner), PT_OK);
    for (i = 0; i < count; i++) {
        tk_init(&f->m[i], names[i], n[i], ticks[i]);
        CHECK_EQ_INT(pt_group_spawn(&lp, &f->g, &f->m[i].task, member), PT_OK);
    }
}

/* ---- cancel on fail (TaskGroup) ------------------------------------------ */

/* a returns 1 at 5, b fails with -5 at 10, c would return at 100, d would
 * fail with -6 at 10 (its timer fires with b's). */
static void cancel_on_fail(struct fixture *f) {
    static const int n[4] = {1, -5, 3, -6};
    static const pt_time_t ticks[4] = {5, 10, 100, 10};
    start(f, PT_GROUP_CANCEL_ON_FAIL, 4, n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

static void test_first_failure_ends_the_group_wait_with_efailed(void) {
    struct fixture f;
    cancel_on_fail(&f);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 10);
    CHECK_EQ_INT(since(0), 10);
}

/* The first failure cancels the others, their cleanups run, each once. */
static void test_first_failure_cancels_the_other_members(void) {
    struct fixture f;
    cancel_on_fail(&f);
    CHECK_EQ_INT(pt_task_status(&f.m[2].task), PT_CLOSED);
    /* d's timer fired at 10 too, but b failed first: d never ran on. */
    CHECK_EQ_INT(pt_task_status(&f.m[3].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[3].done_at, -1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(f.m[2].cleaned_at, 10);
    CHECK_EQ_INT(f.m[3].cleanups, 1);
}

static void test_members_done_before_a_failure_keep_their_results(void) {
    struct fixture f;
    cancel_on_fail(&f);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED); /* done before */
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_EXITED);
    CHECK_EQ_INT(f.m[0].task.gen.value.i, 1);
    CHECK_EQ_INT(f.m[1].task.gen.value.i, -5); /* the failure's value */
}

/* Then the wait ends. */
static void test_group_wait_ends_after_the_cancelled_members_cleanups(void) {
    struct fixture f;
    cancel_on_fail(&f);
    CHECK_EQ_STR(trace.buf, "a a-1 b b-1 d-1 c-1 W ");
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* a and c wait on an event, b fails at 4; the owner waits from 20. */
static void cancel_on_fail_early(struct fixture *f, struct pt_event *ev) {
    static const int n[3] = {1, -2, 3};
    static const pt_time_t ticks[3] = {0, 4, 0};
    start(f, PT_GROUP_CANCEL_ON_FAIL, 3, n, ticks, PT_FOREVER);
    pt_event_init(ev);
    f->m[0].ev = ev;
    f->m[2].ev = ev;
    f->own.ticks = 20; /* waits only from t = 20 */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A member waiting on an event is cancelled as well. */
static void test_failure_cancels_a_member_waiting_on_an_event(void) {
    struct fixture f;
    struct pt_event ev;
    cancel_on_fail_early(&f, &ev);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(f.m[0].cleaned_at, 4);
    CHECK(ev.w.q.head == NULL); /* they left the event's list */
}

/* A failure before the owner waits makes the wait end at once. */
static void test_failure_before_the_group_wait_ends_it_at_once(void) {
    struct fixture f;
    struct pt_event ev;
    cancel_on_fail_early(&f, &ev);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 20);
    CHECK_EQ_STR(trace.buf, "b b-1 a-1 c-1 W ");
}

/* Added: group.h "A group remembers a failure: once a member failed,
 * every later wait on it gives PT_EFAILED", even when the members spawned
 * after it succeed. */
static void test_group_remembers_a_failure_for_later_waits(void) {
    struct fixture f;
    struct tk later, second;
    static const int n[1] = {-1};
    static const pt_time_t ticks[1] = {1};
    start(&f, PT_GROUP_COLLECT, 1, n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    tk_init(&later, "e", 5, 5);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &later.task, member), PT_OK);
    tk_init(&second, "S", 0, 0);
    second.group = &f.g;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &second.task, owner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&later.task), PT_ENDED);
    CHECK_EQ_INT(second.result, PT_EFAILED);
    CHECK_EQ_INT(second.done_at, 6);
    CHECK_EQ_STR(trace.buf, "a a-1 W e e-1 S ");
}

/* ---- collect (gather) ------------------------------------------------------ */

/* gather(return_exceptions=True): a returns 10 at 30, b fails with -20 at
 * 10, c returns 30 at 5, d 40 at 20. */
static const int collect_n[4] = {10, -20, 30, 40};

static void collect(struct fixture *f) {
    static const pt_time_t ticks[4] = {30, 10, 5, 20};
    start(f, PT_GROUP_COLLECT, 4, collect_n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* All run to their end whatever the others do. */
static void test_collect_runs_every_member_to_its_end(void) {
    struct fixture f;
    int i;
    collect(&f);
    CHECK_EQ_STR(trace.buf, "c c-1 b b-1 d d-1 a a-1 W ");
    for (i = 0; i < 4; i++)
        CHECK_EQ_INT(f.m[i].cleanups, 1);
}

/* The results stay in the members; the group's array holds them in the
 * order they finished (c at 5, b at 10, d at 20, a at 30). */
static void test_collect_keeps_the_members_in_completion_order(void) {
    struct fixture f;
    int i;
    static const int finished[4] = {2, 1, 3, 0};
    collect(&f);
    CHECK_EQ_INT(f.g.count, 4);
    for (i = 0; i < 4; i++) {
        CHECK(f.g.members[i] == &f.m[finished[i]].task);
        CHECK_EQ_INT(f.m[i].task.gen.value.i, collect_n[i]);
        CHECK_EQ_INT(pt_task_status(&f.m[i].task), collect_n[i] < 0 ? PT_EXITED : PT_ENDED);
    }
}

static void test_collect_with_a_failed_member_is_efailed_once_all_are_done(void) {
    struct fixture f;
    collect(&f);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 30);
}

/* All succeed: PT_OK. */
static void test_collect_of_members_that_all_succeed_is_ok(void) {
    struct fixture f;
    int i;
    static const int ok[3] = {1, 2, 3};
    static const pt_time_t t3[3] = {3, 1, 2};
    start(&f, PT_GROUP_COLLECT, 3, ok, t3, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 3);
    for (i = 0; i < 3; i++)
        CHECK_EQ_INT(f.m[i].task.gen.value.i, ok[i]);
}

/* b (of three) is cancelled from outside the group. */
static void collect_member_cancelled(struct fixture *f) {
    static const int n[3] = {1, 2, 3};
    static const pt_time_t ticks[3] = {10, 50, 20};
    start(f, PT_GROUP_COLLECT, 3, n, ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_task_cancel(&lp, &f->m[1].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* A member cancelled from outside the group is not a failure. */
static void test_member_cancelled_from_outside_is_not_a_failure(void) {
    struct fixture f;
    collect_member_cancelled(&f);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 20);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[1].cleanups, 1);
}

static void test_members_go_on_after_one_is_cancelled_from_outside(void) {
    struct fixture f;
    collect_member_cancelled(&f);
    CHECK_EQ_INT(f.m[0].task.gen.value.i, 1);
    CHECK_EQ_INT(f.m[2].task.gen.value.i, 3);
}

/* ---- waiting with a timeout ------------------------------------------------ */

static const int timeout_n[3] = {1, 2, 3};
static const pt_time_t timeout_ticks[3] = {10, 100, 200};

/* A wait with a timeout of 40: a is done at 10, b and c are still
 * running. */
static void group_timeout(struct fixture *f) {
    start(f, PT_GROUP_COLLECT, 3, timeout_n, timeout_ticks, 40);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* The members are cancelled, their cleanups run ... */
static void test_group_wait_timeout_cancels_the_members_still_running(void) {
    struct fixture f;
    group_timeout(&f);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&f.m[2].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[1].cleaned_at, 40);
    CHECK_EQ_INT(f.m[2].cleaned_at, 40);
}

/* ... then the wait ends with PT_ETIMEDOUT. */
static void test_group_wait_timeout_is_etimedout_after_their_cleanups(void) {
    struct fixture f;
    group_timeout(&f);
    CHECK_EQ_INT(f.own.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(f.own.done_at, 40);
    CHECK_EQ_STR(trace.buf, "a a-1 b-1 c-1 W ");
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* Added: group.h "this returns once they have all finished": a cancelled
 * member's cleanup sleeps 7, and the wait ends when it is done. */
static void test_group_wait_timeout_waits_for_a_cleanup_that_sleeps(void) {
    struct fixture f;
    start(&f, PT_GROUP_COLLECT, 3, timeout_n, timeout_ticks, 40);
    f.m[1].cleanup_ticks = 7;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(f.own.done_at, 47);
    CHECK_EQ_INT(f.m[1].cleaned_at, 40);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "a a-1 b-1 c-1 W ");
}

/* Done before the deadline: PT_OK, and the wait's timer goes. */
static void test_group_done_before_the_deadline_is_ok_and_drops_the_timer(void) {
    struct fixture f;
    static const pt_time_t quick[3] = {1, 2, 3};
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, timeout_n, quick, 40);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 3);
    CHECK_EQ_INT(since(0), 3);
}

/* A zero timeout: the members are cancelled at once. */
static void test_group_wait_with_zero_timeout_cancels_the_members_at_once(void) {
    struct fixture f;
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, timeout_n, timeout_ticks, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(f.own.done_at, 0);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[0].done_at, -1);
}

/* ---- limits ---------------------------------------------------------------- */

/* Joins `other`, then waits for its group. */
static PT_THREAD(join_member(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    PT_TASK_BEGIN(loop, task);
    PT_JOIN(&k->other->task, PT_FOREVER);
    k->rc = PT_WAIT_RESULT();
    PT_GROUP_WAIT(k->group, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    note(k->name);
    PT_TASK_END();
}

static const int four_n[4] = {1, 2, 3, 4};
static const pt_time_t four_ticks[4] = {1, 2, 3, 4};

/* A full group of four is offered a fifth member; S joins a member, then
 * waits for the group too. */
static void full_group(struct fixture *f, struct tk *extra, struct tk *second) {
    start(f, PT_GROUP_COLLECT, 4, four_n, four_ticks, PT_FOREVER);
    tk_init(extra, "e", 5, 1);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f->g, &extra->task, member), PT_EFULL);
    tk_init(second, "S", 0, 0);
    second->group = &f->g;
    second->other = &f->m[0];
    CHECK_EQ_INT(pt_loop_spawn(&lp, &second->task, join_member), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f->own.result, PT_OK);
    CHECK_EQ_INT(since(0), 4);
}

/* A full group refuses a member, and does not start it. */
static void test_full_group_refuses_a_member_without_starting_it(void) {
    struct fixture f;
    struct tk extra, second;
    full_group(&f, &extra, &second);
    CHECK_EQ_INT(f.g.count, 4);
    CHECK_EQ_INT(extra.cleanups, 0);
    CHECK_EQ_INT(extra.done_at, -1); /* never ran */
}

static void test_join_of_a_group_member_is_ebusy(void) {
    struct fixture f;
    struct tk extra, second;
    full_group(&f, &extra, &second);
    CHECK_EQ_INT(second.rc, PT_EBUSY);
}

static void test_second_wait_on_a_group_is_ebusy(void) {
    struct fixture f;
    struct tk extra, second;
    full_group(&f, &extra, &second);
    CHECK_EQ_INT(second.result, PT_EBUSY);
}

/* Empty: at once, without stopping. */
static void test_wait_on_an_empty_group_ends_at_once(void) {
    struct fixture f;
    setup(0);
    pt_group_init(&f.g, f.slots, 4, PT_GROUP_CANCEL_ON_FAIL);
    tk_init(&f.own, "W", 0, 0);
    f.own.group = &f.g;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &f.own.task, owner), PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK(pt_task_done(&f.own.task));
    CHECK_EQ_INT(f.own.result, PT_OK);
}

/* A group whose members have all finished: their outcome, at once. */
static void test_wait_on_a_group_of_finished_members_is_their_outcome(void) {
    struct fixture f;
    static const int bad[2] = {-1, 2};
    static const pt_time_t t2[2] = {1, 1};
    start(&f, PT_GROUP_COLLECT, 2, bad, t2, PT_FOREVER);
    f.own.ticks = 10;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 10);
}

/* A task still alive (a member, queued) is refused as pt_loop_spawn refuses it,
 * PT_EBUSY, and the group does not change. */
static void test_group_spawn_of_an_alive_task_is_ebusy(void) {
    struct fixture f;
    start(&f, PT_GROUP_COLLECT, 2, four_n, four_ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &f.m[0].task, member), PT_EBUSY);
    CHECK_EQ_INT(f.g.count, 2);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.own.result, PT_OK);
}

static void test_group_of_no_slots_is_full(void) {
    struct fixture f;
    struct tk extra;
    setup(0);
    pt_group_init(&f.g, f.slots, 0, PT_GROUP_COLLECT);
    tk_init(&extra, "e", 5, 1);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &extra.task, member), PT_EFULL);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(extra.done_at, -1);
}

/* ---- cancel from outside --------------------------------------------------- */

static const pt_time_t cancel_ticks[3] = {5, 50, 60};

/* Three members (a is done at 5); pt_group_cancel from outside at 5. */
static void group_cancel(struct fixture *f) {
    start(f, PT_GROUP_CANCEL_ON_FAIL, 3, timeout_n, cancel_ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* t = 5: a is done */
    CHECK_EQ_INT(since(0), 5);
    pt_group_cancel(&lp, &f->g);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
}

/* Every member still running is cancelled ... */
static void test_group_cancel_cancels_every_member_still_running(void) {
    struct fixture f;
    group_cancel(&f);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[1].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "a a-1 b-1 c-1 W ");
}

/* ... and the owner sees the wait end (PT_OK: cancelled is not failed). */
static void test_group_cancel_ends_the_group_wait_with_ok(void) {
    struct fixture f;
    group_cancel(&f);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 5);
}

/* A member that finished and was spawned again outside the group is no
 * longer the group's: the group's cancel leaves it alone. */
static void test_group_cancel_leaves_a_former_member_alone(void) {
    struct fixture f;
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, timeout_n, cancel_ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* t = 5: a is done */
    f.m[0].ticks = 20;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &f.m[0].task, member), PT_OK);
    pt_group_cancel(&lp, &f.g);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(f.m[0].done_at, 25);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
}

/* The owner (waiting with a timeout of 100) is cancelled at 0: as a
 * cancelled asyncio task in a TaskGroup's `async with`, it cancels the
 * members and waits on until they have finished. */
static void owner_cancelled(struct fixture *f) {
    static const int n[2] = {1, 2};
    static const pt_time_t ticks[2] = {10, 20};
    start(f, PT_GROUP_COLLECT, 2, n, ticks, 100);
    pt_loop_run_once(&lp, 1);
    CHECK(f->g.owner == &f->own.task);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    CHECK_EQ_INT(pt_task_cancel(&lp, &f->own.task), PT_OK);
    CHECK(f->g.owner == &f->own.task);    /* it waits on */
    CHECK_EQ_INT(pt_loop_timers(&lp), 1); /* the members' sleeps went */
}

static void test_cancelled_owner_cancels_the_members_still_running(void) {
    struct fixture f;
    owner_cancelled(&f);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[0].cleanup_result, PT_ECANCELLED);
    CHECK_EQ_STR(trace.buf, "a-1 b-1 ");
    CHECK_EQ_INT(since(0), 0);
}

static void test_cancelled_owner_finishes_after_the_members_cleanups(void) {
    struct fixture f;
    owner_cancelled(&f);
    pt_loop_run_once(&lp, 1); /* the members' cleanups */
    CHECK(pt_task_done(&f.m[0].task));
    CHECK(pt_task_done(&f.m[1].task));
    CHECK(!pt_task_done(&f.own.task));
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_task_status(&f.own.task), PT_CLOSED);
    CHECK_EQ_INT(f.own.result, 99);
    CHECK(f.g.owner == NULL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* clang-format off: one case a line */
/* The parent: spawns a (fails with -5 at 10) and b (returns at 100) into
 * its group with PT_GROUP_SPAWN, waits on a clear event (rc: the result,
 * done_at: when), then for the group (result). */
static struct pt_event parent_ev;

static PT_THREAD(parent(struct pt_loop *loop, struct pt_task *task)) {
    struct tk *k = (struct tk *)task;
    struct fixture *f = (struct fixture *)(void *)k->other;
    PT_TASK_BEGIN(loop, task);
    CHECK_EQ_INT(PT_GROUP_SPAWN(&f->g, &f->m[0].task, member), PT_OK);
    CHECK_EQ_INT(PT_GROUP_SPAWN(&f->g, &f->m[1].task, member), PT_OK);
    PT_EVENT_WAIT(&parent_ev, PT_FOREVER);
    k->rc = PT_WAIT_RESULT();
    k->done_at = (long)pt_loop_now(loop);
    PT_GROUP_WAIT(&f->g, PT_FOREVER);
    k->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

/* A member's failure ends the wait its parent is in elsewhere at once,
 * PT_ECANCELLED (asyncio's TaskGroup cancels the body of the `async
 * with`); the parent is not cancelled: its group wait gives PT_EFAILED. */
static void test_failure_cancels_the_parents_wait_elsewhere(void) {
    struct fixture f;
    memset(&f, 0, sizeof f);
    setup(0);
    pt_event_init(&parent_ev);
    pt_group_init(&f.g, f.slots, 4, PT_GROUP_CANCEL_ON_FAIL);
    tk_init(&f.own, "W", 0, 0);
    f.own.other = (struct tk *)(void *)&f;
    tk_init(&f.m[0], "a", -5, 10);
    tk_init(&f.m[1], "b", 2, 100);
    CHECK_EQ_INT(pt_loop_spawn(&lp, &f.own.task, parent), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.rc, PT_ECANCELLED);
    CHECK_EQ_INT(f.own.done_at, 10);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(pt_task_status(&f.own.task), PT_ENDED);
    CHECK_EQ_INT(f.m[1].cleanups, 1);
}

#define TEST_CASES(X)                                                                              \
    X(failure_cancels_the_parents_wait_elsewhere)                                                  \
    X(first_failure_ends_the_group_wait_with_efailed)                                              \
    X(first_failure_cancels_the_other_members)                                                     \
    X(members_done_before_a_failure_keep_their_results)                                            \
    X(group_wait_ends_after_the_cancelled_members_cleanups)                                        \
    X(failure_cancels_a_member_waiting_on_an_event)                                                \
    X(failure_before_the_group_wait_ends_it_at_once)                                               \
    X(group_remembers_a_failure_for_later_waits)                                                   \
    X(collect_runs_every_member_to_its_end)                                                        \
    X(collect_keeps_the_members_in_completion_order)                                               \
    X(collect_with_a_failed_member_is_efailed_once_all_are_done)                                   \
    X(collect_of_members_that_all_succeed_is_ok)                                                   \
    X(member_cancelled_from_outside_is_not_a_failure)                                              \
    X(members_go_on_after_one_is_cancelled_from_outside)                                           \
    X(group_wait_timeout_cancels_the_members_still_running)                                        \
    X(group_wait_timeout_is_etimedout_after_their_cleanups)                                        \
    X(group_wait_timeout_waits_for_a_cleanup_that_sleeps)                                          \
    X(group_done_before_the_deadline_is_ok_and_drops_the_timer)                                    \
    X(group_wait_with_zero_timeout_cancels_the_members_at_once)                                    \
    X(full_group_refuses_a_member_without_starting_it)                                             \
    X(join_of_a_group_member_is_ebusy)                                                             \
    X(second_wait_on_a_group_is_ebusy)                                                             \
    X(wait_on_an_empty_group_ends_at_once)                                                         \
    X(wait_on_a_group_of_finished_members_is_their_outcome)                                        \
    X(group_spawn_of_an_alive_task_is_ebusy)                                                       \
    X(group_of_no_slots_is_full)                                                                   \
    X(group_cancel_cancels_every_member_still_running)                                             \
    X(group_cancel_ends_the_group_wait_with_ok)                                                    \
    X(group_cancel_leaves_a_former_member_alone)                                                   \
    X(cancelled_owner_cancels_the_members_still_running)                                           \
    X(cancelled_owner_finishes_after_the_members_cleanups)
/* clang-format on */
TEST_MAIN(TEST_CASES)
