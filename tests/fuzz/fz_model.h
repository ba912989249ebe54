/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fz_model.h - the reference model of the differential fuzzer:
 * a plain discrete-event simulation of a program, written from the loop's
 * documented contracts (header comments, docs/) and the choices listed in
 * tests/fuzz/README.md where they are silent, not from the loop's code. It
 * includes nothing of the library. Arrays and linear scans; it writes the
 * same trace format as fz_impl.h.
 *
 * What it simulates: a FIFO ready queue and a timer list (earliest
 * deadline, then the order set) holding entities: the tasks, the callback
 * handles, and one timer per timeout scope (a scope's deadline passes when
 * its timer's turn in the ready queue comes, as a callback's would).
 */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include "fz_prog.h"

/* Final statuses and results, as documented (pt/thread.h, pt/gen.h,
 * loop/result.h); the model has its own copy on purpose. */
enum { M_EXITED = 2, M_ENDED = 3, M_CLOSED = 4 };
enum {
    M_OK = 0,
    M_ETIMEDOUT = -1,
    M_ECANCELLED = -2,
    M_EFULL = -3,
    M_EINVAL = -4,
    M_EBUSY = -5,
    M_EFAILED = -7,
    M_EBROKEN = -13,
    M_LISTWOKEN = 1000 /* a queue's waiter woken: try again */
};
/* What a parked task waits on. From K_JOIN on, a timeout (or a cancel)
 * cancels what it waits for, and it waits on until that has finished. */
enum { K_SLEEP, K_LIST, K_IO, K_SHIELD, K_NEXT, K_JOIN, K_GROUP };
/* Waiter lists. */
enum { L_EV, L_SEM, L_QGET, L_QPUT, L_LOCK, L_COND, L_BAR, L_N };
enum { F_END, F_RET, F_FAIL, F_EXIT }; /* how a level's body finished */
enum { R_PARKED, R_YIELDED, R_FINISHED };
enum { SC_CLOSED, SC_OPEN, SC_PASSED, SC_FULL }; /* a timeout scope */
#define M_MAX_DELAY PT_TIME_MAX_DELAY

/* Entities in the ready queue and the timer list. */
#define E_H0 FZ_MAXT                 /* the callback handles */
#define E_SC0 (FZ_MAXT + FZ_HANDLES) /* the scopes' timers: task * FZ_SCOPES + k */
#define M_NE (E_SC0 + FZ_MAXT * FZ_SCOPES)

struct m_ent {
    fz_time_t deadline;
    uint64_t seq;
    int in_heap, queued, dropped; /* dropped: cancelled while in the ready queue */
};

struct m_task {
    int spawned, alive, started, closing, bg, in_group;
    int st;
    long val;
    int lv, sec[2], pc[2][2], fin[2];
    long ret[2];
    int parked, kind, obj, timed_out, result;
    int granted; /* 1 + the list whose wake-up it has not seen yet, or 0 */
    int regive;  /* 1 + the list whose grant it passes on at its turn (cancelled), or 0 */
    fz_time_t list_deadline;
    long got;
    int joiners[FZ_MAXT], njoiners; /* the tasks joining this one, in order */
    int depth, scope[FZ_SCOPES];    /* the task's timeout scopes */
    int scope_lv[FZ_SCOPES];        /* the level (generator) that opened each */
    int cvphase, cvflag;            /* cv_wait: 1 waiting to be notified, 2 for the lock
                                       again, 3 for the lock first (lk+) */
    int bidx, next_got;
};

static struct fz_model {
    const struct fz_prog *pr;
    struct fz_trace *tr;
    struct m_task t[FZ_MAXT];
    struct m_ent e[M_NE];
    fz_time_t now;
    uint64_t seq;
    int ready[M_NE], nready;
    int timers[M_NE], ntimers;
    int list[L_N][FZ_MAXT], nlist[L_N];
    int ev_set;
    unsigned sem;
    long qv[2];
    unsigned qhead, qcount;
    int members[4], gcount, gpending, gowner, gfailed, gtaken;
    int lock;   /* the task holding it, or -1 */
    int broken; /* the barrier */
    int hact[FZ_HANDLES], htask[FZ_HANDLES];
    int bgs[FZ_MAXT], nbg; /* background tasks, newest first */
    int live, stop, budget, current;
    int pipe_bytes, io_waiter; /* the pipe: bytes in it, the task waiting (-1) */
    long steps;
    int runaway;
} fz_M;

/* Wrap-safe tick arithmetic, as loop/ticks.h documents it. */
static inline int m_before(fz_time_t a, fz_time_t b) {
    return (fz_time_t)(a - b) > M_MAX_DELAY;
}
static inline fz_time_t m_until(fz_time_t a, fz_time_t b) {
    return m_before(a, b) ? (fz_time_t)(b - a) : 0;
}
static inline fz_time_t m_after(fz_time_t now, fz_time_t d) {
    return (fz_time_t)(now + (d > M_MAX_DELAY ? M_MAX_DELAY : d));
}

static inline void m_line(int i, int lv, const char *what) {
    fz_tr(fz_M.tr, "%lu T%d%s %s\n", (unsigned long)fz_M.now, i, lv ? ".sub" : "", what);
}

static inline const struct fz_op *m_op(int i) {
    const struct m_task *T = &fz_M.t[i];
    return &fz_M.pr->ops[i][T->lv][T->sec[T->lv]][T->pc[T->lv][T->sec[T->lv]]];
}

static inline void m_result(int i, const char *res) {
    char op[64], line[192];
    fz_op_text(m_op(i), op, sizeof op);
    snprintf(line, sizeof line, "%s = %s", op, res);
    m_line(i, fz_M.t[i].lv, line);
}

