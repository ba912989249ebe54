/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/trace/trace_sample.c - a small loop traced on the real clock, for
 * check_trace.py: it prints the chart and writes the JSON to FILE.
 *
 *   trace_sample FILE
 *
 * The tasks, in the order they are spawned (and so of their first runs):
 *   ticker       sleeps 5 ms four times           5 resumes
 *   yielder (2)  two tasks of one name, 3 yields  4 resumes each
 *   say "hi"\    a name the JSON must escape      2 resumes
 *   (unnamed)    one yield                        2 resumes
 * check_trace.py knows these counts; they do not depend on timing.
 */
#include <stdio.h>

#include "loop/trace.h" /* first: it hooks the loop */

#include "loop/loop.h"

struct sample {
    struct pt_task task;
    pt_time_t sleep; /* 0: yield instead */
    int n, i;
};

static PT_THREAD(sample_run(struct pt_loop *loop, struct pt_task *task)) {
    struct sample *s = (struct sample *)task;
    PT_TASK_BEGIN(loop, task);
    for (s->i = 0; s->i < s->n; s->i++)
        if (s->sleep)
            PT_SLEEP(s->sleep);
        else
            PT_TASK_YIELD();
    PT_TASK_END();
}

int main(int argc, char **argv) {
    static struct pt_trace_event events[256];
    static struct pt_trace_task tasks[8];
    static struct pt_trace tr;
    static struct pt_timer_slot heap[8];
    static struct pt_loop loop;
    static struct sample s[5] = {
        {.sleep = PT_MS(5), .n = 4}, {.n = 3}, {.n = 3}, {.n = 1}, {.n = 1}};
    static const char *const names[4] = {"ticker", "yielder", "yielder", "say \"hi\"\\"};
    FILE *out;
    int i, rc;

    if (argc != 2) {
        fprintf(stderr, "usage: trace_sample FILE\n");
        return 2;
    }
    out = fopen(argv[1], "w");
    if (!out || pt_loop_init(&loop, heap, 8) != PT_OK ||
        pt_trace_init(&tr, events, 256, tasks, 8) != PT_OK) {
        perror("trace_sample");
        return 1;
    }
    for (i = 0; i < 5; i++) {
        if (i < 4)
            (void)pt_trace_name(&tr, &s[i].task, names[i]);
        (void)pt_loop_spawn(&loop, &s[i].task, sample_run);
    }
    pt_trace_start(&tr);
    rc = pt_loop_run(&loop);
    pt_trace_stop(&tr);
    pt_loop_close(&loop);
    pt_trace_chart(&tr, stdout, 61);
    if (pt_trace_write_json(&tr, out, "trace_sample") != PT_OK || fclose(out) != 0) {
        perror("trace_sample: writing the trace");
        return 1;
    }
    return rc == PT_OK ? 0 : 1;
}
