/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fz_impl.h - the library side of the differential fuzzer: one
 * interpreter body runs every task's scripts through the real macros and
 * records what each op returned, when. It also checks invariants that need
 * no model: no wake-up before a deadline, one cleanup per spawn, nothing
 * runs once finished. Include once, before fz_model.h, after fz_prog.h.
 */
#ifndef FZ_IMPL_H
#define FZ_IMPL_H

#include <setjmp.h>
#include <stdlib.h>

/* The loop calls this before it resumes a task (see loop/core.h). */
struct pt_task;
static inline void fz_on_run(struct pt_task *t);
#define PT_CONFIG_ON_RUN(loop, task) fz_on_run(task)

#include "loop/barrier.h"
#include "loop/call.h"
#include "loop/core.h"
#include "loop/group.h"
#include "loop/io.h"
#include "loop/lock.h"
#include "loop/sync.h"
#include "loop/timeout.h"

#include "fz_prog.h"

#if FZ_IO
#include <fcntl.h>
#include <unistd.h>
#endif

#define FZ_RUN_LIMIT 100000L /* task resumptions: beyond, a runaway */

struct fz_task {
    struct pt_task task; /* first member: the loop hands it back */
    struct pt_gen sub;
    int id;
    unsigned char pc[2][2]; /* [level][section] */
    pt_value got;           /* a queue get's destination */
    pt_time_t wstart;       /* when the current wait began */
    struct pt_timeout sc[FZ_SCOPES];
    int depth;                /* scopes opened by ops and not ended by one */
    pt_index_t bidx;          /* the barrier's arrival index */
    struct pt_task *next_got; /* PT_GROUP_NEXT's destination */
    int rc;                   /* an op of two waits: the result so far */
#if FZ_IO
    struct pt_io io; /* its descriptor wait */
#endif
    int alive; /* spawned, and not yet seen finishing */
    int cleanups, sub_begins, sub_cleanups;
};

static struct fz_impl {
    const struct fz_prog *pr;
    struct fz_trace *tr;
    struct pt_loop loop;
    struct pt_timer_slot heap[32];
    struct pt_event ev;
    struct pt_semaphore sem;
    struct pt_queue q;
    pt_value qslots[2];
    struct pt_group grp;
    struct pt_task *members[4];
    struct pt_lock lock;
    struct pt_cond cond;
    struct pt_barrier bar;
    struct pt_handle h[FZ_HANDLES];
    struct fz_cb {
        unsigned char act, task; /* what the callback does (CB_*), to which task */
        int timed;               /* call_later / call_at: not before `due` */
        pt_time_t due;
    } cb[FZ_HANDLES];
    struct fz_task t[FZ_MAXT];
    int budget;
    long runs;
#if FZ_IO
    int pipe[2]; /* non-blocking: [0] read end, [1] write end */
#endif
    jmp_buf out;
    char fail[512]; /* the first invariant broken, "" if none */
} fz_I;

static inline void fz_broken(const char *fmt, ...) {
    va_list ap;
    if (fz_I.fail[0])
        return;
    va_start(ap, fmt);
    vsnprintf(fz_I.fail, sizeof fz_I.fail, fmt, ap);
    va_end(ap);
}

static inline void fz_on_run(struct pt_task *task) {
    struct fz_task *x = (struct fz_task *)task;
    if (!x->alive)
        fz_broken("T%d resumed after it finished (or before it was spawned)", x->id);
    if (++fz_I.runs > FZ_RUN_LIMIT) {
        fz_broken("runaway: more than %ld task runs", FZ_RUN_LIMIT);
        longjmp(fz_I.out, 1);
    }
}

static inline void fz_i_line(int id, int lv, const char *what) {
    fz_tr(fz_I.tr, "%lu T%d%s %s\n", (unsigned long)pt_loop_now(&fz_I.loop), id, lv ? ".sub" : "",
          what);
}

