/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/runner.h - a test program as a list of named cases, reported as TAP.
 *
 * Each test program lists its cases in ONE place, an X-macro, and ends with
 * TEST_MAIN:
 *
 *   static void test_fifo_order(void) { ... CHECK(...); ... }
 *   ...
 *   #if PT_CONFIG_SYNC                   (a feature guard, written once:
 *   static void test_wake_order(void) { ... }   around the cases it keeps
 *   #define SYNC_CASES(X) X(wake_order)          and their list fragment)
 *   #else
 *   #define SYNC_CASES(X)
 *   #endif
 *
 *   #define TEST_CASES(X) X(fifo_order) SYNC_CASES(X)
 *   TEST_MAIN(TEST_CASES)
 *
 * X(name) names the function test_<name>; the case is reported as <name>.
 * The output is TAP (meson's `protocol: 'tap'`): "1..N", then per case
 * "ok K - name" or "not ok K - name", each failed check before it as a "#"
 * line. On a host, `prog NAME...` runs only the cases named (an unknown
 * name is an error); `prog --list` prints the names. On a board (no
 * command line) every case runs. The exit status is 0 if every case passed.
 *
 * A case runs in this process, after the ones before it; tests that must
 * isolate a case (test_io, test_net) define TEST_RUN_CASE(name, fn) before
 * including this file (tests/cases.h runs it in a child process).
 * TEST_MAIN_INIT(LIST, init) is TEST_MAIN that calls init() first, before
 * any output. On a host a case that cannot run there calls test_skip(why)
 * and returns: it is reported "ok K - name # SKIP why".
 */
#ifndef TESTS_RUNNER_H
#define TESTS_RUNNER_H

#include "check.h"

#ifndef TEST_RUN_CASE
#define TEST_RUN_CASE(name, fn) ((void)(name), (fn)())
#endif

struct test_case {
    const char *name; /* in flash on AVR */
    void (*fn)(void);
};

#if !CHECK_SMALL
/* Why the running case skipped itself; empty if it did not. */
static char test__skip_why[128];

static inline void test_skip(const char *why) {
    snprintf(test__skip_why, sizeof test__skip_why, "%s", why && *why ? why : "skipped");
}
#define TEST__SKIP_WHY test__skip_why
#else
#define TEST__SKIP_WHY "" /* no case skips itself on a board */
#endif

#ifdef __AVR__
#define TEST__FLASH PROGMEM
#define TEST__CASE_NAME(c) ((const char *)pgm_read_word(&(c)->name))
#define TEST__CASE_FN(c) ((void (*)(void))pgm_read_word(&(c)->fn))
/* The name is in flash: the host-side TEST_RUN_CASE is not used here. */
static inline void test__print_result(int ok, unsigned k, const char *name) {
    printf_P(ok ? PSTR("ok %u - %S\n") : PSTR("not ok %u - %S\n"), k, name);
}
static inline void test__print_plan(unsigned n) {
    printf_P(PSTR("1..%u\n"), n);
}
#else
#define TEST__FLASH
#define TEST__CASE_NAME(c) ((c)->name)
#define TEST__CASE_FN(c) ((c)->fn)
static inline void test__print_result(int ok, unsigned k, const char *name) {
    if (ok && TEST__SKIP_WHY[0])
        printf("ok %u - %s # SKIP %s\n", k, name, TEST__SKIP_WHY);
    else
        printf("%sok %u - %s\n", ok ? "" : "not ", k, name);
}
static inline void test__print_plan(unsigned n) {
    printf("1..%u\n", n);
}
#endif

/* Run case c as number k; nonzero if it passed. */
static inline int test__run(const struct test_case *c, unsigned k) {
    unsigned failed = check_failed;
    const char *name = TEST__CASE_NAME(c);
#if !CHECK_SMALL
    test__skip_why[0] = '\0';
#endif
    TEST_RUN_CASE(name, TEST__CASE_FN(c));
    test__print_result(check_failed == failed, k, name);
    return check_failed == failed;
}

#if CHECK_SMALL
static inline int test_main(const struct test_case *cases, unsigned n) {
    unsigned k, bad = 0;
    test__print_plan(n);
    for (k = 0; k < n; k++)
        bad += !test__run(&cases[k], k + 1);
    return bad != 0;
}
#define TEST__MAIN_FN(cases, n, init)                                                              \
    int main(void) {                                                                               \
        init();                                                                                    \
        return test_main((cases), (n));                                                            \
    }
#else
/* The cases named on the command line (all of them if none), in the order
 * of the list; an unknown name is reported and makes the run fail. */
static inline int test_main(const struct test_case *cases, unsigned n, int argc, char **argv) {
    unsigned k, run = 0, bad = 0;
    int a;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (k = 0; k < n; k++)
            printf("%s\n", cases[k].name);
        return 0;
    }
    for (a = 1; a < argc; a++) {
        for (k = 0; k < n && strcmp(cases[k].name, argv[a]) != 0; k++)
            ;
        if (k == n) {
            printf("no case named %s (--list names them)\n", argv[a]);
            return 2;
        }
    }
    for (k = 0; k < n; k++) {
        for (a = 1; a < argc && strcmp(cases[k].name, argv[a]) != 0; a++)
            ;
        run += argc == 1 || a < argc;
    }
    test__print_plan(run);
    run = 0;
    for (k = 0; k < n; k++) {
        for (a = 1; a < argc && strcmp(cases[k].name, argv[a]) != 0; a++)
            ;
        if (argc == 1 || a < argc)
            bad += !test__run(&cases[k], ++run);
    }
    return bad != 0;
}
#define TEST__MAIN_FN(cases, n, init)                                                              \
    int main(int argc, char **argv) {                                                              \
        init();                                                                                    \
        return test_main((cases), (n), argc, argv);                                                \
    }
#endif

#define TEST__NAME(n) static const char test__name_##n[] TEST__FLASH = #n;
#define TEST__ENTRY(n) {test__name_##n, test_##n},

static inline void test__no_init(void) {}

/* The program's main(): runs the cases of LIST (an X-macro, see above)... */
#define TEST_MAIN(LIST) TEST_MAIN_INIT(LIST, test__no_init)

/* ... after init() (the program's own set-up, before any output). */
#define TEST_MAIN_INIT(LIST, init)                                                                 \
    LIST(TEST__NAME)                                                                               \
    static const struct test_case test__cases[] TEST__FLASH = {LIST(TEST__ENTRY)};                 \
    TEST__MAIN_FN(test__cases, (unsigned)(sizeof test__cases / sizeof test__cases[0]), init)

#endif /* TESTS_RUNNER_H */
