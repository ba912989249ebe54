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
static struct pt_task *heap[16];

static void setup(void) {
    pt_loop_init(&loop, heap, 16);
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
    CHECK_EQ_INT(pt_spawn(&loop, &w->task, wait_fd), PT_OK);
}

static void test_pipe_readable(void) {
    struct waiter w = {0};
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(&w, p[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0); /* starts and parks */
    CHECK_EQ_INT(w.result, 99);
    pt_loop_run_once(&loop, 0); /* nothing to read: still parked */
    CHECK_EQ_INT(w.result, 99);
    CHECK_EQ_INT(write(p[1], "x", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.revents, PT_READABLE);
    CHECK_EQ_INT(w.woke_at, 0);             /* no time passed */
    CHECK_EQ_INT(pt_loop_timers(&loop), 0); /* its timeout was dropped */
    close(p[0]);
    close(p[1]);
}

static void test_timeout(void) {
    struct waiter w = {0};
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(&w, p[0], PT_READABLE, 250);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_ETIMEDOUT);
    CHECK_EQ_INT(w.woke_at, 250);
    CHECK_EQ_INT(w.revents, 0);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 0); /* the wait is gone */
    close(p[0]);
    close(p[1]);
}

/* One reader and one writer per descriptor, as in asyncio: a second
 * reader gets PT_EBUSY at once; a writer beside the reader is fine. */
static void test_one_reader_per_descriptor(void) {
    struct waiter a = {0}, b = {0}, w = {0};
    int s[2];
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
    setup();
    start(&a, s[0], PT_READABLE, PT_FOREVER);
    start(&b, s[0], PT_READABLE, PT_FOREVER);
    start(&w, s[0], PT_WRITABLE, PT_FOREVER);
    pt_loop_run_once(&loop, 0);
    CHECK_EQ_INT(a.result, 99); /* parked */
    CHECK_EQ_INT(b.result, PT_EBUSY);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 2); /* a, and w until it runs */
    pt_loop_run_once(&loop, 0);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.revents, PT_WRITABLE);
    CHECK_EQ_INT(write(s[1], "x", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(a.result, PT_OK);
    CHECK_EQ_INT(a.revents, PT_READABLE);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 0);
    close(s[0]);
    close(s[1]);
}

static void test_socketpair_both(void) {
    struct waiter w = {0}, r = {0};
    int s[2];
    char c;
    CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
    setup();
    /* An empty socket is writable at once, not readable. */
    start(&w, s[0], PT_READABLE | PT_WRITABLE, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(w.revents, PT_WRITABLE);
    /* With data pending, both. */
    CHECK_EQ_INT(write(s[1], "y", 1), 1);
    start(&w, s[0], PT_READABLE | PT_WRITABLE, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.revents, PT_READABLE | PT_WRITABLE);
    CHECK_EQ_INT(read(s[0], &c, 1), 1);
    /* The peer closing makes the other end readable (end of file). */
    start(&r, s[0], PT_READABLE, 5000);
    pt_loop_run_once(&loop, 0);
    close(s[1]);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(r.result, PT_OK);
    CHECK_EQ_INT(r.revents, PT_READABLE);
    CHECK_EQ_INT(read(s[0], &c, 1), 0);
    close(s[0]);
}

static void test_bad_descriptors(void) {
    struct waiter w = {0};
    setup();
    start(&w, -1, PT_READABLE, PT_FOREVER);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_EINVAL);
    start(&w, FD_SETSIZE, PT_READABLE, PT_FOREVER); /* select() cannot hold it */
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_EINVAL);
    start(&w, 0, 0, PT_FOREVER); /* no events asked for */
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_EINVAL);
}

