/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/gen.h - generators: protothreads that take values in and give values
 * out, the way a Python generator does with send(), yield and return.
 *
 *   Python                          C (struct pt_gen g; child c)
 *   g = gen()      (nothing runs)   pt_gen_init(&g);
 *   v = g.send(x)                   st = pt_gen_send(&g, x, gen(&g)); v = g.value;
 *   next(g)                         st = pt_gen_next(&g, gen(&g));
 *   x = yield v    (inside)         PT_YIELD_VALUE(g, v); x = g->value;
 *   return r       (inside)         PT_RETURN(g, r);
 *   StopIteration.value             st == PT_ENDED, then g.value
 *   r = await c / yield from c      PT_AWAIT(g, &c, child(&c)); r = c.value;
 *   g.close()      + finally:       pt_gen_close(&g, gen(&g));  PT_CLEANUP(g)
 *   g.throw(E)                      st = pt_gen_throw(&g, err, gen(&g));
 *   except E: (at the yield)        if ((e = pt_gen_thrown(g)) != 0) ...
 *   raise E                         PT_FAIL(g, pt_value_int(err));
 *   r = await c  (c raises: raise)  PT_AWAIT_RAISE(g, &c, child(&c));
 *
 * One value slot carries both directions: the driver writes the value it
 * sends just before resuming; the generator writes the value it yields or
 * returns just before stopping. Copy a received value into your own state if
 * it must outlive the next stop.
 *
 * Statuses: PT_WAITING and PT_YIELDED while alive (a yield gives a value, a
 * wait does not); then for good PT_ENDED (end or PT_RETURN), PT_EXITED
 * (PT_EXIT, or failed: PT_FAIL, whose error value is then in g.value) or
 * PT_CLOSED (closed).
 *
 * Errors are values, not jumps: an error thrown in (pt_gen_throw) is seen at
 * the resume point (pt_gen_thrown), where the generator handles it or
 * finishes with it (PT_FAIL); a child's failure reaches its awaiter as the
 * child's status, and PT_AWAIT_RAISE passes it on up in one macro. A
 * finished generator is never run again: pt_gen_send / pt_gen_next / pt_gen_close on
 * it return its final status and leave the result in g.value untouched.
 *
 * Closing a suspended generator resumes it just long enough to run its
 * PT_CLEANUP section (exactly once); if it is suspended inside PT_AWAIT, the
 * child is closed first, so cleanups run innermost first. Closing one that
 * has not started marks it closed without running anything (as in Python).
 */
#ifndef PT_GEN_H
#define PT_GEN_H

#include <stdint.h>

#include "thread.h"

#define PT_CLOSED 4 /* closed by pt_gen_close (or cancelled by a loop) */

/* The error value (g.value.i) of a generator that failed because it was
 * resumed at a point its dispatch does not hold: with the switch back end,
 * a resume point inside a switch of the user's. A loop task fails with it
 * as PT_ELOST (the same number, loop/result.h). */
#define PT_GEN_ELOST (-14)

/* A value passed in or out: an integer, a pointer or a string. */
typedef union pt_value {
    intptr_t i;
    void *p;
    const char *s;
} pt_value;

static inline pt_value pt_value_int(intptr_t i) {
    pt_value v;
    v.i = i;
    return v;
}
static inline pt_value pt_value_ptr(void *p) {
    pt_value v;
    v.p = p;
    return v;
}
static inline pt_value pt_value_str(const char *s) {
    pt_value v;
    v.s = s;
    return v;
}
#define PT_NONE pt_value_int(0)

/* PT_CONFIG_GEN_AUX32: 1 where struct pt_gen has `aux32`, a second word for the
 * driver, in the four bytes that the value slot's alignment leaves free
 * after `aux` on a 64-bit target; 0 on narrower ones, where it would make
 * every generator bigger. It changes the layout, so every file of a
 * program must see the same value: without UINTPTR_MAX (C++ before C++11
 * without __STDC_LIMIT_MACROS) it would silently be 0, hence the error. */