/* The op at pc ended with r: record it and move on. */
static inline void m_done(int i, int r) {
    struct m_task *T = &fz_M.t[i];
    int code = m_op(i)->code;
    char res[48];
    if (code == OP_QGET && r == M_OK)
        snprintf(res, sizeof res, "OK v=%ld", T->got);
    else if (code == OP_GNEXT && r == M_OK)
        snprintf(res, sizeof res, "OK T%d", T->next_got);
    else if (code == OP_BWAIT && r == M_OK)
        snprintf(res, sizeof res, "OK i=%d", T->bidx);
    else
        snprintf(res, sizeof res, "%s", fz_rc(r));
    m_result(i, res);
    T->pc[T->lv][T->sec[T->lv]]++;
}

/* ---- the ready queue, the timers --------------------------------------- */

static inline void m_push(int e) {
    fz_M.ready[fz_M.nready++] = e;
    fz_M.e[e].queued = 1;
}

static inline void m_remove(int *arr, int *n, int i) {
    int k;
    for (k = 0; k < *n && arr[k] != i; k++)
        ;
    if (k == *n)
        return;
    for (; k + 1 < *n; k++)
        arr[k] = arr[k + 1];
    (*n)--;
}

/* Set e's timer; M_EFULL if the heap is full. */
static inline int m_timer_set(int e, fz_time_t deadline) {
    if ((unsigned)fz_M.ntimers >= fz_M.pr->heap_cap)
        return M_EFULL;
    fz_M.e[e].deadline = deadline;
    fz_M.e[e].seq = fz_M.seq++;
    fz_M.e[e].in_heap = 1;
    fz_M.timers[fz_M.ntimers++] = e;
    return M_OK;
}

static inline void m_timer_drop(int e) {
    if (!fz_M.e[e].in_heap)
        return;
    m_remove(fz_M.timers, &fz_M.ntimers, e);
    fz_M.e[e].in_heap = 0;
}

/* Earliest deadline; equal deadlines in the order they were set. */
static inline int m_timer_first(void) { /* (there is one: ntimers > 0) */
    int k, best = 0;
    for (k = 1; k < fz_M.ntimers; k++) {
        const struct m_ent *a = &fz_M.e[fz_M.timers[k]], *b = &fz_M.e[fz_M.timers[best]];
        if (m_before(a->deadline, b->deadline) || (a->deadline == b->deadline && a->seq < b->seq))
            best = k;
    }
    return fz_M.timers[best];
}

/* A handle (or a scope's timer) is pending: set, or in the ready queue and
 * not cancelled. Cancel it: 1 if it was pending. User handles are live. */
static inline int m_handle_drop(int e) {
    struct m_ent *E = &fz_M.e[e];
    if (E->dropped || !(E->in_heap || E->queued))
        return 0;
    if (E->in_heap)
        m_timer_drop(e);
    else
        E->dropped = 1;
    if (e < E_SC0)
        fz_M.live--;
    return 1;
}

/* ---- timeout scopes ------------------------------------------------------ */

/* Inside a scope whose deadline has passed (or that has no timer). */
static inline int m_scope_passed(int i) {
    int k;
    for (k = 0; k < FZ_SCOPES; k++)
        if (fz_M.t[i].scope[k] == SC_PASSED || fz_M.t[i].scope[k] == SC_FULL)
            return 1;
    return 0;
}

/* A cancel, or the end of the task, closes its scopes (lv < 0: all);
 * the start of a generator's cleanup section those it opened (lv). */
static inline void m_scopes_drop(int i, int lv) {
    int k;
    for (k = 0; k < FZ_SCOPES; k++)
        if (fz_M.t[i].scope[k] != SC_CLOSED && (lv < 0 || fz_M.t[i].scope_lv[k] == lv)) {
            fz_M.t[i].scope[k] = SC_CLOSED;
            (void)m_handle_drop(E_SC0 + i * FZ_SCOPES + k);
        }
}

/* ---- parking and waking -------------------------------------------------- */

/* Park i (running op) for `timeout` on obj; M_OK, or the wait's result
 * if it does not park: M_ETIMEDOUT in a scope that has passed, M_EFULL. */
static inline int m_park(int i, fz_time_t timeout, int kind, int obj) {
    struct m_task *T = &fz_M.t[i];
    if (m_scope_passed(i))
        return M_ETIMEDOUT;
    if (timeout != FZ_FOREVER && m_timer_set(i, m_after(fz_M.now, timeout)) != M_OK)
        return M_EFULL;
    T->parked = 1;
    T->kind = kind;
    T->obj = obj;
    return M_OK;
}

/* Park i on list q for `timeout`: a timeout of 0 does not wait. */
static inline int m_list_park(int i, fz_time_t timeout, int q) {
    int r = timeout == 0 ? M_ETIMEDOUT : m_park(i, timeout, K_LIST, q);
    if (r == M_OK)
        fz_M.list[q][fz_M.nlist[q]++] = i;
    return r;
}

static inline void m_wake(int i, int r) {
    struct m_task *T = &fz_M.t[i];
    if (r != M_LISTWOKEN) /* a queue's waiter keeps its timer until it runs */
        m_timer_drop(i);
    if (T->kind == K_LIST)
        m_remove(fz_M.list[T->obj], &fz_M.nlist[T->obj], i);
    else if (T->kind == K_JOIN || T->kind == K_SHIELD)
        m_remove(fz_M.t[T->obj].joiners, &fz_M.t[T->obj].njoiners, i);
    else if (T->kind == K_GROUP || T->kind == K_NEXT)
        fz_M.gowner = -1;
    else if (T->kind == K_IO)
        fz_M.io_waiter = -1;
    T->parked = 0;
    T->timed_out = 0;
    T->result = r;
    m_push(i);
}

/* Wake the longest waiter of list q, if any: it has been granted what it
 * waited for (a queue's waiter tries again, and keeps its timer, set at
 * its first deadline, until then: the timers hold it meanwhile). The
 * task, or -1. */
static inline int m_wake_one(int q) {
    int h;
    if (!fz_M.nlist[q])
        return -1;
    h = fz_M.list[q][0];
    m_wake(h, q == L_QGET || q == L_QPUT ? M_LISTWOKEN : M_OK);
    fz_M.t[h].granted = 1 + q;
    return h;
}

