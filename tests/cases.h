/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/cases.h - named, isolated cases for the tests that need a POSIX
 * host (test_io, test_net). Include after "loop/loop.h".
 *
 * Each case runs in a child process of its own (fork) on a fresh loop, so
 * that what a failing case leaves behind (a task parked on a descriptor
 * that lives in its stack frame, a socket, a thread still waiting, a crash
 * or a hang) cannot fail the cases after it. What a case leaves in its
 * loop, among the descriptors or as threads is reported as that case's
 * failure; the child's exit then tears all of it down. The child sends its
 * counts through a pipe; a child that dies (a signal, valgrind's error
 * exit status, the time limit) is one more failure of its case.
 *
 * Plugs into tests/runner.h (included here) as its TEST_RUN_CASE: the
 * test lists its cases and ends with TEST_MAIN_INIT(TEST_CASES, init),
 * where init() calls cases_init(). Everything printed is a TAP comment.
 */
#ifndef TESTS_CASES_H
#define TESTS_CASES_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "loop_init.h"

static void case_run(const char *name, void (*fn)(void));
#define TEST_RUN_CASE(name, fn) case_run((name), (fn))
#include "runner.h"

#define CASE_FD_SCAN 4096 /* descriptors 0 .. this-1 are checked for leaks */
#define CASE_SECONDS 10   /* a case's time limit; 10 times that under valgrind */

static struct pt_loop *case_loop; /* checked for leftovers after each case */
static void (*case_fresh)(void);  /* makes it fresh before each case */

/* What a child sends back: its counts, and why it skipped (if it did). */
struct case_report {
    unsigned passed, failed;
    char skip_why[sizeof test__skip_why];
};

/* Set by the meson test setup 'valgrind' (meson.build): valgrind emulates
 * descriptors, so the cases that exhaust them cannot run under it. */
static inline int under_valgrind(void) {
    const char *v = getenv("PT_UNDER_VALGRIND");
    return v && *v && strcmp(v, "0") != 0;
}

/* In a case: it cannot run here, and says why; it returns at once after. */
static inline void case_skip(const char *why) {
    test_skip(why);
}

static inline void cases_init(struct pt_loop *loop, void (*fresh)(void)) {
    case_loop = loop;
    case_fresh = fresh;
    /* Each line as it is printed: a child's lines and the parent's stay in
     * order, and nothing buffered is written twice after a fork. */
    setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline void case_open_fds(unsigned char *open) {
    int fd;
    for (fd = 0; fd < CASE_FD_SCAN; fd++)
        open[fd] = fcntl(fd, F_GETFD) >= 0;
}

/* Threads of this process, or 0 if the system does not say (not Linux). */
static inline int case_threads(void) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* What the case left behind, each kind as a failed check. */
static inline void case_leftovers(const unsigned char *before) {
    static unsigned char now[CASE_FD_SCAN];
    int fd, leaked = 0, threads = case_threads();
    unsigned live = (unsigned)case_loop->live, io = pt_loop_io_waits(case_loop);
    unsigned timers = (unsigned)pt_loop_timers(case_loop);

    check_result(live == 0, __FILE__, __LINE__, "the case left no task unfinished");
    if (live)
        printf("#     %u task(s) still parked or ready\n", live);
    check_result(io == 0 && timers == 0, __FILE__, __LINE__,
                 "the case left no descriptor wait and no timer");
    if (io || timers)
        printf("#     %u descriptor wait(s), %u timer(s)\n", io, timers);
    case_open_fds(now);
    for (fd = 0; fd < CASE_FD_SCAN; fd++)
        if (now[fd] && !before[fd]) {
            if (!leaked++)
                printf("#     descriptors left open:");
            printf(" %d", fd);
            close(fd);
        }
    if (leaked)
        printf("\n");
    check_result(!leaked, __FILE__, __LINE__, "the case closed every descriptor it opened");
    check_result(threads <= 1, __FILE__, __LINE__, "the case left no thread running");
    if (threads > 1)
        printf("#     %d threads\n", threads);
}

static inline void case_child(void (*fn)(void), int out) {
    static unsigned char before[CASE_FD_SCAN];
    static struct case_report r;
    check_passed = check_failed = 0;
    /* The default action ends the child: its case fails, the next runs. */
    alarm(CASE_SECONDS * (under_valgrind() ? 10 : 1));
    case_fresh();
    case_open_fds(before);
    fn();
    test_loop_close(); /* (epoll's descriptor is the loop's, not a leak) */
    case_leftovers(before);
    r.passed = check_passed;
    r.failed = check_failed;
    memcpy(r.skip_why, test__skip_why, sizeof r.skip_why);
    if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    fflush(stdout);
    _exit(0); /* not exit(): nothing of the parent's is run or flushed twice */
}

/* Run one case in a child process; its checks count here, its skip too. */
static void case_run(const char *name, void (*fn)(void)) {
    static struct case_report r;
    int p[2], status = 0;
    ssize_t got = 0;
    pid_t pid;

    (void)name; /* the runner names it, after its "#" lines */
    memset(&r, 0, sizeof r);
    fflush(stdout);
    if (pipe(p) != 0) {
        check_result(0, __FILE__, __LINE__, "pipe() for the case");
        return;
    }
    if ((pid = fork()) < 0) {
        check_result(0, __FILE__, __LINE__, "fork() for the case");
        close(p[0]);
        close(p[1]);
        return;
    }
    if (pid == 0) {
        close(p[0]);
        case_child(fn, p[1]);
    }
    close(p[1]);
    do
        got = read(p[0], &r, sizeof r);
    while (got < 0 && errno == EINTR);
    close(p[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    check_passed += r.passed;
    check_failed += r.failed;
    r.skip_why[sizeof r.skip_why - 1] = '\0';
    memcpy(test__skip_why, r.skip_why, sizeof test__skip_why);
    if (got != (ssize_t)sizeof r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        check_result(0, __FILE__, __LINE__, "the case's process ended normally");
        if (WIFSIGNALED(status))
            printf("#     killed by signal %d%s\n", WTERMSIG(status),
                   WTERMSIG(status) == SIGALRM ? " (over its time limit)" : "");
        else if (WIFEXITED(status))
            printf("#     exit status %d%s\n", WEXITSTATUS(status),
                   WEXITSTATUS(status) == 99 ? " (valgrind found errors)" : "");
    }
}

#endif /* TESTS_CASES_H */