#ifndef PT_CONFIG_GEN_AUX32
#ifndef UINTPTR_MAX
#error "pt/gen.h: <stdint.h> defines no UINTPTR_MAX (C++: C++11, or __STDC_LIMIT_MACROS)"
#elif UINTPTR_MAX > 0xFFFFFFFFu
#define PT_CONFIG_GEN_AUX32 1
#else
#define PT_CONFIG_GEN_AUX32 0
#endif
#endif

/*
 * A generator: where it resumes, its life-cycle state, the value slot, and
 * the result. The result has a slot of its own because the cleanup section
 * may yield and wait, which moves values through `value`: what PT_RETURN
 * gave must survive that (Python keeps a return value across a `finally`
 * that yields). It is copied into `value` when the generator finishes.
 */
struct pt_gen {
    pt_lc_t lc;
    unsigned char state; /* PT__GEN_* below; read it through pt_gen_* */
    unsigned char aux;   /* free for the driver (the loop keeps task flags here) */
#if PT_CONFIG_GEN_AUX32
    uint32_t aux32; /* free for the driver (the loop: the task's timer slot) */
#endif
    pt_value value;
    pt_value ret; /* set by PT_RETURN (or a loop task's PT_TASK_FAIL) */
};

/*
 * The state byte, three fields:
 *   bits 0-2  the status it finishes with: 0 in the body, until an exit
 *             sets one on its way out (PT_EXITED, or PT__GEN_RETURNED /
 *             PT__GEN_FAILED, which finish with a result in `ret`); in the
 *             cleanup section, how the body finished; once DONE, the final
 *             status (PT_ENDED, PT_EXITED or PT_CLOSED);
 *   bits 3-4  flags: CLOSING (a close is pending or running: it finishes
 *             PT_CLOSED), AWAITING (stopped inside PT_AWAIT's child);
 *   bits 5-6  the life cycle, below (zeroed memory is NEW); bit 7 is 0,
 *             so that the byte compares as the life cycle: state >= CLEANUP
 *             is "past the body", state >= DONE "finished".
 */
enum pt__gen_life {
    PT__GEN_NEW = 0x00,     /* created, not run yet */
    PT__GEN_RUNNING = 0x20, /* in its body */
    PT__GEN_CLEANUP = 0x40, /* in its PT_CLEANUP section */
    PT__GEN_DONE = 0x60     /* finished, whichever way: never runs again */
};
#define PT__GEN_STATUS 0x07u
#define PT__GEN_CLOSING 0x08u
#define PT__GEN_AWAITING 0x10u
#define PT__GEN_LIFE 0x60u
/* The statuses of a body that finishes with a result in `ret`: */
#define PT__GEN_RETURNED 5 /* PT_ENDED with it (PT_RETURN) */
#define PT__GEN_FAILED 6   /* PT_EXITED with it (PT_FAIL) */
/* In the body, until the next resume: an error was thrown in (value.i). */
#define PT__GEN_THROWN 7

#define pt__gen_life(s) ((s)&PT__GEN_LIFE)

/* Create without running: the first pt_gen_send/pt_gen_next runs from the top. */
static inline void pt_gen_init(struct pt_gen *g) {
    PT_LC_INIT(g->lc);
    g->state = PT__GEN_NEW;
    g->aux = 0;
#if PT_CONFIG_GEN_AUX32
    g->aux32 = 0;
#endif
    g->value = PT_NONE;
    g->ret = PT_NONE;
}

/* Nonzero once the generator has finished, whichever way. */
static inline int pt_gen_done(const struct pt_gen *g) {
    return g->state >= PT__GEN_DONE;
}

/* Final status (PT_ENDED, PT_EXITED, PT_CLOSED), or 0 while alive. */
static inline char pt_gen_status(const struct pt_gen *g) {
    return pt_gen_done(g) ? (char)(g->state & PT__GEN_STATUS) : 0;
}

/* Internal: finish one that has not started, without running it. */
static inline char pt__gen_close_new(struct pt_gen *g) {
    g->state = PT__GEN_DONE | PT_CLOSED;
    g->value = PT_NONE;
    return PT_CLOSED;
}

