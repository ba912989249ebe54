/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/test_io.c - descriptor readiness (loop/io.h) on pipes and
 * socketpairs, its errors as values, and waking the loop from another
 * thread. Runs on the virtual clock: timeouts cost no real time.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loop/loop.h"

#include "cases.h"

/* Zeroed before its first spawn (= {0}): the loop tells a task that was
 * never spawned by its zeroed memory. */
struct waiter {
    struct pt_task task;
    struct pt_io io;
    int fd;
    unsigned events;
    pt_time_t timeout;
    int result, woke_at, revents, cleaned;
};

static PT_THREAD(wait_fd(struct pt_loop *loop, struct pt_task *task)) {
    struct waiter *w = (struct waiter *)task;
    PT_TASK_BEGIN(loop, task);
    PT_IO_WAIT(&w->io, w->fd, w->events, w->timeout);
    w->result = PT_WAIT_RESULT();
    w->revents = w->io.revents;
    w->woke_at = (int)pt_loop_now(loop);
    PT_TASK_CLEANUP();
    w->cleaned++;
    PT_TASK_END();
}

static struct pt_loop loop;
static struct pt_timer_slot heap[16];

static void setup(void) {
    test_loop_init(&loop, heap, 16);
    pt_loop_use_virtual_clock(&loop, 0);
}

static void start(struct waiter *w, int fd, unsigned events, pt_time_t timeout) {
    w->fd = fd;
    w->events = events;
    w->timeout = timeout;
    w->result = 99;
    w->woke_at = -1;
    w->revents = 0;
    w->cleaned = 0;
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w->task, wait_fd), PT_OK);
}

/* A pipe's read end waited on (timeout 1000), parked through two
 * iterations with nothing to read, then written to and run to the end. */
