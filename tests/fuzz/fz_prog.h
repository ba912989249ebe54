/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fz_prog.h - what the library side and the reference model of
 * the differential fuzzer share: a program (tasks with op scripts), its
 * decoding from a stream of bytes, a seeded byte source, and the trace.
 * Nothing here knows how the loop works: that is the point of the split.
 */
#ifndef FZ_PROG_H
#define FZ_PROG_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "loop/config.h"
#include "loop/ticks.h"

#define FZ_MAXT 8    /* tasks in a program */
#define FZ_MAXOPS 6  /* ops in one script */
#define FZ_BUDGET 16 /* spawn attempts by ops: bounds re-spawn cycles */
#define FZ_RUNS 3    /* pt_loop_run calls while it reports a stop */
/* Times are the library's width (PT_CONFIG_TIME_BITS), so that the starts near
 * the wrap cross it in both. */
typedef pt_time_t fz_time_t;
#define FZ_FOREVER PT_FOREVER

enum fz_code {
    OP_SLEEP,
    OP_YIELD,
    OP_JOIN,
    OP_CANCEL,
    OP_SPAWN,
    OP_SPAWN_BG,
    OP_EVSET,
    OP_EVCLEAR,
    OP_EVWAIT,
    OP_SEMACQ,
    OP_SEMREL,
    OP_QPUT,
    OP_QGET,
    OP_GSPAWN,
    OP_GWAIT,
    OP_SUB,
    OP_FAIL,
    OP_RETURN,
    OP_STOP,
    OP_RUNIN,
    OP_STATUS,
    OP_EXIT,
    OP_GCANCEL,
    OP_SEMTRY,
    OP_QTRYPUT,
    OP_QTRYGET,
    OP_IOWAIT,  /* PT_IO_WAIT for the read end of a pipe (builds with select) */
    OP_PWRITE,  /* write a byte into the pipe */
    OP_PREAD,   /* read what the pipe holds */
    OP_JSHIELD, /* PT_JOIN_SHIELD */
    OP_GNEXT,   /* PT_GROUP_NEXT */
    OP_TOBEGIN, /* PT_TIMEOUT_BEGIN (a task's scopes nest FZ_SCOPES deep) */
    OP_TOEND,   /* PT_TIMEOUT_END of the innermost */
    OP_LKACQ,   /* the lock: PT_LOCK_ACQUIRE */
    OP_LKREL,   /* pt_lock_release */
    OP_LKTRY,   /* pt_lock_try */
    OP_CVWAIT,  /* the condition (over the lock): PT_COND_WAIT */
    OP_CVNOTIFY,
    OP_CVNOTALL,
    OP_BWAIT, /* the barrier: PT_BARRIER_WAIT */
    OP_BABORT,
    OP_BRESET,
    OP_CSOON,   /* a callback on handle H: pt_call_soon */
    OP_CLATER,  /* pt_call_later */
    OP_CAT,     /* pt_call_at, relative to now (from now - 1 on) */
    OP_HCANCEL, /* pt_handle_cancel */
    OP_TORENEW, /* PT_TIMEOUT_END, then PT_TIMEOUT_BEGIN, of the innermost */
    OP_EVPULSE, /* ev_set, then ev_clr at once */
    OP_NCODES
};

/* What a callback does when it is called (fz_op.d). */
enum { CB_NOTE, CB_EVSET, CB_SEMREL, CB_QPUT, CB_CANCEL, CB_AGAIN, CB_EVPULSE, CB_N };
static const char *const fz_cb_names[CB_N] = {"note",   "ev_set", "sem_rel", "q_put",
                                              "cancel", "again",  "ev_pulse"};

/* Descriptor waits exist only where the loop has its readiness back end. */
#if defined(PT_CONFIG_IO) && PT_CONFIG_IO
#define FZ_IO 1
#else
#define FZ_IO 0
#endif

#define FZ_HANDLES 2 /* callback handles, shared by every task */
#define FZ_SCOPES 2  /* timeout scopes open at once in one task */

