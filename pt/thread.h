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
 *    may enclose a resume point; define PT_LC_ADDRLABELS=1 to lift that.
 *  - Every macro that can stop the function (PT_YIELD, PT_WAIT_*, PT_SPAWN,
 *    PT_EXIT, ...) may only stand between PT_BEGIN and PT_END; elsewhere it
 *    fails to compile.
 *
 * Status codes and names are those of Adam Dunkels' protothreads 1.4, so
 * that code written for them compiles unchanged (see pt/compat/).
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

/* Set pt to the start of its function. Also what PT_END and PT_EXIT do. */
#define PT_INIT(pt) PT_LC_INIT((pt)->lc)

/*
 * Internal: the opening shared by PT_BEGIN and PT_GEN_BEGIN. The locals are
 * read by the other macros, which is also why those fail to compile outside
 * a PT_BEGIN/PT_END pair:
 *   pt__yf        1 on entry; set to 0 before a resume point, so "still 0
 *                 after it" means "reached in this call, not resumed";
 *   pt__mode      dispatch mode of PT_LC_RESUME (0 resume, 1 cleanup, 2 end);
 *   pt__final     the status PT_END returns;
 *   pt__state     generator state byte, NULL for a plain protothread;
 *   pt__in_cleanup 0 here, 1 inside a generator's PT_CLEANUP section;
 *   pt__st        scratch status of an awaited child.
 */
#define PT__BEGIN(pt, kind, statep, mode0, final0)                                                 \
    {                                                                                              \
        enum { kind = 1 };                                                                         \
        char pt__yf = 1;                                                                           \
        unsigned char pt__mode = (unsigned char)(mode0);                                           \
        char pt__final = (char)(final0);                                                           \
        unsigned char *const pt__state = (statep);                                                 \
        const char pt__in_cleanup = 0;                                                             \
        char pt__st = 0;                                                                           \
        (void)pt__yf;                                                                              \
        (void)pt__state;                                                                           \
        (void)pt__in_cleanup;                                                                      \
        (void)pt__st;                                                                              \
        goto pt__dispatch;                                                                         \
    pt__dispatch:                                                                                  \
        PT_LC_RESUME((pt)->lc, pt__mode) {

/* Internal: close the body opened by PT__BEGIN (and PT_CLEANUP). */
#define PT__BODY_END(pt)                                                                           \
    }                                                                                              \
    PT_LC_END((pt)->lc)

/* Start and end the body of a protothread function. */
#define PT_BEGIN(pt) PT__BEGIN((pt), pt__kind_plain, (unsigned char *)0, 0, PT_ENDED)
#define PT_END(pt)                                                                                 \
    PT__BODY_END(pt)                                                                               \
    (void)pt__kind_plain;                                                                          \
    PT_INIT(pt);                                                                                   \
    return pt__final;                                                                              \
    }

/* Wait while the condition is false. No stop at all if it already holds. */
#define PT_WAIT_UNTIL(pt, condition)                                                               \
    do {                                                                                           \
        (void)pt__yf; /* outside PT_BEGIN/PT_END: does not compile */                              \
        PT_LC_SET((pt)->lc);                                                                       \
        if (!(condition))                                                                          \
            return PT_WAITING;                                                                     \
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
            return PT_YIELDED;                                                                     \
    } while (0)

/* Give control back at least once, then until the condition holds. */
#define PT_YIELD_UNTIL(pt, cond)                                                                   \
    do {                                                                                           \
        pt__yf = 0;                                                                                \
        PT_LC_SET((pt)->lc);                                                                       \
        if ((pt__yf == 0) || !(cond))                                                              \
            return PT_YIELDED;                                                                     \
    } while (0)

/* Start over: the next call runs from PT_BEGIN. Returns PT_WAITING. */
#define PT_RESTART(pt)                                                                             \
    do {                                                                                           \
        PT_INIT(pt);                                                                               \
        if (pt__state)                                                                             \
            *pt__state &= (unsigned char)~(PT__GEN_IN_CLEANUP | PT__GEN_FINAL);                    \
        return PT_WAITING;                                                                         \
    } while (0)

/* Finish now with PT_EXITED (in a generator, after its PT_CLEANUP section). */
#define PT_EXIT(pt) PT__FINISH(PT_EXITED)

/* Internal: leave through the cleanup section (or past it, from inside it);
 * without a cleanup section, mode 1 matches no case and falls to the end. */
#define PT__FINISH(status)                                                                         \
    do {                                                                                           \
        pt__final = (char)(status);                                                                \
        pt__mode = pt__in_cleanup ? 2 : 1;                                                         \
        goto pt__dispatch;                                                                         \
    } while (0)

/* Generator state bits that PT_RESTART clears (see pt/gen.h). */
#define PT__GEN_FINAL 0x07u
#define PT__GEN_IN_CLEANUP 0x20u

#endif /* PT_THREAD_H */
