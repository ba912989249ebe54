/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/thread.h - protothreads: a C function that can stop and resume.
 *
 * A protothread is an ordinary function written between PT_BEGIN and PT_END.
 * Each call runs it from where it last stopped until it stops again, and
 * returns a status. Its whole saved state is a struct pt (one local
 * continuation: 2 bytes with the switch back end on 16/32-bit targets).
 *
 * Rules of the road:
 *  - Local variables do NOT survive a stop (yield or wait): keep anything
 *    that must outlive one in a struct the caller owns.
 *  - With the switch back end (the default) no switch statement of your own
 *    may enclose a resume point; define PT_CONFIG_LC_ADDRLABELS=1 to lift that.
 *    A resume there is not silent: the dispatch does not hold that point,
 *    and the protothread finishes as PT_EXIT does (PT_EXITED; a generator
 *    fails with PT_GEN_ELOST, pt/gen.h). A `default:` of your own at the
 *    top level of a body does not compile. (pt/compat keeps 1.4's rule:
 *    there such a resume leaves the dispatch and ends the function.)
 *  - Every macro that can stop the function (PT_YIELD, PT_WAIT_*, PT_SPAWN,
 *    PT_EXIT, ...) may only stand between PT_BEGIN and PT_END; elsewhere it
 *    fails to compile.
 *
 * Status codes, names and macros are those of Adam Dunkels' protothreads
 * 1.4, so that code written for them compiles unchanged (see pt/compat/),
 * with two compile-time checks added: the stopping macros use the yield
 * flag pt__yf or the label pt__exit, which only a PT_BEGIN/PT_END pair
 * declares; and PT_BEGIN declares an enum constant that only PT_END reads,
 * so that a body cannot be ended by another kind's end (pt/gen.h).
 */
#ifndef PT_THREAD_H
#define PT_THREAD_H

#include "lc.h"

/* The state of a protothread: where it resumes. Initialise with PT_INIT. */
struct pt {
    pt_lc_t lc;
};

/* Status returned by a protothread function (and by a generator). */
#define PT_WAITING 0 /* blocked in PT_WAIT_*: call again later */
#define PT_YIELDED 1 /* gave control back in PT_YIELD*: call again */
#define PT_EXITED 2  /* left through PT_EXIT */
#define PT_ENDED 3   /* reached PT_END */

/* Declare a protothread function: PT_THREAD(name(args)) { ... }. */
#define PT_THREAD(name_args) char name_args

/*
 * Internal: the status a stopping macro returns, PT__STOP(PT_YIELDED) and so
 * on: the status itself, or'ed with pt__status_mark, an enum constant that
 * is 0 here and that a loop task's body shadows with PT__STATUS_MARK
 * (loop/core.h), so that the loop tells a stop of the macros from a plain
 * `return` of the body's at the cost of the one test it makes anyway. In a
 * protothread or a generator the mark is 0: the statuses are 1.4's.
 */
enum { pt__status_mark = 0 };
/* The marked stops are 126 and 127: the only values of a signed char
 * from 126 up (one comparison), far from every status and from -1. */
#define PT__STATUS_MARK 0x7E
#define PT__STOP(status) ((char)((status) | pt__status_mark))

/* Set pt to the start of its function. Also what PT_END and PT_EXIT do. */
#define PT_INIT(pt) PT_LC_INIT((pt)->lc)

/*
 * Internal: the opening of a body, declaring `kind` (an enum constant that
 * only the matching end reads) and the yield flag pt__yf, Dunkels' 1 on
 * entry, set to 0 before a resume point: still 0 after it means "reached in
 * this call, not resumed". Every kind of body defines the label pt__exit,
 * where PT_EXIT goes (the `if (0)` keeps it used). `dispatch` opens the
 * local continuation's dispatch (PT_LC_DISPATCH, or 1.4's PT_LC_RESUME).
 */
#define PT__BEGIN(pt, kind, dispatch)                                                              \
    {                                                                                              \
        enum { kind = 1 };                                                                         \
        char pt__yf = 1;                                                                           \
        (void)pt__yf;                                                                              \
        if (0)                                                                                     \
            goto pt__exit;                                                                         \
        dispatch

/* Start and end the body of a protothread function. A resume point the
 * dispatch does not hold (inside a switch of the user's) exits. */
#define PT_BEGIN(pt) PT__BEGIN((pt), pt__kind_plain, PT_LC_DISPATCH((pt)->lc, pt__exit))
#define PT_END(pt)                                                                                 \
    (void)pt__kind_plain;                                                                          \
    PT_LC_END((pt)->lc)                                                                            \
    PT_INIT(pt);                                                                                   \
    return PT_ENDED;                                                                               \
    pt__exit:                                                                                      \
    PT_INIT(pt);                                                                                   \
    return PT_EXITED;                                                                              \
    }

/* Wait while the condition is false. No stop at all if it already holds. */
#define PT_WAIT_UNTIL(pt, condition)                                                               \
    do {                                                                                           \
        (void)pt__yf; /* outside PT_BEGIN/PT_END: does not compile */                              \
        PT_LC_SET((pt)->lc);                                                                       \
        if (!(condition))                                                                          \
            return PT__STOP(PT_WAITING);                                                           \
    } while (0)

#define PT_WAIT_WHILE(pt, cond) PT_WAIT_UNTIL((pt), !(cond))

/* Nonzero while a protothread call's status says it has not finished. */
#define PT_SCHEDULE(f) ((f) < PT_EXITED)

/* Wait until the child protothread (the call `thread`) has finished. */
#define PT_WAIT_THREAD(pt, thread) PT_WAIT_WHILE((pt), PT_SCHEDULE(thread))

/* Initialise the child's state, then run it to its end. */
#define PT_SPAWN(pt, child, thread)                                                                \
    do {                                                                                           \
        PT_INIT((child));                                                                          \
        PT_WAIT_THREAD((pt), (thread));                                                            \
    } while (0)

/* Give control back once; the next call continues after this point. */
#define PT_YIELD(pt)                                                                               \
    do {                                                                                           \
        pt__yf = 0;                                                                                \
        PT_LC_SET((pt)->lc);                                                                       \
        if (pt__yf == 0)                                                                           \
            return PT__STOP(PT_YIELDED);                                                           \
    } while (0)

/* Give control back at least once, then until the condition holds. */
#define PT_YIELD_UNTIL(pt, cond)                                                                   \
    do {                                                                                           \
        pt__yf = 0;                                                                                \
        PT_LC_SET((pt)->lc);                                                                       \
        if ((pt__yf == 0) || !(cond))                                                              \
            return PT__STOP(PT_YIELDED);                                                           \
    } while (0)

/* Start over: the next call runs from PT_BEGIN. Returns PT_WAITING. */
#define PT_RESTART(pt)                                                                             \
    do {                                                                                           \
        (void)pt__yf; /* outside PT_BEGIN/PT_END: does not compile */                              \
        PT_INIT(pt);                                                                               \
        return PT__STOP(PT_WAITING);                                                               \
    } while (0)

/* Finish now with PT_EXITED: to the label pt__exit, which every kind of
 * body defines (PT_END's returns PT_EXITED). */
#define PT_EXIT(pt)                                                                                \
    do {                                                                                           \
        goto pt__exit;                                                                             \
    } while (0)

#endif /* PT_THREAD_H */