static const char *const fz_op_names[OP_NCODES] = {
    "sleep",     "yield",      "join",      "cancel",        "spawn",    "spawn_bg",  "ev_set",
    "ev_clr",    "ev_wait",    "sem_acq",   "sem_rel",       "q_put",    "q_get",     "g_spawn",
    "g_wait",    "sub",        "fail",      "return",        "stop",     "run_in",    "status",
    "exit",      "g_cancel",   "sem_try",   "q_tryput",      "q_tryget", "io_wait",   "p_write",
    "p_read",    "join_sh",    "g_next",    "to_begin",      "to_end",   "lk_acq",    "lk_rel",
    "lk_try",    "cv_wait",    "cv_notify", "cv_notify_all", "bar_wait", "bar_abort", "bar_reset",
    "call_soon", "call_later", "call_at",   "h_cancel",      "to_renew", "ev_pulse"};

/* Which script: [level][section]; level 1 is the sub-coroutine, section 1
 * the cleanup. */
enum { FZ_BODY = 0, FZ_CLEANUP = 1 };

struct fz_op {
    unsigned char code, a; /* a: the other task */
    unsigned char c, d;    /* callbacks: the handle, the action (CB_*); cv_*: 1 plain */
    fz_time_t b;           /* ticks, timeout, value or variant */
};

/* How main starts each task before running the loop. */
enum { FZ_START_NONE, FZ_START_SPAWN, FZ_START_BG, FZ_START_GROUP };

struct fz_prog {
    int ntasks;
    unsigned heap_cap; /* small ones make PT_EFULL happen */
    unsigned sem_count, q_cap, g_mode, g_cap, parties;
    fz_time_t start; /* virtual clock at the start (some near the wrap) */
    unsigned aged;   /* >0: the loop starts as if it had set 2^k - aged timers */
    unsigned char start_kind[FZ_MAXT];
    unsigned char len[FZ_MAXT][2][2];
    struct fz_op ops[FZ_MAXT][2][2][FZ_MAXOPS];
};

/* ---- decoding ----------------------------------------------------------- */

struct fz_bytes {
    const unsigned char *p;
    size_t n, at;
};

/* Past the end every byte reads 0: any buffer is a program. */
static inline unsigned fz_byte(struct fz_bytes *s) {
    return s->at < s->n ? s->p[s->at++] : 0u;
}

/* Ops each script may hold, repeated for weight. A sub-coroutine's cleanup
 * sleeps and yields only, besides ops that do not wait: what a wait there
 * ends with when it is cancelled after waking is not documented for the
 * other waits. */
static const unsigned char fz_body0[] = {
    OP_SLEEP,    OP_SLEEP,  OP_SLEEP,  OP_YIELD,   OP_YIELD,   OP_JOIN,     OP_JOIN,
    OP_JOIN,     OP_CANCEL, OP_CANCEL, OP_SPAWN,   OP_SPAWN,   OP_SPAWN_BG, OP_EVSET,
    OP_EVCLEAR,  OP_EVWAIT, OP_EVWAIT, OP_SEMACQ,  OP_SEMACQ,  OP_SEMREL,   OP_QPUT,
    OP_QGET,     OP_GSPAWN, OP_GWAIT,  OP_SUB,     OP_SUB,     OP_FAIL,     OP_RETURN,
    OP_STOP,     OP_RUNIN,  OP_STATUS, OP_EXIT,    OP_GCANCEL, OP_SEMTRY,   OP_QTRYPUT,
    OP_QTRYGET,  OP_IOWAIT, OP_IOWAIT, OP_PWRITE,  OP_PWRITE,  OP_PREAD,    OP_JSHIELD,
    OP_JSHIELD,  OP_GNEXT,  OP_GNEXT,  OP_TOBEGIN, OP_TOBEGIN, OP_TOEND,    OP_LKACQ,
    OP_LKACQ,    OP_LKREL,  OP_LKREL,  OP_LKTRY,   OP_CVWAIT,  OP_CVWAIT,   OP_CVNOTIFY,
    OP_CVNOTALL, OP_BWAIT,  OP_BWAIT,  OP_BWAIT,   OP_BABORT,  OP_BRESET,   OP_CSOON,
    OP_CLATER,   OP_CLATER, OP_CAT,    OP_HCANCEL, OP_TORENEW, OP_EVPULSE,  OP_EVPULSE};
