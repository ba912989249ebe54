/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fuzz_loop.c - the differential fuzzer's driver: random
 * programs from seeds, each run through the loop and through the reference
 * model, traces compared.
 *
 *   fuzz_loop [--seed S] [--count N] [--verbose] [--keep-going] [--quiet]
 *             [--without op,op,...] [--bytes FILE]
 *
 * Seeds S, S+1, ..., S+N-1 (default 1 and 10000). A divergence prints the
 * seed, the program, both traces and the first differing line; the exit
 * status is 1 if any program diverged. --seed S --count 1 --verbose
 * replays one seed. --bytes runs one program decoded from a file (the
 * libFuzzer format). --without maps ops to a yield (e.g. run_in).
 * --quiet prints one line per divergence instead of the whole story: the
 * seed, the first differing line of the traces and what each side has
 * there (the long run uses it; replay the seed to see the story).
 */
#include <stdlib.h>

#include "fz_check.h"

/* Line `n` (1-based) of trace buf into out. */
static void fz_line_of(const char *buf, int n, char *out, size_t cap) {
    const char *e;
    int len;
    for (; n > 1 && *buf; n--) {
        e = strchr(buf, '\n');
        buf = e ? e + 1 : buf + strlen(buf);
    }
    e = strchr(buf, '\n');
    len = e ? (int)(e - buf) : (int)strlen(buf);
    snprintf(out, cap, "%.*s", len, buf);
}

static void usage(void) {
    fprintf(stderr, "usage: fuzz_loop [--seed S] [--count N] [--verbose] [--keep-going] "
                    "[--quiet] [--without op,...] [--bytes FILE]\n");
    exit(2);
}

static void disable(const char *list) {
    char buf[256], *p;
    snprintf(buf, sizeof buf, "%s", list);
    for (p = strtok(buf, ","); p; p = strtok(NULL, ",")) {
        int c;
        for (c = 0; c < OP_NCODES && strcmp(fz_op_names[c], p) != 0; c++)
            ;
        if (c == OP_NCODES) {
            fprintf(stderr, "fuzz_loop: no op named %s\n", p);
            exit(2);
        }
        fz_disabled |= 1ull << c;
    }
}

int main(int argc, char **argv) {
    unsigned long long seed = 1, count = 10000, n, bad = 0;
    int verbose = 0, keep_going = 0, quiet = 0, i;
    const char *bytes = NULL;
    static struct fz_prog pr;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--keep-going"))
            keep_going = 1;
        else if (!strcmp(argv[i], "--quiet"))
            quiet = 1;
        else if (!strcmp(argv[i], "--without") && i + 1 < argc)
            disable(argv[++i]);
        else if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
            bytes = argv[++i];
        else
            usage();
    }
    if (bytes) {
        static unsigned char buf[4096];
        size_t len;
        FILE *f = fopen(bytes, "rb");
        if (!f) {
            perror(bytes);
            return 2;
        }
        len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fz_decode(&pr, buf, len);
        return fz_check(&pr, stdout, bytes, verbose);
    }
    for (n = 0; n < count; n++) {
        unsigned char buf[FZ_SEED_BYTES];
        char what[48];
        fz_seed_bytes(seed + n, buf);
        fz_decode(&pr, buf, sizeof buf);
        snprintf(what, sizeof what, "seed %llu", seed + n);
        if (fz_check(&pr, quiet ? NULL : stdout, what, verbose)) {
            bad++;
            if (quiet) {
                int line = fz_first_diff(fz_tr_impl.buf, fz_tr_model.buf);
                char li[96] = "", lm[96] = "";
                if (line) {
                    fz_line_of(fz_tr_impl.buf, line, li, sizeof li);
                    fz_line_of(fz_tr_model.buf, line, lm, sizeof lm);
                }
                printf("DIVERGENCE %s: line %d [%s | %s]%s%s\n", what, line, li, lm,
                       fz_I.fail[0] ? ", invariant: " : "", fz_I.fail);
            }
            if (!keep_going)
                break;
        }
    }
    printf("fuzz_loop: %llu programs from seed %llu, %llu divergences\n", n < count ? n + 1 : n,
           seed, bad);
    return bad != 0;
}
