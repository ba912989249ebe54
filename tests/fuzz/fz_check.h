/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fz_check.h - one program through both sides: the library
 * (fz_impl.h) and the model (fz_model.h); their traces must be equal and
 * the library's invariants hold. Shared by the driver and the libFuzzer
 * entry point.
 */
#ifndef FZ_CHECK_H
#define FZ_CHECK_H

#include "fz_impl.h"
#include "fz_model.h"

static struct fz_trace fz_tr_impl, fz_tr_model;

/* Print a trace with line numbers, marking line `mark`. */
static inline void fz_print_trace(FILE *f, const char *name, const char *buf, int mark) {
    int n = 1;
    fprintf(f, "--- %s\n", name);
    while (*buf) {
        const char *e = strchr(buf, '\n');
        int len = e ? (int)(e - buf) : (int)strlen(buf);
        fprintf(f, "%s%3d  %.*s\n", n == mark ? ">>" : "  ", n, len, buf);
        buf += len + (e ? 1 : 0);
        n++;
    }
}

/* The first line (1-based) where a and b differ, 0 if equal. */
static inline int fz_first_diff(const char *a, const char *b) {
    int line = 1;
    for (;; a++, b++) {
        if (*a != *b)
            return line;
        if (!*a)
            return 0;
        if (*a == '\n')
            line++;
    }
}

/* Run one program on both sides. 0: equal and sound; else it reports to
 * f (if not NULL) and returns 1. `what` names the program (its seed). */
static inline int fz_check(const struct fz_prog *pr, FILE *f, const char *what, int verbose) {
    int runaway_i = fz_run_impl(pr, &fz_tr_impl);
    int runaway_m = fz_run_model(pr, &fz_tr_model);
    int diff = fz_first_diff(fz_tr_impl.buf, fz_tr_model.buf);
    int bad = diff || fz_I.fail[0] || runaway_i || runaway_m || fz_tr_impl.overflow ||
              fz_tr_model.overflow;
    if (f && (bad || verbose)) {
        fprintf(f, "=== %s: %s\n", what, bad ? "DIVERGENCE" : "ok");
        fz_print_prog(f, pr);
        fz_print_trace(f, "library", fz_tr_impl.buf, diff);
        fz_print_trace(f, "model", fz_tr_model.buf, diff);
        if (diff)
            fprintf(f, "first difference: line %d\n", diff);
        if (fz_I.fail[0])
            fprintf(f, "invariant broken: %s\n", fz_I.fail);
        if (runaway_m)
            fprintf(f, "the model ran away\n");
        if (fz_tr_impl.overflow || fz_tr_model.overflow)
            fprintf(f, "trace overflow\n");
    }
    return bad;
}

#endif /* FZ_CHECK_H */