static const unsigned char fz_body1[] = {
    OP_SLEEP,    OP_SLEEP,   OP_SLEEP,  OP_YIELD,   OP_YIELD,   OP_JOIN,   OP_CANCEL,  OP_SPAWN,
    OP_EVSET,    OP_EVWAIT,  OP_SEMACQ, OP_SEMREL,  OP_QPUT,    OP_QGET,   OP_GSPAWN,  OP_GWAIT,
    OP_FAIL,     OP_RETURN,  OP_STATUS, OP_EXIT,    OP_GCANCEL, OP_SEMTRY, OP_QTRYGET, OP_IOWAIT,
    OP_PWRITE,   OP_JSHIELD, OP_GNEXT,  OP_TOBEGIN, OP_TOEND,   OP_LKACQ,  OP_LKREL,   OP_CVWAIT,
    OP_CVNOTIFY, OP_BWAIT,   OP_CLATER, OP_HCANCEL, OP_TORENEW, OP_EVPULSE};
static const unsigned char fz_clean0[] = {
    OP_SLEEP,  OP_SLEEP,   OP_YIELD,  OP_JOIN,    OP_CANCEL,  OP_SPAWN,  OP_SPAWN_BG, OP_EVSET,
    OP_EVWAIT, OP_SEMACQ,  OP_SEMREL, OP_QPUT,    OP_QGET,    OP_GSPAWN, OP_GWAIT,    OP_STOP,
    OP_STATUS, OP_GCANCEL, OP_SEMTRY, OP_QTRYPUT, OP_QTRYGET, OP_PWRITE, OP_PREAD,    OP_JSHIELD,
    OP_GNEXT,  OP_TOBEGIN, OP_TOEND,  OP_LKACQ,   OP_LKREL,   OP_CVWAIT, OP_CVNOTIFY, OP_CVNOTALL,
    OP_BWAIT,  OP_BRESET,  OP_CSOON,  OP_HCANCEL, OP_TORENEW, OP_EVPULSE};
static const unsigned char fz_clean1[] = {OP_SLEEP,  OP_SLEEP,   OP_YIELD,  OP_EVSET, OP_SEMREL,
                                          OP_CANCEL, OP_SPAWN,   OP_STATUS, OP_LKREL, OP_CVNOTIFY,
                                          OP_CSOON,  OP_HCANCEL, OP_EVPULSE};

static const fz_time_t fz_timeouts[8] = {0, 1, 2, 3, 5, FZ_FOREVER, FZ_FOREVER, 2};
static const fz_time_t fz_ticks[8] = {0, 1, 2, 3, 4, 7, 1, 0};
static const unsigned fz_heap_caps[8] = {1, 2, 3, 4, 6, 8, 32, 32};
static const fz_time_t fz_starts[4] = {0, 1000, (fz_time_t)-8, PT_TIME_MAX_DELAY - 5u};

/* Ops a run leaves out (mapped to a yield): --without. */
static unsigned long long fz_disabled;

