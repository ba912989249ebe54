/*
 * tests/fuzz/fz_model.h - the reference model of the differential fuzzer:
 * a plain discrete-event simulation of a program, written from the loop's
 * documented contracts (header comments, README) and the choices listed in
 * tests/fuzz/README.md where they are silent, not from the loop's code. It
 * includes nothing of the library. Arrays and linear scans; it writes the
 * same trace format as fz_impl.h.
 */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include "fz_prog.h"

/* Final statuses and results, as documented (pt/thread.h, pt/gen.h,
 * loop/types.h); the model has its own copy on purpose. */
enum { M_EXITED = 2, M_ENDED = 3, M_CLOSED = 4 };
enum {
    M_OK = 0,
    M_ETIMEDOUT = -1,
    M_ECANCELLED = -2,
    M_EFULL = -3,
    M_EINVAL = -4,
    M_EBUSY = -5,
    M_EFAILED = -7,
    M_LISTWOKEN = 1000 /* woken by its list: try again */
};
enum { K_SLEEP, K_LIST, K_JOIN, K_GROUP, K_IO };
enum { L_EV, L_SEM, L_QGET, L_QPUT, L_N };
enum { F_END, F_RET, F_FAIL, F_EXIT }; /* how a level's body finished */
enum { R_PARKED, R_YIELDED, R_FINISHED };
#define M_MAX_DELAY 0x7FFFFFFFu

struct m_task {
    int spawned, alive, started, closing, bg, in_group, awaiter;
    int st;
    long val;
    int lv, sec[2], pc[2][2], fin[2];
    long ret[2];
    int parked, queued, kind, obj, has_timer, timed_out, listwoken, result;
    uint32_t deadline, list_deadline;
    uint64_t seq;
    long got;
};

static struct fz_model {
    const struct fz_prog *pr;
    struct fz_trace *tr;
    struct m_task t[FZ_MAXT];
    uint32_t now;
    uint64_t seq;
    int ready[FZ_MAXT], nready;
    int timers[FZ_MAXT], ntimers;
    int list[L_N][FZ_MAXT], nlist[L_N];
    int ev_set;
    unsigned sem;
    long qv[2];
    unsigned qhead, qcount;
    int members[4], gcount, gpending, gowner, gfailed;
    int bgs[FZ_MAXT], nbg; /* background tasks, newest first */
    int live, stop, budget, current;
    int pipe_bytes, io_waiter; /* the pipe: bytes in it, the task waiting (-1) */
    long steps;
    int runaway;
} fz_M;

/* Wrap-safe tick arithmetic, as loop/ticks.h documents it. */
static inline int m_before(uint32_t a, uint32_t b) {
    return (uint32_t)(a - b) > M_MAX_DELAY;
}
static inline uint32_t m_until(uint32_t a, uint32_t b) {
    return m_before(a, b) ? (uint32_t)(b - a) : 0;
}
static inline uint32_t m_after(uint32_t now, uint32_t d) {
    return (uint32_t)(now + (d > M_MAX_DELAY ? M_MAX_DELAY : d));
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
    char res[48];
    if (m_op(i)->code == OP_QGET && r == M_OK)
        snprintf(res, sizeof res, "OK v=%ld", T->got);
    else
        snprintf(res, sizeof res, "%s", fz_rc(r));
    m_result(i, res);
    T->pc[T->lv][T->sec[T->lv]]++;
}

/* ---- queue, timers, lists ------------------------------------------------ */

