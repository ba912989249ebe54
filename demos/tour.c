/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/tour.c - the guided tour: every scenario of the four articles that
 * docs/demos.md lists under "The articles", article by article in the order of
 * that list, each with a sentence on what to watch for, the figures it
 * measures and, for the loop scenarios, a timeline of which task ran when;
 * after the echo server, the chat server, which goes beyond them. About 13
 * seconds; it needs nothing but the build (the servers it starts
 * listen on 127.0.0.1, on free ports). The step titles name each article by
 * its short name in that list.
 *
 *   build/demos/tour   (no options; --help says so)
 *
 * Each step is one of the demo programs beside this one, run as a child
 * process, so each can also be run (and read) on its own.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "options.h"
#include "stopwatch.h"

extern char **environ;

struct step {
    const char *title;
    const char *watch; /* what to look for */
    const char *argv[12];
};

static const struct step steps[] = {
    {"Generators: send(), yield and return, in C (Part 1)",
     "A coroutine that prints idx=0,1,2 as it is resumed and then returns a\n"
     "string; a producer yielding words; a consumer receiving sent values. The\n"
     "output is the article's, line for line.",
     {"generators", NULL}},
    {"Serial versus concurrent sleep (Part 1)",
     "Sleeping 500 ms then 700 ms takes about 1200 ms; two tasks sleeping 500 and\n"
     "700 ms at once take about 700 ms, on one thread.",
     {"sleep_serial_concurrent", "--timeline", NULL}},
    {"Busy waiting versus the timer heap (Part 1)",
     "Both wait the same time; the busy loop burns a core doing it, the timer\n"
     "heap lets the process sleep: compare the CPU figures.",
     {"busy_vs_heap", NULL}},
    {"A background task (Part 1)",
     "A task prints every 100 ms while main sleeps 500 ms, prints main!, and\n"
     "sleeps 500 ms more; the background task does not keep the loop alive.",
     {"background", "--timeline", NULL}},
    {"The echo server beside two counters (Castelino)",
     "The server answers \"Got: \" + each message while countup (every 250 ms here)\n"
     "and countdown keep ticking; a client task talks to it over TCP. Try it by\n"
     "hand: build/demos/echo_server, then nc 127.0.0.1 3000.",
     {"echo_server", "--port", "0", "--seconds", "2", "--tick", "250", "--client", "--timeline",
      NULL}},
    {"A chat server: a reader and a writer per connection (beyond the articles)",
     "Every line a client sends goes to every other client. Each connection reads\n"
     "lines through a buffered reader and hands them to the others' writers, whose\n"
     "writes never wait; three clients in the same process say hello. Try it by\n"
     "hand: build/demos/chat_server, then nc 127.0.0.1 3010 in two terminals.",
     {"chat_server", "--port", "0", "--seconds", "1", "--demo", NULL}},
    {"Three jobs of 2 s, 1 s and 3 s (Ritesh)",
     "They finish in the order B, A, C, in 3 s in all, not 6 s.",
     {"three_jobs", "--timeline", NULL}},
    {"Ten slow requests, serially and concurrently (Part 2)",
     "A server answers each request after a pseudo-random delay (scaled down\n"
     "5 times here: 100-400 ms). Ten requests one after another take the sum\n"
     "of the delays; ten at once, in a task group, take about the longest.",
     {"delayed_client", "--scale", "5", "--timeline", NULL}},
};

#define N_STEPS (sizeof steps / sizeof steps[0])

int main(int argc, char **argv) {
    char dir[4096], path[4200];
    const char *slash = strrchr(argv[0], '/');
    double t0 = wall_ms(), took[N_STEPS];
    int status[N_STEPS], failed = 0;
    size_t i;

    demo_options(argc, argv, "The guided tour: every demo, article by article (about 13 s).", NULL,
                 0);
    if (slash) /* the demos are built beside the tour */
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - argv[0]), argv[0]);
    else
        snprintf(dir, sizeof dir, ".");

    printf("A tour of ptloop: the scenarios of four asyncio articles, article by article\n"
           "(docs/demos.md, \"The articles\", names them).\n");
    for (i = 0; i < N_STEPS; i++) {
        const struct step *s = &steps[i];
        pid_t pid;
        int rc, ws = 0;
        double start;

        printf("\n==== %u/%u  %s\n%s\n\n", (unsigned)(i + 1), (unsigned)N_STEPS, s->title,
               s->watch);
        fflush(stdout);
        snprintf(path, sizeof path, "%s/%s", dir, s->argv[0]);
        start = wall_ms();
        rc = posix_spawn(&pid, path, NULL, NULL, (char *const *)s->argv, environ);
        if (rc == 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws))
            status[i] = WEXITSTATUS(ws);
        else
            status[i] = -1;
        took[i] = wall_ms() - start;
        if (rc != 0)
            printf("cannot run %s: %s\n", path, strerror(rc));
        failed |= status[i] != 0;
    }

    printf("\n==== Summary\n");
    for (i = 0; i < N_STEPS; i++)
        printf("  %-60s %7.0f ms  %s\n", steps[i].title, took[i], status[i] == 0 ? "ok" : "FAILED");
    printf("  %-60s %7.0f ms\n", "the whole tour", wall_ms() - t0);
    return failed ? 1 : 0;
}
