/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: loop/trace.h with the loop's hooks already defined by the
 * program. Taking them over would silently lose the program's; keeping
 * them would silently record nothing; so it refuses to compile. Correct
 * form: PT_CONFIG_TRACE_HOOKS 0, and the program's hooks call the recorder's.
 *
 * misuse-expect: the loop's hooks are taken
 */
#define _POSIX_C_SOURCE 200809L
static int runs;
#ifdef PT_MISUSE
#define PT_CONFIG_ON_RUN(loop, task) (runs++)
#else
#define PT_CONFIG_TRACE_HOOKS 0
#define PT_CONFIG_ON_RUN(loop, task) (runs++, pt_trace_run_begin(task))
#define PT_CONFIG_AFTER_RUN(loop, task) pt_trace_run_end(task)
#endif
#include "loop/trace.h"

#include "loop/loop.h"

int main(void) {
    static struct pt_trace_event events[4];
    static struct pt_trace_task tasks[2];
    struct pt_trace tr;
    return pt_trace_init(&tr, events, 4, tasks, 2) == PT_OK && runs == 0 ? 0 : 1;
}