static inline void m_push(int i) {
    fz_M.ready[fz_M.nready++] = i;
    fz_M.t[i].queued = 1;
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

/* Earliest deadline; equal deadlines in the order they were set. */
static inline int m_timer_first(void) {
    int k, best = -1;
    for (k = 0; k < fz_M.ntimers; k++) {
        const struct m_task *a = &fz_M.t[fz_M.timers[k]], *b;
        if (best < 0) {
            best = k;
            continue;
        }
        b = &fz_M.t[fz_M.timers[best]];
        if (m_before(a->deadline, b->deadline) || (a->deadline == b->deadline && a->seq < b->seq))
            best = k;
    }
    return best < 0 ? -1 : fz_M.timers[best];
}

/* Park i (running op) for `timeout`; 0 if the heap is full. */
static inline int m_park(int i, uint32_t timeout, int kind, int obj) {
    struct m_task *T = &fz_M.t[i];
    if (timeout != FZ_FOREVER) {
        if ((unsigned)fz_M.ntimers >= fz_M.pr->heap_cap)
            return 0;
        T->deadline = m_after(fz_M.now, timeout);
        T->seq = fz_M.seq++;
        T->has_timer = 1;
        fz_M.timers[fz_M.ntimers++] = i;
    }
    T->parked = 1;
    T->kind = kind;
    T->obj = obj;
    return 1;
}

static inline void m_wake(int i, int r) {
    struct m_task *T = &fz_M.t[i];
    if (T->has_timer) {
        m_remove(fz_M.timers, &fz_M.ntimers, i);
        T->has_timer = 0;
    }
    if (T->kind == K_LIST)
        m_remove(fz_M.list[T->obj], &fz_M.nlist[T->obj], i);
    else if (T->kind == K_JOIN)
        fz_M.t[T->obj].awaiter = -1;
    else if (T->kind == K_GROUP)
        fz_M.gowner = -1;
    else if (T->kind == K_IO)
        fz_M.io_waiter = -1;
    T->parked = 0;
    T->timed_out = 0;
    T->result = r;
    m_push(i);
}

/* Wake the longest waiter of list q, if any; it tries again when it runs. */
static inline void m_wake_one(int q) {
    int h;
    if (!fz_M.nlist[q])
        return;
    h = fz_M.list[q][0];
    m_wake(h, M_LISTWOKEN);
    fz_M.t[h].listwoken = 1;
    fz_M.t[h].obj = q;
}

/* ---- cancel, finish ------------------------------------------------------ */

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
    if (T->parked) {
        m_wake(i, M_ECANCELLED);
    } else {                /* queued: a wait that ended is not seen yet; it ends cancelled */
        if (T->listwoken) { /* and a list's wake-up goes on to the next waiter */
            T->listwoken = 0;
            m_wake_one(T->obj);
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

/* The group's cancel: its members, not a former one spawned again outside. */
static inline void m_group_cancel(void) {
    int k;
    for (k = 0; k < fz_M.gcount; k++)
        if (fz_M.t[fz_M.members[k]].in_group)
            (void)m_cancel(fz_M.members[k]);
}

static inline void m_task_done(int i) {
    struct m_task *T = &fz_M.t[i];
    int w = T->awaiter;
    T->alive = 0;
    T->awaiter = -1;
    if (T->bg) {
        m_remove(fz_M.bgs, &fz_M.nbg, i);
        return;
    }
    fz_M.live--;
    if (T->in_group) {
        fz_M.gpending--;
        if (T->st == M_EXITED && !fz_M.gfailed) {
            fz_M.gfailed = 1;
            if (fz_M.pr->g_mode == 0)
                m_group_cancel();
        }
        if (fz_M.gpending == 0 && fz_M.gowner >= 0)
            m_wake_waiter(fz_M.gowner, fz_M.gfailed ? M_EFAILED : M_OK);
        return;
    }
    if (w >= 0)
        m_wake_waiter(w, m_outcome(T->st));
}

/* ---- spawning ------------------------------------------------------------ */

static inline int m_spawn(int i, int how) {
    struct m_task *T = &fz_M.t[i];
    if (how == OP_GSPAWN && fz_M.gcount >= (int)fz_M.pr->g_cap)
        return M_EFULL;
    if (T->alive)
        return M_EBUSY; /* pt_group_spawn passes pt_spawn's answer on */
    memset(T, 0, sizeof *T);
    T->spawned = T->alive = 1;
    T->awaiter = -1;
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

/* ---- the interpreter ----------------------------------------------------- */

static inline void m_begin(int i, int lv) {
    struct m_task *T = &fz_M.t[i];
    T->lv = lv;
    T->sec[lv] = FZ_BODY;
    T->pc[lv][FZ_BODY] = 0;
    m_line(i, lv, "begin");
}

static inline void m_enter_cleanup(int i, int lv) {
    struct m_task *T = &fz_M.t[i];
    T->lv = lv;
    T->sec[lv] = FZ_CLEANUP;
    T->pc[lv][FZ_CLEANUP] = 0;
    m_line(i, lv, "cleanup");
}

/* Try a list op once: done (1), or parked / gave up. */
static inline int m_list_try(int i) {
    struct m_task *T = &fz_M.t[i];
    const struct fz_op *o = m_op(i);
    int q = L_EV, ok = 0;
    uint32_t left = FZ_FOREVER;
    if (o->code == OP_EVWAIT) {
        ok = fz_M.ev_set;
    } else if (o->code == OP_SEMACQ) {
        q = L_SEM;
        if (fz_M.sem) {
            fz_M.sem--;
            ok = 1;
        }
    } else if (o->code == OP_QPUT) {
        q = L_QPUT;
        if (fz_M.qcount < fz_M.pr->q_cap) {
            long v = (long)i * 100 + (T->sec[T->lv] ? 50 : 0) + T->pc[T->lv][T->sec[T->lv]];
            fz_M.qv[(fz_M.qhead + fz_M.qcount) % fz_M.pr->q_cap] = v;
            fz_M.qcount++;
            m_wake_one(L_QGET);
            ok = 1;
        }
    } else {
        q = L_QGET;
        if (fz_M.qcount) {
            T->got = fz_M.qv[fz_M.qhead];
            fz_M.qhead = (fz_M.qhead + 1) % fz_M.pr->q_cap;
            fz_M.qcount--;
            m_wake_one(L_QPUT);
            ok = 1;
        }
    }
    if (ok) {
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
    if (!m_park(i, left, K_LIST, q)) {
        m_done(i, M_EFULL);
        return 1;
    }
    fz_M.list[q][fz_M.nlist[q]++] = i;
    return 0;
}

static inline void m_nowait(int i) {
    const struct fz_op *o = m_op(i);
    struct m_task *Y = &fz_M.t[o->a];
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
    } else if (o->code == OP_EVSET) {
        fz_M.ev_set = 1;
        while (fz_M.nlist[L_EV])
            m_wake_one(L_EV);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_EVCLEAR) {
        fz_M.ev_set = 0;
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_SEMREL) {
        fz_M.sem++;
        m_wake_one(L_SEM);
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
        if (ok) {
            const struct m_task *T = &fz_M.t[i];
            fz_M.qv[(fz_M.qhead + fz_M.qcount) % fz_M.pr->q_cap] =
                (long)i * 100 + 90 + T->pc[T->lv][T->sec[T->lv]];
            fz_M.qcount++;
            m_wake_one(L_QGET);
        }
        snprintf(res, sizeof res, "%d", ok);
    } else if (o->code == OP_QTRYGET) {
        long v = 0;
        int ok = fz_M.qcount > 0;
        if (ok) {
            v = fz_M.qv[fz_M.qhead];
            fz_M.qhead = (fz_M.qhead + 1) % fz_M.pr->q_cap;
            fz_M.qcount--;
            m_wake_one(L_QPUT);
        }
        snprintf(res, sizeof res, "%d v=%ld", ok, v);
    } else {
        snprintf(res, sizeof res, "st %d", Y->spawned && !Y->alive ? Y->st : 0);
    }
    m_result(i, res);
    fz_M.t[i].pc[fz_M.t[i].lv][fz_M.t[i].sec[fz_M.t[i].lv]]++;
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
            if (!m_park(i, o->b, K_SLEEP, 0)) {
                m_done(i, M_EFULL);
                continue;
            }
            return R_PARKED;
        } else if (o->code == OP_YIELD) {
            return R_YIELDED;
        } else if (o->code == OP_JOIN) {
            const struct m_task *Y = &fz_M.t[o->a];
            int r;
            if (!Y->spawned)
                r = M_EINVAL;
            else if (!Y->alive)
                r = m_outcome(Y->st);
            else if (o->a == i || Y->awaiter >= 0 || Y->in_group || Y->bg)
                r = M_EBUSY;
            else if (!m_park(i, o->b, K_JOIN, o->a))
                r = M_EFULL;
            else {
                fz_M.t[o->a].awaiter = i;
                return R_PARKED;
            }
            m_done(i, r);
        } else if (o->code == OP_EVWAIT || o->code == OP_SEMACQ || o->code == OP_QPUT ||
                   o->code == OP_QGET) {
            T->list_deadline = m_after(fz_M.now, o->b);
            if (!m_list_try(i))
                return R_PARKED;
        } else if (o->code == OP_IOWAIT) {
            /* One reader per descriptor; it parks even if the pipe holds
             * bytes: the next poll finds it ready. */
            if (fz_M.io_waiter >= 0) {
                m_done(i, M_EBUSY);
            } else if (!m_park(i, o->b, K_IO, 0)) {
                m_done(i, M_EFULL);
            } else {
                fz_M.io_waiter = i;
                return R_PARKED;
            }
        } else if (o->code == OP_GWAIT) {
            int r;
            if (fz_M.gpending == 0)
                r = fz_M.gfailed ? M_EFAILED : M_OK;
            else if (fz_M.gowner >= 0)
                r = M_EBUSY;
            else if (!m_park(i, o->b, K_GROUP, 0))
                r = M_EFULL;
            else {
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
    if (m_op(i)->code == OP_YIELD) {
        m_result(i, "done");
        T->pc[T->lv][T->sec[T->lv]]++;
    } else if (T->result == M_LISTWOKEN) {
        if (!m_list_try(i))
            return R_PARKED;
    } else {
        m_done(i, T->result);
    }
    return m_exec(i);
}

/* ---- the loop ------------------------------------------------------------ */

static inline void m_run_next(void) {
    int i = fz_M.ready[0], k, r;
    struct m_task *T = &fz_M.t[i];
    for (k = 0; k + 1 < fz_M.nready; k++)
        fz_M.ready[k] = fz_M.ready[k + 1];
    fz_M.nready--;
    T->queued = 0;
    T->listwoken = 0;
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

static inline void m_timer_due(int i) {
    struct m_task *T = &fz_M.t[i];
    m_remove(fz_M.timers, &fz_M.ntimers, i);
    T->has_timer = 0;
    if (T->kind == K_JOIN) {
        T->timed_out = 1;
        (void)m_cancel(T->obj);
    } else if (T->kind == K_GROUP) {
        T->timed_out = 1;
        m_group_cancel();
    } else {
        m_wake(i, T->kind == K_SLEEP ? M_OK : M_ETIMEDOUT);
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
        uint32_t d = fz_M.t[m_timer_first()].deadline;
        if (m_until(fz_M.now, d))
            fz_M.now = d; /* the virtual clock jumps to the next deadline */
    }
    while (fz_M.ntimers && !m_before(fz_M.now, fz_M.t[i = m_timer_first()].deadline))
        m_timer_due(i);
    for (n = fz_M.nready; n > 0 && !fz_M.runaway; n--) /* what is ready now, once */
        m_run_next();
}

static inline int m_go_on(void) {
    return !fz_M.stop && (fz_M.nready || fz_M.ntimers || fz_M.io_waiter >= 0) && !fz_M.runaway;
}

/* pt_loop_run: with only background tasks left, each iteration cancels
 * them (newest first), those that cleanups spawned included; tasks that
 * cleanups spawn run to their end. Anything left unfinished is PT_EBUSY. */
static inline int m_loop_run(void) {
    int rc = M_OK, k;
    while (m_go_on()) {
        if (!fz_M.live) {
            if (!fz_M.nbg)
                break;
            for (k = 0; k < fz_M.nbg; k++)
                (void)m_cancel(fz_M.bgs[k]);
        }
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
    fz_tr(tr, "timers %d\n", fz_M.ntimers);
    return fz_M.runaway;
}

#endif /* FZ_MODEL_H */
