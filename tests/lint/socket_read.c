/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt-lint case: a local socket pointer across PT_SOCK_READ. The read is
 * tried again after each wait, reading the socket pointer again: that read
 * is reported at the macro's line, as is the use after it. */
#include <stdio.h>

#include "loop/loop.h"

struct conn {
    struct pt_task task;
    struct pt_sock sock;
    char buf[64];
};

PT_THREAD(conn_run(struct pt_loop *loop, struct pt_task *task)) {
    struct conn *c = (struct conn *)task;
    struct pt_sock *s;
    PT_TASK_BEGIN(loop, task);
    s = &c->sock;
    PT_SOCK_READ(s, c->buf, sizeof c->buf, PT_SEC(1)); /* pt-lint: expect s */
    printf("fd %d\n", s->fd);                          /* pt-lint: expect s */
    PT_TASK_END();
}
