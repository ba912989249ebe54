/*
 * pt/gen.h - generators: protothreads that take values in and give values
 * out, the way a Python generator does with send(), yield and return.
 *
 *   Python                          C (struct pt_gen g; child c)
 *   g = gen()      (nothing runs)   pt_gen_init(&g);
 *   v = g.send(x)                   st = PT_SEND(&g, x, gen(&g)); v = g.value;
 *   next(g)                         st = PT_NEXT(&g, gen(&g));
 *   x = yield v    (inside)         PT_YIELD_VALUE(g, v); x = g->value;
 *   return r       (inside)         PT_RETURN(g, r);
 *   StopIteration.value             st == PT_ENDED, then g.value
 *   r = await c / yield from c      PT_AWAIT(g, &c, child(&c)); r = c.value;
 *   g.close()      + finally:       PT_CLOSE(&g, gen(&g));  PT_CLEANUP(g)
 *
 * One value slot carries both directions: the driver writes the value it
 * sends just before resuming; the generator writes the value it yields or
 * returns just before stopping. Copy a received value into your own state if
 * it must outlive the next stop.
 *
 * Statuses: PT_WAITING and PT_YIELDED while alive (a yield gives a value, a
 * wait does not); then for good PT_ENDED (end or PT_RETURN), PT_EXITED
 * (PT_EXIT) or PT_CLOSED (closed). A finished generator is never run again:
 * PT_SEND / PT_NEXT / PT_CLOSE on it return its final status and leave the
 * result in g.value untouched.
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

#define PT_CLOSED 4 /* closed by PT_CLOSE (or cancelled by a loop) */

/* A value passed in or out: an integer, a pointer or a string. */
typedef union pt_value {
    intptr_t i;
    void *p;
    const char *s;
} pt_value;

static inline pt_value pt_int(intptr_t i) {
    pt_value v;
    v.i = i;
    return v;
}
static inline pt_value pt_ptr(void *p) {
    pt_value v;
    v.p = p;
    return v;
}
static inline pt_value pt_str(const char *s) {
    pt_value v;
    v.s = s;
    return v;
}
#define PT_NONE pt_int(0)

/*
 * A generator: where it resumes, its life-cycle state, the value slot, and
 * the result. The result has a slot of its own because the cleanup section
 * may yield and wait, which moves values through `value`: what PT_RETURN
 * gave must survive that (Python keeps a return value across a `finally`
 * that yields). It is copied into `value` when the generator finishes.
 */
struct pt_gen {
    pt_lc_t lc;
    unsigned char state; /* PT__GEN_* bits; read it through pt_gen_* */
    unsigned char aux;   /* free for the driver (the loop keeps task flags here) */
    pt_value value;
    pt_value ret; /* set by PT_RETURN (or a loop task's PT_TASK_FAIL) */
};

/* state: the low 3 bits hold the final status once finished (0 before);
 * inside the cleanup section they hold the status it will finish with. */
/*      PT__GEN_FINAL 0x07u (pt/thread.h) */
#define PT__GEN_CLOSING 0x08u
#define PT__GEN_AWAITING 0x10u
/*      PT__GEN_IN_CLEANUP 0x20u (pt/thread.h) */
#define PT__GEN_STARTED 0x40u
/* pt__final codes of a body that finished with a result in `ret`: */
#define PT__GEN_RETURNED 5 /* PT_ENDED with it (PT_RETURN) */
#define PT__GEN_FAILED 6   /* PT_EXITED with it (a loop task's PT_TASK_FAIL) */

/* Create without running: the first PT_SEND/PT_NEXT runs from the top. */
static inline void pt_gen_init(struct pt_gen *g) {
    PT_LC_INIT(g->lc);
    g->state = 0;
    g->aux = 0;
    g->value = PT_NONE;
    g->ret = PT_NONE;
}

/* Nonzero once the generator has finished, whichever way. */
static inline int pt_gen_done(const struct pt_gen *g) {
    return (g->state & PT__GEN_FINAL) && !(g->state & PT__GEN_IN_CLEANUP);
}

/* Final status (PT_ENDED, PT_EXITED, PT_CLOSED), or 0 while alive. */
static inline char pt_gen_status(const struct pt_gen *g) {
    return pt_gen_done(g) ? (char)(g->state & PT__GEN_FINAL) : 0;
}

/* Internal: the driver side of send and close. Nonzero: go and call it. */
static inline int pt_gen__send(struct pt_gen *g, pt_value v) {
    if (pt_gen_done(g))
        return 0;
    g->value = v;
    return 1;
}
static inline int pt_gen__close(struct pt_gen *g) {
    if (pt_gen_done(g))
        return 0;
    if (!(g->state & PT__GEN_STARTED)) {
        g->state = PT_CLOSED;
        g->value = PT_NONE;
        return 0;
    }
    g->state |= PT__GEN_CLOSING;
    return 1;
}

/*
 * Internal: entry of a generator call. Returns how to enter, packed as
 * (status to finish with << 2) | dispatch mode, or PT__GEN_ENTRY_DONE if it
 * has finished. The common case (running, not closing, not in cleanup) is
 * one test of the state byte.
 */