/* A unit of what list q guards is free: to the longest waiter, else kept. */
static inline void m_give(int q) {
    int h = m_wake_one(q);
    if (q == L_SEM && h < 0)
        fz_M.sem++;
    else if (q == L_LOCK)
        fz_M.lock = h;
}

/* End every wait on the barrier with r (not a grant: nothing to give back). */
static inline void m_bar_release(int r) {
    while (fz_M.nlist[L_BAR])
        m_wake(fz_M.list[L_BAR][0], r);
}

/* ---- cancel, finish ------------------------------------------------------ */

static inline void m_group_cancel(void);

static inline int m_cancel(int i) {
    struct m_task *T = &fz_M.t[i];
    if (!T->spawned || !T->alive || T->closing)
        return M_EINVAL;
    if (T->started && T->sec[0] == FZ_CLEANUP) /* finishing: left alone */
        return M_EINVAL;
    if (i == fz_M.current)
        return M_EBUSY;
    T->closing = 1;
    if (!T->started) /* ends when its turn comes, without running */
        return M_OK;
    m_scopes_drop(i, -1);
    if (T->parked) {
        if (T->kind == K_JOIN) /* what it joins is cancelled; it waits on */
            (void)m_cancel(T->obj);
        else if (T->kind == K_GROUP) /* the members; it waits on */
            m_group_cancel();
        else
            m_wake(i, M_ECANCELLED);
    } else {              /* queued: a wait that ended is not seen yet; it ends cancelled */
        if (T->granted) { /* and what a list granted goes on at its turn (a pulse or a
                             notify: nothing), as asyncio's waiter passes it on */
            int q = T->granted - 1;
            T->granted = 0;
            m_timer_drop(i); /* (a queue's waiter's kept timer) */
            if (q == L_SEM || q == L_LOCK || q == L_QGET || q == L_QPUT)
                T->regive = 1 + q;
        }
        T->result = M_ECANCELLED;
    }
    return M_OK;
}

static inline int m_outcome(int st) {
    return st == M_EXITED ? M_EFAILED : st == M_CLOSED ? M_ECANCELLED : M_OK;
}

static inline void m_wake_waiter(int w, int r) {
    m_wake(w, fz_M.t[w].timed_out ? M_ETIMEDOUT : r);
}

/* The group's cancel: its members, in the members' order, not a former
 * one spawned again outside. */
static inline void m_group_cancel(void) {
    int k;
    for (k = 0; k < fz_M.gcount; k++) {
        const struct m_task *T = &fz_M.t[fz_M.members[k]];
        if (T->alive && T->in_group)
            (void)m_cancel(fz_M.members[k]);
    }
}

/* Member i finished: the finished come first in the members, in the order
 * they finished. (Which order the others keep is not documented: the one
 * member still running that stood where i goes takes i's place.) */
static inline void m_group_done(int i) {
    int done = fz_M.gcount - fz_M.gpending, k = done, w;
    while (fz_M.members[k] != i)
        k++;
    fz_M.members[k] = fz_M.members[done];
    fz_M.members[done] = i;
    fz_M.gpending--;
    if (fz_M.t[i].st == M_EXITED && !fz_M.gfailed) {
        fz_M.gfailed = 1;
        if (fz_M.pr->g_mode == 0)
            m_group_cancel(); /* (which may wake the owner) */
    }
    w = fz_M.gowner;
    if (w < 0)
        return;
    if (fz_M.t[w].kind == K_NEXT) /* it takes the member when it runs */
        m_wake(w, M_OK);
    else if (fz_M.gpending == 0)
        m_wake_waiter(w, fz_M.gfailed ? M_EFAILED : M_OK);
}

static inline void m_task_done(int i) {
    struct m_task *T = &fz_M.t[i];
    T->alive = 0;
    m_scopes_drop(i, -1);
    if (T->bg) {
        m_remove(fz_M.bgs, &fz_M.nbg, i);
        return;
    }
    fz_M.live--;
    if (T->in_group) {
        m_group_done(i);
        return;
    }
    while (T->njoiners) /* in the order they joined */
        m_wake_waiter(T->joiners[0], m_outcome(T->st));
}

/* ---- spawning ------------------------------------------------------------ */

static inline int m_spawn(int i, int how) {
    struct m_task *T = &fz_M.t[i];
    if (how == OP_GSPAWN && fz_M.gcount >= (int)fz_M.pr->g_cap)
        return M_EFULL;
    if (T->alive)
        return M_EBUSY; /* pt_group_spawn passes pt_loop_spawn's answer on */
    memset(T, 0, sizeof *T);
    T->spawned = T->alive = 1;
    if (how == OP_SPAWN_BG) {
        int k;
        T->bg = 1;
        for (k = fz_M.nbg; k > 0; k--)
            fz_M.bgs[k] = fz_M.bgs[k - 1];
        fz_M.bgs[0] = i;
        fz_M.nbg++;
    } else {
        fz_M.live++;
    }
    if (how == OP_GSPAWN) {
        T->in_group = 1;
        fz_M.members[fz_M.gcount++] = i;
        fz_M.gpending++;
    }
    m_push(i);
    return M_OK;
}

/* ---- callbacks ----------------------------------------------------------- */

/* Schedule handle h (op o of task i): M_OK, M_EBUSY (pending, or cancelled
 * and still in the ready queue), M_EFULL. */
static inline int m_call(const struct fz_op *o) {
    int h = o->c, e = E_H0 + h, r = M_OK;
    if (fz_M.e[e].in_heap || fz_M.e[e].queued)
        return M_EBUSY;
    if (o->code == OP_CSOON)
        m_push(e);
    else if (o->code == OP_CLATER)
        r = m_timer_set(e, m_after(fz_M.now, o->b));
    else
        r = m_timer_set(e, (fz_time_t)(fz_M.now + o->b - 1u));
    if (r != M_OK)
        return r;
    fz_M.live++;
    fz_M.hact[h] = o->d;
    fz_M.htask[h] = o->a;
    return M_OK;
}

