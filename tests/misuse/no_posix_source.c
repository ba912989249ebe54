/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: the loop on a POSIX host built as strict ISO C (-std=c99) with no
 * _POSIX_C_SOURCE, so that <unistd.h> and <time.h> hide POSIX. The first
 * (and only) error says what to define, not that there is no clock.
 * Correct form: _POSIX_C_SOURCE defined before the first #include.
 *
 * misuse-expect: define _POSIX_C_SOURCE=200809L
 */
#ifndef PT_MISUSE
#define _POSIX_C_SOURCE 200809L
#endif
#include "loop/loop.h"

int main(void) {
    static struct pt_loop loop;
    return pt_loop_init(&loop, NULL, 0);
}
