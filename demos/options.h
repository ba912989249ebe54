/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/options.h - the demos' command line, parsed with POSIX getopt():
 * each option has a short form and a long one, which any POSIX system
 * takes because the long forms are turned into the short ones before
 * getopt() sees them (getopt_long is not POSIX):
 *
 *   -p 3005   -p3005   --port 3005   --port=3005     a number
 *   -T        --timeline                             a flag
 *   -h        --help                                 the usage, on stdout; exit 0
 *
 * A demo describes its options in a table and calls demo_options() first
 * thing. Anything it cannot take (an unknown option, a missing value, a
 * value that is not a whole number in the option's range, a value given to
 * a flag, an argument that is not an option) prints what is wrong and the
 * usage line on stderr and exits with status 2: the demo never runs with
 * input it did not understand. Long options are matched whole (no
 * abbreviations); the last of a repeated option wins.
 *
 *   static long port = 3000;   (the default, shown by --help)
 *   static int client;
 *   static const struct demo_opt opts[] = {
 *       DEMO_NUM('p', "port", "N", &port, 0, 65535, "listen on port N"),
 *       DEMO_FLAG('c', "client", &client, "also run a client"),
 *   };
 *   demo_options(argc, argv, "the echo server", opts, DEMO_N(opts));
 *
 * Limits: DEMO_MAX_OPTS options in a table, DEMO_MAX_ARGS arguments on the
 * line (more: the usage, exit 2).
 */
#ifndef DEMOS_OPTIONS_H
#define DEMOS_OPTIONS_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEMO_MAX_OPTS 16
#define DEMO_MAX_ARGS 64
/* The longest time in seconds a demo takes (about 23 days): S * 1000 ms
 * stays below the loop's longest delay (PT_TIME_MAX_DELAY, loop/ticks.h). */
#define DEMO_MAX_SECONDS 2000000

/* One option: exactly one of flag, num and str says where its value goes. */
struct demo_opt {
    char key;          /* the short form, -key */
    const char *name;  /* the long form, --name */
    const char *value; /* a value's name in the usage ("N"); NULL for a flag */
    int *flag;         /* a flag: set to 1 */
    long *num;         /* a whole number, from min to max */
    long min, max;
    const char **str; /* a string */
    const char *help;
};

#define DEMO_FLAG(key, name, to, help)                                                             \
    { key, name, NULL, to, NULL, 0, 0, NULL, help }
#define DEMO_NUM(key, name, value, to, min, max, help)                                             \
    { key, name, value, NULL, to, min, max, NULL, help }
#define DEMO_STR(key, name, value, to, help)                                                       \
    { key, name, value, NULL, NULL, 0, 0, to, help }
#define DEMO_N(opts) (sizeof(opts) / sizeof((opts)[0]))

/* The program's name: argv[0] without its folder. */
static inline const char *demo__prog(char **argv) {
    const char *slash = argv[0] ? strrchr(argv[0], '/') : NULL;
    return slash ? slash + 1 : argv[0] ? argv[0] : "demo";
}

static inline void demo__usage_line(FILE *out, const char *prog, const struct demo_opt *opts,
                                    size_t n) {
    size_t i;
    fprintf(out, "usage: %s", prog);
    for (i = 0; i < n; i++) {
        if (opts[i].value)
            fprintf(out, " [--%s %s]", opts[i].name, opts[i].value);
        else
            fprintf(out, " [--%s]", opts[i].name);
    }
    fprintf(out, " [--help]\n");
}

/* --help: the usage line, what the program does, then each option. */
static inline void demo__help(const char *prog, const char *about, const struct demo_opt *opts,
                              size_t n) {
    char form[64];
    size_t i;
    demo__usage_line(stdout, prog, opts, n);
    printf("%s\n", about);
    for (i = 0; i < n; i++) {
        snprintf(form, sizeof form, "-%c, --%s%s%s", opts[i].key, opts[i].name,
                 opts[i].value ? " " : "", opts[i].value ? opts[i].value : "");
        printf("  %-22s %s", form, opts[i].help);
        if (opts[i].num)
            printf(" (%ld to %ld; default %ld)", opts[i].min, opts[i].max, *opts[i].num);
        printf("\n");
    }
    printf("  %-22s %s\n", "-h, --help", "print this and exit");
}

/* What is wrong, then the usage line, on stderr; exit status 2. */
static inline void demo__fail(const char *prog, const struct demo_opt *opts, size_t n,
                              const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    demo__usage_line(stderr, prog, opts, n);
    exit(2);
}

static inline const struct demo_opt *demo__by_key(const struct demo_opt *opts, size_t n, int key) {
    size_t i;
    for (i = 0; i < n; i++)
        if (opts[i].key == key)
            return &opts[i];
    return NULL;
}

