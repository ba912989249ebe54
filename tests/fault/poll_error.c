/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fault/poll_error.c - the loop under a poll-family call that fails
 * (select, poll or epoll_wait, whichever the back end uses): it must not
 * spin, must keep its timers on time and must carry on once the error
 * goes away. Runs on the real clock, under tests/fault/fault_shim.c with
 * PT_FAULT_POLL_ERR set (run_under_shim.py; tests/fault/meson.build runs
 * each case with the error it needs); the shim's stats file says how many
 * poll-family calls were made and how many failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loop/loop.h"

#include "../cases.h"

/* A wait that times out under a lasting error, and how late a slow
 * machine may make it (generously); the poll-family calls allowed in it:
 * the back-off makes about 10, a spin makes hundreds of thousands. */
#define WAIT_MS 300
#define LATE_MS 1000
#define MAX_POLLS 100
/* Iterations with a task ready, and far less than their back-offs would
 * take if the loop slept in them (some 4 s). */
#define YIELDS 50
#define YIELDS_MS 500

/* The shim's count of `kind` so far (all the processes of the run), or -1
 * when not under the shim. */
static long long shim_count(const char *kind) {
    const char *path = getenv("PT_FAULT_STATS");
    char line[512], *w;
    size_t klen = strlen(kind);
    FILE *f;
    if (!path || !*path || (f = fopen(path, "r")) == NULL)
        return -1;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    for (w = strtok(line, " \n"); w; w = strtok(NULL, " \n"))
        if (strncmp(w, kind, klen) == 0 && w[klen] == '=')
            return atoll(w + klen + 1);
    return -1;
}

/* Not under the shim with an error to inject: the case proves nothing. */
static int needs_shim(void) {
    const char *e = getenv("PT_FAULT_POLL_ERR");
    if (shim_count("polls") < 0 || !e || !*e) {
        case_skip("needs fault_shim with PT_FAULT_POLL_ERR (run_under_shim.py)");
        return 0;
    }
    return 1;
}

struct waiter {
    struct pt_task task;
    struct pt_io io;
    int fd;
    pt_time_t timeout;
    int result;
    char got;
    pt_time_t done_at;
};

/* Waits for fd to be readable, then reads a byte if it is. */
static PT_THREAD(wait_read(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_IO_WAIT(&w->io, w->fd, PT_READABLE, w->timeout);
    w->result = PT_WAIT_RESULT();
    if (w->result == PT_OK && read(w->fd, &w->got, 1) != 1)
        w->result = PT_ESYS;
    w->done_at = PT_CONFIG_PORT_NOW();
    PT_TASK_END();
}

struct other {
    struct pt_task task;
    int fd;                /* writer: where to write */
    struct pt_task *other; /* yielder: what to cancel at the end */
    int i;                 /* yielder: yields; writer: write()'s result */
    pt_time_t done_at;
};

/* Sleeps 20 ms, then writes a byte. */
static PT_THREAD(writer(struct pt_loop *loop, struct pt_task *task)) {
    struct other *o = (struct other *)task;
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(20));
    o->i = (int)write(o->fd, "x", 1);
    PT_TASK_END();
}

/* Yields YIELDS times (each an iteration that polls without waiting),
 * then cancels the other task. */
static PT_THREAD(yielder(struct pt_loop *loop, struct pt_task *task)) {
    struct other *o = (struct other *)task;
    PT_TASK_BEGIN(loop, task);
    for (o->i = 0; o->i < YIELDS; o->i++)
        PT_TASK_YIELD();
    o->done_at = PT_CONFIG_PORT_NOW();
    (void)pt_task_cancel(loop, o->other);
    PT_TASK_END();
}

static struct pt_loop loop;
static struct pt_timer_slot heap[8];
static int sv[2];

static void fresh(void) {
    test_loop_init(&loop, heap, 8);
}

