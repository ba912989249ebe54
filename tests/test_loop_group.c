/*
 * tests/test_loop_group.c - the contract of task groups (loop/group.h):
 * cancel-on-fail (TaskGroup) and collect (gather) modes, waiting with a
 * timeout, limits, and results in spawn order. On the virtual clock.
 */
#include "loop/loop.h"

#include "check.h"
#include "loop_util.h"

struct tk {
    struct pt_task task; /* first member: the loop hands it back */
    const char *name;
    int n;             /* what to return (negative: fail with it) */
    pt_time_t ticks;   /* how long it works */
    pt_time_t timeout; /* of a group wait */
    long done_at;      /* loop time it finished its work (-1: never) */
    long cleaned_at;   /* loop time its cleanup ran (-1: never) */
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
        PT_TASK_FAIL(pt_int(k->n));
    PT_TASK_RETURN(pt_int(k->n));
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
 * cleared fixture. (Each test's fixture is on its stack, not static: eight
 * of them would not fit in the 2 KiB of RAM of an ATmega328P.) */
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
    CHECK_EQ_INT(pt_spawn(&lp, &f->own.task, owner), PT_OK);
    for (i = 0; i < count; i++) {
        tk_init(&f->m[i], names[i], n[i], ticks[i]);
        CHECK_EQ_INT(pt_group_spawn(&lp, &f->g, &f->m[i].task, member), PT_OK);
    }
}

/* TaskGroup: the first failure cancels the others (their cleanups run,
 * each once), then the wait ends with PT_EFAILED. */
static void test_cancel_on_fail(void) {
    struct fixture f;
    static const int n[4] = {1, -5, 3, -6};
    static const pt_time_t ticks[4] = {5, 10, 100, 10};
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 4, n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 10);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED); /* done before */
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_EXITED);
    CHECK_EQ_INT(pt_task_status(&f.m[2].task), PT_CLOSED);
    /* d's timer fired at 10 too, but b failed first: d never ran on. */
    CHECK_EQ_INT(pt_task_status(&f.m[3].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[3].done_at, -1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanup_result, PT_ECANCELLED);
    CHECK_EQ_INT(f.m[2].cleaned_at, 10);
    CHECK_EQ_INT(f.m[3].cleanups, 1);
    CHECK_EQ_INT(f.m[0].task.gen.value.i, 1);
    CHECK_EQ_INT(f.m[1].task.gen.value.i, -5); /* the failure's value */
    CHECK_EQ_STR(trace.buf, "a a-1 b b-1 d-1 c-1 W ");
    CHECK_EQ_INT(since(0), 10);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);
}

/* A member waiting on an event is cancelled as well; a failure before
 * the owner waits makes the wait end at once. */
static void test_cancel_on_fail_early(void) {
    struct fixture f;
    struct pt_event ev;
    static const int n[3] = {1, -2, 3};
    static const pt_time_t ticks[3] = {0, 4, 0};
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, n, ticks, PT_FOREVER);
    pt_event_init(&ev);
    f.m[0].ev = &ev;
    f.m[2].ev = &ev;
    f.own.ticks = 20; /* waits only from t = 20 */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 20);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(f.m[0].cleaned_at, 4);
    CHECK(ev.waiters.head == NULL); /* they left the event's list */
    CHECK_EQ_STR(trace.buf, "b b-1 a-1 c-1 W ");
}

/* gather(return_exceptions=True): all run to their end whatever the
 * others do; the results stay in spawn order. */
static void test_collect(void) {
    struct fixture f;
    static const int n[4] = {10, -20, 30, 40};
    static const pt_time_t ticks[4] = {30, 10, 5, 20};
    int i;
    start(&f, PT_GROUP_COLLECT, 4, n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_EFAILED);
    CHECK_EQ_INT(f.own.done_at, 30);
    CHECK_EQ_STR(trace.buf, "c c-1 b b-1 d d-1 a a-1 W ");
    CHECK_EQ_INT(f.g.count, 4);
    for (i = 0; i < 4; i++) {
        CHECK(f.g.members[i] == &f.m[i].task);
        CHECK_EQ_INT(f.g.members[i]->gen.value.i, n[i]);
        CHECK_EQ_INT(pt_task_status(f.g.members[i]), n[i] < 0 ? PT_EXITED : PT_ENDED);
        CHECK_EQ_INT(f.m[i].cleanups, 1);
    }

    /* All succeed: PT_OK. */
    {
        static const int ok[3] = {1, 2, 3};
        static const pt_time_t t3[3] = {3, 1, 2};
        start(&f, PT_GROUP_COLLECT, 3, ok, t3, PT_FOREVER);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(f.own.result, PT_OK);
        CHECK_EQ_INT(f.own.done_at, 3);
        for (i = 0; i < 3; i++)
            CHECK_EQ_INT(f.g.members[i]->gen.value.i, ok[i]);
    }
}

