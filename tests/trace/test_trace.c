/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/trace/test_trace.c - loop/trace.h: what a recorder keeps of each
 * resume, its limits, and its two outputs.
 *
 * The trace's clock is this file's: PT_CONFIG_TRACE_NOW_US() reads test_us, which
 * only the tasks move (each resume adds its task's work_us), so every start
 * and duration is known exactly and no case depends on timing. The loop
 * runs on its virtual clock. tests/trace/check_trace.py runs the same
 * header on the real clock (trace_sample.c) and validates its JSON.
 */
#include <stdint.h>

static uint64_t test_us = 5000; /* the trace's clock, in microseconds */
#define PT_CONFIG_TRACE_NOW_US() (test_us)

#include "loop/trace.h" /* first: it hooks the loop */

#include "loop/loop.h"

#include "../loop_util.h"
#include "../runner.h"

/* A task that sleeps `sleep` ticks first if asked, then yields `yields`
 * times, and ends; every resume takes work_us on the trace's clock. */
struct worker {
    struct pt_task task;
    pt_time_t sleep;
    int yields, i;
    uint64_t work_us;
};

static PT_THREAD(work(struct pt_loop *loop, struct pt_task *task)) {
    struct worker *w = (struct worker *)task;
    test_us += w->work_us; /* before the resume point: on every resume */
    PT_TASK_BEGIN(loop, task);
    if (w->sleep)
        PT_SLEEP(w->sleep);
    for (w->i = 0; w->i < w->yields; w->i++)
        PT_TASK_YIELD();
    PT_TASK_END();
}

#define EVENTS 64
#define TASKS 32
static struct pt_trace_event events[EVENTS];
static struct pt_trace_task tasks[TASKS];
static struct pt_trace tr;
static struct worker w[TASKS];

/* A fresh loop, fresh workers, and tr over n_events and n_tasks slots. */
static void trace_setup(size_t n_events, size_t n_tasks) {
    setup(0);
    memset(w, 0, sizeof w);
    CHECK_EQ_INT(pt_trace_init(&tr, events, n_events, tasks, n_tasks), PT_OK);
}

static void spawn(int k, int yields, pt_time_t sleep, uint64_t work_us) {
    w[k].yields = yields;
    w[k].sleep = sleep;
    w[k].work_us = work_us;
    CHECK_EQ_INT(pt_loop_spawn(&lp, &w[k].task, work), PT_OK);
}

/* The name of event i's task. */
static const char *event_name(size_t i) {
    const char *name = tr.tasks[tr.events[i].task].name;
    return name ? name : "?";
}

/* What out received, as a string (out is then closed). */
static const char *read_back(FILE *out) {
    static char buf[8192];
    size_t n;
    rewind(out);
    n = fread(buf, 1, sizeof buf - 1, out);
    buf[n] = '\0';
    fclose(out);
    return buf;
}

static const char *chart(int width) {
    FILE *out = tmpfile();
    CHECK(out != NULL);
    pt_trace_chart(&tr, out, width);
    return read_back(out);
}

static const char *json(void) {
    FILE *out = tmpfile();
    CHECK(out != NULL);
    CHECK_EQ_INT(pt_trace_write_json(&tr, out, "test"), PT_OK);
    return read_back(out);
}

static void test_init_refuses_missing_or_oversized_arrays(void) {
    CHECK_EQ_INT(pt_trace_init(&tr, NULL, 4, tasks, 4), PT_EINVAL);
    CHECK_EQ_INT(pt_trace_init(&tr, events, 0, tasks, 4), PT_EINVAL);
    CHECK_EQ_INT(pt_trace_init(&tr, events, 4, NULL, 4), PT_EINVAL);
    CHECK_EQ_INT(pt_trace_init(&tr, events, 4, tasks, 0), PT_EINVAL);
    CHECK_EQ_INT(pt_trace_init(&tr, events, 4, tasks, (size_t)PT_TRACE_TASKS_MAX + 1), PT_EINVAL);
    CHECK_EQ_INT(pt_trace_init(&tr, events, 4, tasks, 4), PT_OK);
}

static void test_nothing_is_recorded_before_start(void) {
    trace_setup(EVENTS, TASKS);
    spawn(0, 2, 0, 10);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(tr.n_events, 0);
    CHECK_EQ_STR(chart(61), "timeline: nothing ran while recording\n");
}

static void test_each_resume_is_one_event_in_the_order_of_the_runs(void) {
    char order[16] = "";
    size_t i;
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[0].task, "A"), PT_OK);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "B"), PT_OK);
    spawn(0, 2, 0, 1);         /* A: 3 resumes */
    spawn(1, 0, PT_MS(10), 1); /* B: 2, the second after A is done */
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 5);
    for (i = 0; i < tr.n_events && i < sizeof order - 1; i++)
        order[i] = event_name(i)[0];
    CHECK_EQ_STR(order, "ABAAB");
    CHECK_EQ_INT(tr.dropped, 0);
}