static inline void m_qput(long v);

/* Handle h's turn in the ready queue. */
static inline void m_call_run(int h) {
    int e = E_H0 + h, act = fz_M.hact[h];
    char what[24], res[48];
    if (fz_M.e[e].dropped) {
        fz_M.e[e].dropped = 0;
        return;
    }
    fz_M.live--;
    snprintf(what, sizeof what, "%s", fz_cb_names[act]);
    snprintf(res, sizeof res, "done");
    if (act == CB_EVSET || act == CB_EVPULSE) {
        fz_M.ev_set = act == CB_EVSET;
        while (m_wake_one(L_EV) >= 0)
            ;
    } else if (act == CB_SEMREL) {
        m_give(L_SEM);
    } else if (act == CB_QPUT) {
        int ok = fz_M.qcount < fz_M.pr->q_cap;
        if (ok)
            m_qput(900 + h);
        snprintf(res, sizeof res, "%d", ok);
    } else if (act == CB_CANCEL) {
        snprintf(what, sizeof what, "cancel T%d", fz_M.htask[h]);
        snprintf(res, sizeof res, "%s", fz_rc(m_cancel(fz_M.htask[h])));
    } else if (act == CB_AGAIN) { /* free again: once more, a note */
        int r = m_timer_set(e, m_after(fz_M.now, 1));
        if (r == M_OK) {
            fz_M.live++;
            fz_M.hact[h] = CB_NOTE;
        }
        snprintf(res, sizeof res, "%s", fz_rc(r));
    }
    fz_tr(fz_M.tr, "%lu H%d %s = %s\n", (unsigned long)fz_M.now, h, what, res);
}

/* ---- the timers' end ------------------------------------------------------ */

/* Task i's own deadline passed (r: what a sleep ends with): a join or a
 * group wait cancels what it waits for and waits on; others end. */
static inline void m_task_timeout(int i, int r) {
    struct m_task *T = &fz_M.t[i];
    m_timer_drop(i);
    if (T->kind == K_JOIN) {
        T->timed_out = 1;
        (void)m_cancel(T->obj);
    } else if (T->kind == K_GROUP) {
        T->timed_out = 1;
        m_group_cancel();
    } else {
        m_wake(i, T->kind == K_SLEEP ? r : M_ETIMEDOUT);
    }
}

/* Open scope k of task i, `ticks` from now. */
static inline void m_scope_begin(int i, int k, fz_time_t ticks) {
    struct m_task *T = &fz_M.t[i];
    int e = E_SC0 + i * FZ_SCOPES + k;
    T->scope[k] = SC_OPEN;
    T->scope_lv[k] = T->lv;
    if (ticks == FZ_FOREVER)
        return;
    if (fz_M.e[e].queued) { /* its timer's turn has come for a closed scope: reused */
        fz_M.e[e].dropped = 0;
        fz_M.e[e].deadline = m_after(fz_M.now, ticks);
    } else if (ticks == 0) { /* passed already: at the back of the ready queue (call_soon) */
        fz_M.e[e].deadline = fz_M.now;
        m_push(e);
    } else if (m_timer_set(e, m_after(fz_M.now, ticks)) != M_OK) {
        T->scope[k] = SC_FULL;
    }
}

static inline int m_scope_end(int i, int k) {
    struct m_task *T = &fz_M.t[i];
    int st = T->scope[k];
    if (st == SC_CLOSED)
        return M_EINVAL;
    T->scope[k] = SC_CLOSED;
    (void)m_handle_drop(E_SC0 + i * FZ_SCOPES + k);
    if (st == SC_PASSED)
        return M_ETIMEDOUT;
    if (st == SC_FULL)
        return M_EFULL;
    return m_scope_passed(i) ? M_ECANCELLED : M_OK;
}

/* A scope's timer has its turn: the deadline has passed (unless it was
 * reused for a later one: set again). The wait in progress ends as if its
 * own timeout had passed. (PT_COND_WAIT waiting for its lock again then
 * asks for it again, at the tail, and ends PT_ETIMEDOUT, as asyncio's
 * Condition.wait does when cancelled in its acquire.) */
static inline void m_scope_run(int e) {
    int i = (e - E_SC0) / FZ_SCOPES, k = (e - E_SC0) % FZ_SCOPES;
    struct m_task *T = &fz_M.t[i];
    if (fz_M.e[e].dropped) {
        fz_M.e[e].dropped = 0;
        return;
    }
    if (T->scope[k] != SC_OPEN)
        return;
    if (m_before(fz_M.now, fz_M.e[e].deadline)) {
        if (m_timer_set(e, fz_M.e[e].deadline) != M_OK)
            T->scope[k] = SC_FULL;
        return;
    }
    T->scope[k] = SC_PASSED;
    if (T->parked)
        m_task_timeout(i, M_ETIMEDOUT);
}

/* ---- the interpreter ----------------------------------------------------- */

static inline void m_begin(int i, int lv) {
    struct m_task *T = &fz_M.t[i];
    T->lv = lv;
    T->sec[lv] = FZ_BODY;
    T->pc[lv][FZ_BODY] = 0;
    m_line(i, lv, "begin");
}

/* The cleanup section of level lv begins: the scopes that level opened
 * and left open (a return, an exit, a failure, the end) close. */
static inline void m_enter_cleanup(int i, int lv) {
    struct m_task *T = &fz_M.t[i];
    m_scopes_drop(i, lv);
    T->lv = lv;
    T->sec[lv] = FZ_CLEANUP;
    T->pc[lv][FZ_CLEANUP] = 0;
    T->cvphase = 0;
    m_line(i, lv, "cleanup");
}

static inline void m_qput(long v) {
    fz_M.qv[(fz_M.qhead + fz_M.qcount) % fz_M.pr->q_cap] = v;
    fz_M.qcount++;
    (void)m_wake_one(L_QGET);
}