/* A member cancelled from outside the group is not a failure. */
static void test_collect_member_cancelled(void) {
    struct fixture f;
    static const int n[3] = {1, 2, 3};
    static const pt_time_t ticks[3] = {10, 50, 20};
    start(&f, PT_GROUP_COLLECT, 3, n, ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    CHECK_EQ_INT(pt_cancel(&lp, &f.m[1].task), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 20);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[1].cleanups, 1);
    CHECK_EQ_INT(f.m[0].task.gen.value.i, 1);
    CHECK_EQ_INT(f.m[2].task.gen.value.i, 3);
}

/* A wait with a timeout: the members are cancelled, their cleanups run,
 * then the wait ends with PT_ETIMEDOUT. */
static void test_group_timeout(void) {
    struct fixture f;
    static const int n[3] = {1, 2, 3};
    static const pt_time_t ticks[3] = {10, 100, 200};
    start(&f, PT_GROUP_COLLECT, 3, n, ticks, 40);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(f.own.done_at, 40);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_INT(pt_task_status(&f.m[2].task), PT_CLOSED);
    CHECK_EQ_INT(f.m[1].cleaned_at, 40);
    CHECK_EQ_INT(f.m[2].cleaned_at, 40);
    CHECK_EQ_STR(trace.buf, "a a-1 b-1 c-1 W ");
    CHECK_EQ_INT(since(0), 40);
    CHECK_EQ_INT(pt_loop_timers(&lp), 0);

    /* Done before the deadline: PT_OK, and the wait's timer goes. */
    {
        static const pt_time_t quick[3] = {1, 2, 3};
        start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, n, quick, 40);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(f.own.result, PT_OK);
        CHECK_EQ_INT(f.own.done_at, 3);
        CHECK_EQ_INT(since(0), 3);
    }

    /* A zero timeout: the members are cancelled at once. */
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, n, ticks, 0);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(f.own.done_at, 0);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[0].done_at, -1);
}

/* Limits: a full group refuses a member (and does not start it); an empty
 * group's wait ends at once; a second waiter gets PT_EBUSY; a member
 * cannot be joined. */
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

static void test_group_limits(void) {
    struct fixture f;
    struct tk extra, second;
    static const int n[4] = {1, 2, 3, 4};
    static const pt_time_t ticks[4] = {1, 2, 3, 4};
    start(&f, PT_GROUP_COLLECT, 4, n, ticks, PT_FOREVER);
    tk_init(&extra, "e", 5, 1);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &extra.task, member), PT_EFULL);
    CHECK_EQ_INT(f.g.count, 4);
    tk_init(&second, "S", 0, 0);
    second.group = &f.g;
    second.other = &f.m[0];
    CHECK_EQ_INT(pt_spawn(&lp, &second.task, join_member), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(extra.cleanups, 0);
    CHECK_EQ_INT(extra.done_at, -1); /* never ran */
    CHECK_EQ_INT(second.rc, PT_EBUSY);
    CHECK_EQ_INT(second.result, PT_EBUSY);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(since(0), 4);

    /* Empty: at once, without stopping. */
    setup(0);
    pt_group_init(&f.g, f.slots, 4, PT_GROUP_CANCEL_ON_FAIL);
    tk_init(&f.own, "W", 0, 0);
    f.own.group = &f.g;
    CHECK_EQ_INT(pt_spawn(&lp, &f.own.task, owner), PT_OK);
    pt_loop_run_once(&lp, 0);
    CHECK(pt_task_done(&f.own.task));
    CHECK_EQ_INT(f.own.result, PT_OK);

    /* A group whose members have all finished: their outcome, at once. */
    {
        static const int bad[2] = {-1, 2};
        static const pt_time_t t2[2] = {1, 1};
        start(&f, PT_GROUP_COLLECT, 2, bad, t2, PT_FOREVER);
        f.own.ticks = 10;
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        CHECK_EQ_INT(f.own.result, PT_EFAILED);
        CHECK_EQ_INT(f.own.done_at, 10);
    }

    /* A task still alive (a member, queued) is refused as pt_spawn refuses
     * it, PT_EBUSY, and the group does not change. */
    start(&f, PT_GROUP_COLLECT, 2, n, ticks, PT_FOREVER);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &f.m[0].task, member), PT_EBUSY);
    CHECK_EQ_INT(f.g.count, 2);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.own.result, PT_OK);

    /* A group of no slots. */
    setup(0);
    pt_group_init(&f.g, f.slots, 0, PT_GROUP_COLLECT);
    tk_init(&extra, "e", 5, 1);
    CHECK_EQ_INT(pt_group_spawn(&lp, &f.g, &extra.task, member), PT_EFULL);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(extra.done_at, -1);
}