/* Internal: a resume clears the mark of an error thrown in before. */
static inline void pt__gen_unthrow(struct pt_gen *g) {
    if ((g->state & (PT__GEN_LIFE | PT__GEN_STATUS)) == (PT__GEN_RUNNING | PT__GEN_THROWN))
        g->state &= (unsigned char)~PT__GEN_STATUS;
}

/* Internal: the driver side of send, close and throw. Nonzero: go and
 * call it. */
static inline int pt__gen_send(struct pt_gen *g, pt_value v) {
    if (pt_gen_done(g))
        return 0;
    pt__gen_unthrow(g);
    g->value = v;
    return 1;
}
static inline int pt__gen_close(struct pt_gen *g) {
    if (pt_gen_done(g))
        return 0;
    pt__gen_unthrow(g);
    if (pt__gen_life(g->state) == PT__GEN_NEW) {
        (void)pt__gen_close_new(g);
        return 0;
    }
    g->state |= PT__GEN_CLOSING;
    if (pt__gen_life(g->state) == PT__GEN_CLEANUP) /* the body's result goes: it ends closed */
        g->state = (unsigned char)((g->state & ~PT__GEN_STATUS) | PT_ENDED);
    return 1;
}

static inline int pt__gen_throw(struct pt_gen *g, intptr_t err) {
    unsigned char life = pt__gen_life(g->state);
    if (pt_gen_done(g))
        return 0;
    g->value.i = err;
    if (life == PT__GEN_NEW) { /* fails without running, as in Python */
        g->state = PT__GEN_DONE | PT_EXITED;
        return 0;
    }
    if (life == PT__GEN_RUNNING) {
        g->state = (unsigned char)((g->state & ~PT__GEN_STATUS) | PT__GEN_THROWN);
    } else { /* in its cleanup section: it finishes failed with err */
        g->ret = g->value;
        g->state = (unsigned char)((g->state & ~PT__GEN_STATUS) | PT__GEN_FAILED);
    }
    return 1;
}

/* The error thrown in at this resume (pt_gen_throw), or 0: inside the
 * generator, at its resume point. */
static inline intptr_t pt_gen_thrown(const struct pt_gen *g) {
    return (g->state & (PT__GEN_LIFE | PT__GEN_STATUS)) == (PT__GEN_RUNNING | PT__GEN_THROWN)
               ? g->value.i
               : 0;
}

/* Internal: PT_AWAIT passes an error thrown into g on to its child. */
static inline void pt__gen_pass_throw(struct pt_gen *g, struct pt_gen *child) {
    if (pt_gen_thrown(g)) {
        g->state &= (unsigned char)~PT__GEN_STATUS;
        (void)pt__gen_throw(child, g->value.i);
    }
}

/*
 * Internal: entry of a generator call. Nonzero if it has finished (then
 * nothing runs). A local continuation at the start is a start, or a start
 * over after PT_RESTART: RUNNING, no status. A close goes through the exit
 * point to the cleanup section, unless that runs already or the close is
 * passed on to an awaited child first. The common case (running, not
 * closing) is one test of the state byte.
 */
static inline int pt__gen_enter_slow(struct pt_gen *g) {
    unsigned char s = g->state;
    if (s >= PT__GEN_DONE)
        return 1;
    if (PT_LC_AT_START(g->lc))
        s = (unsigned char)((s & PT__GEN_CLOSING) | PT__GEN_RUNNING);
    if ((s & (PT__GEN_LIFE | PT__GEN_CLOSING | PT__GEN_AWAITING)) ==
        (PT__GEN_RUNNING | PT__GEN_CLOSING))
        PT_LC_SET_EXIT(g->lc); /* closing: to the cleanup section */
    g->state = s;
    return 0;
}
static inline int pt__gen_enter(struct pt_gen *g) {
    if ((g->state & (PT__GEN_LIFE | PT__GEN_CLOSING)) == PT__GEN_RUNNING)
        return 0;
    return pt__gen_enter_slow(g);
}