static void test_an_event_starts_at_the_resume_and_lasts_until_it_returns(void) {
    size_t i;
    trace_setup(EVENTS, TASKS);
    spawn(0, 1, 0, 7); /* 2 resumes of 7 us */
    spawn(1, 0, 0, 3); /* 1 resume of 3 us */
    test_us = 100000;
    pt_trace_start(&tr); /* time 0 of the trace */
    test_us += 40;
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 3);
    CHECK_EQ_INT(tr.events[0].start_us, 40);
    CHECK_EQ_INT(tr.events[0].dur_us, 7);
    CHECK_EQ_INT(tr.events[1].start_us, 47);
    CHECK_EQ_INT(tr.events[1].dur_us, 3);
    CHECK_EQ_INT(tr.events[2].start_us, 50);
    CHECK_EQ_INT(tr.events[2].dur_us, 7);
    for (i = 0; i + 1 < tr.n_events; i++) /* one at a time, never back */
        CHECK(tr.events[i].start_us + tr.events[i].dur_us <= tr.events[i + 1].start_us);
}

static void test_tasks_keep_their_place_and_unnamed_ones_join_at_first_run(void) {
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "first named"), PT_OK);
    spawn(0, 0, 0, 1); /* unnamed: its place comes when it first runs */
    spawn(1, 0, 0, 1);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_tasks, 2);
    CHECK(tr.tasks[0].task == &w[1].task);
    CHECK_EQ_STR(tr.tasks[0].name, "first named");
    CHECK(tr.tasks[1].task == &w[0].task);
    CHECK(tr.tasks[1].name == NULL);
    CHECK_EQ_INT(tr.events[0].task, 1); /* w[0] ran first */
    CHECK_EQ_INT(tr.events[1].task, 0);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "renamed"), PT_OK);
    CHECK_EQ_INT(tr.n_tasks, 2);
    CHECK_EQ_STR(tr.tasks[0].name, "renamed");
    CHECK_EQ_INT(pt_trace_name(&tr, NULL, "x"), PT_EINVAL);
}

static void test_start_forgets_the_events_and_unnamed_tasks_but_keeps_the_names(void) {
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "named"), PT_OK);
    spawn(0, 0, 0, 1);
    spawn(1, 0, 0, 1);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(tr.n_events, 2);
    CHECK_EQ_INT(tr.n_tasks, 2);
    pt_trace_start(&tr);
    CHECK_EQ_INT(tr.n_events, 0);
    CHECK_EQ_INT(tr.n_tasks, 1);
    CHECK_EQ_STR(tr.tasks[0].name, "named");
    pt_trace_stop(&tr);
}

static void test_stop_ends_the_recording(void) {
    trace_setup(EVENTS, TASKS);
    spawn(0, 3, 0, 1); /* 4 resumes */
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK); /* 1 of them */
    pt_trace_stop(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    CHECK_EQ_INT(tr.n_events, 1);
    CHECK_EQ_INT(tr.dropped, 0);
}

static void test_a_full_event_buffer_counts_the_rest_as_dropped_and_says_so(void) {
    trace_setup(3, TASKS);
    spawn(0, 4, 0, 1); /* 5 resumes */
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 3);
    CHECK_EQ_INT(tr.dropped, 2);
    CHECK(strstr(chart(61), "  (2 resumes not recorded: the recorder is full)\n") != NULL);
    CHECK(strstr(json(), "\"dropped\": 2") != NULL);
    CHECK(strstr(json(), "{\"name\": \"2 resumes not recorded: the recorder is full\", \"cat\": "
                         "\"trace\", \"ph\": \"i\", \"s\": \"g\", \"ts\": 3,") != NULL);
}

static void test_a_full_task_table_drops_other_tasks_and_refuses_their_names(void) {
    trace_setup(EVENTS, 1);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[0].task, "in"), PT_OK);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "out"), PT_EFULL);
    spawn(0, 2, 0, 1); /* 3 resumes, recorded */
    spawn(1, 1, 0, 1); /* 2, dropped */
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 3);
    CHECK_EQ_INT(tr.dropped, 2);
    CHECK_EQ_INT(tr.n_tasks, 1);
}

static void test_a_resume_past_the_time_span_is_dropped(void) {
    trace_setup(EVENTS, TASKS);
    spawn(0, 1, 0, 0);
    spawn(1, 0, 0, 0);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run_once(&lp, 0), PT_OK); /* both run once */
    test_us += (uint64_t)UINT32_MAX + 1;           /* 71.6 minutes later */
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);         /* w[0] once more */
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 2);
    CHECK_EQ_INT(tr.dropped, 1);
}

static void test_a_resume_longer_than_the_time_span_lasts_uint32_max(void) {
    trace_setup(EVENTS, TASKS);
    spawn(0, 0, 0, (uint64_t)UINT32_MAX + 10);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, 1);
    CHECK(tr.events[0].dur_us == UINT32_MAX);
}

/* x at 0 ms, y at 100, another x at 200, an unnamed task at 300: tasks of
 * one name share a row, unnamed ones share "(other)". */