static inline void fz_decode(struct fz_prog *pr, const unsigned char *data, size_t n) {
    struct fz_bytes s;
    int t, lv, sec, i;
    s.p = data;
    s.n = n;
    s.at = 0;
    memset(pr, 0, sizeof *pr);
    pr->ntasks = 1 + (int)(fz_byte(&s) % FZ_MAXT);
    pr->heap_cap = fz_heap_caps[fz_byte(&s) % 8];
    pr->sem_count = fz_byte(&s) % 3;
    pr->q_cap = 1 + fz_byte(&s) % 2;
    i = (int)fz_byte(&s);
    pr->g_mode = (unsigned)i & 1u;
    pr->g_cap = 1 + ((unsigned)i >> 1) % 4;
    pr->start = fz_starts[fz_byte(&s) % 4];
    pr->aged = fz_byte(&s) % 8 < 5 ? 0 : 1 + fz_byte(&s) % 6;
    {
        static const unsigned char parties[4] = {2, 2, 3, 1};
        pr->parties = parties[fz_byte(&s) % 4];
    }
    for (t = 0; t < pr->ntasks; t++) {
        static const unsigned char kinds[6] = {FZ_START_NONE,  FZ_START_SPAWN, FZ_START_SPAWN,
                                               FZ_START_SPAWN, FZ_START_BG,    FZ_START_GROUP};
        pr->start_kind[t] = kinds[fz_byte(&s) % 6];
    }
    for (t = 0; t < pr->ntasks; t++)
        for (lv = 0; lv < 2; lv++)
            for (sec = 0; sec < 2; sec++) {
                const unsigned char *tab =
                    lv ? (sec ? fz_clean1 : fz_body1) : (sec ? fz_clean0 : fz_body0);
                size_t ntab = lv ? (sec ? sizeof fz_clean1 : sizeof fz_body1)
                                 : (sec ? sizeof fz_clean0 : sizeof fz_body0);
                int len = (int)(fz_byte(&s) % (FZ_MAXOPS + 1));
                pr->len[t][lv][sec] = (unsigned char)len;
                for (i = 0; i < len; i++) {
                    struct fz_op *o = &pr->ops[t][lv][sec][i];
                    unsigned code = fz_byte(&s), arg = fz_byte(&s);
                    o->code = tab[code % ntab];
                    if ((fz_disabled & (1ull << o->code)) ||
                        (!FZ_IO && o->code >= OP_IOWAIT && o->code <= OP_PREAD))
                        o->code = OP_YIELD;
                    o->a = (unsigned char)(arg % (unsigned)pr->ntasks);
                    if (o->code == OP_SLEEP)
                        o->b = fz_ticks[(arg >> 3) % 8];
                    else if (o->code == OP_FAIL || o->code == OP_RETURN)
                        o->b = 100 + (arg >> 3) % 50;
                    else if (o->code == OP_RUNIN)
                        o->b = (arg >> 3) % 3;     /* pt_loop_run, _run_until, _run_once */
                    else if (o->code == OP_IOWAIT) /* never forever: nothing outside writes */
                        o->b = fz_ticks[(arg >> 3) % 8];
                    else if (o->code == OP_CVNOTIFY)
                        o->b = 1 + (arg >> 3) % 2;
                    else if (o->code >= OP_CSOON && o->code <= OP_HCANCEL) {
                        unsigned ext = fz_byte(&s); /* a third byte: handle, action */
                        o->c = (unsigned char)(ext % FZ_HANDLES);
                        o->d = (unsigned char)((ext / FZ_HANDLES) % CB_N);
                        o->b = fz_ticks[(arg >> 3) % 8];
                    } else
                        o->b = fz_timeouts[(arg >> 3) % 8];
                    if (o->code == OP_CVWAIT || o->code == OP_CVNOTIFY || o->code == OP_CVNOTALL)
                        o->c = (arg >> 6) == 3; /* else it takes the lock first */
                }
            }
}

/* ---- a seeded byte source, the same on every host ------------------------ */

