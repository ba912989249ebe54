/*
 * tests/check.h - the assertions of the test suite.
 *
 * A failed check prints file, line, the expression and both values, and
 * counts; main() ends with CHECK_DONE(), which prints "N passed, N failed"
 * and returns nonzero if anything failed. Needs only printf and strcmp, so
 * the same tests run on a host and on an emulated microcontroller.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static unsigned check_passed, check_failed;

static inline void check_result(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    printf("%s:%d: FAILED: %s\n", file, line, what);
}

#define CHECK(cond) check_result((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long check_a_ = (long)(a), check_b_ = (long)(b);                                           \
        check_result(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);                      \
        if (check_a_ != check_b_)                                                                  \
            printf("    left:  %ld\n    right: %ld\n", check_a_, check_b_);                        \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        int check_ok_ = check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0;                   \
        check_result(check_ok_, __FILE__, __LINE__, #a " == " #b);                                 \
        if (!check_ok_)                                                                            \
            printf("    left:  \"%s\"\n    right: \"%s\"\n", check_a_ ? check_a_ : "(null)",       \
                   check_b_ ? check_b_ : "(null)");                                                \
    } while (0)

/* Print the totals; the value to return from main(). */
#define CHECK_DONE() check_done(__FILE__)
static inline int check_done(const char *file) {
    printf("%s: %u passed, %u failed\n", file, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

/* A fixed-size text buffer that tests print into, to compare output. */
struct check_out {
    char buf[512];
    size_t len;
};

static inline void check_out_puts(struct check_out *o, const char *s) {
    while (*s && o->len + 1 < sizeof o->buf)
        o->buf[o->len++] = *s++;
    o->buf[o->len] = '\0';
}

#endif /* TESTS_CHECK_H */