/* pt_group_cancel from outside: every member still running is cancelled
 * and the owner sees the wait end (PT_OK: cancelled is not failed). */
static void test_group_cancel(void) {
    struct fixture f;
    static const int n[3] = {1, 2, 3};
    static const pt_time_t ticks[3] = {5, 50, 60};
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, n, ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* t = 5: a is done */
    CHECK_EQ_INT(since(0), 5);
    pt_group_cancel(&lp, &f.g);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(f.own.result, PT_OK);
    CHECK_EQ_INT(f.own.done_at, 5);
    CHECK_EQ_INT(f.m[0].cleanups, 1);
    CHECK_EQ_INT(f.m[1].cleanups, 1);
    CHECK_EQ_INT(f.m[2].cleanups, 1);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
    CHECK_EQ_STR(trace.buf, "a a-1 b-1 c-1 W ");

    /* A member that finished and was spawned again outside the group is no
     * longer the group's: the group's cancel leaves it alone. */
    start(&f, PT_GROUP_CANCEL_ON_FAIL, 3, n, ticks, PT_FOREVER);
    pt_loop_run_once(&lp, 1);
    pt_loop_run_once(&lp, 1); /* t = 5: a is done */
    f.m[0].ticks = 20;
    CHECK_EQ_INT(pt_spawn(&lp, &f.m[0].task, member), PT_OK);
    pt_group_cancel(&lp, &f.g);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(f.m[0].done_at, 25);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_CLOSED);
}

/* The owner cancelled while it waits: the members go on; another task
 * may then wait for the group. */
static void test_owner_cancelled(void) {
    struct fixture f;
    struct tk second;
    static const int n[2] = {1, 2};
    static const pt_time_t ticks[2] = {10, 20};
    start(&f, PT_GROUP_COLLECT, 2, n, ticks, 100);
    pt_loop_run_once(&lp, 1);
    CHECK(f.g.owner == &f.own.task);
    CHECK_EQ_INT(pt_loop_timers(&lp), 3);
    CHECK_EQ_INT(pt_cancel(&lp, &f.own.task), PT_OK);
    CHECK(f.g.owner == NULL);
    CHECK_EQ_INT(pt_loop_timers(&lp), 2); /* its wait's timer went */
    tk_init(&second, "S", 0, 5);
    second.group = &f.g;
    CHECK_EQ_INT(pt_spawn(&lp, &second.task, owner), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(pt_task_status(&f.own.task), PT_CLOSED);
    CHECK_EQ_INT(f.own.result, 99);
    CHECK_EQ_INT(second.result, PT_OK);
    CHECK_EQ_INT(second.done_at, 20);
    CHECK_EQ_INT(pt_task_status(&f.m[0].task), PT_ENDED);
    CHECK_EQ_INT(pt_task_status(&f.m[1].task), PT_ENDED);
    CHECK_EQ_STR(trace.buf, "a a-1 b b-1 S ");
}

int main(void) {
    test_cancel_on_fail();
    test_cancel_on_fail_early();
    test_collect();
    test_collect_member_cancelled();
    test_group_timeout();
    test_group_limits();
    test_group_cancel();
    test_owner_cancelled();
    return CHECK_DONE();
}