#define PT__GEN_ENTRY_DONE 0xFFu
static inline unsigned char pt_gen__enter_slow(struct pt_gen *g) {
    unsigned char s = g->state, pending = PT_ENDED, mode = 0;
    if (pt_gen_done(g))
        return PT__GEN_ENTRY_DONE;
    g->state = (unsigned char)(s | PT__GEN_STARTED);
    if (s & PT__GEN_IN_CLEANUP)
        pending = s & PT__GEN_FINAL; /* how the body finished */
    else if ((s & PT__GEN_CLOSING) && !(s & PT__GEN_AWAITING))
        mode = 1; /* closing: straight to the cleanup section */
    return (unsigned char)(pending << 2 | mode);
}
static inline unsigned char pt_gen__enter(struct pt_gen *g) {
    unsigned char s = g->state;
    if (!(s & (PT__GEN_FINAL | PT__GEN_CLOSING | PT__GEN_IN_CLEANUP))) {
        g->state = (unsigned char)(s | PT__GEN_STARTED);
        return PT_ENDED << 2;
    }
    return pt_gen__enter_slow(g);
}

/* Internal: PT_CLEANUP's bookkeeping: remember how the body finished. */
static inline void pt_gen__cleanup(struct pt_gen *g, char status) {
    g->state = (unsigned char)((g->state & ~PT__GEN_FINAL) | PT__GEN_IN_CLEANUP |
                               ((unsigned char)status & PT__GEN_FINAL));
}

/* Internal: PT_GEN_END's bookkeeping; returns the final status. */
static inline char pt_gen__finish(struct pt_gen *g, char status) {
    if (g->state & PT__GEN_CLOSING)
        status = PT_CLOSED;
    g->value = PT_NONE;
    if (status >= PT__GEN_RETURNED) {
        g->value = g->ret;
        status = status == PT__GEN_RETURNED ? PT_ENDED : PT_EXITED;
    }
    PT_LC_INIT(g->lc);
    g->state = (unsigned char)status;
    return status;
}

/* Resume g with value v: PT_SEND(&g, v, fn(&g, ...)) -> status. */
#define PT_SEND(g, v, call) (pt_gen__send((g), (v)) ? (char)(call) : pt_gen_status(g))
/* Resume g with no value, as next() does. */
#define PT_NEXT(g, call) PT_SEND((g), PT_NONE, call)
/* Close g, running its cleanup; PT_CLOSED once done. If the cleanup itself
 * waits, this returns PT_WAITING/PT_YIELDED: close (or send) again. */
#define PT_CLOSE(g, call) (pt_gen__close(g) ? (char)(call) : pt_gen_status(g))

/* Start and end the body of a generator function. */
#define PT_GEN_BEGIN(g)                                                                            \
    {                                                                                              \
        const unsigned char pt__entry = pt_gen__enter(g);                                          \
        if (pt__entry == PT__GEN_ENTRY_DONE)                                                       \
            return pt_gen_status(g);                                                               \
        PT__BEGIN((g), pt__kind_gen, &(g)->state, pt__entry & 3u, pt__entry >> 2)
#define PT_GEN_END(g)                                                                              \
    PT__BODY_END(g)                                                                                \
    (void)pt__kind_gen;                                                                            \
    return pt_gen__finish((g), pt__final);                                                         \
    }                                                                                              \
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
    }                                                                                              \
    PT_LC_CLEANUP {                                                                                \
        PT__DIAG_PUSH PT__DIAG_OFF_SHADOW const char pt__in_cleanup = 1;                           \
        PT__DIAG_POP(void) pt__in_cleanup;                                                         \
        (void)pt__kind_gen;                                                                        \
        pt_gen__cleanup((g), pt__final);

/* Yield v to the driver; on resume g->value holds what was sent. */
#define PT_YIELD_VALUE(g, v)                                                                       \
    do {                                                                                           \
        (g)->value = (v);                                                                          \
        PT_YIELD(g);                                                                               \
    } while (0)

/* Finish with result v (after running the cleanup section, if any: its
 * yields and waits leave v alone). In the cleanup section, a PT_RETURN
 * replaces the result, as a `return` in Python's `finally` does. */
#define PT_RETURN(g, v)                                                                            \
    do {                                                                                           \
        (g)->ret = (v);                                                                            \
        PT__FINISH(PT__GEN_RETURNED);                                                              \
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
        pt_gen_init(child);                                                                        \
        pt__yf = 0;                                                                                \
        PT_LC_SET((g)->lc);                                                                        \
        if (pt__yf != 0) { /* resumed: pass a close or a sent value on */                          \
            (child)->value = (g)->value;                                                           \
            if (((g)->state & (PT__GEN_CLOSING | PT__GEN_IN_CLEANUP)) == PT__GEN_CLOSING) {        \
                pt__st = PT_CLOSE((child), (call));                                                \
                if (PT_SCHEDULE(pt__st))                                                           \
                    return pt__st;                                                                 \
                (g)->state &= (unsigned char)~PT__GEN_AWAITING;                                    \
                pt__mode = 1;                                                                      \
                goto pt__dispatch;                                                                 \
            }                                                                                      \
        }                                                                                          \
        pt__st = (call);                                                                           \
        if (PT_SCHEDULE(pt__st)) {                                                                 \
            (g)->value = (child)->value;                                                           \
            (g)->state |= PT__GEN_AWAITING;                                                        \
            return pt__st;                                                                         \
        }                                                                                          \
        (g)->state &= (unsigned char)~PT__GEN_AWAITING;                                            \
    } while (0)

#endif /* PT_GEN_H */
