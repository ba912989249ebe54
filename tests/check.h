/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/check.h - the assertions of the test suite.
 *
 * A failed check prints file, line, the expression and both values, each
 * line a TAP comment ("# ..."), and counts; tests/runner.h reports each
 * case as passed if no check failed in it. Needs only printf and strcmp,
 * so the same tests run on a host and on an emulated microcontroller.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

/*
 * CHECK_SMALL: 1 on a small target (no hosted OS: a microcontroller with
 * 2 to 16 KiB of RAM), 0 on a host. Tests size their big arrays with
 * CHECK_SCALE(host size, small size). -DCHECK_SMALL=0 or 1 overrides.
 */
#ifndef CHECK_SMALL
#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#define CHECK_SMALL 0
#else
#define CHECK_SMALL 1
#endif
#endif
#define CHECK_SCALE(host, small) (CHECK_SMALL ? (small) : (host))

static unsigned check_passed, check_failed;

#ifndef __AVR__

static inline void check_result(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    printf("# %s:%d: FAILED: %s\n", file, line, what);
}

#define CHECK(cond) check_result((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long check_a_ = (long)(a), check_b_ = (long)(b);                                           \
        check_result(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);                      \
        if (check_a_ != check_b_)                                                                  \
            printf("#     left:  %ld\n#     right: %ld\n", check_a_, check_b_);                    \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        int check_ok_ = check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0;                   \
        check_result(check_ok_, __FILE__, __LINE__, #a " == " #b);                                 \
        if (!check_ok_)                                                                            \
            printf("#     left:  \"%s\"\n#     right: \"%s\"\n", check_a_ ? check_a_ : "(null)",   \
                   check_b_ ? check_b_ : "(null)");                                                \
    } while (0)

#else /* __AVR__ */

/*
 * AVR (32 KiB flash, 2 KiB RAM): the same checks and the same output, but
 * every string literal would be copied into RAM at startup, and three or
 * four arguments per check cost some 40 bytes of code each. So each check
 * is one short call with its site, a struct in flash: the line, then
 * "X\0Y\0FILE", the expression (X) or the two sides (X == Y), and the file,
 * empty when it is the test's own, kept once in check_base_file.
 * CHECK_EQ_STR's expected value b must be a string literal: it stays in
 * flash too. GNU C where avr-libc needs it (PROGMEM, PSTR, statement
 * expressions); __builtin_strcmp of two literals is folded by the compiler,
 * which keeps one of the two sites.
 */
#include <avr/pgmspace.h>

#define CHECK_SITE_(str)                                                                           \
    (__extension__({                                                                               \
        static const struct {                                                                      \
            int line;                                                                              \
            char text[sizeof(str)];                                                                \
        } check_site_ PROGMEM = {__LINE__, str};                                                   \
        &check_site_.line;                                                                         \
    }))
#define CHECK_SITE(x, y)                                                                           \
    (__builtin_strcmp(__FILE__, __BASE_FILE__) == 0 ? CHECK_SITE_(x "\0" y "\0")                   \
                                                    : CHECK_SITE_(x "\0" y "\0" __FILE__))
#define CHECK_FN static __attribute__((unused, noinline))

static const char check_base_file[] PROGMEM = __BASE_FILE__;

static inline const char *check_next_P(const char *s) {
    return s + strlen_P(s) + 1;
}

CHECK_FN void check_at(const int *site, int ok) {
    const char *x = (const char *)(site + 1), *y, *file;
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    y = check_next_P(x);
    file = check_next_P(y);
    printf_P(PSTR("# %S:%d: FAILED: %S"), pgm_read_byte(file) ? file : check_base_file,
             (int)pgm_read_word(site), x);
    if (pgm_read_byte(y))
        printf_P(PSTR(" == %S"), y);
    putchar('\n');
}

CHECK_FN void check_eq_int_at(const int *site, long a, long b) {
    check_at(site, a == b);
    if (a != b)
        printf_P(PSTR("#     left:  %ld\n#     right: %ld\n"), a, b);
}

/* b in flash. */
CHECK_FN void check_eq_str_at(const int *site, const char *a, const char *b) {
    int ok = a && strcmp_P(a, b) == 0;
    check_at(site, ok);
    if (!ok)
        printf_P(PSTR("#     left:  \"%s\"\n#     right: \"%S\"\n"), a ? a : "(null)", b);
}

#define CHECK(cond) check_at(CHECK_SITE(#cond, ""), (cond) ? 1 : 0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long check_a_ = (long)(a), check_b_ = (long)(b);                                           \
        check_eq_int_at(CHECK_SITE(#a, #b), check_a_, check_b_);                                   \
    } while (0)

#define CHECK_EQ_STR(a, b) check_eq_str_at(CHECK_SITE(#a, #b), (a), PSTR(b))

#endif /* __AVR__ */

/* A fixed-size text buffer that tests print into, to compare output. Small:
 * longer than any expected text, so a cut one never compares equal. */
struct check_out {
    char buf[CHECK_SCALE(512, 64)];
    size_t len;
};

static inline void check_out_puts(struct check_out *o, const char *s) {
    while (*s && o->len + 1 < sizeof o->buf)
        o->buf[o->len++] = *s++;
    o->buf[o->len] = '\0';
}

#endif /* TESTS_CHECK_H */