/* splitmix64: a fixed, portable sequence for a seed. */
static inline uint64_t fz_mix(uint64_t *st) {
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define FZ_SEED_BYTES 512
static inline void fz_seed_bytes(uint64_t seed, unsigned char *buf) {
    uint64_t st = seed;
    int i;
    for (i = 0; i < FZ_SEED_BYTES; i++)
        buf[i] = (unsigned char)(fz_mix(&st) >> 56);
}

/* ---- the trace ----------------------------------------------------------- */

#define FZ_TRACE_CAP 65536
struct fz_trace {
    char buf[FZ_TRACE_CAP];
    size_t len;
    int overflow;
};

static inline void fz_tr_reset(struct fz_trace *tr) {
    tr->len = 0;
    tr->buf[0] = '\0';
    tr->overflow = 0;
}

static inline void fz_tr(struct fz_trace *tr, const char *fmt, ...) {
    va_list ap;
    int n;
    if (tr->overflow)
        return;
    va_start(ap, fmt);
    n = vsnprintf(tr->buf + tr->len, FZ_TRACE_CAP - tr->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= FZ_TRACE_CAP - tr->len) {
        tr->overflow = 1;
        tr->buf[tr->len] = '\0';
        return;
    }
    tr->len += (size_t)n;
}

/* One op as text, e.g. "join T3 5", identical on both sides. */
static inline void fz_op_text(const struct fz_op *o, char *out, size_t cap) {
    switch (o->code) {
    case OP_SLEEP:
    case OP_FAIL:
    case OP_RETURN:
        snprintf(out, cap, "%s %lu", fz_op_names[o->code], (unsigned long)o->b);
        break;
    case OP_EVWAIT:
    case OP_SEMACQ:
    case OP_QPUT:
    case OP_QGET:
    case OP_GWAIT:
    case OP_GNEXT:
    case OP_TOBEGIN:
    case OP_TORENEW:
    case OP_LKACQ:
    case OP_BWAIT:
        if (o->b == FZ_FOREVER)
            snprintf(out, cap, "%s forever", fz_op_names[o->code]);
        else
            snprintf(out, cap, "%s %lu", fz_op_names[o->code], (unsigned long)o->b);
        break;
    case OP_JOIN:
    case OP_JSHIELD:
        if (o->b == FZ_FOREVER)
            snprintf(out, cap, "%s T%u forever", fz_op_names[o->code], o->a);
        else
            snprintf(out, cap, "%s T%u %lu", fz_op_names[o->code], o->a, (unsigned long)o->b);
        break;
    case OP_CVWAIT:
        if (o->b == FZ_FOREVER)
            snprintf(out, cap, "%scv_wait forever", o->c ? "" : "lk+");
        else
            snprintf(out, cap, "%scv_wait %lu", o->c ? "" : "lk+", (unsigned long)o->b);
        break;
    case OP_CVNOTIFY:
        snprintf(out, cap, "%scv_notify %lu", o->c ? "" : "lk+", (unsigned long)o->b);
        break;
    case OP_CVNOTALL:
        snprintf(out, cap, "%scv_notify_all", o->c ? "" : "lk+");
        break;
    case OP_CSOON:
    case OP_CLATER:
    case OP_CAT: {
        char when[32] = "", what[24];
        if (o->code == OP_CLATER)
            snprintf(when, sizeof when, " %lu", (unsigned long)o->b);
        else if (o->code == OP_CAT)
            snprintf(when, sizeof when, " now%+ld", (long)(o->b - 1u));
        if (o->d == CB_CANCEL)
            snprintf(what, sizeof what, "cancel T%u", o->a);
        else
            snprintf(what, sizeof what, "%s", fz_cb_names[o->d]);
        snprintf(out, cap, "%s H%u%s %s", fz_op_names[o->code], o->c, when, what);
        break;
    }
    case OP_HCANCEL:
        snprintf(out, cap, "h_cancel H%u", o->c);
        break;
    case OP_CANCEL:
    case OP_SPAWN:
    case OP_SPAWN_BG:
    case OP_GSPAWN:
    case OP_STATUS:
        snprintf(out, cap, "%s T%u", fz_op_names[o->code], o->a);
        break;
    case OP_RUNIN:
        if (o->b == 1)
            snprintf(out, cap, "run_until T%u", o->a);
        else
            snprintf(out, cap, "%s", o->b ? "run_once" : "run");
        break;
    default:
        snprintf(out, cap, "%s", fz_op_names[o->code]);
        break;
    }
}

static inline void fz_print_prog(FILE *f, const struct fz_prog *pr) {
    static const char *const kinds[4] = {"not started", "spawn", "spawn_background", "group_spawn"};
    static const char *const lists[2][2] = {{"body", "cleanup"}, {"sub body", "sub cleanup"}};
    int t, lv, sec, i;
    char op[64];
    fprintf(f,
            "program: %d tasks, heap %u, semaphore %u, queue cap %u, group %s cap %u, "
            "barrier %u, clock starts at %lu, aged %u\n",
            pr->ntasks, pr->heap_cap, pr->sem_count, pr->q_cap,
            pr->g_mode ? "COLLECT" : "CANCEL_ON_FAIL", pr->g_cap, pr->parties,
            (unsigned long)pr->start, pr->aged);
    for (t = 0; t < pr->ntasks; t++) {
        fprintf(f, "  T%d (%s)\n", t, kinds[pr->start_kind[t]]);
        for (lv = 0; lv < 2; lv++)
            for (sec = 0; sec < 2; sec++) {
                if (!pr->len[t][lv][sec])
                    continue;
                fprintf(f, "    %-12s", lists[lv][sec]);
                for (i = 0; i < pr->len[t][lv][sec]; i++) {
                    fz_op_text(&pr->ops[t][lv][sec][i], op, sizeof op);
                    fprintf(f, "%s%s", i ? "; " : "", op);
                }
                fprintf(f, "\n");
            }
    }
}

/* Names of final statuses and results, for the trace. */
static inline const char *fz_rc(int rc) {
    static const char *const names[] = {"OK",     "ETIMEDOUT", "ECANCELLED", "EFULL",
                                        "EINVAL", "EBUSY",     "EBADF",      "EFAILED"};
    static char other[16];
    if (rc <= 0 && rc > -8)
        return names[-rc];
    if (rc == -13)
        return "EBROKEN";
    snprintf(other, sizeof other, "%d", rc);
    return other;
}

#endif /* FZ_PROG_H */
