/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/fd_wait.c - waiting for a descriptor, as asyncio's add_reader:
 * a task waits with PT_IO_WAIT until the read end of a pipe is readable,
 * then reads what is there without blocking. Another task writes into the
 * pipe now and then, and finally closes it: the reader then reads end of
 * file. A wait that nothing answers in time ends with PT_ETIMEDOUT.
 */
#include <stdio.h>
#include <unistd.h>

#include "loop/loop.h"

static int fds[2]; /* the pipe: fds[0] to read, fds[1] to write */

struct reader {
    struct pt_task task;
    struct pt_io io; /* the descriptor wait: must outlive it */
};

static PT_THREAD(read_pipe(struct pt_loop *loop, struct pt_task *task)) {
    struct reader *r = (struct reader *)task;
    char buf[32];
    ssize_t n;
    PT_TASK_BEGIN(loop, task);
    for (;;) {
        PT_IO_WAIT(&r->io, fds[0], PT_READABLE, PT_MS(150));
        if (PT_WAIT_RESULT() != PT_OK) { /* PT_ETIMEDOUT: no data for 150 ms */
            printf("%4u ms  reader: %s\n", (unsigned)PT_TO_MS(pt_loop_now(loop)),
                   pt_err_name(PT_WAIT_RESULT()));
            continue;
        }
        n = read(fds[0], buf, sizeof buf); /* readable: this does not block */
        if (n <= 0)
            break;
        printf("%4u ms  reader: \"%.*s\"\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), (int)n, buf);
    }
    printf("%4u ms  reader: end of file\n", (unsigned)PT_TO_MS(pt_loop_now(loop)));
    (void)pt_io_close(loop, fds[0]); /* ends any other wait on it: PT_EBADF */
    PT_TASK_END();
}

static PT_THREAD(write_pipe(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(100));
    if (write(fds[1], "hello", 5) != 5) /* a pipe takes 5 bytes at once */
        PT_TASK_FAIL(pt_value_int(PT_ESYS));
    PT_SLEEP(PT_MS(200)); /* longer than the reader waits */
    if (write(fds[1], "world", 5) != 5)
        PT_TASK_FAIL(pt_value_int(PT_ESYS));
    PT_SLEEP(PT_MS(50));
    PT_TASK_CLEANUP(); /* the reader sees end of file however this ends */
    (void)pt_io_close(loop, fds[1]);
    PT_TASK_END();
}

int main(void) {
    /* The poll and epoll back ends keep their table in memory the caller
     * gives: here for descriptors 0..1023 (select ignores it). */
    static union pt_io_slot slots[PT_IO_SLOTS(1024)];
    static struct pt_timer_slot timers[4];
    static struct reader r;
    static struct pt_task w;
    struct pt_loop loop;
    int rc;
    if (pipe(fds) != 0 || pt_loop_init(&loop, timers, 4) != PT_OK)
        return 1;
    (void)pt_loop_io_table(&loop, slots, sizeof slots / sizeof slots[0]);
    pt_loop_use_virtual_clock(&loop, 0);
    (void)pt_loop_spawn(&loop, &r.task, read_pipe);
    (void)pt_loop_spawn(&loop, &w, write_pipe);
    rc = pt_loop_run(&loop);
    pt_loop_close(&loop);
    return rc == PT_OK ? 0 : 1;
}