static inline long m_qget(void) {
    long v = fz_M.qv[fz_M.qhead];
    fz_M.qhead = (fz_M.qhead + 1) % fz_M.pr->q_cap;
    fz_M.qcount--;
    (void)m_wake_one(L_QPUT);
    return v;
}

/* A queue op, tried once (again when woken): done (1), or parked. A woken
 * waiter tries again and may wait again, keeping its first deadline; the
 * timer it kept is dropped either way (set anew if it waits again). */
static inline int m_queue_try(int i) {
    struct m_task *T = &fz_M.t[i];
    const struct fz_op *o = m_op(i);
    int q = o->code == OP_QPUT ? L_QPUT : L_QGET, r;
    fz_time_t left = FZ_FOREVER;
    m_timer_drop(i);
    if (q == L_QPUT && fz_M.qcount < fz_M.pr->q_cap) {
        m_qput((long)i * 100 + (T->sec[T->lv] ? 50 : 0) + T->pc[T->lv][T->sec[T->lv]]);
        m_done(i, M_OK);
        return 1;
    }
    if (q == L_QGET && fz_M.qcount) {
        T->got = m_qget();
        m_done(i, M_OK);
        return 1;
    }
    if (o->b != FZ_FOREVER) {
        left = m_until(fz_M.now, T->list_deadline);
        if (left == 0) {
            m_done(i, M_ETIMEDOUT);
            return 1;
        }
    }
    r = m_park(i, left, K_LIST, q);
    if (r != M_OK) {
        m_done(i, r);
        return 1;
    }
    fz_M.list[q][fz_M.nlist[q]++] = i;
    return 0;
}

/* PT_GROUP_NEXT, tried once (again when woken): done (1), or parked. */
static inline int m_gnext_try(int i) {
    struct m_task *T = &fz_M.t[i];
    int r;
    if (fz_M.gtaken < fz_M.gcount - fz_M.gpending) {
        T->next_got = fz_M.members[fz_M.gtaken++];
        m_done(i, M_OK);
        return 1;
    }
    if (fz_M.gtaken >= fz_M.gcount)
        r = M_EINVAL;
    else if (fz_M.gowner >= 0)
        r = M_EBUSY;
    else if ((r = m_park(i, m_op(i)->b, K_NEXT, 0)) == M_OK) {
        fz_M.gowner = i;
        return 0;
    }
    m_done(i, r);
    return 1;
}

/* PT_COND_WAIT's start, the lock held: park on the condition, then the
 * lock goes (a timeout of 0, a full heap, a passed scope: it stays). Done
 * (1), or parked. */
static inline int m_cv_start(int i) {
    int r = m_list_park(i, m_op(i)->b, L_COND);
    if (r != M_OK) {
        m_done(i, r);
        return 1;
    }
    fz_M.t[i].cvphase = 1;
    m_give(L_LOCK);
    return 0;
}

/* PT_COND_WAIT after its wait for a notify: take the lock again, waiting
 * for it as long as it takes (no timer; a scope that has passed does not
 * stop it). Done (1), or parked. */
static inline int m_cv_relock(int i) {
    struct m_task *T = &fz_M.t[i];
    if (fz_M.lock < 0) {
        fz_M.lock = i;
        T->cvphase = 0;
        m_done(i, T->cvflag ? M_ETIMEDOUT : M_OK);
        return 1;
    }
    T->cvphase = 2;
    T->parked = 1;
    T->kind = K_LIST;
    T->obj = L_LOCK;
    fz_M.list[L_LOCK][fz_M.nlist[L_LOCK]++] = i;
    return 0;
}

