/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/lc_switch.h - local continuations as switch/case (Duff's device).
 * Included by pt/lc.h; see there. Portable C99. A protothread using this
 * back end must not contain switch statements of its own around a resume
 * point: the resume points are case labels of the dispatch switch, so one
 * inside a switch of the user's is a label of that switch, which the
 * dispatch cannot reach; PT_LC_DISPATCH's `default:` catches the resume.
 */
#ifndef PT_LC_SWITCH_H
#define PT_LC_SWITCH_H

typedef unsigned short pt_lc_t;

/* 0 is the start, resume points are numbered 1 .. 0xFFFE, and 0xFFFF is
 * the exit point (a case value that no resume point can take). */
#define PT__LC_EXIT 0xFFFFu

#define PT_LC_INIT(s) ((s) = 0)

#define PT_LC_RESUME(s)                                                                            \
    switch (s) {                                                                                   \
    case 0:

/* The dispatch of pt/thread.h and pt/gen.h: a value that no case of the
 * dispatch holds (a resume point inside a switch of the user's, or the
 * exit point where there is none) goes to `lost`. A `default:` of the
 * user's at the top level of a body is then a second one: a compile
 * error. */
#define PT_LC_DISPATCH(s, lost)                                                                    \
    switch (s) {                                                                                   \
    default:                                                                                       \
        goto lost;                                                                                 \
    case 0:

#define PT_LC_IS_EXIT(s) ((s) == PT__LC_EXIT)

#define PT_LC_SET(s) PT__LC_SET_N((s), PT__LC_ID + 1)
#define PT__LC_SET_N(s, n)                                                                         \
    (s) = (n);                                                                                     \
    (void)sizeof(char[(n) < PT__LC_EXIT ? 1 : -1]); /* resume point numbered 0xFFFF or more */     \
    PT__FALLTHROUGH;                                                                               \
    case (n):

#define PT_LC_SET_EXIT(s) ((s) = PT__LC_EXIT)

#define PT_LC_EXIT_POINT                                                                           \
    PT__FALLTHROUGH;                                                                               \
    case PT__LC_EXIT:

#define PT_LC_END(s) }

#endif /* PT_LC_SWITCH_H */