/* Internal: set the status it finishes with. */
static inline void pt__gen_set_status(struct pt_gen *g, unsigned char status) {
    g->state = (unsigned char)((g->state & ~PT__GEN_STATUS) | status);
}

/* Internal: the cleanup section begins, at the end of the body or through
 * the exit point (an exit, or a close). */
static inline void pt__gen_cleanup(struct pt_gen *g) {
    unsigned char s = g->state;
    if (!(s & PT__GEN_STATUS) || (s & PT__GEN_STATUS) == PT__GEN_THROWN) /* (handled) */
        s = (unsigned char)((s & ~PT__GEN_STATUS) | PT_ENDED);
    g->state = (unsigned char)((s & ~PT__GEN_LIFE) | PT__GEN_CLEANUP);
}

/* Internal: PT_GEN_END's bookkeeping; returns the final status. A close
 * finishes it PT_CLOSED, unless its cleanup section finished it with a
 * result (PT_RETURN, PT_FAIL: only the cleanup can while closing), as a
 * `return` or a `raise` in a `finally` replaces the exception going
 * through it. */
static inline char pt__gen_finish(struct pt_gen *g) {
    unsigned char s = g->state;
    char status = (char)(s & PT__GEN_STATUS);
    g->value = PT_NONE;
    if ((s & PT__GEN_CLOSING) && status < PT__GEN_RETURNED)
        status = PT_CLOSED;
    else if (status >= PT__GEN_RETURNED) {
        g->value = g->ret;
        status = status == PT__GEN_RETURNED ? PT_ENDED : PT_EXITED;
    } else if (!status)
        status = PT_ENDED;
    PT_LC_INIT(g->lc);
    g->state = (unsigned char)(PT__GEN_DONE | status);
    return status;
}

/* Resume g with value v: pt_gen_send(&g, v, fn(&g, ...)) -> status. A first
 * send with a value starts g from the top, v in g->value there (Python
 * raises TypeError: there is no exception to raise, and v does no harm). */
#define pt_gen_send(g, v, call) (pt__gen_send((g), (v)) ? (char)(call) : pt_gen_status(g))
/* Resume g with no value, as next() does. */
#define pt_gen_next(g, call) pt_gen_send((g), PT_NONE, call)
/* Close g, running its cleanup; PT_CLOSED once done (PT_ENDED or PT_EXITED
 * if the cleanup finishes it with PT_RETURN or PT_FAIL). If the cleanup
 * itself waits, this returns PT_WAITING/PT_YIELDED: close (or send) again. */
#define pt_gen_close(g, call) (pt__gen_close(g) ? (char)(call) : pt_gen_status(g))
/*
 * char pt_gen_throw(struct pt_gen *g, intptr_t err, call) -> status
 * Throw error err (nonzero) into g, as g.throw() does: g resumes at its
 * resume point, where pt_gen_thrown(g) is err and g->value.i too; it may
 * handle it and go on, or finish with it (PT_FAIL). Stopped inside
 * PT_AWAIT, the error goes to the innermost child first. Not started: g
 * fails with err without running. In its cleanup section: the cleanup goes
 * on, and g then fails with err. Finished: nothing runs.
 */
#define pt_gen_throw(g, err, call) (pt__gen_throw((g), (err)) ? (char)(call) : pt_gen_status(g))

/*
 * Start and end the body of a generator function. Every way out but the
 * end sets the status to finish with and goes to pt__leave in PT_GEN_END
 * (PT_EXIT by way of pt__exit, which sets PT_EXITED; a resume point that
 * the dispatch does not hold by way of pt__lost, which fails with
 * PT_GEN_ELOST, unless it is the exit point of a body without a cleanup
 * section, which finishes): from the body, if
 * there is a cleanup section, it dispatches again, to the exit point, which
 * PT_CLEANUP is; otherwise, and from the cleanup section, it finishes. That
 * there is one is known at compile time: the enum constant
 * pt__gen_cleanup_here is 0, and 1 after PT_CLEANUP, which shadows it.
 */