static inline void m_nowait(int i) {
    const struct fz_op *o = m_op(i);
    struct m_task *T = &fz_M.t[i], *Y = &fz_M.t[o->a];
    char res[48];
    if (o->code == OP_PWRITE) { /* a byte into the pipe */
        fz_M.pipe_bytes++;
        snprintf(res, sizeof res, "1");
    } else if (o->code == OP_PREAD) { /* what it holds, 64 at most */
        int n = fz_M.pipe_bytes < 64 ? fz_M.pipe_bytes : 64;
        fz_M.pipe_bytes -= n;
        snprintf(res, sizeof res, "%d", n);
    } else if (o->code == OP_CANCEL) {
        snprintf(res, sizeof res, "%s", fz_rc(m_cancel(o->a)));
    } else if (o->code == OP_SPAWN || o->code == OP_SPAWN_BG || o->code == OP_GSPAWN) {
        if (fz_M.budget <= 0) {
            snprintf(res, sizeof res, "skip");
        } else {
            fz_M.budget--;
            snprintf(res, sizeof res, "%s", fz_rc(m_spawn(o->a, o->code)));
        }
    } else if (o->code == OP_EVSET) { /* every waiter goes, even if cleared at once */
        fz_M.ev_set = 1;
        while (m_wake_one(L_EV) >= 0)
            ;
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_EVCLEAR) {
        fz_M.ev_set = 0;
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_EVPULSE) { /* every waiter goes, later ones wait */
        while (m_wake_one(L_EV) >= 0)
            ;
        fz_M.ev_set = 0;
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_SEMREL) {
        m_give(L_SEM);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_STOP) {
        fz_M.stop = 1;
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_RUNIN) { /* inside a task: refused, nothing changes */
        if (o->b == 1)
            snprintf(res, sizeof res, "0");
        else
            snprintf(res, sizeof res, "%s", fz_rc(M_EBUSY));
    } else if (o->code == OP_GCANCEL) {
        m_group_cancel();
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_SEMTRY) {
        snprintf(res, sizeof res, "%d", fz_M.sem ? 1 : 0);
        if (fz_M.sem)
            fz_M.sem--;
    } else if (o->code == OP_QTRYPUT) {
        int ok = fz_M.qcount < fz_M.pr->q_cap;
        if (ok)
            m_qput((long)i * 100 + 90 + T->pc[T->lv][T->sec[T->lv]]);
        snprintf(res, sizeof res, "%d", ok);
    } else if (o->code == OP_QTRYGET) {
        long v = 0;
        int ok = fz_M.qcount > 0;
        if (ok)
            v = m_qget();
        snprintf(res, sizeof res, "%d v=%ld", ok, v);
    } else if (o->code == OP_TOBEGIN) {
        if (T->depth < FZ_SCOPES) {
            m_scope_begin(i, T->depth++, o->b);
            snprintf(res, sizeof res, "done");
        } else {
            snprintf(res, sizeof res, "skip");
        }
    } else if (o->code == OP_TOEND) {
        T->depth -= T->depth > 0;
        snprintf(res, sizeof res, "%s", fz_rc(m_scope_end(i, T->depth)));
    } else if (o->code == OP_TORENEW) { /* the innermost again (the first if none) */
        T->depth += !T->depth;
        snprintf(res, sizeof res, "%s", fz_rc(m_scope_end(i, T->depth - 1)));
        m_scope_begin(i, T->depth - 1, o->b);
    } else if (o->code == OP_LKREL) {
        int r = fz_M.lock < 0 ? M_EINVAL : fz_M.lock != i ? M_EBUSY : M_OK;
        if (r == M_OK)
            m_give(L_LOCK);
        snprintf(res, sizeof res, "%s", fz_rc(r));
    } else if (o->code == OP_LKTRY) {
        snprintf(res, sizeof res, "%d", fz_M.lock < 0);
        if (fz_M.lock < 0)
            fz_M.lock = i;
    } else if (o->code == OP_CVNOTIFY || o->code == OP_CVNOTALL) {
        /* lk+: with the lock taken for it if it is free (released after) */
        int took = !o->c && fz_M.lock < 0, r;
        unsigned n = o->code == OP_CVNOTIFY ? o->b : FZ_MAXT;
        if (took)
            fz_M.lock = i;
        r = fz_M.lock == i ? M_OK : M_EBUSY;
        for (; r == M_OK && n > 0 && m_wake_one(L_COND) >= 0; n--)
            ;
        if (took)
            m_give(L_LOCK);
        snprintf(res, sizeof res, "%s", fz_rc(r));
    } else if (o->code == OP_BABORT || o->code == OP_BRESET) {
        fz_M.broken = o->code == OP_BABORT;
        m_bar_release(M_EBROKEN);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_CSOON || o->code == OP_CLATER || o->code == OP_CAT) {
        snprintf(res, sizeof res, "%s", fz_rc(m_call(o)));
    } else if (o->code == OP_HCANCEL) {
        snprintf(res, sizeof res, "%s", fz_rc(m_handle_drop(E_H0 + o->c) ? M_OK : M_EINVAL));
    } else {
        snprintf(res, sizeof res, "st %d", Y->spawned && !Y->alive ? Y->st : 0);
    }
    m_result(i, res);
    T->pc[T->lv][T->sec[T->lv]]++;
}

/* Start a join (PT_JOIN or PT_JOIN_SHIELD): done (1), or parked. */
static inline int m_join(int i, const struct fz_op *o) {
    struct m_task *Y = &fz_M.t[o->a];
    int r;
    if (!Y->spawned)
        r = M_EINVAL;
    else if (!Y->alive)
        r = m_outcome(Y->st);
    else if (o->a == i || Y->in_group || Y->bg)
        r = M_EBUSY;
    else if ((r = m_park(i, o->b, o->code == OP_JOIN ? K_JOIN : K_SHIELD, o->a)) == M_OK) {
        Y->joiners[Y->njoiners++] = i; /* any number, in the order they came */
        return 0;
    }
    m_done(i, r);
    return 1;
}

/* Start a wait on a list (event, semaphore, lock, condition, barrier):
 * done (1), or parked until granted. */
static inline int m_grant_wait(int i, const struct fz_op *o) {
    struct m_task *T = &fz_M.t[i];
    int r = M_OK, q;
    if (o->code == OP_EVWAIT) {
        if (fz_M.ev_set)
            goto done;
        q = L_EV;
    } else if (o->code == OP_SEMACQ) {
        if (fz_M.sem) {
            fz_M.sem--;
            goto done;
        }
        q = L_SEM;
    } else if (o->code == OP_LKACQ) {
        if (fz_M.lock < 0) {
            fz_M.lock = i;
            goto done;
        }
        r = M_EBUSY;
        if (fz_M.lock == i)
            goto done;
        q = L_LOCK;
    } else if (o->code == OP_CVWAIT) {
        if (fz_M.lock != i) {
            r = M_EBUSY;
            if (o->c) /* plain: not holding the lock */
                goto done;
            if (fz_M.lock >= 0) { /* lk+: wait for the lock first */
                r = m_list_park(i, o->b, L_LOCK);
                if (r != M_OK)
                    goto done;
                T->cvphase = 3;
                return 0;
            }
            fz_M.lock = i;
        }
        return m_cv_start(i);
    } else { /* OP_BWAIT */
        int n = fz_M.nlist[L_BAR];
        r = M_EBROKEN;
        if (fz_M.broken)
            goto done;
        T->bidx = n;
        r = M_OK;
        if (n + 1 >= (int)fz_M.pr->parties) { /* the last: all go */
            m_bar_release(M_OK);
            goto done;
        }
        q = L_BAR;
    }
    r = m_list_park(i, o->b, q);
    if (r == M_OK)
        return 0;
done:
    m_done(i, r);
    return 1;
}

