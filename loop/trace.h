/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/trace.h - OPTIONAL, not part of loop/loop.h: record which task the
 * loop resumed, when, and for how long, and show it as an ASCII chart or as
 * Chrome trace-event JSON (Perfetto and chrome://tracing open it).
 *
 * Include it BEFORE loop/loop.h, in the file that runs the loop: it defines
 * the loop's hooks PT_CONFIG_ON_RUN and PT_CONFIG_AFTER_RUN (loop/core.h), which
 * must exist before the loop's code is read. Included after it, the build
 * stops with an #error. A program with hooks of its own defines
 * PT_CONFIG_TRACE_HOOKS 0 and calls pt_trace_run_begin / pt_trace_run_end from
 * them.
 *
 *   int pt_trace_init(struct pt_trace *tr, struct pt_trace_event *events,
 *                     size_t n_events, struct pt_trace_task *tasks, size_t n_tasks)
 *       a recorder keeping up to n_events resumes of up to n_tasks tasks in
 *       the caller's arrays; not recording yet
 *     -> PT_OK | PT_EINVAL (a NULL, a size of 0, n_tasks > PT_TRACE_TASKS_MAX)
 *   int pt_trace_name(struct pt_trace *tr, const void *task, const char *name)
 *       the task's name in the trace (the string is kept, not copied; NULL:
 *       unnamed); before or while recording; the last name given holds for
 *       the whole trace
 *     -> PT_OK | PT_EFULL (the task table is full) | PT_EINVAL (task NULL)
 *   void pt_trace_start(struct pt_trace *tr)
 *       forget what was recorded (the names stay) and record from now: time
 *       0 of the trace. tr becomes the recorder the hooks write to; one
 *       records at a time (starting another stops this one)
 *   void pt_trace_stop(struct pt_trace *tr)
 *       stop recording; what was recorded stays for the outputs
 *   void pt_trace_chart(const struct pt_trace *tr, FILE *out, int width)
 *       the chart, `width` columns of time (10 to PT_TRACE_CHART_WIDTH; a
 *       width outside is taken as the nearest end)
 *   int pt_trace_write_json(const struct pt_trace *tr, FILE *out, const char *process)
 *       the trace as Chrome trace-event JSON, `process` naming the process
 *       (NULL: "ptloop")
 *     -> PT_OK | PT_ESYS (the stream reports an error; errno as it left it)
 *   void pt_trace_run_begin(const void *task)
 *   void pt_trace_run_end(const void *task)
 *       the hooks: a resume of task begins, and returns (PT_CONFIG_ON_RUN and
 *       PT_CONFIG_AFTER_RUN call them; with PT_CONFIG_TRACE_HOOKS 0, a program's own
 *       hooks do)
 *
 * The chart, one row per task name (tasks of the same name share a row;
 * unnamed tasks share "(other)"), in the order each first ran, a # where a
 * resume began:
 *
 *   timeline: 0 to 1000 ms, 16.7 ms a column; # = the task ran then
 *     main       |#                             #                             #
 *     background |#     #     #     #     #     #     #     #     #     #     #
 *                 +---------+---------+---------+---------+---------+---------+
 *                 0 ms                                                  1000 ms
 *
 * The JSON: {"traceEvents": [...]}, a "ph":"X" (complete) event per resume
 * with the task's name, "ts" and "dur" in microseconds, "pid" 1 and a "tid"
 * per task (1 + its place in the task table); "ph":"M" metadata naming the
 * process and each task ("thread_name"; an unnamed task is "task <tid>")
 * and keeping the tasks in table order ("thread_sort_index"). Resumes not
 * recorded are counted in "otherData" and, if any, said by a "ph":"i"
 * (instant) event at the end.
 *
 * The clock is the trace's own, not the loop's ticks: PT_CONFIG_TRACE_NOW_US(),
 * microseconds as a uint64_t; on a POSIX host CLOCK_MONOTONIC. Elsewhere
 * define it before including this file (without one the build stops with
 * an #error). The outputs need <stdio.h>: they exist where the build is
 * hosted (PT_CONFIG_TRACE_STDIO, default __STDC_HOSTED__); a freestanding build
 * gets the recorder and reads tr->events itself.
 *
 * Limits, and what happens at them:
 *   - n_events resumes: later ones are not recorded, only counted
 *     (tr->dropped); both outputs say how many.
 *   - n_tasks tasks (named, or seen running): the resumes of a task that
 *     finds the table full are counted as dropped; naming one is PT_EFULL.
 *   - time: a resume beginning more than UINT32_MAX us (71.6 minutes)
 *     after pt_trace_start is counted as dropped; a single resume longer
 *     than that records UINT32_MAX as its duration.
 *   - the chart: PT_CONFIG_TRACE_CHART_ROWS names (24); the resumes of further
 *     names are left out of it, and it says how many.
 *   - tasks are told apart by address: a struct pt_task reused for another
 *     task is the same task to the trace (the same name and tid).
 *   - the recorder the hooks write to is kept per translation unit: start
 *     it in the file that runs the loop.
 * Cost while recording: two clock reads per resume and a search of the
 * task table (linear in the tasks it holds); while not recording, a test.
 * Resumes do not nest: a loop run from inside a task records the inner
 * resumes and leaves the outer one's duration at 0.
 */
#ifndef PT_LOOP_TRACE_H
#define PT_LOOP_TRACE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "result.h"

#ifndef PT_CONFIG_TRACE_HOOKS
#define PT_CONFIG_TRACE_HOOKS 1
#endif
#if PT_CONFIG_TRACE_HOOKS
#ifdef PT_LOOP_CORE_H
#error "loop/trace.h: include it before loop/loop.h: it defines the loop's hooks"
#endif
#if defined(PT_CONFIG_ON_RUN) || defined(PT_CONFIG_AFTER_RUN)
#error                                                                                             \
    "loop/trace.h: the loop's hooks are taken: define PT_CONFIG_TRACE_HOOKS 0 and call pt_trace_run_begin and pt_trace_run_end from them"
#endif
#define PT_CONFIG_ON_RUN(loop, task) pt_trace_run_begin(task)
#define PT_CONFIG_AFTER_RUN(loop, task) pt_trace_run_end(task)
#endif

#ifndef PT_CONFIG_TRACE_STDIO
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#define PT_CONFIG_TRACE_STDIO 1
#else
#define PT_CONFIG_TRACE_STDIO 0
#endif
#endif
#if PT_CONFIG_TRACE_STDIO
#include <stdio.h>
#include <string.h>
#endif

#ifndef PT_CONFIG_TRACE_NOW_US
#if PT_CONFIG_POSIX
#include <time.h>
static inline uint64_t pt__trace_now_us(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
#define PT_CONFIG_TRACE_NOW_US() pt__trace_now_us()
#else
#error "loop/trace.h: no clock: define PT_CONFIG_TRACE_NOW_US() (microseconds, uint64_t) first"
#endif
#endif

#define PT_TRACE_TASKS_MAX 65535u /* a task's place is a uint16_t */
#ifndef PT_CONFIG_TRACE_CHART_ROWS
#define PT_CONFIG_TRACE_CHART_ROWS 24
#endif
#define PT_TRACE_CHART_WIDTH 200

/* One resume: when it began (us after pt_trace_start), how long it ran
 * (0 until it returns), and which task (its place in tr->tasks). */
struct pt_trace_event {
    uint32_t start_us, dur_us;
    uint16_t task;
};

/* A task the trace knows: its address and its name (NULL: unnamed). */
struct pt_trace_task {
    const void *task;
    const char *name;
};

/* A recorder. Read its fields; change them only through the functions. */
struct pt_trace {
    struct pt_trace_event *events; /* events[0..n_events-1]: the resumes, in order */
    size_t cap_events, n_events;
    struct pt_trace_task *tasks; /* tasks[0..n_tasks-1]: in order of naming or first run */
    size_t cap_tasks, n_tasks;
    unsigned long dropped; /* resumes not recorded (saturates at ULONG_MAX) */
    uint64_t t0;           /* PT_CONFIG_TRACE_NOW_US() at pt_trace_start */
    size_t open;           /* 1 + the event of the resume under way; 0: none */
    int on;
};

/* The recorder the hooks write to in this translation unit, if any. */
static struct pt_trace *pt__trace_current;

static inline int pt_trace_init(struct pt_trace *tr, struct pt_trace_event *events, size_t n_events,
                                struct pt_trace_task *tasks, size_t n_tasks) {
    if (!tr || !events || !tasks || n_events == 0 || n_tasks == 0 || n_tasks > PT_TRACE_TASKS_MAX)
        return PT_EINVAL;
    tr->events = events;
    tr->cap_events = n_events;
    tr->n_events = 0;
    tr->tasks = tasks;
    tr->cap_tasks = n_tasks;
    tr->n_tasks = 0;
    tr->dropped = 0;
    tr->t0 = 0;
    tr->open = 0;
    tr->on = 0;
    return PT_OK;
}

/* The place of task in the table, added if new; -1 if the table is full. */
static inline long pt__trace_find(struct pt_trace *tr, const void *task) {
    size_t i;
    for (i = 0; i < tr->n_tasks; i++)
        if (tr->tasks[i].task == task)
            return (long)i;
    if (tr->n_tasks == tr->cap_tasks)
        return -1;
    tr->tasks[i].task = task;
    tr->tasks[i].name = NULL;
    tr->n_tasks++;
    return (long)i;
}

static inline int pt_trace_name(struct pt_trace *tr, const void *task, const char *name) {
    long k;
    if (!task)
        return PT_EINVAL;
    k = pt__trace_find(tr, task);
    if (k < 0)
        return PT_EFULL;
    tr->tasks[k].name = name;
    return PT_OK;
}

static inline void pt_trace_start(struct pt_trace *tr) {
    size_t i, kept = 0;
    /* Tasks only seen running are forgotten; named ones keep their place. */
    for (i = 0; i < tr->n_tasks; i++)
        if (tr->tasks[i].name)
            tr->tasks[kept++] = tr->tasks[i];
    tr->n_tasks = kept;
    tr->n_events = 0;
    tr->dropped = 0;
    tr->open = 0;
    if (pt__trace_current && pt__trace_current != tr)
        pt__trace_current->on = 0;
    pt__trace_current = tr;
    tr->t0 = PT_CONFIG_TRACE_NOW_US();
    tr->on = 1;
}

static inline void pt_trace_stop(struct pt_trace *tr) {
    tr->on = 0;
    if (pt__trace_current == tr) /* (tr may go out of scope now) */
        pt__trace_current = NULL;
}

static inline void pt__trace_drop(struct pt_trace *tr) {
    if (tr->dropped != ULONG_MAX)
        tr->dropped++;
}

/* The hooks: a resume of task begins, and it returns. */
static inline void pt_trace_run_begin(const void *task) {
    struct pt_trace *tr = pt__trace_current;
    struct pt_trace_event *e;
    uint64_t t;
    long k;
    if (!tr || !tr->on)
        return;
    tr->open = 0;
    t = PT_CONFIG_TRACE_NOW_US() - tr->t0;
    k = pt__trace_find(tr, task);
    if (k < 0 || tr->n_events == tr->cap_events || t > UINT32_MAX) {
        pt__trace_drop(tr);
        return;
    }
    e = &tr->events[tr->n_events++];
    e->start_us = (uint32_t)t;
    e->dur_us = 0;
    e->task = (uint16_t)k;
    tr->open = tr->n_events;
}

static inline void pt_trace_run_end(const void *task) {
    struct pt_trace *tr = pt__trace_current;
    struct pt_trace_event *e;
    uint64_t d;
    if (!tr || !tr->open)
        return;
    e = &tr->events[tr->open - 1];
    tr->open = 0;
    if (tr->tasks[e->task].task != task)
        return; /* not the resume that began last: see "do not nest" */
    /* Both ends measured from t0: start + dur never passes the next start. */
    d = PT_CONFIG_TRACE_NOW_US() - tr->t0 - e->start_us;
    e->dur_us = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

#if PT_CONFIG_TRACE_STDIO

/* The chart's name of a task: its name, or "(other)". */
static inline const char *pt__trace_row_name(const struct pt_trace *tr, uint16_t k) {
    return tr->tasks[k].name ? tr->tasks[k].name : "(other)";
}

/* The chart row of name in rows[0..*n-1], added if new; -1 if no room. */
static inline int pt__trace_row(const char **rows, int *n, const char *name) {
    int r;
    for (r = 0; r < *n; r++)
        if (rows[r] == name || strcmp(rows[r], name) == 0)
            return r;
    if (*n == PT_CONFIG_TRACE_CHART_ROWS)
        return -1;
    rows[*n] = name;
    return (*n)++;
}

static inline void pt_trace_chart(const struct pt_trace *tr, FILE *out, int width) {
    char line[PT_TRACE_CHART_WIDTH + 1];
    const char *rows[PT_CONFIG_TRACE_CHART_ROWS];
    double span = 0, ms;
    unsigned long hidden = 0;
    size_t i;
    int r, nrows = 0, namew = 4;
    width = width < 10 ? 10 : width > PT_TRACE_CHART_WIDTH ? PT_TRACE_CHART_WIDTH : width;
    if (tr->n_events == 0) {
        fprintf(out, "timeline: nothing ran while recording\n");
    } else {
        for (i = 0; i < tr->n_events; i++) {
            ms = tr->events[i].start_us / 1000.0;
            span = ms > span ? ms : span;
            if (pt__trace_row(rows, &nrows, pt__trace_row_name(tr, tr->events[i].task)) < 0)
                hidden++;
        }
        if (span < 1)
            span = 1;
        for (r = 0; r < nrows; r++)
            if ((int)strlen(rows[r]) > namew)
                namew = (int)strlen(rows[r]);
        fprintf(out, "timeline: 0 to %.0f ms, %.1f ms a column; # = the task ran then\n", span,
                span / (width - 1));
        for (r = 0; r < nrows; r++) {
            memset(line, ' ', (size_t)width);
            line[width] = '\0';
            for (i = 0; i < tr->n_events; i++)
                if (strcmp(pt__trace_row_name(tr, tr->events[i].task), rows[r]) == 0)
                    line[(int)(tr->events[i].start_us / 1000.0 / span * (width - 1) + 0.5)] = '#';
            for (i = (size_t)width; i > 0 && line[i - 1] == ' '; i--)
                line[i - 1] = '\0';
            fprintf(out, "  %-*s |%s\n", namew, rows[r], line);
        }
        memset(line, '-', (size_t)width);
        line[width] = '\0';
        for (r = 0; r < width; r += 10)
            line[r] = '+';
        fprintf(out, "  %-*s  %s\n", namew, "", line);
        (void)snprintf(line, sizeof line, "%.0f ms", span);
        fprintf(out, "  %-*s  0 ms%*s\n", namew, "", width - 4, line);
        if (hidden)
            fprintf(out, "  (%lu resumes of tasks past the chart's %d rows not shown)\n", hidden,
                    PT_CONFIG_TRACE_CHART_ROWS);
    }
    if (tr->dropped)
        fprintf(out, "  (%lu resumes not recorded: the recorder is full)\n", tr->dropped);
}

/* s as a JSON string. */
static inline void pt__trace_json_str(FILE *out, const char *s) {
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}

/* A task's name in the JSON: its name, or "task <tid>". */
static inline void pt__trace_json_name(FILE *out, const struct pt_trace *tr, size_t k) {
    if (tr->tasks[k].name)
        pt__trace_json_str(out, tr->tasks[k].name);
    else
        fprintf(out, "\"task %lu\"", (unsigned long)k + 1);
}

static inline int pt_trace_write_json(const struct pt_trace *tr, FILE *out, const char *process) {
    const struct pt_trace_event *e;
    uint64_t end = 0;
    size_t i;
    fprintf(out,
            "{\"displayTimeUnit\": \"ms\",\n \"otherData\": {\"clock\": \"microseconds since "
            "pt_trace_start\", \"resumes\": %lu, \"dropped\": %lu},\n \"traceEvents\": [\n",
            (unsigned long)tr->n_events, tr->dropped);
    fprintf(out, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": "
                 "{\"name\": ");
    pt__trace_json_str(out, process ? process : "ptloop");
    fprintf(out, "}}");
    for (i = 0; i < tr->n_tasks; i++) {
        fprintf(out,
                ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %lu, "
                "\"args\": {\"name\": ",
                (unsigned long)i + 1);
        pt__trace_json_name(out, tr, i);
        fprintf(out,
                "}},\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": "
                "%lu, \"args\": {\"sort_index\": %lu}}",
                (unsigned long)i + 1, (unsigned long)i + 1);
    }
    for (i = 0; i < tr->n_events; i++) {
        e = &tr->events[i];
        fprintf(out, ",\n{\"name\": ");
        pt__trace_json_name(out, tr, e->task);
        fprintf(out,
                ", \"cat\": \"task\", \"ph\": \"X\", \"ts\": %lu, \"dur\": %lu, \"pid\": 1, "
                "\"tid\": %lu}",
                (unsigned long)e->start_us, (unsigned long)e->dur_us, (unsigned long)e->task + 1);
        if ((uint64_t)e->start_us + e->dur_us > end)
            end = (uint64_t)e->start_us + e->dur_us;
    }
    if (tr->dropped)
        fprintf(out,
                ",\n{\"name\": \"%lu resumes not recorded: the recorder is full\", \"cat\": "
                "\"trace\", \"ph\": \"i\", \"s\": \"g\", \"ts\": %.0f, \"pid\": 1, \"tid\": 0}",
                tr->dropped, (double)end);
    fprintf(out, "\n]}\n");
    return fflush(out) == 0 && !ferror(out) ? PT_OK : PT_ESYS;
}

#endif /* PT_CONFIG_TRACE_STDIO */

#endif /* PT_LOOP_TRACE_H */