static inline const struct fz_op *fz_i_op(const struct fz_task *x, int lv, int sec) {
    return &fz_I.pr->ops[x->id][lv][sec][x->pc[lv][sec]];
}

static inline int fz_i_len(const struct fz_task *x, int lv, int sec) {
    return fz_I.pr->len[x->id][lv][sec];
}

/* Record an op and what it gave. */
static inline void fz_i_result(struct fz_task *x, int lv, int sec, const char *res) {
    char op[64], line[192];
    fz_op_text(fz_i_op(x, lv, sec), op, sizeof op);
    snprintf(line, sizeof line, "%s = %s", op, res);
    fz_i_line(x->id, lv, line);
}

/* A wait ended with rc: record it, and check it did not end early. */
static inline void fz_i_waited(struct fz_task *x, int lv, int sec, int rc) {
    const struct fz_op *o = fz_i_op(x, lv, sec);
    pt_time_t waited = (pt_time_t)(pt_loop_now(&fz_I.loop) - x->wstart);
    char res[48];
    if (o->code == OP_SLEEP && rc == PT_OK && waited < o->b)
        fz_broken("T%d woke from sleep %lu after %lu ticks", x->id, (unsigned long)o->b,
                  (unsigned long)waited);
    /* (a timeout scope may end a wait early) */
    if (!x->depth && rc == PT_ETIMEDOUT && o->b != FZ_FOREVER && waited < o->b)
        fz_broken("T%d timed out of a %lu-tick wait after %lu ticks", x->id, (unsigned long)o->b,
                  (unsigned long)waited);
    if (!x->depth && rc == PT_ETIMEDOUT && o->b == FZ_FOREVER)
        fz_broken("T%d timed out of a wait without a timeout", x->id);
    if (o->code == OP_LKACQ && rc == PT_OK && pt_lock_owner(&fz_I.lock) != &x->task)
        fz_broken("T%d: lk_acq ended OK without the lock", x->id);
    if (o->code == OP_BWAIT && rc == PT_OK && x->bidx >= fz_I.pr->parties)
        fz_broken("T%d: barrier index %u of %u", x->id, (unsigned)x->bidx, fz_I.pr->parties);
    if (o->code == OP_QGET && rc == PT_OK)
        snprintf(res, sizeof res, "OK v=%ld", (long)x->got.i);
    else if (o->code == OP_GNEXT && rc == PT_OK)
        snprintf(res, sizeof res, "OK T%d", x->next_got ? ((struct fz_task *)x->next_got)->id : -1);
    else if (o->code == OP_BWAIT && rc == PT_OK)
        snprintf(res, sizeof res, "OK i=%u", (unsigned)x->bidx);
    else
        snprintf(res, sizeof res, "%s", fz_rc(rc));
    fz_i_result(x, lv, sec, res);
}

static inline PT_THREAD(fz_task_fn(struct pt_loop *loop, struct pt_task *task));

/* PT_COND_WAIT holds the lock when it ends, whatever its result (but
 * PT_EBUSY: it did not hold it to begin with). */
static inline void fz_i_cv_check(const struct fz_task *x) {
    if (x->rc != PT_EBUSY && pt_lock_owner(&fz_I.lock) != &x->task)
        fz_broken("T%d: cv_wait ended %s without the lock", x->id, fz_rc(x->rc));
}

/* Spawns by ops: a budget bounds cycles of tasks re-spawning each other. */
static inline int fz_i_spawn(struct fz_task *who, int code, struct fz_task *x, char *res,
                             size_t cap) {
    int rc;
    (void)who;
    if (fz_I.budget <= 0) {
        snprintf(res, cap, "skip");
        return 1;
    }
    fz_I.budget--;
    if (code == OP_SPAWN)
        rc = pt_loop_spawn(&fz_I.loop, &x->task, fz_task_fn);
    else if (code == OP_SPAWN_BG)
        rc = pt_loop_spawn_background(&fz_I.loop, &x->task, fz_task_fn);
    else
        rc = pt_group_spawn(&fz_I.loop, &fz_I.grp, &x->task, fz_task_fn);
    if (rc == PT_OK) {
        x->alive = 1;
        x->cleanups = x->sub_begins = x->sub_cleanups = 0;
        x->depth = 0;
    }
    snprintf(res, cap, "%s", fz_rc(rc));
    return 0;
}