/* Run task i from where it is until it stops. */
static inline int m_exec(int i) {
    struct m_task *T = &fz_M.t[i];
    for (;;) {
        int lv = T->lv, sec = T->sec[lv];
        const struct fz_op *o;
        char line[64];
        if (++fz_M.steps > 1000000L) {
            fz_M.runaway = 1;
            return R_PARKED;
        }
        if (T->pc[lv][sec] >= fz_M.pr->len[i][lv][sec]) {
            int st;
            long v;
            if (sec == FZ_BODY) { /* fell off the body's end */
                T->fin[lv] = F_END;
                T->ret[lv] = 0;
                m_enter_cleanup(i, lv);
                continue;
            }
            st = T->fin[lv] == F_FAIL || T->fin[lv] == F_EXIT ? M_EXITED : M_ENDED;
            v = T->fin[lv] == F_END || T->fin[lv] == F_EXIT ? 0 : T->ret[lv];
            if (lv == 1) { /* the sub-coroutine is done */
                if (T->closing) {
                    m_enter_cleanup(i, 0);
                    continue;
                }
                T->lv = 0;
                snprintf(line, sizeof line, "st %d v %ld", st, v);
                m_result(i, line);
                T->pc[0][FZ_BODY]++;
                continue;
            }
            if (fz_M.lock == i) { /* a task gives the lock back at its end */
                m_give(L_LOCK);
                m_line(i, 0, "lk_rel auto = OK");
            }
            if (T->closing) {
                st = M_CLOSED;
                v = 0;
            }
            T->st = st;
            T->val = v;
            snprintf(line, sizeof line, "end st %d v %ld", st, v);
            m_line(i, 0, line);
            return R_FINISHED;
        }
        o = m_op(i);
        if (o->code == OP_SLEEP) {
            int r = m_park(i, o->b, K_SLEEP, 0);
            if (r != M_OK) {
                m_done(i, r);
                continue;
            }
            return R_PARKED;
        } else if (o->code == OP_YIELD) {
            return R_YIELDED;
        } else if (o->code == OP_JOIN || o->code == OP_JSHIELD) {
            if (!m_join(i, o))
                return R_PARKED;
        } else if (o->code == OP_EVWAIT || o->code == OP_SEMACQ || o->code == OP_LKACQ ||
                   o->code == OP_CVWAIT || o->code == OP_BWAIT) {
            if (!m_grant_wait(i, o))
                return R_PARKED;
        } else if (o->code == OP_QPUT || o->code == OP_QGET) {
            T->list_deadline = m_after(fz_M.now, o->b);
            if (!m_queue_try(i))
                return R_PARKED;
        } else if (o->code == OP_GNEXT) {
            if (!m_gnext_try(i))
                return R_PARKED;
        } else if (o->code == OP_IOWAIT) {
            /* One reader per descriptor; it parks even if the pipe holds
             * bytes: the next poll finds it ready. */
            int r = M_EBUSY;
            if (fz_M.io_waiter < 0 && (r = m_park(i, o->b, K_IO, 0)) == M_OK) {
                fz_M.io_waiter = i;
                return R_PARKED;
            }
            m_done(i, r);
        } else if (o->code == OP_GWAIT) {
            int r;
            if (fz_M.gpending == 0)
                r = fz_M.gfailed ? M_EFAILED : M_OK;
            else if (fz_M.gowner >= 0)
                r = M_EBUSY;
            else if ((r = m_park(i, o->b, K_GROUP, 0)) == M_OK) {
                fz_M.gowner = i;
                return R_PARKED;
            }
            m_done(i, r);
        } else if (o->code == OP_SUB) {
            m_result(i, "start");
            m_begin(i, 1);
        } else if (o->code == OP_FAIL || o->code == OP_RETURN || o->code == OP_EXIT) {
            m_result(i, "done");
            T->fin[lv] = o->code == OP_FAIL ? F_FAIL : o->code == OP_EXIT ? F_EXIT : F_RET;
            T->ret[lv] = (long)o->b;
            m_enter_cleanup(i, lv);
        } else {
            m_nowait(i);
        }
    }
}

/* Resume task i where it stopped. */
static inline int m_run(int i) {
    struct m_task *T = &fz_M.t[i];
    int code;
    if (!T->started) {
        T->started = 1;
        m_begin(i, 0);
        return m_exec(i);
    }
    if (T->closing && T->sec[T->lv] == FZ_BODY) {
        /* a body (the sub's first) stops where it is; its cleanup runs */
        m_enter_cleanup(i, T->lv);
        return m_exec(i);
    }
    code = m_op(i)->code;
    if (code == OP_YIELD) {
        m_result(i, "done");
        T->pc[T->lv][T->sec[T->lv]]++;
    } else if (T->result == M_LISTWOKEN) {
        if (!m_queue_try(i))
            return R_PARKED;
    } else if (code == OP_GNEXT && T->result == M_OK) {
        if (!m_gnext_try(i))
            return R_PARKED;
    } else if (code == OP_CVWAIT && T->cvphase == 1) {
        T->cvflag = T->result != M_OK;
        if (!m_cv_relock(i))
            return R_PARKED;
    } else if (code == OP_CVWAIT && T->cvphase == 2 && T->result == M_OK) { /* the lock */
        T->cvphase = 0;
        m_done(i, T->cvflag ? M_ETIMEDOUT : M_OK);
    } else if (code == OP_CVWAIT && T->cvphase == 2) { /* a scope passed: ask again */
        T->cvflag = 1;
        if (!m_cv_relock(i))
            return R_PARKED;
    } else if (code == OP_CVWAIT && T->cvphase == 3) { /* lk+: the lock came first, or not */
        T->cvphase = 0;
        if (T->result != M_OK)
            m_done(i, T->result);
        else if (!m_cv_start(i))
            return R_PARKED;
    } else {
        m_done(i, T->result);
    }
    return m_exec(i);
}

/* ---- the loop ------------------------------------------------------------ */

