/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: loop/trace.h included after loop/loop.h. The loop's code has
 * been read with empty hooks by then, so nothing would be recorded;
 * loop/trace.h refuses to compile instead. Correct form: trace.h first.
 *
 * misuse-expect: include it before loop/loop.h
 */
#define _POSIX_C_SOURCE 200809L
#ifdef PT_MISUSE
#include "loop/loop.h"
#include "loop/trace.h"
#else
#include "loop/trace.h"

#include "loop/loop.h"
#endif

int main(void) {
    static struct pt_trace_event events[4];
    static struct pt_trace_task tasks[2];
    struct pt_trace tr;
    return pt_trace_init(&tr, events, 4, tasks, 2) == PT_OK ? 0 : 1;
}