/* A callback: does what the op that scheduled it said, and records it. */
static void fz_cb_fn(struct pt_loop *l, void *arg) {
    struct fz_cb *c = (struct fz_cb *)arg;
    int h = (int)(c - fz_I.cb);
    char what[24], res[48];
    if (c->timed && pt_time_before(pt_loop_now(l), c->due))
        fz_broken("H%d called at %lu, before %lu", h, (unsigned long)pt_loop_now(l),
                  (unsigned long)c->due);
    snprintf(what, sizeof what, "%s", fz_cb_names[c->act]);
    snprintf(res, sizeof res, "done");
    if (c->act == CB_EVSET || c->act == CB_EVPULSE) {
        pt_event_set(l, &fz_I.ev);
        if (c->act == CB_EVPULSE)
            pt_event_clear(&fz_I.ev);
    } else if (c->act == CB_SEMREL) {
        pt_semaphore_release(l, &fz_I.sem);
    } else if (c->act == CB_QPUT) {
        snprintf(res, sizeof res, "%d", pt_queue_try_put(l, &fz_I.q, pt_value_int(900 + h)));
    } else if (c->act == CB_CANCEL) {
        snprintf(what, sizeof what, "cancel T%u", c->task);
        snprintf(res, sizeof res, "%s", fz_rc(pt_task_cancel(l, &fz_I.t[c->task].task)));
    } else if (c->act == CB_AGAIN) { /* the handle is free again: once more, a note */
        int rc = pt_call_later(l, &fz_I.h[h], 1, fz_cb_fn, c);
        if (rc == PT_OK) {
            c->act = CB_NOTE;
            c->timed = 1;
            c->due = pt_time_after(pt_loop_now(l), 1);
        }
        snprintf(res, sizeof res, "%s", fz_rc(rc));
    }
    fz_tr(fz_I.tr, "%lu H%d %s = %s\n", (unsigned long)pt_loop_now(l), h, what, res);
}

/* Schedule a callback on handle o->c (call_soon, call_later, call_at). */
static inline int fz_i_call(const struct fz_op *o) {
    struct pt_loop *l = &fz_I.loop;
    struct pt_handle *h = &fz_I.h[o->c];
    struct fz_cb *c = &fz_I.cb[o->c];
    pt_time_t when = (pt_time_t)(pt_loop_now(l) + o->b - 1u);
    int rc;
    if (o->code == OP_CSOON)
        rc = pt_call_soon(l, h, fz_cb_fn, c);
    else if (o->code == OP_CLATER)
        rc = pt_call_later(l, h, o->b, fz_cb_fn, c);
    else
        rc = pt_call_at(l, h, when, fz_cb_fn, c);
    if (rc == PT_OK) { /* (a pending callback reads c: only now) */
        c->act = o->d;
        c->task = o->a;
        c->timed = o->code != OP_CSOON;
        c->due = o->code == OP_CLATER ? pt_time_after(pt_loop_now(l), o->b) : when;
    }
    return rc;
}

