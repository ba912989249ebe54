/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/lc_addrlabels.h - local continuations as GCC/Clang labels-as-values.
 * Included by pt/lc.h when PT_CONFIG_LC_ADDRLABELS is 1; see there. A resume point
 * is a label whose address is saved; resuming is one computed goto. The
 * protothread body may contain switch statements of its own.
 *
 * The two GNU constructs are wrapped in scoped pragmas so that user code
 * stays clean under -Wpedantic (and under GCC 12's -Wdangling-pointer, which
 * mistakes a saved label address for a pointer to a local).
 */
#ifndef PT_LC_ADDRLABELS_H
#define PT_LC_ADDRLABELS_H

#if !defined(__GNUC__)
#error "PT_CONFIG_LC_ADDRLABELS needs a compiler with labels as values (GCC, Clang)"
#endif

typedef void *pt_lc_t;

#if !defined(__clang__) && __GNUC__ >= 12
#define PT__LC_GNU_BEGIN                                                                           \
    PT__DIAG_PUSH _Pragma("GCC diagnostic ignored \"-Wpedantic\"")                                 \
        _Pragma("GCC diagnostic ignored \"-Wdangling-pointer\"")
#else
#define PT__LC_GNU_BEGIN PT__DIAG_PUSH _Pragma("GCC diagnostic ignored \"-Wpedantic\"")
#endif

/* A null pointer is the start; the exit point is 1, which no label's
 * address is (page zero on a host, the vector table on a chip); the
 * dispatch is a switch on it. */
#define PT__LC_EXIT ((void *)1)

#define PT_LC_INIT(s) ((s) = (void *)0)

#define PT_LC_RESUME(s)                                                                            \
    switch ((s) == PT__LC_EXIT ? 1 : 0) {                                                          \
    case 0:                                                                                        \
        if ((s) != (void *)0) {                                                                    \
            PT__LC_GNU_BEGIN goto *(s);                                                            \
            PT__DIAG_POP                                                                           \
        }                                                                                          \
        /* Clang refuses a computed goto in a function that takes no label's                       \
         * address: take one, for protothreads without a resume point. */                          \
        PT__LC_GNU_BEGIN pt__lc_start : (void)&&pt__lc_start;                                      \
        PT__DIAG_POP

/* A label's address is never lost: `lost` is never reached (the exit
 * point where there is none leaves the dispatch, as PT_LC_RESUME's). */
#define PT_LC_DISPATCH(s, lost)                                                                    \
    if (0)                                                                                         \
        goto lost;                                                                                 \
    PT_LC_RESUME(s)

#define PT_LC_IS_EXIT(s) ((s) == PT__LC_EXIT)

#define PT_LC_SET(s) PT__LC_SET_N((s), PT__LC_ID)
#define PT__LC_SET_N(s, n) PT__LC_SET_L((s), n)
#define PT__LC_SET_L(s, n)                                                                         \
    pt__lc_label_##n : PT__LC_GNU_BEGIN(s) = &&pt__lc_label_##n;                                   \
    PT__DIAG_POP

#define PT_LC_SET_EXIT(s) ((s) = PT__LC_EXIT)

#define PT_LC_EXIT_POINT                                                                           \
    PT__FALLTHROUGH;                                                                               \
    case 1:

#define PT_LC_END(s) }

#endif /* PT_LC_ADDRLABELS_H */
