/*
 * pt/lc_switch.h - local continuations as switch/case (Duff's device).
 * Included by pt/lc.h; see there. Portable C99. A protothread using this
 * back end must not contain switch statements of its own around a resume
 * point: the resume points are case labels of the dispatch switch.
 */
#ifndef PT_LC_SWITCH_H
#define PT_LC_SWITCH_H

typedef unsigned short pt_lc_t;

/* Case values 0xFFFE and 0xFFFF are reserved for the cleanup and end modes;
 * resume points are numbered 1 .. 0xFFFD. */
#define PT__LC_CASE_CLEANUP 0xFFFEu

#define PT_LC_INIT(s) ((s) = 0)

#define PT_LC_RESUME(s, mode)                                                                      \
    switch ((mode) == 0 ? (unsigned)(s) : 0xFFFDu + (unsigned)(mode)) {                            \
    case 0:

#define PT_LC_SET(s) PT__LC_SET_N((s), PT__LC_ID + 1)
#define PT__LC_SET_N(s, n)                                                                         \
    (s) = (n);                                                                                     \
    (void)sizeof(char[(n) < 0xFFFE ? 1 : -1]); /* resume point beyond line 65533 */                \
    PT__FALLTHROUGH;                                                                               \
    case (n):

#define PT_LC_CLEANUP                                                                              \
    PT__FALLTHROUGH;                                                                               \
    case PT__LC_CASE_CLEANUP:

#define PT_LC_END(s) }

#endif /* PT_LC_SWITCH_H */