static void pipe_written_after_parking(struct waiter *w, int parked[2]) {
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(w, p[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0); /* starts and parks */
    parked[0] = w->result;
    pt_loop_run_once(&loop, 0); /* nothing to read: still parked */
    parked[1] = w->result;
    CHECK_EQ_INT(write(p[1], "x", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    close(p[0]);
    close(p[1]);
}

/* A pipe: not readable before it is written to. */
static void test_pipe_wait_parks_until_written(void) {
    struct waiter w = {0};
    int parked[2];
    pipe_written_after_parking(&w, parked);
    CHECK_EQ_INT(parked[0], 99);
    CHECK_EQ_INT(parked[1], 99);
}

/* A pipe: readable once written to. */
static void test_pipe_is_readable_once_written(void) {
    struct waiter w = {0};
    int parked[2];
    pipe_written_after_parking(&w, parked);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.revents, PT_READABLE);
}

static void test_readiness_takes_no_loop_time(void) {
    struct waiter w = {0};
    int parked[2];
    pipe_written_after_parking(&w, parked);
    CHECK_EQ_INT(w.woke_at, 0); /* no time passed */
}

static void test_readiness_drops_the_waits_timeout(void) {
    struct waiter w = {0};
    int parked[2];
    pipe_written_after_parking(&w, parked);
    CHECK_EQ_INT(pt_loop_timers(&loop), 0);
}

/* A wait on a pipe nobody writes to, with a timeout of 250. */
static void pipe_wait_times_out(struct waiter *w) {
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(w, p[0], PT_READABLE, 250);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    close(p[0]);
    close(p[1]);
}

static void test_wait_times_out_at_its_deadline(void) {
    struct waiter w = {0};
    pipe_wait_times_out(&w);
    CHECK_EQ_INT(w.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.woke_at, 250);
}

static void test_timed_out_wait_reports_no_events(void) {
    struct waiter w = {0};
    pipe_wait_times_out(&w);
    CHECK_EQ_INT(w.revents, 0);
}

static void test_timed_out_wait_is_removed(void) {
    struct waiter w = {0};
    pipe_wait_times_out(&w);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 0); /* the wait is gone */
}

/* One reader and one writer per descriptor, as in asyncio: a reader a, a
 * second reader b, a writer w, on one end of a socketpair, run to the end
 * after the peer writes. */
struct readers {
    struct waiter a, b, w;
    int a_first, w_second; /* a's result after the first iteration, w's after the second */
    unsigned waits_after_first;
};

static void two_readers_and_a_writer(struct readers *r) {
    int s[2];
    memset(r, 0, sizeof *r);
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
    setup();
    start(&r->a, s[0], PT_READABLE, PT_FOREVER);
    start(&r->b, s[0], PT_READABLE, PT_FOREVER);
    start(&r->w, s[0], PT_WRITABLE, PT_FOREVER);
    pt_loop_run_once(&loop, 0);
    r->a_first = r->a.result;
    r->waits_after_first = pt_loop_io_waits(&loop); /* a, and w until it runs */
    pt_loop_run_once(&loop, 0);
    r->w_second = r->w.result;
    CHECK_EQ_INT(write(s[1], "x", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    close(s[0]);
    close(s[1]);
}

/* A second reader of a descriptor gets PT_EBUSY at once. */
static void test_second_reader_of_a_descriptor_is_ebusy(void) {
    struct readers r;
    two_readers_and_a_writer(&r);
    CHECK_EQ_INT(r.a_first, 99); /* parked */
    CHECK_EQ_INT(r.b.result, PT_EBUSY);
}

/* A writer beside the reader is fine. */
static void test_a_writer_beside_the_reader_waits_too(void) {
    struct readers r;
    two_readers_and_a_writer(&r);
    CHECK_EQ_INT(r.waits_after_first, 2);
    CHECK_EQ_INT(r.w_second, PT_OK);
    CHECK_EQ_INT(r.w.revents, PT_WRITABLE);
}

/* The refused second reader leaves the first one's wait alone. */
static void test_the_first_reader_still_gets_its_data(void) {
    struct readers r;
    two_readers_and_a_writer(&r);
    CHECK_EQ_INT(r.a.result, PT_OK);
    CHECK_EQ_INT(r.a.revents, PT_READABLE);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 0);
}

/* A wait for both events on one end of a fresh socketpair s; run. */
static void wait_both(struct waiter *w, int s[2]) {
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
    setup();
    start(w, s[0], PT_READABLE | PT_WRITABLE, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
}

static void test_empty_socket_is_writable_not_readable(void) {
    struct waiter w = {0};
    int s[2];
    wait_both(&w, s);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.revents, PT_WRITABLE);
    close(s[0]);
    close(s[1]);
}

static void test_socket_with_data_is_readable_and_writable(void) {
    struct waiter w = {0};
    int s[2];
    char c;
    wait_both(&w, s);
    CHECK_EQ_INT(write(s[1], "y", 1), 1);
    start(&w, s[0], PT_READABLE | PT_WRITABLE, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.revents, PT_READABLE | PT_WRITABLE);
    CHECK_EQ_INT(read(s[0], &c, 1), 1);
    close(s[0]);
    close(s[1]);
}

/* The peer closing makes the other end readable (end of file). */
static void test_peer_closing_makes_the_socket_readable(void) {
    struct waiter w = {0}, r = {0};
    int s[2];
    char c;
    wait_both(&w, s);
    start(&r, s[0], PT_READABLE, 5000);
    pt_loop_run_once(&loop, 0);
    close(s[1]);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(r.result, PT_OK);
    CHECK_EQ_INT(r.revents, PT_READABLE);
    CHECK_EQ_INT(read(s[0], &c, 1), 0);
    close(s[0]);
}

/* A wait on fd with events: its result. */
static int wait_result(int fd, unsigned events) {
    struct waiter w = {0};
    setup();
    start(&w, fd, events, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    return w.result;
}

static void test_negative_descriptor_is_einval(void) {
    CHECK_EQ_INT(wait_result(-1, PT_READABLE), PT_EINVAL);
}

/* select() cannot hold it. */
static void test_descriptor_at_fd_setsize_is_einval(void) {
    CHECK_EQ_INT(wait_result(FD_SETSIZE, PT_READABLE), PT_EINVAL);
}

/* Whether a descriptor fits is the loop's answer (pt_loop_io_fits), the
 * same as a wait's: select's fixed FD_SETSIZE, the table of poll and epoll. */
#if PT_CONFIG_BACKEND == PT_BACKEND_SELECT
static void test_select_fits_descriptors_below_fd_setsize(void) {
    CHECK(pt_loop_io_fits(&loop, 0));
    CHECK(pt_loop_io_fits(&loop, FD_SETSIZE - 1));
    CHECK(!pt_loop_io_fits(&loop, FD_SETSIZE));
    CHECK(!pt_loop_io_fits(&loop, -1));
    CHECK(pt_loop_io_fits(NULL, FD_SETSIZE - 1));
    CHECK(!pt_loop_io_fits(NULL, FD_SETSIZE));
    CHECK(!pt_loop_io_fits(NULL, -1));
}
#define FITS_CASE(X) X(select_fits_descriptors_below_fd_setsize)
#else
static void table_fits_its_cells(void) {
    CHECK(pt_loop_io_fits(&loop, 0));
    CHECK(pt_loop_io_fits(&loop, TEST_IO_FDS - 1));
    CHECK(!pt_loop_io_fits(&loop, TEST_IO_FDS));
    CHECK(!pt_loop_io_fits(&loop, -1));
    CHECK(pt_loop_io_fits(NULL, TEST_IO_FDS)); /* (no fixed limit) */
    CHECK(pt_loop_io_fits(NULL, 1 << 20));
    CHECK(!pt_loop_io_fits(NULL, -1));
    CHECK_EQ_INT(wait_result(TEST_IO_FDS, PT_READABLE), PT_EINVAL);
}
#if PT_CONFIG_BACKEND == PT_BACKEND_POLL
#define FITS_CASE(X) X(poll_table_fits_the_descriptors_it_has_cells_for)
static void test_poll_table_fits_the_descriptors_it_has_cells_for(void) {
    table_fits_its_cells();
}
#else
#define FITS_CASE(X) X(epoll_table_fits_the_descriptors_it_has_cells_for)
static void test_epoll_table_fits_the_descriptors_it_has_cells_for(void) {
    table_fits_its_cells();
}
#endif
#endif

static void test_wait_for_no_events_is_einval(void) {
    CHECK_EQ_INT(wait_result(0, 0), PT_EINVAL);
}

/* Two waits, a on pipe p and b on pipe q; p[0] is closed under a's feet
 * while q is written to. */
static void close_one_of_two_waited(struct waiter *a, struct waiter *b) {
    int p[2], q[2];
    CHECK_EQ_INT(pipe(p), 0);
    CHECK_EQ_INT(pipe(q), 0);
    setup();
    start(a, p[0], PT_READABLE, 1000);
    start(b, q[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0); /* both park */
#if PT_CONFIG_BACKEND == PT_BACKEND_EPOLL
    pt_io_close(&loop, p[0]); /* epoll does not see a plain close (backend/epoll.h) */
#else
    close(p[0]); /* closed under the waiter's feet */
#endif
    CHECK_EQ_INT(write(q[1], "z", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    close(p[1]);
    close(q[0]);
    close(q[1]);
}

static void test_descriptor_closed_while_waited_on_is_ebadf(void) {
    struct waiter a = {0}, b = {0};
    close_one_of_two_waited(&a, &b);
    CHECK_EQ_INT(a.result, PT_EBADF); /* woken with an error */
}

/* pt_io_close ends the waits on a descriptor at once, on every back end. */
static void test_io_close_ends_its_waits_with_ebadf(void) {
    struct waiter a = {0}, b = {0};
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(&a, p[0], PT_READABLE, 1000);
    start(&b, p[1], PT_WRITABLE, 1000);
    pt_loop_run_once(&loop, 0); /* both park */
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 2);
    CHECK_EQ_INT(pt_io_close(&loop, p[0]), 0);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 1); /* a's wait has ended, b's not */
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(a.result, PT_EBADF);
    CHECK_EQ_INT(b.result, PT_OK);
    close(p[1]);
}

static void test_other_waits_unharmed_by_a_closed_descriptor(void) {
    struct waiter a = {0}, b = {0};
    close_one_of_two_waited(&a, &b);
    CHECK_EQ_INT(b.result, PT_OK);
    CHECK_EQ_INT(b.revents, PT_READABLE);
}

/* A task parked on a pipe with a timeout, cancelled: `waits` and `timers`
 * are the counts just before and just after the cancel. */
static void cancel_a_wait(struct waiter *w, unsigned waits[2], unsigned timers[2]) {
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(w, p[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0);
    waits[0] = pt_loop_io_waits(&loop);
    timers[0] = (unsigned)pt_loop_timers(&loop);
    CHECK_EQ_INT(pt_task_cancel(&loop, &w->task), PT_OK);
    waits[1] = pt_loop_io_waits(&loop);
    timers[1] = (unsigned)pt_loop_timers(&loop);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    close(p[0]);
    close(p[1]);
}

/* Cancelling a waiting task: its descriptor wait and timer go at once. */
static void test_cancel_drops_the_wait_and_its_timer_at_once(void) {
    struct waiter w = {0};
    unsigned waits[2], timers[2];
    cancel_a_wait(&w, waits, timers);
    CHECK_EQ_INT(waits[0], 1);
    CHECK_EQ_INT(timers[0], 1);
    CHECK_EQ_INT(waits[1], 0); /* descriptor wait and timer gone at once */
    CHECK_EQ_INT(timers[1], 0);
}

static void test_cancel_of_a_waiting_task_runs_its_cleanup_once(void) {
    struct waiter w = {0};
    unsigned waits[2], timers[2];
    cancel_a_wait(&w, waits, timers);
    CHECK_EQ_INT(pt_task_status(&w.task), PT_CLOSED);
    CHECK_EQ_INT(w.cleaned, 1);
    CHECK_EQ_INT(w.result, 99); /* the body never saw a result */
}

/* --- waking the loop from another thread ------------------------------- */

struct wake_waiter {
    struct pt_task task;
    struct pt_wakeup *wakeup;
    int result;
};

static PT_THREAD(wait_wakeup(struct pt_loop *l, struct pt_task *task)) {
    struct wake_waiter *w = (struct wake_waiter *)task;
    PT_TASK_BEGIN(l, task);
    PT_WAKEUP_WAIT(w->wakeup, PT_FOREVER);
    w->result = PT_WAIT_RESULT();
    PT_TASK_END();
}

static void *signal_later(void *arg) {
    pt_wakeup_signal((struct pt_wakeup *)arg);
    return NULL;
}

/* A wakeup waited on in a loop on the real clock (it blocks in select()). */
static void wakeup_setup(struct pt_wakeup *wk, struct wake_waiter *w) {
    test_loop_init(&loop, heap, 16);
    CHECK_EQ_INT(pt_wakeup_init(wk), PT_OK);
    w->wakeup = wk;
    w->result = 99;
}

static void test_wakeup_from_another_thread_wakes_a_blocked_loop(void) {
    struct pt_wakeup wk;
    struct wake_waiter w = {0};
    pthread_t th;
    wakeup_setup(&wk, &w);
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w.task, wait_wakeup), PT_OK);
    pt_loop_run_once(&loop, 0); /* parks on the pipe */
    CHECK_EQ_INT(pthread_create(&th, NULL, signal_later, &wk), 0);
    /* Blocks (no timers, a descriptor wait) until the thread signals. */
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(pthread_join(th, NULL), 0);
    pt_wakeup_close(&wk);
}

/* A signal before the wait is not lost: the wait returns at once. */
static void test_wakeup_signalled_before_the_wait_is_kept(void) {
    struct pt_wakeup wk;
    struct wake_waiter w = {0};
    wakeup_setup(&wk, &w);
    pt_wakeup_signal(&wk);
    pt_wakeup_signal(&wk);
    CHECK_EQ_INT(pt_loop_spawn(&loop, &w.task, wait_wakeup), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK);
    pt_wakeup_close(&wk);
}

/* --- a signal interrupting select() is not an error ------------------- */

static volatile sig_atomic_t interruptions;

static void on_signal(int sig) {
    (void)sig;
    interruptions++;
}

struct interrupter {
    pthread_t target;
    int write_fd;
};

/* Signal the loop's thread until the handler has run 3 times, then write:
 * no timing, only counts. */
static void *interrupt_then_write(void *arg) {
    struct interrupter *in = (struct interrupter *)arg;
    while (interruptions < 3) {
        pthread_kill(in->target, SIGUSR1);
        sched_yield();
    }
    if (write(in->write_fd, "w", 1) != 1)
        return arg;
    return NULL;
}

static void test_select_interrupted_by_signals_is_retried(void) {
    struct sigaction sa;
    struct interrupter in;
    struct waiter w = {0};
    pthread_t th;
    int p[2];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: select() fails with EINTR */
    CHECK_EQ_INT(sigaction(SIGUSR1, &sa, NULL), 0);
    CHECK_EQ_INT(pipe(p), 0);
    test_loop_init(&loop, heap, 16); /* real clock: it blocks in select() */
    start(&w, p[0], PT_READABLE, PT_FOREVER);
    pt_loop_run_once(&loop, 0);
    in.target = pthread_self();
    in.write_fd = p[1];
    interruptions = 0;
    CHECK_EQ_INT(pthread_create(&th, NULL, interrupt_then_write, &in), 0);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK); /* interrupted waits were retried */
    CHECK_EQ_INT(w.revents, PT_READABLE);
    CHECK(interruptions >= 3);
    CHECK_EQ_INT(pthread_join(th, NULL), 0);
    close(p[0]);
    close(p[1]);
}

/* On the real clock the back end asks the kernel for less than the wait
 * (loop/iowait.h: its slack and the wake-up latency would make it late),
 * so it may return before the deadline, and a wait shorter than those
 * asks for none: a sleep, long or short, must still never end early. */
static const pt_time_t rt_lengths[] = {PT_MS(30),  PT_MS(30),  PT_MS(30), PT_MS(2),
                                       PT_US(300), PT_US(100), PT_US(20)};
#define RT_N (sizeof rt_lengths / sizeof rt_lengths[0])

struct rt_sleeper {
    struct pt_task task;
    unsigned n;
    pt_time_t start[RT_N];
    uint64_t woke_us[RT_N];
};

static PT_THREAD(rt_sleep(struct pt_loop *l, struct pt_task *task)) {
    struct rt_sleeper *s = (struct rt_sleeper *)task;
    PT_TASK_BEGIN(l, task);
    for (s->n = 0; s->n < RT_N; s->n++) {
        s->start[s->n] = pt_loop_now(l); /* what the deadline counts from */
        PT_SLEEP(rt_lengths[s->n]);
        s->woke_us[s->n] = pt__posix_now_us();
    }
    PT_TASK_END();
}

static void test_sleep_on_the_real_clock_is_never_early(void) {
    struct rt_sleeper s;
    unsigned i;
    memset(&s, 0, sizeof s);
    test_loop_init(&loop, heap, 16);
    CHECK_EQ_INT(pt_loop_spawn(&loop, &s.task, rt_sleep), PT_OK);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    for (i = 0; i < RT_N; i++)
        CHECK(PT_TO_US(s.start[i] + rt_lengths[i]) <= s.woke_us[i]);
}

static void init(void) {
    signal(SIGPIPE, SIG_IGN);
    cases_init(&loop, setup);
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(pipe_wait_parks_until_written)                                                               \
    X(pipe_is_readable_once_written)                                                               \
    X(readiness_takes_no_loop_time)                                                                \
    X(readiness_drops_the_waits_timeout)                                                           \
    X(wait_times_out_at_its_deadline)                                                              \
    X(timed_out_wait_reports_no_events)                                                            \
    X(timed_out_wait_is_removed)                                                                   \
    X(second_reader_of_a_descriptor_is_ebusy)                                                      \
    X(a_writer_beside_the_reader_waits_too)                                                        \
    X(the_first_reader_still_gets_its_data)                                                        \
    X(empty_socket_is_writable_not_readable)                                                       \
    X(socket_with_data_is_readable_and_writable)                                                   \
    X(peer_closing_makes_the_socket_readable)                                                      \
    X(negative_descriptor_is_einval)                                                               \
    X(descriptor_at_fd_setsize_is_einval)                                                          \
    FITS_CASE(X)                                                                                   \
    X(wait_for_no_events_is_einval)                                                                \
    X(descriptor_closed_while_waited_on_is_ebadf)                                                  \
    X(io_close_ends_its_waits_with_ebadf)                                                          \
    X(other_waits_unharmed_by_a_closed_descriptor)                                                 \
    X(cancel_drops_the_wait_and_its_timer_at_once)                                                 \
    X(cancel_of_a_waiting_task_runs_its_cleanup_once)                                              \
    X(wakeup_from_another_thread_wakes_a_blocked_loop)                                             \
    X(wakeup_signalled_before_the_wait_is_kept)                                                    \
    X(select_interrupted_by_signals_is_retried)                                                    \
    X(sleep_on_the_real_clock_is_never_early)
/* clang-format on */
TEST_MAIN_INIT(TEST_CASES, init)
