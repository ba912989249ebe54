/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/net_common.h - what the C programs of the network workloads W6 and
 * W7 (bench/WORKLOADS.md) share: the W7 wire format and delay formula,
 * the phases of the W7 client, raising the descriptor limit, and reading
 * a numeric argument.
 *
 * Include after bench_common.h (or on its own); needs
 * _POSIX_C_SOURCE=200809L (set project-wide by meson).
 */
#ifndef BENCH_NET_COMMON_H
#define BENCH_NET_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

/* W7: what a client sends and what the delay server answers (no NUL). */
#define NET_REQUEST "request"
#define NET_REQUEST_LEN 7
#define NET_RESPONSE "response"
#define NET_RESPONSE_LEN 8

/* W7: the server's delay for the request with sequence number k, in ms
 * (500..2000); splitmix64's finaliser of k + 1. */
static inline unsigned net_delay_ms(uint64_t k) {
    uint64_t z = (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z = z ^ (z >> 31);
    return 500u + (unsigned)(z % 1501u);
}

/* W7: the three phases, in the order they run against one fresh server;
 * phase i takes the sequence numbers first .. first + count - 1. */
struct net_phase {
    const char *id;
    unsigned first, count;
    int concurrent; /* 0: one request after another */
};

static const struct net_phase net_phases[3] = {
    {"W7.serial10", 0, 10, 0},
    {"W7.conc10", 10, 10, 1},
    {"W7.conc1000", 20, 1000, 1},
};

/* What the server's delays alone cost a phase, in ms: their sum one after
 * another, their maximum at once. */
static inline unsigned net_phase_delay_ms(const struct net_phase *ph) {
    unsigned i, total = 0;
    for (i = ph->first; i < ph->first + ph->count; i++) {
        unsigned d = net_delay_ms(i);
        if (!ph->concurrent)
            total += d;
        else if (d > total)
            total = d;
    }
    return total;
}

/* 1,000 connections need more than the usual soft limit of 1,024
 * descriptors: raise it to the hard limit. */
static inline void net_raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            perror("setrlimit(RLIMIT_NOFILE)");
    }
}

/* Argument s, a number in lo..hi named `name`; anything else ends the
 * program `prog` with status 2 and a message. */
static inline uint64_t net_checked_arg(const char *prog, const char *s, const char *name,
                                       uint64_t lo, uint64_t hi) {
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "%s: bad %s '%s'\n", prog, name, s);
        exit(2);
    }
    return v;
}

#endif /* BENCH_NET_COMMON_H */
