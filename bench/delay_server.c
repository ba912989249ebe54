/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/delay_server.c - the common delay server of workload W7
 * (concurrent delayed requests, bench/WORKLOADS.md): one thread, epoll,
 * plain C. Every W7 client runs against a fresh one.
 *
 *   delay_server <port> <max seconds>
 *   delay_server --selftest        checks delay_ms() against the reference
 *
 * Listens on 127.0.0.1:<port> (backlog 4096, SO_REUSEADDR) and prints a
 * READY line. On each connection, once the 7 bytes `request` have arrived,
 * the request gets the next sequence number k (0, 1, 2, ... in arrival
 * order), waits delay_ms(k) ms (bench/net_common.h), gets the 8 bytes
 * `response` and is closed right away (the client closes after reading, so
 * nothing is lost). Anything else than `request` is closed unanswered, and
 * the client then sees a short response. Exits at the end of its lifetime
 * or on SIGTERM / SIGINT, printing the number of requests served to stderr.
 *
 * The pending responses are a binary min-heap of deadlines; epoll_wait
 * sleeps until the earliest (in ms, rounded up, so a response is never
 * early; Linux adds its timer slack on top). Linux only (epoll).
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_common.h"
#include "net_common.h"

struct pending {
    uint64_t deadline; /* CLOCK_MONOTONIC ns */
    int fd;
};

static struct pending *g_heap;
static size_t g_len, g_cap;
static unsigned char *g_got; /* per descriptor: bytes of `request` received */
static size_t g_maxfd;
static volatile sig_atomic_t g_stop;

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void on_signal(int sig) {
    (void)sig;
    g_stop = 1;
}

static void heap_push(uint64_t deadline, int fd) {
    size_t i;
    if (g_len == g_cap) {
        g_cap = g_cap ? 2 * g_cap : 1024;
        g_heap = realloc(g_heap, g_cap * sizeof *g_heap);
        if (!g_heap)
            die("realloc");
    }
    for (i = g_len++; i > 0 && g_heap[(i - 1) / 2].deadline > deadline; i = (i - 1) / 2)
        g_heap[i] = g_heap[(i - 1) / 2];
    g_heap[i].deadline = deadline;
    g_heap[i].fd = fd;
}

static void heap_pop(void) {
    struct pending last = g_heap[--g_len];
    size_t i = 0, child;
    while ((child = 2 * i + 1) < g_len) {
        if (child + 1 < g_len && g_heap[child + 1].deadline < g_heap[child].deadline)
            child++;
        if (g_heap[child].deadline >= last.deadline)
            break;
        g_heap[i] = g_heap[child];
        i = child;
    }
    g_heap[i] = last;
}

static void respond(int fd) {
    /* The send buffer of a connection that has sent nothing is empty: the
     * 8 bytes go at once, and a client that already left is not an error
     * of ours (MSG_NOSIGNAL: no SIGPIPE). */
    ssize_t n = send(fd, NET_RESPONSE, NET_RESPONSE_LEN, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n != NET_RESPONSE_LEN && !(n < 0 && (errno == EPIPE || errno == ECONNRESET)))
        fprintf(stderr, "delay_server: short response on fd %d (%ld)\n", fd, (long)n);
    close(fd);
}

static void accept_all(int epfd, int lfd) {
    for (;;) {
        struct epoll_event ev;
        int one = 1, fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                perror("delay_server: accept");
            return;
        }
        if ((size_t)fd >= g_maxfd) { /* cannot happen below the descriptor limit */
            fprintf(stderr, "delay_server: fd %d over the limit\n", fd);
            close(fd);
            continue;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        g_got[fd] = 0;
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
            die("epoll_ctl");
    }
}

/* Reads what arrived on fd; a complete request gets its k and deadline. */
static void on_readable(int epfd, int fd, uint64_t *next_k) {
    char buf[64];
    unsigned got = g_got[fd];
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0 || got + (size_t)n > NET_REQUEST_LEN ||
        memcmp(buf, &NET_REQUEST[got], (size_t)n) != 0) {
        if (n != 0)
            fprintf(stderr, "delay_server: fd %d: not a request, closed unanswered\n", fd);
        close(fd);
        return;
    }
    got += (unsigned)n;
    g_got[fd] = (unsigned char)got;
    if (got == NET_REQUEST_LEN) {
        /* Nothing more is read: out of the interest set until answered. */
        epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
        heap_push(bench_now_ns() + (uint64_t)net_delay_ms((*next_k)++) * 1000000u, fd);
    }
}