/* The ops that never wait. */
static inline void fz_i_nowait(struct fz_task *x, int lv, int sec) {
    const struct fz_op *o = fz_i_op(x, lv, sec);
    struct pt_loop *l = &fz_I.loop;
    struct fz_task *y = &fz_I.t[o->a];
    char res[48] = "";
    if (o->code == OP_CANCEL) {
        snprintf(res, sizeof res, "%s", fz_rc(pt_task_cancel(l, &y->task)));
    } else if (o->code == OP_SPAWN || o->code == OP_SPAWN_BG || o->code == OP_GSPAWN) {
        fz_i_spawn(x, o->code, y, res, sizeof res);
    } else if (o->code == OP_EVSET) {
        pt_event_set(l, &fz_I.ev);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_EVCLEAR) {
        pt_event_clear(&fz_I.ev);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_EVPULSE) { /* every waiter goes, later ones wait */
        pt_event_set(l, &fz_I.ev);
        pt_event_clear(&fz_I.ev);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_SEMREL) {
        pt_semaphore_release(l, &fz_I.sem);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_STOP) {
        pt_loop_stop(l);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_RUNIN) {
        if (o->b == 1)
            snprintf(res, sizeof res, "%d", (int)pt_loop_run_until(l, &y->task));
        else if (o->b == 2)
            snprintf(res, sizeof res, "%s", fz_rc(pt_loop_run_once(l, 1)));
        else
            snprintf(res, sizeof res, "%s", fz_rc(pt_loop_run(l)));
    } else if (o->code == OP_GCANCEL) {
        pt_group_cancel(l, &fz_I.grp);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_SEMTRY) {
        snprintf(res, sizeof res, "%d", pt_semaphore_try(&fz_I.sem));
    } else if (o->code == OP_QTRYPUT) {
        snprintf(res, sizeof res, "%d",
                 pt_queue_try_put(l, &fz_I.q, pt_value_int(x->id * 100 + 90 + x->pc[lv][sec])));
    } else if (o->code == OP_QTRYGET) {
        pt_value v = PT_NONE;
        int ok = pt_queue_try_get(l, &fz_I.q, &v);
        snprintf(res, sizeof res, "%d v=%ld", ok, ok ? (long)v.i : 0L);
    } else if (o->code == OP_STATUS) {
        snprintf(res, sizeof res, "st %d", (int)pt_task_status(&y->task));
    } else if (o->code == OP_LKREL) {
        snprintf(res, sizeof res, "%s", fz_rc(pt_lock_release(l, &fz_I.lock, &x->task)));
    } else if (o->code == OP_LKTRY) {
        snprintf(res, sizeof res, "%d", pt_lock_try(&fz_I.lock, &x->task));
    } else if (o->code == OP_CVNOTIFY || o->code == OP_CVNOTALL) {
        /* lk+: with the lock taken for it if it is free (released after) */
        int took = !o->c && pt_lock_try(&fz_I.lock, &x->task), rc;
        if (o->code == OP_CVNOTIFY)
            rc = pt_cond_notify(l, &fz_I.cond, &x->task, (unsigned)o->b);
        else
            rc = pt_cond_notify_all(l, &fz_I.cond, &x->task);
        if (took && pt_lock_release(l, &fz_I.lock, &x->task) != PT_OK)
            fz_broken("T%d could not release the lock it took", x->id);
        snprintf(res, sizeof res, "%s", fz_rc(rc));
    } else if (o->code == OP_BABORT) {
        pt_barrier_abort(l, &fz_I.bar);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_BRESET) {
        pt_barrier_reset(l, &fz_I.bar);
        snprintf(res, sizeof res, "done");
    } else if (o->code == OP_CSOON || o->code == OP_CLATER || o->code == OP_CAT) {
        snprintf(res, sizeof res, "%s", fz_rc(fz_i_call(o)));
    } else if (o->code == OP_HCANCEL) {
        snprintf(res, sizeof res, "%s", fz_rc(pt_handle_cancel(l, &fz_I.h[o->c])));
#if FZ_IO
    } else if (o->code == OP_PWRITE) {
        snprintf(res, sizeof res, "%d", (int)write(fz_I.pipe[1], "x", 1));
    } else if (o->code == OP_PREAD) {
        char buf[64];
        ssize_t n = read(fz_I.pipe[0], buf, sizeof buf);
        snprintf(res, sizeof res, "%d", n < 0 ? 0 : (int)n);
#endif
    } else {
        snprintf(res, sizeof res, "?");
    }
    fz_i_result(x, lv, sec, res);
}