#define PT_GEN_BEGIN(g)                                                                            \
    enum { pt__gen_cleanup_here = 0 };                                                             \
    if (pt__gen_enter(g))                                                                          \
        return pt_gen_status(g);                                                                   \
    pt__dispatch:                                                                                  \
    PT__BEGIN((g), pt__kind_gen, PT_LC_DISPATCH((g)->lc, pt__lost))
/* Internal: PT_GEN_BEGIN for a body whose driver does pt__gen_enter's work
 * before the call (a loop task's: pt__run_next). It is called NEW or
 * RUNNING and not closing, in its cleanup section, or closing with its
 * local continuation set to the exit point already; a NEW one becomes
 * RUNNING at the start. */
#define PT__GEN_BEGIN_ENTERED(g)                                                                   \
    enum { pt__gen_cleanup_here = 0 };                                                             \
    pt__dispatch:                                                                                  \
    PT__BEGIN((g), pt__kind_gen, PT_LC_DISPATCH((g)->lc, pt__lost))                                \
    (g)->state |= PT__GEN_RUNNING;
#define PT_GEN_END(g)                                                                              \
    (void)pt__kind_gen;                                                                            \
    goto pt__end;                                                                                  \
    pt__exit:                                                                                      \
    pt__gen_set_status((g), PT_EXITED);                                                            \
    goto pt__leave;                                                                                \
    pt__lost:                                                                                      \
    if (PT_LC_IS_EXIT((g)->lc))                                                                    \
        goto pt__end;                                                                              \
    (g)->ret = pt_value_int(PT_GEN_ELOST);                                                         \
    pt__gen_set_status((g), PT__GEN_FAILED);                                                       \
    goto pt__leave;                                                                                \
    pt__leave:                                                                                     \
    if (pt__gen_cleanup_here && pt__gen_life((g)->state) == PT__GEN_RUNNING) {                     \
        PT_LC_SET_EXIT((g)->lc);                                                                   \
        goto pt__dispatch;                                                                         \
    }                                                                                              \
    PT_LC_END((g)->lc)                                                                             \
    pt__end:                                                                                       \
    return pt__gen_finish(g);                                                                      \
    }

/*
 * PT_CLEANUP(g): optional, at most once, directly in the body of a generator
 * (not inside a block of your own), just before PT_GEN_END. What follows is
 * the generator's "finally": it runs exactly once however the body finishes
 * (reaching the end, PT_RETURN, PT_EXIT, or being closed). It may wait,
 * yield or await; a close arriving meanwhile lets it go on. PT_EXIT inside
 * it ends the generator at once.
 */
#define PT_CLEANUP(g)                                                                              \
    (void)pt__kind_gen;                                                                            \
    PT_LC_EXIT_POINT                                                                               \
    pt__gen_cleanup(g);                                                                            \
    PT__DIAG_PUSH PT__DIAG_OFF_SHADOW enum { pt__gen_cleanup_here = 1 };                           \
    PT__DIAG_POP

/* Yield v to the driver; on resume g->value holds what was sent. */
#define PT_YIELD_VALUE(g, v)                                                                       \
    do {                                                                                           \
        (g)->value = (v);                                                                          \
        PT_YIELD(g);                                                                               \
    } while (0)

/* Internal: leave the body (or the cleanup section) with `status`. */
#define PT__GEN_FINISH(g, status)                                                                  \
    do {                                                                                           \
        pt__gen_set_status((g), (status));                                                         \
        goto pt__leave;                                                                            \
    } while (0)

/* Fail with error value v (a pt_value, as PT_RETURN's): the generator
 * finishes PT_EXITED, after its cleanup section, with v in g->value. */
#define PT_FAIL(g, v)                                                                              \
    do {                                                                                           \
        (g)->ret = (v);                                                                            \
        PT__GEN_FINISH((g), PT__GEN_FAILED);                                                       \
    } while (0)

