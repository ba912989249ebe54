/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/lc.h - local continuations: the saved resume point of a protothread.
 *
 * A local continuation (lc) records where a function stopped so that the
 * next call jumps straight back there. Two back ends, chosen at compile time
 * by ONE macro, defined identically in every translation unit of a program:
 *
 *   PT_CONFIG_LC_ADDRLABELS  undefined or 0: switch/case back end (Duff's device,
 *                     any C99 compiler); pt_lc_t is an unsigned short.
 *                     1: GCC/Clang labels-as-values back end; pt_lc_t is a
 *                     void *, and switch statements may be used freely
 *                     inside a protothread.
 *
 *   PT_CONFIG_LC_NO_COUNTER  define to 1 to name resume points by __LINE__ even
 *                     where the compiler has __COUNTER__ (tests use it).
 *
 * Resume points are numbered with __COUNTER__ where the compiler has it, so
 * two of them may stand on one source line; with only __LINE__ such a
 * duplicate is a compile error (duplicate case value or duplicate label),
 * never a silent misbehaviour. With the switch back end a resume point's
 * number (its __COUNTER__ + 1, or its __LINE__ + 1) must be below 0xFFFF:
 * with __LINE__, a line below 65534 (checked at compile time).
 *
 * Interface (used by pt/thread.h and pt/gen.h, not meant for user code):
 *   PT_LC_INIT(s)      set s to the start of the function: zero (0, or a
 *                      null pointer), so zeroed memory is at the start too;
 *   PT_LC_AT_START(s)  nonzero if s is at the start;
 *   PT_LC_RESUME(s)    open the dispatch: go to the resume point saved in s
 *                      (the start if none), or to the exit point if s was
 *                      set by PT_LC_SET_EXIT; (protothreads 1.4's: a value
 *                      the dispatch does not hold leaves it);
 *   PT_LC_DISPATCH(s, lost)  PT_LC_RESUME, but a value the dispatch does not
 *                      hold (switch back end: a resume point inside a
 *                      switch of the user's; the exit point where there is
 *                      none) goes to the label `lost`; a `default:` at the
 *                      top level of a body does not compile;
 *   PT_LC_IS_EXIT(s)   nonzero if s is the exit point;
 *   PT_LC_SET(s)       record a resume point here;
 *   PT_LC_SET_EXIT(s)  record the exit point in s (anywhere: no label);
 *   PT_LC_EXIT_POINT   the exit point, at most once in a function; without
 *                      one, a dispatch to it leaves the dispatch at once
 *                      (control goes on just after PT_LC_END);
 *   PT_LC_END(s)       close the dispatch.
 */
#ifndef PT_LC_H
#define PT_LC_H

/* A statement that tells -Wimplicit-fallthrough the fall is intended. */
#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define PT__FALLTHROUGH __attribute__((fallthrough))
#endif
#endif
#ifndef PT__FALLTHROUGH
#define PT__FALLTHROUGH ((void)0)
#endif

/* Scoped diagnostic control for the few GNU constructs the macros need. */
#if defined(__GNUC__)
#define PT__DIAG_PUSH _Pragma("GCC diagnostic push")
#define PT__DIAG_POP _Pragma("GCC diagnostic pop")
#define PT__DIAG_OFF_SHADOW _Pragma("GCC diagnostic ignored \"-Wshadow\"")
#else
#define PT__DIAG_PUSH
#define PT__DIAG_POP
#define PT__DIAG_OFF_SHADOW
#endif

#if defined(__COUNTER__) && !(defined(PT_CONFIG_LC_NO_COUNTER) && PT_CONFIG_LC_NO_COUNTER)
#define PT__LC_ID __COUNTER__
#else
#define PT__LC_ID __LINE__
#endif

#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
#include "lc_addrlabels.h"
#else
#include "lc_switch.h"
#endif

/* Both back ends: PT_LC_INIT sets zero (0 or a null pointer). */
#define PT_LC_AT_START(s) (!(s))

#endif /* PT_LC_H */