#define FZ_OP(sec) (fz_i_op(x, lv, (sec))->code)
#define FZ_ARG(sec) fz_i_op(x, lv, (sec))
#define FZ_OTHER(sec) (&fz_I.t[fz_i_op(x, lv, (sec))->a].task)
#define FZ_WAITED(sec) fz_i_waited(x, lv, (sec), PT_WAIT_RESULT())

/* The interpreter (fz_interp.h): level 0 through PT_TASK_BEGIN, as any
 * task's body; level 1 through PT_SUB_BEGIN. */
static inline PT_THREAD(fz_interp_sub(struct pt_loop *loop, struct pt_task *task,
                                      struct pt_gen *g));
#define FZ_INTERP_NAME fz_interp_task
#define FZ_INTERP_BEGIN PT_TASK_BEGIN(loop, task)
#include "fz_interp.h"
#undef FZ_INTERP_NAME
#undef FZ_INTERP_BEGIN
#define FZ_INTERP_NAME fz_interp_sub
#define FZ_INTERP_BEGIN PT_SUB_BEGIN(loop, task, g)
#include "fz_interp.h"
#undef FZ_INTERP_NAME
#undef FZ_INTERP_BEGIN

/* Every task's body: the interpreter at level 0, and the end recorded. */
static inline PT_THREAD(fz_task_fn(struct pt_loop *loop, struct pt_task *task)) {
    struct fz_task *x = (struct fz_task *)task;
    char st = fz_interp_task(loop, task, &task->gen), line[64];
    if (!pt_gen_done(&task->gen)) /* a stop: its status goes to the loop as it is */
        return st;
    snprintf(line, sizeof line, "end st %d v %ld", (int)st, (long)task->gen.value.i);
    fz_i_line(x->id, 0, line);
    if (x->cleanups != 1)
        fz_broken("T%d finished after %d cleanups", x->id, x->cleanups);
    if (x->sub_cleanups != x->sub_begins)
        fz_broken("T%d: %d sub-coroutines began, %d cleanups ran", x->id, x->sub_begins,
                  x->sub_cleanups);
    x->alive = 0;
    return st;
}

/* The program's main: start the tasks, run the loop, record the end. */
static inline void fz_impl_main(const struct fz_prog *pr, struct fz_trace *tr) {
    struct pt_loop *l = &fz_I.loop;
    int i, k, rc = 0, alive_left = 0;
    for (i = 0; i < pr->ntasks; i++) {
        struct fz_task *x = &fz_I.t[i];
        if (pr->start_kind[i] == FZ_START_SPAWN)
            rc = pt_loop_spawn(l, &x->task, fz_task_fn);
        else if (pr->start_kind[i] == FZ_START_BG)
            rc = pt_loop_spawn_background(l, &x->task, fz_task_fn);
        else if (pr->start_kind[i] == FZ_START_GROUP)
            rc = pt_group_spawn(l, &fz_I.grp, &x->task, fz_task_fn);
        else
            continue;
        x->alive = rc == PT_OK;
        fz_tr(tr, "main start T%d = %s\n", i, fz_rc(rc));
    }
    for (k = 0; k < FZ_RUNS; k++) {
        rc = pt_loop_run(l);
        fz_tr(tr, "%lu main run = %s\n", (unsigned long)pt_loop_now(l), fz_rc(rc));
        if (rc != PT_EINVAL)
            break;
    }
    for (i = 0; i < pr->ntasks; i++) {
        struct pt_task *t = &fz_I.t[i].task;
        int st = pt_task_status(t);
        if (st)
            fz_tr(tr, "final T%d st %d v %ld\n", i, st, (long)t->gen.value.i);
        else
            fz_tr(tr, "final T%d st 0\n", i);
        if (!st && fz_I.t[i].alive && !pt__flag(t, PT__T_BACKGROUND))
            alive_left = 1;
    }
    {
        const struct pt_task *owner = pt_lock_owner(&fz_I.lock);
        fz_tr(tr, "state sem %u ev %d q %u lock %d bar %u%s group left %u error %d\n",
              fz_I.sem.count, pt_event_is_set(&fz_I.ev), (unsigned)fz_I.q.count,
              owner ? ((const struct fz_task *)owner)->id : -1,
              (unsigned)pt_barrier_waiting(&fz_I.bar),
              pt_barrier_broken(&fz_I.bar) ? " broken" : "", (unsigned)pt_group_left(&fz_I.grp),
              pt_group_error(&fz_I.grp));
    }
    fz_tr(tr, "timers %u\n", (unsigned)pt_loop_timers(l));
    if (rc != PT_EINVAL && pt_loop_timers(l) != 0)
        fz_broken("%u timers left after pt_loop_run returned %s", (unsigned)pt_loop_timers(l),
                  fz_rc(rc));
    if (rc == PT_OK && alive_left)
        fz_broken("pt_loop_run returned PT_OK with a task not finished");
}