/* Finish with result v (after running the cleanup section, if any: its
 * yields and waits leave v alone). In the cleanup section, a PT_RETURN
 * replaces the result, as a `return` in Python's `finally` does, a close's
 * too: the generator (a cancelled task) then ends PT_ENDED, not closed. */
#define PT_RETURN(g, v)                                                                            \
    do {                                                                                           \
        (g)->ret = (v);                                                                            \
        PT__GEN_FINISH((g), PT__GEN_RETURNED);                                                     \
    } while (0)

/*
 * PT_AWAIT(g, child, call): run the child generator to its end, as `await`
 * / `yield from` does. The child is initialised here (create, then start).
 * While it runs, each of its stops is a stop of g with the same status and
 * value, and each value sent to g is sent on to it. When it finishes, g
 * continues and child->value is its result. If g is closed meanwhile, the
 * child is closed first, then g's cleanup runs; the child is resumed with
 * g's value, so a loop task's sub-coroutine sees the wait it was in end
 * with PT_ECANCELLED. An await inside the cleanup section is not
 * interrupted by a close: the cleanup goes on.
 */
#define PT_AWAIT(g, child, call)                                                                   \
    do {                                                                                           \
        char pt__st;                                                                               \
        pt_gen_init(child);                                                                        \
        pt__yf = 0;                                                                                \
        PT_LC_SET((g)->lc);                                                                        \
        if (pt__yf != 0) { /* resumed: pass a close, throw or sent value on */                     \
            (child)->value = (g)->value;                                                           \
            pt__gen_pass_throw((g), (child));                                                      \
            if (((g)->state & (PT__GEN_LIFE | PT__GEN_CLOSING)) ==                                 \
                (PT__GEN_RUNNING | PT__GEN_CLOSING)) {                                             \
                pt__st = pt_gen_close((child), (call));                                            \
                if (PT__AWAIT_STOPPED(pt__st, child))                                              \
                    return pt__st;                                                                 \
                (g)->state &= (unsigned char)~PT__GEN_AWAITING;                                    \
                PT_EXIT(g); /* on to the cleanup section */                                        \
            }                                                                                      \
        }                                                                                          \
        pt__st = (call);                                                                           \
        if (PT__AWAIT_STOPPED(pt__st, child)) {                                                    \
            (g)->value = (child)->value;                                                           \
            (g)->state |= PT__GEN_AWAITING;                                                        \
            return pt__st;                                                                         \
        }                                                                                          \
        (g)->state &= (unsigned char)~PT__GEN_AWAITING;                                            \
    } while (0)

/* Internal: nonzero if PT_AWAIT's child has not finished: g stops with
 * the child's status st, as it is. In a loop task's body (pt__status_mark
 * nonzero) a stop of the child's macros is marked, and anything else that
 * leaves the child unfinished (a plain `return` in its body) goes up
 * unmarked, for the loop to end the task with PT_ERETURN. Elsewhere the
 * mark is 0 and this is PT_SCHEDULE, as in 1.4. */
#define PT__AWAIT_STOPPED(st, child) (pt__status_mark != 0 ? !pt_gen_done(child) : PT_SCHEDULE(st))

/* PT_AWAIT_RAISE(g, child, call): PT_AWAIT, then, if the child failed
 * (PT_EXITED), g fails with the child's error value, as an exception goes
 * up through `await`: the child's cleanup has run, g's runs next. A child
 * that ended closed while g was not (a loop task's sub-coroutine that
 * raised a cancellation) ends g closed too, as a CancelledError goes up. */
#define PT_AWAIT_RAISE(g, child, call)                                                             \
    do {                                                                                           \
        PT_AWAIT((g), (child), (call));                                                            \
        if (pt_gen_status(child) == PT_EXITED)                                                     \
            PT_FAIL((g), (child)->value);                                                          \
        if (pt_gen_status(child) == PT_CLOSED) {                                                   \
            (g)->state |= PT__GEN_CLOSING;                                                         \
            PT_EXIT(g);                                                                            \
        }                                                                                          \
    } while (0)

#endif /* PT_GEN_H */
