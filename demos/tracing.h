/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/tracing.h - the demos' --timeline and --trace FILE, over
 * loop/trace.h: one recorder, with room for DEMO_TRACE_EVENTS resumes of
 * DEMO_TRACE_TASKS tasks, started if either option is given and shown when
 * the demo ends: the chart on stdout (--timeline), Chrome trace-event JSON
 * in FILE (--trace; Perfetto and chrome://tracing open it).
 *
 * Include it before loop/loop.h: loop/trace.h defines the loop's hooks.
 * DEMO_TRACE_OPTS is the two options' entries for a demo's option table
 * (demos/options.h).
 */
#ifndef DEMOS_TRACING_H
#define DEMOS_TRACING_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop/trace.h"
#include "options.h"

#define DEMO_TRACE_EVENTS 20000
#define DEMO_TRACE_TASKS 128
#define DEMO_TRACE_WIDTH 61 /* the chart's columns of time */

static struct pt_trace_event demo_trace_events[DEMO_TRACE_EVENTS];
static struct pt_trace_task demo_trace_tasks[DEMO_TRACE_TASKS];
static struct pt_trace demo_trace;
static int demo_timeline;           /* --timeline */
static const char *demo_trace_path; /* --trace FILE */
static FILE *demo_trace_file;
static const char *demo_trace_prog;

#define DEMO_TRACE_OPTS                                                                            \
    DEMO_FLAG('T', "timeline", &demo_timeline, "at the end, chart which task ran when"),           \
        DEMO_STR('j', "trace", "FILE", &demo_trace_path,                                           \
                 "write which task ran when to FILE as Chrome trace-event JSON")

/* The recorder, set up on first use. */
static inline struct pt_trace *demo__trace(void) {
    if (!demo_trace.events)
        (void)pt_trace_init(&demo_trace, demo_trace_events, DEMO_TRACE_EVENTS, demo_trace_tasks,
                            DEMO_TRACE_TASKS);
    return &demo_trace;
}

/* Name a task in the chart and the trace (tasks of one name share a row). */
static inline void demo_trace_name(const void *task, const char *name) {
    if (pt_trace_name(demo__trace(), task, name) != PT_OK)
        fprintf(stderr, "(the trace's table of %d tasks is full: %s is not named)\n",
                DEMO_TRACE_TASKS, name);
}

/* Open the trace file of --trace, right after the options are read: one
 * that cannot be written is an error of the command line, found before
 * anything runs (exit 2). */
static inline void demo_trace_open(char **argv) {
    demo_trace_prog = demo__prog(argv);
    if (!demo_trace_path)
        return;
    demo_trace_file = fopen(demo_trace_path, "w");
    if (!demo_trace_file) {
        fprintf(stderr, "%s: --trace %s: %s\n", demo_trace_prog, demo_trace_path, strerror(errno));
        exit(2);
    }
}

/* Record from now (time 0) if --timeline or --trace asked for it. */
static inline void demo_trace_start(void) {
    if (demo_timeline || demo_trace_file)
        pt_trace_start(demo__trace());
}

/* Stop recording and show it; 0, or 1 if the trace file could not be
 * written. */
static inline int demo_trace_end(void) {
    int rc = 0;
    pt_trace_stop(demo__trace());
    if (demo_timeline)
        pt_trace_chart(&demo_trace, stdout, DEMO_TRACE_WIDTH);
    if (demo_trace_file) {
        if (pt_trace_write_json(&demo_trace, demo_trace_file, demo_trace_prog) != PT_OK) {
            fprintf(stderr, "%s: --trace %s: %s\n", demo_trace_prog, demo_trace_path,
                    strerror(errno));
            rc = 1;
        }
        if (fclose(demo_trace_file) != 0 && rc == 0) {
            fprintf(stderr, "%s: --trace %s: %s\n", demo_trace_prog, demo_trace_path,
                    strerror(errno));
            rc = 1;
        }
        if (rc == 0)
            printf("trace: %lu resumes of %lu tasks written to %s (Perfetto opens it)\n",
                   (unsigned long)demo_trace.n_events, (unsigned long)demo_trace.n_tasks,
                   demo_trace_path);
        demo_trace_file = NULL;
    }
    return rc;
}

#endif /* DEMOS_TRACING_H */