/* Run program pr through the library; the trace goes to tr. 0 if it ran
 * to its end (invariants may still have failed: fz_I.fail). */
static inline int fz_run_impl(const struct fz_prog *pr, struct fz_trace *tr) {
    int i;
    memset(&fz_I, 0, sizeof fz_I); /* tasks are zeroed before their first spawn */
    fz_I.pr = pr;
    fz_I.tr = tr;
    fz_I.budget = FZ_BUDGET;
    fz_tr_reset(tr);
    for (i = 0; i < FZ_MAXT; i++)
        fz_I.t[i].id = i;
    pt_loop_init(&fz_I.loop, fz_I.heap, pr->heap_cap);
    pt_loop_use_virtual_clock(&fz_I.loop, pr->start);
#if PT_CONFIG_TIMERS == PT_TIMERS_HEAP
    /* A loop that has set nearly 2^16 (or 2^32) timers: equal deadlines must
     * keep their order across the heap's sequence counter's wrap. (A
     * private field: the only way to get there without setting them all.
     * The list has no counter.) */
    if (pr->aged)
        fz_I.loop.seq = (pt_seq_t)(0u - pr->aged);
#endif
    pt_event_init(&fz_I.ev);
    pt_semaphore_init(&fz_I.sem, pr->sem_count);
    pt_queue_init(&fz_I.q, fz_I.qslots, (pt_index_t)pr->q_cap);
    pt_group_init(&fz_I.grp, fz_I.members, (pt_index_t)pr->g_cap, (unsigned char)pr->g_mode);
    pt_lock_init(&fz_I.lock);
    pt_cond_init(&fz_I.cond, &fz_I.lock);
    pt_barrier_init(&fz_I.bar, (pt_index_t)pr->parties);
#if FZ_IO
    {
        static union pt_io_slot slots[PT_IO_SLOTS(256)]; /* the pipe's descriptors are low */
        pt_loop_io_table(&fz_I.loop, slots, sizeof slots / sizeof slots[0]);
    }
    if (pipe(fz_I.pipe) != 0 || fcntl(fz_I.pipe[0], F_SETFL, O_NONBLOCK) != 0 ||
        fcntl(fz_I.pipe[1], F_SETFL, O_NONBLOCK) != 0) {
        perror("fuzz_loop: pipe");
        exit(2);
    }
    if (setjmp(fz_I.out)) {
        close(fz_I.pipe[0]);
        close(fz_I.pipe[1]);
        pt_loop_close(&fz_I.loop);
        return 1; /* a runaway: fz_I.fail says so */
    }
    fz_impl_main(pr, tr);
    close(fz_I.pipe[0]);
    close(fz_I.pipe[1]);
    pt_loop_close(&fz_I.loop);
#else
    if (setjmp(fz_I.out))
        return 1; /* a runaway: fz_I.fail says so */
    fz_impl_main(pr, tr);
#endif
    return 0;
}

#endif /* FZ_IMPL_H */