/* A socketpair, both ends non-blocking; PT_OK or a failed check. */
static int open_pair(void) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        check_result(0, __FILE__, __LINE__, "socketpair()");
        return PT_ESYS;
    }
    (void)fcntl(sv[0], F_SETFL, O_NONBLOCK);
    (void)fcntl(sv[1], F_SETFL, O_NONBLOCK);
    return PT_OK;
}

static void close_pair(void) {
    (void)pt_io_close(&loop, sv[0]);
    (void)pt_io_close(&loop, sv[1]);
}

/* Every poll fails: a wait for a socket nobody writes to times out on
 * time, never early, and the loop sleeps between the failed polls instead
 * of calling again at once. */
static void test_timeout_on_time_while_every_poll_fails(void) {
    struct waiter w = {0};
    long long polls, errs;
    pt_time_t t0;
    if (!needs_shim() || open_pair() != PT_OK)
        return;
    w.fd = sv[0];
    w.timeout = PT_MS(WAIT_MS);
    w.result = 99;
    polls = shim_count("polls");
    errs = shim_count("poll_err");
    t0 = PT_CONFIG_PORT_NOW(); /* (no later than the loop's start of the wait) */
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w.task, wait_read), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    polls = shim_count("polls") - polls;
    errs = shim_count("poll_err") - errs;
    CHECK_EQ_INT(w.result, PT_ETIMEDOUT);
    CHECK((pt_time_t)(w.done_at - t0) >= PT_MS(WAIT_MS));
    CHECK((pt_time_t)(w.done_at - t0) < PT_MS(WAIT_MS + LATE_MS));
    CHECK(errs > 0);
    CHECK(polls < MAX_POLLS);
    printf("#     %lld poll-family calls, %lld failed, in %u ms\n", polls, errs,
           (unsigned)(w.done_at - t0));
    close_pair();
}

/* Every poll fails while a task is ready: the loop does not sleep (it was
 * not going to wait), so the ready task's iterations run at full speed. */
static void test_ready_tasks_not_slowed_while_every_poll_fails(void) {
    struct waiter w = {0};
    struct other y = {0};
    pt_time_t t0;
    if (!needs_shim() || open_pair() != PT_OK)
        return;
    w.fd = sv[0];
    w.timeout = PT_FOREVER;
    w.result = 99;
    y.other = &w.task;
    t0 = PT_CONFIG_PORT_NOW();
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w.task, wait_read), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&loop, &y.task, yielder), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(y.i, YIELDS);
    CHECK_EQ_INT(pt_task_status(&w.task), PT_CLOSED); /* (cancelled in its wait) */
    CHECK((pt_time_t)(y.done_at - t0) < PT_MS(YIELDS_MS));
    close_pair();
}

/* The first polls fail (PT_FAULT_POLL_ERR_COUNT), then the error goes
 * away: a byte written meanwhile is seen and read, as without the error. */
static void test_read_completes_after_poll_error_ends(void) {
    struct waiter w = {0};
    struct other wr = {0};
    const char *n = getenv("PT_FAULT_POLL_ERR_COUNT");
    long long errs;
    if (!needs_shim())
        return;
    if (!n || atoll(n) <= shim_count("polls")) {
        case_skip("needs PT_FAULT_POLL_ERR_COUNT > the polls made so far: an error that ends");
        return;
    }
    if (open_pair() != PT_OK)
        return;
    w.fd = sv[0];
    w.timeout = PT_MS(5000);
    w.result = 99;
    wr.fd = sv[1];
    errs = shim_count("poll_err");
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w.task, wait_read), PT_OK);
    CHECK_EQ_INT(pt_loop_spawn(&loop, &wr.task, writer), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(wr.i, 1);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.got, 'x');
    CHECK(shim_count("poll_err") > errs); /* (the error was there) */
    close_pair();
}

static void init(void) {
    cases_init(&loop, fresh);
}

#define TEST_CASES(X)                                                                              \
    X(timeout_on_time_while_every_poll_fails)                                                      \
    X(ready_tasks_not_slowed_while_every_poll_fails)                                               \
    X(read_completes_after_poll_error_ends)
TEST_MAIN_INIT(TEST_CASES, init)