static inline const struct demo_opt *demo__by_name(const struct demo_opt *opts, size_t n,
                                                   const char *name, size_t len) {
    size_t i;
    for (i = 0; i < n; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

/* s as a whole number from min to max into *to; 0 if it is not one. */
static inline int demo__number(const char *s, long min, long max, long *to) {
    char *end;
    long v;
    if (!((*s >= '0' && *s <= '9') || ((*s == '-' || *s == '+') && s[1] >= '0' && s[1] <= '9')))
        return 0; /* strtol would skip blanks and take "" as 0 */
    errno = 0;
    v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < min || v > max)
        return 0;
    *to = v;
    return 1;
}

/* Parse argv by the table opts[0..n-1]; returns only if all of it was
 * understood (--help and errors exit, see the top of this file). */
static inline void demo_options(int argc, char **argv, const char *about,
                                const struct demo_opt *opts, size_t n) {
    static char *args[2 * DEMO_MAX_ARGS + 1]; /* --name=value becomes two */
    static char shorts[DEMO_MAX_OPTS + 1][3]; /* "-p", ..., "-h" */
    char optstring[3 * DEMO_MAX_OPTS + 3], *a, *eq, *p;
    const char *prog = demo__prog(argv);
    const struct demo_opt *o;
    int i, c, nargs = 0;
    size_t k, len, pos = 0;

    if (n > DEMO_MAX_OPTS || argc > DEMO_MAX_ARGS)
        demo__fail(prog, opts, n, "more than %d options or %d arguments", DEMO_MAX_OPTS,
                   DEMO_MAX_ARGS);
    /* ":" first: a missing value is told apart from an unknown option. */
    optstring[pos++] = ':';
    for (k = 0; k < n; k++) {
        shorts[k][0] = '-';
        shorts[k][1] = opts[k].key;
        shorts[k][2] = '\0';
        optstring[pos++] = opts[k].key;
        if (opts[k].value)
            optstring[pos++] = ':';
    }
    memcpy(shorts[n], "-h", 3);
    optstring[pos++] = 'h';
    optstring[pos] = '\0';

    /* The long forms, as the short ones; a value after an option that
     * takes one is copied as it is, even if it looks like an option. */
    args[nargs++] = argv[0];
    for (i = 1; i < argc; i++) {
        a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < argc)
                args[nargs++] = argv[i++];
            break;
        }
        if (a[0] == '-' && a[1] == '-') {
            eq = strchr(a + 2, '=');
            len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            if (len == 4 && strncmp(a + 2, "help", 4) == 0) {
                if (eq)
                    demo__fail(prog, opts, n, "--help takes no value");
                args[nargs++] = shorts[n];
                continue;
            }
            o = demo__by_name(opts, n, a + 2, len);
            if (!o)
                demo__fail(prog, opts, n, "unknown option %.*s", (int)len + 2, a);
            args[nargs++] = shorts[o - opts];
            if (o->value && eq)
                args[nargs++] = eq + 1;
            else if (o->value && i + 1 < argc)
                args[nargs++] = argv[++i];
            else if (!o->value && eq)
                demo__fail(prog, opts, n, "--%s takes no value", o->name);
            continue;
        }
        args[nargs++] = a;
        if (a[0] == '-')
            for (p = a + 1; *p; p++) {
                o = demo__by_key(opts, n, *p);
                if (o && o->value) { /* the rest of a, or the next argument */
                    if (!p[1] && i + 1 < argc)
                        args[nargs++] = argv[++i];
                    break;
                }
            }
    }
    args[nargs] = NULL;

    opterr = 0; /* the messages are ours, with the long names */
    while ((c = getopt(nargs, args, optstring)) != -1) {
        if (c == 'h') {
            demo__help(prog, about, opts, n);
            exit(0);
        }
        o = demo__by_key(opts, n, c == ':' || c == '?' ? optopt : c);
        if (c == '?' || !o)
            demo__fail(prog, opts, n, "unknown option -%c", optopt);
        if (c == ':')
            demo__fail(prog, opts, n, "--%s needs a value", o->name);
        if (o->flag)
            *o->flag = 1;
        else if (o->str)
            *o->str = optarg;
        else if (!demo__number(optarg, o->min, o->max, o->num))
            demo__fail(prog, opts, n, "--%s: not a whole number from %ld to %ld: %s", o->name,
                       o->min, o->max, optarg);
    }
    if (optind < nargs)
        demo__fail(prog, opts, n, "unexpected argument %s", args[optind]);
}

#endif /* DEMOS_OPTIONS_H */