static void test_closed_while_waited_on(void) {
    struct waiter a = {0}, b = {0};
    int p[2], q[2];
    CHECK_EQ_INT(pipe(p), 0);
    CHECK_EQ_INT(pipe(q), 0);
    setup();
    start(&a, p[0], PT_READABLE, 1000);
    start(&b, q[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0); /* both park */
    close(p[0]);                /* closed under the waiter's feet */
    CHECK_EQ_INT(write(q[1], "z", 1), 1);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(a.result, PT_EBADF); /* woken with an error */
    CHECK_EQ_INT(b.result, PT_OK);    /* the other wait is unharmed */
    CHECK_EQ_INT(b.revents, PT_READABLE);
    close(p[1]);
    close(q[0]);
    close(q[1]);
}

static void test_cancel_while_waiting(void) {
    struct waiter w = {0};
    int p[2];
    CHECK_EQ_INT(pipe(p), 0);
    setup();
    start(&w, p[0], PT_READABLE, 1000);
    pt_loop_run_once(&loop, 0);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 1);
    CHECK_EQ_INT(pt_loop_timers(&loop), 1);
    CHECK_EQ_INT(pt_cancel(&loop, &w.task), PT_OK);
    CHECK_EQ_INT(pt_loop_io_waits(&loop), 0); /* descriptor wait and timer gone at once */
    CHECK_EQ_INT(pt_loop_timers(&loop), 0);
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(pt_task_status(&w.task), PT_CLOSED);
    CHECK_EQ_INT(w.cleaned, 1);
    CHECK_EQ_INT(w.result, 99); /* the body never saw a result */
    close(p[0]);
    close(p[1]);
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

static void test_wakeup_from_thread(void) {
    struct pt_wakeup wk;
    struct wake_waiter w = {0};
    pthread_t th;
    pt_loop_init(&loop, heap, 16); /* real clock: it blocks in select() */
    CHECK_EQ_INT(pt_wakeup_init(&wk), PT_OK);
    w.wakeup = &wk;
    w.result = 99;
    CHECK_EQ_INT(pt_spawn(&loop, &w.task, wait_wakeup), PT_OK);
    pt_loop_run_once(&loop, 0); /* parks on the pipe */
    CHECK_EQ_INT(pthread_create(&th, NULL, signal_later, &wk), 0);
    /* Blocks (no timers, a descriptor wait) until the thread signals. */
    CHECK_EQ_INT(pt_loop_run(&loop), PT_OK);
    CHECK_EQ_INT(w.result, PT_OK);
    CHECK_EQ_INT(pthread_join(th, NULL), 0);
    /* A signal before the wait is not lost: the wait returns at once. */
    pt_wakeup_signal(&wk);
    pt_wakeup_signal(&wk);
    w.result = 99;
    CHECK_EQ_INT(pt_spawn(&loop, &w.task, wait_wakeup), PT_OK);
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

static void test_eintr(void) {
    struct sigaction sa;
    struct interrupter in;
    struct waiter w = {0};
    pthread_t th;
    int p[2];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: select() fails with EINTR */
    CHECK_EQ_INT(sigaction(SIGUSR1, &sa, NULL), 0);
    CHECK_EQ_INT(pipe(p), 0);
    pt_loop_init(&loop, heap, 16); /* real clock: it blocks in select() */
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

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    cases_init(&loop, setup);
    case_run("a pipe: readable once written to, not before", test_pipe_readable);
    case_run("a wait times out at its deadline, its wait removed", test_timeout);
    case_run("a socketpair: writable at once, readable with data or end of file",
             test_socketpair_both);
    case_run("one reader and one writer per descriptor: a second reader is PT_EBUSY",
             test_one_reader_per_descriptor);
    case_run("bad descriptors and no events: PT_EINVAL", test_bad_descriptors);
    case_run("a descriptor closed while waited on: PT_EBADF, other waits unharmed",
             test_closed_while_waited_on);
    case_run("cancel while waiting: wait and timer gone at once, cleanup once",
             test_cancel_while_waiting);
    case_run("a wakeup from another thread; a signal before the wait is kept",
             test_wakeup_from_thread);
    case_run("select() interrupted by signals is retried", test_eintr);
    return CASES_DONE();
}