static inline void m_run_next(void) {
    int i = fz_M.ready[0], k, r;
    struct m_task *T;
    for (k = 0; k + 1 < fz_M.nready; k++)
        fz_M.ready[k] = fz_M.ready[k + 1];
    fz_M.nready--;
    fz_M.e[i].queued = 0;
    if (i >= E_SC0) {
        m_scope_run(i);
        return;
    }
    if (i >= E_H0) {
        m_call_run(i - E_H0);
        return;
    }
    T = &fz_M.t[i];
    if (T->regive) { /* cancelled once granted: its turn, the grant goes on */
        int q = T->regive - 1;
        T->regive = 0;
        m_give(q);
    } else if (T->granted && m_scope_passed(i) && T->granted - 1 != L_COND &&
               (m_op(i)->code != OP_CVWAIT || T->cvphase == 3) &&
               (T->result == M_OK || T->result == M_LISTWOKEN)) {
        /* woken by a list, then a scope of its passed before this turn: the
         * wait ends timed out as the scope does, the grant goes on (not
         * the lock a condition's wait takes back: it keeps that) */
        int q = T->granted - 1;
        m_timer_drop(i); /* (a queue's waiter's kept timer) */
        if (q == L_SEM || q == L_LOCK || q == L_QGET || q == L_QPUT)
            m_give(q);
        T->result = M_ETIMEDOUT;
    }
    T->granted = 0;
    if (T->closing && !T->started) {
        T->st = M_CLOSED;
        T->val = 0;
        m_task_done(i);
        return;
    }
    fz_M.current = i;
    r = m_run(i);
    fz_M.current = -1;
    if (r == R_FINISHED)
        m_task_done(i);
    else if (r == R_YIELDED)
        m_push(i);
}

/* A timer is due: a task's, or a callback's (a scope's) to the queue. */
static inline void m_timer_due(int e) {
    if (e < E_H0 && !fz_M.t[e].parked) { /* a woken queue waiter's: dropped */
        m_timer_drop(e);
    } else if (e < E_H0) {
        m_task_timeout(e, M_OK);
    } else {
        m_timer_drop(e);
        m_push(e);
    }
}

static inline void m_run_once(void) {
    int n, i, jump = !fz_M.nready && !fz_M.stop && fz_M.ntimers;
    /* The readiness poll comes first: a reader of a pipe that holds bytes
     * wakes, and then time does not jump. */
    if (fz_M.io_waiter >= 0 && fz_M.pipe_bytes > 0) {
        m_wake(fz_M.io_waiter, M_OK);
        jump = 0;
    }
    if (jump) {
        fz_time_t d = fz_M.e[m_timer_first()].deadline;
        if (m_until(fz_M.now, d))
            fz_M.now = d; /* the virtual clock jumps to the next deadline */
    }
    while (fz_M.ntimers && !m_before(fz_M.now, fz_M.e[i = m_timer_first()].deadline))
        m_timer_due(i);
    for (n = fz_M.nready; n > 0 && !fz_M.runaway; n--) /* what is ready now, once */
        m_run_next();
}

static inline int m_go_on(void) {
    return !fz_M.stop && (fz_M.nready || fz_M.ntimers || fz_M.io_waiter >= 0) && !fz_M.runaway;
}

/* pt_loop_run: once no task and no callback is left, the background
 * tasks are cancelled (newest first), whatever they wait on (a wait
 * without a deadline included: then nothing else is pending), and so is
 * any that a cleanup spawns; tasks that cleanups spawn run to their end.
 * The run goes on until their cleanups are done; anything left unfinished
 * then is PT_EBUSY. */
static inline int m_loop_run(void) {
    int rc = M_OK, k;
    while (!fz_M.stop && !fz_M.runaway) {
        if (!fz_M.live) {
            if (!fz_M.nbg)
                break;
            for (k = 0; k < fz_M.nbg; k++)
                (void)m_cancel(fz_M.bgs[k]);
        }
        if (!m_go_on())
            break;
        m_run_once();
    }
    if (fz_M.stop)
        rc = M_EINVAL;
    else if (fz_M.live || fz_M.nbg)
        rc = M_EBUSY;
    fz_M.stop = 0;
    return rc;
}

/* Run program pr through the model; 0 unless it ran away. */
static inline int fz_run_model(const struct fz_prog *pr, struct fz_trace *tr) {
    int i, k, rc = 0;
    memset(&fz_M, 0, sizeof fz_M);
    fz_M.pr = pr;
    fz_M.tr = tr;
    fz_M.now = pr->start;
    fz_M.sem = pr->sem_count;
    fz_M.gowner = -1;
    fz_M.lock = -1;
    fz_M.current = -1;
    fz_M.io_waiter = -1;
    fz_M.budget = FZ_BUDGET;
    fz_tr_reset(tr);
    for (i = 0; i < pr->ntasks; i++) {
        static const int how[4] = {0, OP_SPAWN, OP_SPAWN_BG, OP_GSPAWN};
        if (pr->start_kind[i] == FZ_START_NONE)
            continue;
        fz_tr(tr, "main start T%d = %s\n", i, fz_rc(m_spawn(i, how[pr->start_kind[i]])));
    }
    for (k = 0; k < FZ_RUNS; k++) {
        rc = m_loop_run();
        fz_tr(tr, "%lu main run = %s\n", (unsigned long)fz_M.now, fz_rc(rc));
        if (rc != M_EINVAL || fz_M.runaway)
            break;
    }
    for (i = 0; i < pr->ntasks; i++) {
        const struct m_task *T = &fz_M.t[i];
        if (T->spawned && !T->alive)
            fz_tr(tr, "final T%d st %d v %ld\n", i, T->st, T->val);
        else
            fz_tr(tr, "final T%d st 0\n", i);
    }
    { /* the group's error: the first member to fail (completion order) */
        int err = 0;
        for (k = 0; k < fz_M.gcount - fz_M.gpending && !err; k++) {
            const struct m_task *T = &fz_M.t[fz_M.members[k]];
            if (!T->alive && T->st == M_EXITED)
                err = T->val ? (int)T->val : M_EFAILED;
        }
        fz_tr(tr, "state sem %u ev %d q %u lock %d bar %d%s group left %d error %d\n", fz_M.sem,
              fz_M.ev_set, fz_M.qcount, fz_M.lock, fz_M.nlist[L_BAR], fz_M.broken ? " broken" : "",
              fz_M.gcount - fz_M.gtaken, err);
    }
    fz_tr(tr, "timers %d\n", fz_M.ntimers);
    return fz_M.runaway;
}

#endif /* FZ_MODEL_H */
