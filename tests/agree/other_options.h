/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/agree/other_options.h - calls made on a loop by a file built with
 * other options than the file that initialised it (other_options.c, built
 * once per option that differs: meson.build).
 */
#ifndef TESTS_AGREE_OTHER_OPTIONS_H
#define TESTS_AGREE_OTHER_OPTIONS_H

struct pt_loop;

/* pt_loop_spawn of a task of other_options.c's own on l. */
int other_spawn(struct pt_loop *l);
/* pt_loop_run, pt_loop_run_once and pt_loop_run_until on l, in that
 * order; each result in rc[0..2]. */
void other_run(struct pt_loop *l, int rc[3]);
/* pt_loop_config_mismatch(l), as other_options.c sees it. */
const char *other_mismatch(const struct pt_loop *l);
/* The option other_options.c was built with differently ("" if none). */
const char *other_option(void);

#endif
