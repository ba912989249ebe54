/*
 * demos/options.h - the demos' command-line options, such as they are:
 * `--name` flags and `--name N` numbers, anywhere on the line.
 */
#ifndef DEMOS_OPTIONS_H
#define DEMOS_OPTIONS_H

#include <stdlib.h>
#include <string.h>

/* Does argv hold `opt`? */
static inline int demo_has_opt(int argc, char **argv, const char *opt) {
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], opt) == 0)
            return 1;
    return 0;
}

/* The number after `opt` in argv, or dflt if there is none. */
static inline long demo_opt_num(int argc, char **argv, const char *opt, long dflt) {
    int i;
    for (i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], opt) == 0)
            return strtol(argv[i + 1], NULL, 10);
    return dflt;
}

#endif /* DEMOS_OPTIONS_H */
