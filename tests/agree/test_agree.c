/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/agree/test_agree.c - files of one program built with different
 * options (loop/agree.h): the loop is initialised here, and
 * other_options.c, built with one option otherwise, calls it. Its first
 * calls are refused with PT_ECONFIG, pt_loop_config_mismatch names the
 * option, and this file's loop goes on as if nothing had happened. Built
 * once per option (meson.build), and once with the same options (then
 * nothing is refused).
 */
#include <string.h>

#include "loop/loop.h"

#include "../runner.h"

#include "../loop_init.h"
#include "other_options.h"

static struct pt_loop lp;
static struct pt_timer_slot heap[4];
static struct pt_task task;
static int runs;

static PT_THREAD(body(struct pt_loop *loop, struct pt_task *t)) {
    PT_TASK_BEGIN(loop, t);
    runs++;
    PT_SLEEP(PT_MS(1));
    runs++;
    PT_TASK_END();
}

static int differs(void) {
    return other_option()[0] != '\0';
}

static void setup(void) {
    CHECK_EQ_INT(test_loop_init(&lp, heap, 4), PT_OK);
    pt_loop_use_virtual_clock(&lp, 0);
    runs = 0;
}

/* A spawn from the other file: refused, nothing queued. */
static void test_spawn_from_a_file_with_other_options_is_econfig(void) {
    setup();
    if (!differs()) {
        CHECK_EQ_INT(other_spawn(&lp), PT_OK);
        CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
        return;
    }
    CHECK_EQ_INT(other_spawn(&lp), PT_ECONFIG);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK); /* (nothing was queued) */
}

/* Every run call from the other file: refused, nothing run. */
static void test_run_from_a_file_with_other_options_is_econfig(void) {
    int rc[3];
    setup();
    CHECK_EQ_INT(pt_loop_spawn(&lp, &task, body), PT_OK);
    other_run(&lp, rc);
    if (!differs()) {
        CHECK_EQ_INT(rc[0], PT_OK);
        CHECK_EQ_INT(runs, 2);
        return;
    }
    CHECK_EQ_INT(rc[0], PT_ECONFIG);
    CHECK_EQ_INT(rc[1], PT_ECONFIG);
    CHECK_EQ_INT(rc[2], 0);
    CHECK_EQ_INT(runs, 0);
    /* This file's loop is as it was: the task runs to its end. */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(runs, 2);
    CHECK_EQ_INT(pt_task_status(&task), PT_ENDED);
}

/* pt_loop_config_mismatch names the option that differs; NULL in the
 * file that initialised the loop. */
static void test_mismatch_names_the_option(void) {
    const char *name;
    setup();
    CHECK(pt_loop_config_mismatch(&lp) == NULL);
    name = other_mismatch(&lp);
    if (!differs()) {
        CHECK(name == NULL);
        return;
    }
    CHECK(name != NULL);
    if (name)
        CHECK(strcmp(name, other_option()) == 0);
}

/* A loop never initialised (zeroed memory) is refused too, and named. */
static void test_a_loop_never_initialised_is_econfig(void) {
    static struct pt_loop never;
    memset(&never, 0, sizeof never);
    CHECK_EQ_INT(pt_loop_spawn(&never, &task, body), PT_ECONFIG);
    CHECK_EQ_INT(pt_loop_run(&never), PT_ECONFIG);
    CHECK_EQ_STR(pt_loop_config_mismatch(&never), "pt_loop_init");
}

/* clang-format off: one case a line */
#define TEST_CASES(X)                                                                              \
    X(spawn_from_a_file_with_other_options_is_econfig)                                             \
    X(run_from_a_file_with_other_options_is_econfig)                                               \
    X(mismatch_names_the_option)                                                                   \
    X(a_loop_never_initialised_is_econfig)
/* clang-format on */
TEST_MAIN(TEST_CASES)
