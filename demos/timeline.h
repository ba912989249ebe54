/*
 * demos/timeline.h - the demos' --timeline: record which task the loop
 * resumed when, and print the interleaving as a small chart, one row per
 * task, time left to right:
 *
 *   timeline: 0 to 1000 ms, 16.7 ms a column; # = the task ran
 *   main        #                             #                            #
 *   background  #    #    #     #    #    #    #    #     #    #    #
 *
 * Include this file before loop/loop.h: it defines PT_LOOP_ON_RUN, the
 * loop's hook called before each resume. Recording is off until
 * timeline_start(); then each resume costs a clock read and a few stores.
 * Bounded: at most TL_ROWS rows and TL_EVENTS resumes are kept (the chart
 * says how many were dropped).
 */
#ifndef DEMOS_TIMELINE_H
#define DEMOS_TIMELINE_H

#include <stdio.h>
#include <string.h>

#include "stopwatch.h"

#define TL_ROWS 24
#define TL_EVENTS 20000
#define TL_TASKS 128

static struct {
    int on;
    double t0;
    const char *rows[TL_ROWS]; /* row names, in order of first appearance */
    int nrows;
    struct {
        const void *task;
        const char *name;
    } names[TL_TASKS];
    int nnames;
    struct {
        float ms;
        unsigned char row;
    } ev[TL_EVENTS];
    int nev, dropped;
} tl;

/* Name a task's row; tasks with the same name share a row. */
static inline void timeline_name(const void *task, const char *name) {
    int i;
    for (i = 0; i < tl.nnames; i++)
        if (tl.names[i].task == task) {
            tl.names[i].name = name;
            return;
        }
    if (tl.nnames < TL_TASKS) {
        tl.names[tl.nnames].task = task;
        tl.names[tl.nnames].name = name;
        tl.nnames++;
    }
}

/* Start recording now (time 0 of the chart). */
static inline void timeline_start(void) {
    tl.on = 1;
    tl.t0 = wall_ms();
}

static inline int tl__row(const void *task) {
    const char *name = "(other)";
    int i;
    for (i = 0; i < tl.nnames; i++)
        if (tl.names[i].task == task)
            name = tl.names[i].name;
    for (i = 0; i < tl.nrows; i++)
        if (strcmp(tl.rows[i], name) == 0)
            return i;
    if (tl.nrows == TL_ROWS)
        return -1;
    tl.rows[tl.nrows] = name;
    return tl.nrows++;
}

/* The loop's hook: the task is about to be resumed. */
static inline void timeline_mark(const void *task) {
    int row;
    if (!tl.on)
        return;
    row = tl__row(task);
    if (row < 0 || tl.nev == TL_EVENTS) {
        tl.dropped++;
        return;
    }
    tl.ev[tl.nev].ms = (float)(wall_ms() - tl.t0);
    tl.ev[tl.nev].row = (unsigned char)row;
    tl.nev++;
}

#define PT_LOOP_ON_RUN(loop, task) timeline_mark(task)

/* Print the chart, `width` columns of time (at most 200). */
static inline void timeline_print(int width) {
    char line[200 + 1];
    double span = 0;
    int i, r, n, namew = 4;
    if (width > 200)
        width = 200;
    if (tl.nev == 0) {
        printf("timeline: nothing ran while recording\n");
        return;
    }
    for (i = 0; i < tl.nev; i++)
        if (tl.ev[i].ms > span)
            span = tl.ev[i].ms;
    if (span < 1)
        span = 1;
    for (r = 0; r < tl.nrows; r++)
        if ((int)strlen(tl.rows[r]) > namew)
            namew = (int)strlen(tl.rows[r]);
    printf("timeline: 0 to %.0f ms, %.1f ms a column; # = the task ran then\n", span,
           span / (width - 1));
    for (r = 0; r < tl.nrows; r++) {
        memset(line, ' ', (size_t)width);
        line[width] = '\0';
        for (i = 0; i < tl.nev; i++)
            if (tl.ev[i].row == r)
                line[(int)(tl.ev[i].ms / span * (width - 1) + 0.5)] = '#';
        for (i = width; i > 0 && line[i - 1] == ' '; i--)
            line[i - 1] = '\0';
        printf("  %-*s |%s\n", namew, tl.rows[r], line);
    }
    memset(line, '-', (size_t)width);
    line[width] = '\0';
    for (i = 0; i < width; i += 10)
        line[i] = '+';
    printf("  %-*s  %s\n", namew, "", line);
    n = snprintf(line, sizeof line, "%.0f ms", span);
    printf("  %-*s  0 ms%*s\n", namew, "", width - 4, line);
    (void)n;
    if (tl.dropped)
        printf("  (%d resumes not recorded: the recorder is full)\n", tl.dropped);
}

#endif /* DEMOS_TIMELINE_H */