static int selftest(void) {
    static const unsigned want[10] = {1561, 1713, 1108, 1644, 969, 892, 1171, 1283, 626, 925};
    unsigned k, bad = 0;
    unsigned got[3];
    for (k = 0; k < 10; k++) {
        if (net_delay_ms(k) != want[k]) {
            printf("delay_ms(%u) = %u, expected %u\n", k, net_delay_ms(k), want[k]);
            bad++;
        }
    }
    for (k = 0; k < 3; k++)
        got[k] = net_phase_delay_ms(&net_phases[k]);
    if (got[0] != 11892 || got[1] != 1938 || got[2] != 1996) {
        printf("phase delays %u %u %u, expected 11892 1938 1996\n", got[0], got[1], got[2]);
        bad++;
    }
    printf("delay_server selftest: %s (delay_ms(0..9) sum %u, max k=10..19 %u, "
           "max k=20..1019 %u)\n",
           bad ? "FAILED" : "ok", got[0], got[1], got[2]);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    static struct epoll_event evs[1024];
    struct sockaddr_in addr;
    struct sigaction sa;
    struct rlimit rl;
    sigset_t block, waitmask;
    uint64_t end, next_k = 0;
    double lifetime;
    long port;
    int lfd, epfd, one = 1;
    char *e1, *e2;

    if (argc == 2 && strcmp(argv[1], "--selftest") == 0)
        return selftest();
    if (argc != 3) {
        fprintf(stderr, "usage: %s <port> <max seconds> | --selftest\n", argv[0]);
        return 2;
    }
    port = strtol(argv[1], &e1, 10);
    lifetime = strtod(argv[2], &e2);
    if (*e1 || e1 == argv[1] || port < 1 || port > 65535 || *e2 || e2 == argv[2] ||
        !(lifetime > 0 && lifetime <= 86400)) {
        fprintf(stderr, "delay_server: bad arguments\n");
        return 2;
    }

    net_raise_nofile();
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        die("getrlimit");
    g_maxfd =
        rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 20) ? (1u << 20) : (size_t)rl.rlim_cur;
    g_got = calloc(g_maxfd, 1);
    if (!g_got)
        die("calloc");

    /* SIGTERM is only let in while waiting in epoll_pwait, so a stop can
     * never slip in between the check of g_stop and the wait. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &waitmask);
    sigdelset(&waitmask, SIGTERM);
    sigdelset(&waitmask, SIGINT);

    lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (lfd < 0)
        die("socket");
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) != 0)
        die("bind");
    if (listen(lfd, 4096) != 0)
        die("listen");
    epfd = epoll_create1(0);
    if (epfd < 0)
        die("epoll_create1");
    {
        struct epoll_event ev;
        ev.events = EPOLLIN;
        ev.data.fd = lfd;
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev) != 0)
            die("epoll_ctl");
    }
    end = bench_now_ns() + (uint64_t)(lifetime * 1e9);
    printf("READY delay_server 127.0.0.1:%ld\n", port);
    fflush(stdout);

    while (!g_stop) {
        uint64_t now = bench_now_ns(), wake;
        int n, k;
        while (g_len > 0 && g_heap[0].deadline <= now) {
            int fd = g_heap[0].fd;
            heap_pop();
            respond(fd);
        }
        if (now >= end)
            break;
        wake = g_len > 0 && g_heap[0].deadline < end ? g_heap[0].deadline : end;
        n = epoll_pwait(epfd, evs, 1024, (int)((wake - now + 999999u) / 1000000u), &waitmask);
        if (n < 0 && errno != EINTR)
            die("epoll_pwait");
        for (k = 0; k < n; k++) {
            if (evs[k].data.fd == lfd)
                accept_all(epfd, lfd);
            else
                on_readable(epfd, evs[k].data.fd, &next_k);
        }
    }
    fprintf(stderr, "delay_server: %llu requests, %lu still pending at exit\n",
            (unsigned long long)next_k, (unsigned long)g_len);
    return 0;
}
