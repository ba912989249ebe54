/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/consumers/prog_options.c - the third program
 * tests/consumers/check.sh builds: it includes <ptloop.h> (the whole
 * library in one header, installed beside pt/ and loop/) and prints the
 * options every file of a program must agree on, as its compile saw them,
 * so that check.sh can see that an option chosen through meson, CMake or
 * pkg-config reached the consumer's compile. Runs one task to show the
 * build works; returns 0 if it ran.
 */
#include <ptloop.h>

#include <stdio.h>

static PT_THREAD(one_sleep(struct pt_loop *loop, struct pt_task *task)) {
    PT_TASK_BEGIN(loop, task);
    PT_SLEEP(PT_MS(5));
    PT_TASK_END();
}

int main(void) {
    struct pt_loop loop;
    struct pt_timer_slot heap[2];
    struct pt_task task = {0};
    int rc;

    (void)pt_loop_init(&loop, heap, sizeof heap / sizeof heap[0]);
    pt_loop_use_virtual_clock(&loop, 0);
    (void)pt_loop_spawn(&loop, &task, one_sleep);
    rc = pt_loop_run(&loop);
    pt_loop_close(&loop);

    printf("ptloop options: PT_CONFIG_DEBUG=%d PT_CONFIG_BACKEND=%s PT_CONFIG_TIMERS=%s\n",
           PT_CONFIG_DEBUG, PT_CONFIG_BACKEND_NAME,
           PT_CONFIG_TIMERS == PT_TIMERS_LIST ? "list" : "heap");
    return rc == PT_OK ? 0 : 1;
}