static void test_chart_has_a_row_per_name_in_the_order_of_first_runs(void) {
    static const char x1[] = "x", x2[] = "x"; /* one name, two strings */
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[0].task, x1), PT_OK);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[1].task, "y"), PT_OK);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[2].task, x2), PT_OK);
    spawn(0, 0, 0, 100000);
    spawn(1, 0, 0, 100000);
    spawn(2, 0, 0, 100000);
    spawn(3, 0, 0, 100000);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_STR(chart(61),
                 "timeline: 0 to 300 ms, 5.0 ms a column; # = the task ran then\n"
                 "  x       |#                                       #\n"
                 "  y       |                    #\n"
                 "  (other) |                                                            #\n"
                 "           +---------+---------+---------+---------+---------+---------+\n"
                 "           0 ms                                                   300 ms\n");
}

static void test_chart_leaves_out_names_past_its_rows_and_says_so(void) {
    static char names[PT_CONFIG_TRACE_CHART_ROWS + 2][8];
    int k;
    trace_setup(EVENTS, TASKS);
    for (k = 0; k < PT_CONFIG_TRACE_CHART_ROWS + 2; k++) {
        snprintf(names[k], sizeof names[k], "t%d", k);
        CHECK_EQ_INT(pt_trace_name(&tr, &w[k].task, names[k]), PT_OK);
        spawn(k, 0, 0, 1000);
    }
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    CHECK_EQ_INT(tr.n_events, PT_CONFIG_TRACE_CHART_ROWS + 2);
    CHECK(strstr(chart(61), "  t23  |") != NULL);
    CHECK(strstr(chart(61), "  t24  |") == NULL);
    CHECK(strstr(chart(61), "  (2 resumes of tasks past the chart's 24 rows not shown)\n") != NULL);
}

static void test_json_has_an_event_per_resume_and_names_every_task(void) {
    const char *j;
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[0].task, "A"), PT_OK);
    spawn(0, 1, 0, 7);
    spawn(1, 0, 0, 3);
    pt_trace_start(&tr);
    CHECK_EQ_INT(pt_loop_run(&lp), PT_OK);
    pt_trace_stop(&tr);
    j = json();
    CHECK(strstr(j, "\"traceEvents\": [\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
                    "\"tid\": 0, \"args\": {\"name\": \"test\"}},\n") != NULL);
    CHECK(strstr(j, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": "
                    "{\"name\": \"A\"}}") != NULL);
    CHECK(strstr(j, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"args\": "
                    "{\"name\": \"task 2\"}}") != NULL);
    CHECK(strstr(j,
                 "{\"name\": \"A\", \"cat\": \"task\", \"ph\": \"X\", \"ts\": 0, \"dur\": 7, "
                 "\"pid\": 1, \"tid\": 1},\n{\"name\": \"task 2\", \"cat\": \"task\", \"ph\": "
                 "\"X\", \"ts\": 7, \"dur\": 3, \"pid\": 1, \"tid\": 2},\n{\"name\": \"A\", "
                 "\"cat\": \"task\", \"ph\": \"X\", \"ts\": 10, \"dur\": 7, \"pid\": 1, \"tid\": "
                 "1}\n]}\n") != NULL);
    CHECK(strstr(j, "\"dropped\": 0") != NULL);
    CHECK(strstr(j, "\"ph\": \"i\"") == NULL);
}

static void test_json_escapes_names(void) {
    trace_setup(EVENTS, TASKS);
    CHECK_EQ_INT(pt_trace_name(&tr, &w[0].task, "say \"hi\"\\\n"), PT_OK);
    CHECK(strstr(json(), "{\"name\": \"say \\\"hi\\\"\\\\\\u000a\"}") != NULL);
}

static void test_json_that_cannot_be_written_is_esys(void) {
    FILE *ro = fopen("/dev/null", "r");
    trace_setup(EVENTS, TASKS);
    CHECK(ro != NULL);
    CHECK_EQ_INT(pt_trace_write_json(&tr, ro, NULL), PT_ESYS);
    fclose(ro);
}

#define TEST_CASES(X)                                                                              \
    X(init_refuses_missing_or_oversized_arrays)                                                    \
    X(nothing_is_recorded_before_start)                                                            \
    X(each_resume_is_one_event_in_the_order_of_the_runs)                                           \
    X(an_event_starts_at_the_resume_and_lasts_until_it_returns)                                    \
    X(tasks_keep_their_place_and_unnamed_ones_join_at_first_run)                                   \
    X(start_forgets_the_events_and_unnamed_tasks_but_keeps_the_names)                              \
    X(stop_ends_the_recording)                                                                     \
    X(a_full_event_buffer_counts_the_rest_as_dropped_and_says_so)                                  \
    X(a_full_task_table_drops_other_tasks_and_refuses_their_names)                                 \
    X(a_resume_past_the_time_span_is_dropped)                                                      \
    X(a_resume_longer_than_the_time_span_lasts_uint32_max)                                         \
    X(chart_has_a_row_per_name_in_the_order_of_first_runs)                                         \
    X(chart_leaves_out_names_past_its_rows_and_says_so)                                            \
    X(json_has_an_event_per_resume_and_names_every_task)                                           \
    X(json_escapes_names)                                                                          \
    X(json_that_cannot_be_written_is_esys)
TEST_MAIN(TEST_CASES)
