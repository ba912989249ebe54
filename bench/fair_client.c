/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/fair_client.c - does a busy connection starve a quiet one? A load
 * client for the W6 echo servers (bench/WORKLOADS.md, "Beside the
 * workloads"): one thread, epoll, plain C, in the style of echo_client.c.
 *
 *   fair_client [--label <anchor>] [--pause-us <us>] <port> <B> <seconds>
 *
 * Opens B busy connections and one probe connection to 127.0.0.1:<port>.
 * A busy connection keeps the echo server's side full in both directions:
 * it writes a byte stream in 64 KiB chunks whenever the socket takes more
 * and reads back whatever the server echoes, as fast as it can, so the
 * server never waits on it. The probe (TCP_NODELAY) makes one 64-byte round
 * trip at a time, back to back, or <us> microseconds apart with --pause-us.
 *
 * Untimed setup: every connection connects, the probe makes one round trip
 * and every busy connection has had at least one chunk echoed. Then, for
 * <seconds>, each probe round trip is timed (CLOCK_MONOTONIC, from just
 * before its send to the read that completes it) and the busy connections'
 * echoed bytes are counted. RESULT lines, anchor=<anchor> (default
 * "server") workload=fair.b<B>:
 *
 *   probe_round_trips     round trips finished in the window
 *   probe_median_ms       their median
 *   probe_p99_ms          their 99th percentile (nearest rank)
 *   probe_p999_ms         their 99.9th percentile (nearest rank)
 *   probe_max_ms          the longest; a round trip still outstanding when
 *                         the window ends counts with its age then (a
 *                         starved probe shows here, not as a missing line)
 *   busy_mbps             bytes the B busy connections got back, per second
 *                         (MB = 10^6 bytes), all together (B > 0)
 *   busy_min_mbps         the same for the slowest busy connection (B > 0)
 *   client_cpu_pct        share of one core this client used
 *
 * Median and percentiles are left out (with a NOTE) if no round trip finished.
 * The busy streams are a pattern that depends on the connection and the
 * offset, and the probe's messages carry their sequence number: every byte
 * echoed is checked. A wrong byte, or a connection the server closes or
 * resets during setup or the window, prints INVALID and exits 1; a setup
 * over 10 s exits 1 without figures. After the window every connection
 * shuts its sending side down and reads the rest until the server closes
 * (finish()): none is closed with bytes unread, which would reset it under
 * the server. Linux only (epoll).
 *
 * The client's own part of a round trip: after each epoll_wait the probe is
 * served first, and a busy connection moves at most BUSY_CALLS chunks each
 * way per wakeup, so the client adds at most a few chunk copies to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_common.h"
#include "net_common.h"

#define MSG_LEN 64
#define CHUNK 65536
#define PERIOD 65521 /* the busy pattern's period: a prime, not a chunk multiple */
#define BUSY_CALLS 2 /* sends, and receives, per busy connection per wakeup */
#define MAX_BUSY 1000
#define PROBE UINT32_MAX /* epoll data of the probe; busy connections: index */
#define SETUP_LIMIT_NS (10 * UINT64_C(1000000000))
#define END_LIMIT_NS (5 * UINT64_C(1000000000))

struct busy {
    int fd;
    int connected;
    uint64_t sent, back; /* stream offsets written / echoed back */
    uint64_t back0;      /* `back` when the window opened */
};

static struct busy *g_busy;
static uint32_t g_nbusy;
static int g_probe_fd, g_epfd;
static int g_probe_connected, g_probe_want_out;
static uint32_t g_seq;                          /* the probe message in flight */
static unsigned g_sent, g_back;                 /* its bytes written / echoed */
static unsigned char g_msg[MSG_LEN];            /* its bytes */
static unsigned char g_pattern[PERIOD + CHUNK]; /* pattern[k] for k mod PERIOD */
static unsigned char g_buf[CHUNK];
static char g_workload[32];

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void invalid(const char *who, uint32_t i, const char *what) {
    if (i == PROBE)
        printf("INVALID anchor=%s workload=%s %s: %s\n", bench_anchor, g_workload, who, what);
    else
        printf("INVALID anchor=%s workload=%s %s %u: %s\n", bench_anchor, g_workload, who,
               (unsigned)i, what);
    exit(1);
}

/* Where busy connection i's byte at stream offset o is in g_pattern: each
 * connection starts at a different place, so bytes of another connection
 * are caught too. */
static size_t pattern_at(uint32_t i, uint64_t o) {
    return (size_t)((o + (uint64_t)i * 7919u) % PERIOD);
}

static void fill_probe_msg(void) {
    unsigned k;
    for (k = 0; k < 4; k++)
        g_msg[k] = (unsigned char)(g_seq >> (8 * k));
    for (k = 4; k < MSG_LEN; k++)
        g_msg[k] = (unsigned char)(g_seq * 31u + k);
}

static int open_conn(const struct sockaddr_in *addr, uint32_t data) {
    struct epoll_event ev;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
        die("fcntl");
    if (connect(fd, (const struct sockaddr *)addr, sizeof *addr) != 0 && errno != EINPROGRESS)
        die("connect");
    /* Writable = connected (or failed). */
    ev.events = EPOLLIN | EPOLLOUT;
    ev.data.u32 = data;
    if (epoll_ctl(g_epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
        die("epoll_ctl");
    return fd;
}

static void check_connected(int fd) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        die("getsockopt");
    if (err) {
        errno = err;
        die("connect");
    }
}

static void probe_interest(int out) {
    struct epoll_event ev;
    ev.events = EPOLLIN | (out ? EPOLLOUT : 0);
    ev.data.u32 = PROBE;
    if (epoll_ctl(g_epfd, EPOLL_CTL_MOD, g_probe_fd, &ev) != 0)
        die("epoll_ctl");
    g_probe_want_out = out;
}

static void probe_try_send(void) {
    while (g_sent < MSG_LEN) {
        ssize_t n = send(g_probe_fd, g_msg + g_sent, MSG_LEN - g_sent, MSG_NOSIGNAL);
        if (n > 0)
            g_sent += (unsigned)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        else
            invalid("probe", PROBE, strerror(errno));
    }
    if ((g_sent < MSG_LEN) != g_probe_want_out)
        probe_interest(g_sent < MSG_LEN);
}

static void probe_send_next(void) {
    g_seq++;
    g_sent = g_back = 0;
    fill_probe_msg();
    probe_try_send();
}

/* Reads what the server echoed to the probe, every byte checked. Returns
 * 1 when its message is back; once the window is over (`ending`), 1 at
 * the end of the stream instead (end of file, or a reset). Else 0:
 * nothing more to read now. */
static int probe_recv(int ending) {
    unsigned char buf[4 * MSG_LEN];
    for (;;) {
        ssize_t n = recv(g_probe_fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (ending && (n == 0 || (n < 0 && errno == ECONNRESET)))
            return 1;
        if (n <= 0)
            invalid("probe", PROBE, n == 0 ? "closed by the server" : strerror(errno));
        if (g_back + (unsigned)n > g_sent || memcmp(buf, g_msg + g_back, (size_t)n) != 0)
            invalid("probe", PROBE, "echoed bytes differ from what was sent");
        g_back += (unsigned)n;
        if (!ending && g_back == MSG_LEN)
            return 1;
    }
}

static void busy_send(struct busy *b, uint32_t i) {
    int k;
    for (k = 0; k < BUSY_CALLS; k++) {
        ssize_t n = send(b->fd, g_pattern + pattern_at(i, b->sent), CHUNK, MSG_NOSIGNAL);
        if (n > 0)
            b->sent += (uint64_t)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        else
            invalid("busy connection", i, strerror(errno));
        if (n < CHUNK)
            return; /* the socket is full */
    }
}

/* Reads what the server echoed to a busy connection: at most BUSY_CALLS
 * chunks, or, once the window is over (`ending`), all there is. Returns 1
 * at the end of the stream then (end of file, or a reset: the server may
 * drop what it had not sent yet), else 0. */
static int busy_recv(struct busy *b, uint32_t i, int ending) {
    int k;
    for (k = 0; ending || k < BUSY_CALLS; k++) {
        ssize_t n = recv(b->fd, g_buf, sizeof g_buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (ending && (n == 0 || (n < 0 && errno == ECONNRESET)))
            return 1;
        if (n <= 0)
            invalid("busy connection", i, n == 0 ? "closed by the server" : strerror(errno));
        if (b->back + (uint64_t)n > b->sent ||
            memcmp(g_buf, g_pattern + pattern_at(i, b->back), (size_t)n) != 0)
            invalid("busy connection", i, "echoed bytes differ from what was sent");
        b->back += (uint64_t)n;
        if (!ending && n < (ssize_t)sizeof g_buf)
            return 0; /* drained */
    }
    return 0;
}

/*
 * Untimed, after the window: every connection stops sending and shuts its
 * sending side down, then reads (and checks) what is still echoed until
 * the server, having read the end of file, closes its side. So no socket
 * is closed with bytes unread, which would reset the connection and have
 * the server see its writes fail. Gives up after END_LIMIT_NS.
 */
static void finish(void) {
    struct epoll_event ev, evs[64];
    uint64_t deadline = bench_now_ns() + END_LIMIT_NS;
    uint32_t i, open = g_nbusy + 1;
    int k, n;
    for (i = 0; i <= g_nbusy; i++) {
        int fd = i < g_nbusy ? g_busy[i].fd : g_probe_fd;
        ev.events = EPOLLIN;
        ev.data.u32 = i < g_nbusy ? i : PROBE;
        if (shutdown(fd, SHUT_WR) != 0 || epoll_ctl(g_epfd, EPOLL_CTL_MOD, fd, &ev) != 0)
            die("shutdown");
    }
    while (open > 0) {
        uint64_t now = bench_now_ns();
        if (now >= deadline) {
            fprintf(stderr,
                    "fair_client: %lu connections not closed by the server after the "
                    "window; closing them\n",
                    (unsigned long)open);
            break;
        }
        n = epoll_wait(g_epfd, evs, 64, (int)((deadline - now) / 1000000u) + 1);
        if (n < 0 && errno != EINTR)
            die("epoll_wait");
        for (k = 0; k < n; k++) {
            int done, fd;
            i = evs[k].data.u32;
            done = i == PROBE ? probe_recv(1) : busy_recv(&g_busy[i], i, 1);
            fd = i == PROBE ? g_probe_fd : g_busy[i].fd;
            if (done) {
                close(fd); /* (leaves the epoll set) */
                if (i == PROBE)
                    g_probe_fd = -1;
                else
                    g_busy[i].fd = -1;
                open--;
            }
        }
    }
    for (i = 0; i < g_nbusy; i++)
        if (g_busy[i].fd >= 0)
            close(g_busy[i].fd);
    if (g_probe_fd >= 0)
        close(g_probe_fd);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* This program's numeric arguments (bench/net_common.h). */
#define checked_arg(s, name, lo, hi) net_checked_arg("fair_client", (s), (name), (lo), (hi))

static int usage(const char *argv0) {
    fprintf(stderr, "usage: %s [--label <anchor>] [--pause-us <us>] <port> <B> <seconds>\n", argv0);
    return 2;
}

int main(int argc, char **argv) {
    static struct epoll_event evs[MAX_BUSY + 1];
    struct sockaddr_in addr;
    uint32_t i, ready = 0;
    double seconds, wall_s;
    uint64_t pause_ns = 0, t0, t1, now, deadline, cpu0, cpu1, sent_at = 0, next_at = 0, rtt;
    uint64_t *rtts = NULL, max_rtt = 0, busy_total = 0, busy_min = UINT64_MAX;
    size_t nrtt = 0, cap = 0;
    int probe_ready = 0, argi = 1, waiting; /* waiting: a probe message is out */
    char *end;

    bench_anchor = "server";
    while (argi < argc && strncmp(argv[argi], "--", 2) == 0) {
        if (strcmp(argv[argi], "--label") == 0 && argi + 1 < argc) {
            bench_anchor = argv[argi + 1];
        } else if (strcmp(argv[argi], "--pause-us") == 0 && argi + 1 < argc) {
            pause_ns = checked_arg(argv[argi + 1], "pause", 0, 1000000) * 1000u;
        } else {
            return usage(argv[0]);
        }
        argi += 2;
    }
    if (argc - argi != 3)
        return usage(argv[0]);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)checked_arg(argv[argi], "port", 1, 65535));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    g_nbusy = (uint32_t)checked_arg(argv[argi + 1], "B", 0, MAX_BUSY);
    seconds = strtod(argv[argi + 2], &end);
    if (end == argv[argi + 2] || *end || !(seconds > 0 && seconds < 3600)) {
        fprintf(stderr, "fair_client: bad seconds '%s'\n", argv[argi + 2]);
        return 2;
    }
    snprintf(g_workload, sizeof g_workload, "fair.b%lu", (unsigned long)g_nbusy);

    for (i = 0; i < sizeof g_pattern; i++) {
        uint32_t k = i % PERIOD;
        g_pattern[i] = (unsigned char)((k * 2654435761u) >> 13);
    }
    net_raise_nofile();
    g_busy = calloc(g_nbusy ? g_nbusy : 1, sizeof *g_busy);
    g_epfd = epoll_create1(0);
    if (!g_busy || g_epfd < 0)
        die("setup");

    /* Untimed: connect all; one probe round trip; a chunk back on each busy
     * connection (so the window opens with them streaming). */
    deadline = bench_now_ns() + SETUP_LIMIT_NS;
    for (i = 0; i < g_nbusy; i++)
        g_busy[i].fd = open_conn(&addr, i);
    g_probe_fd = open_conn(&addr, PROBE);
    g_probe_want_out = 1;
    while (!probe_ready || ready < g_nbusy) {
        int n, k;
        now = bench_now_ns();
        if (now >= deadline) {
            fprintf(stderr,
                    "fair_client: setup not done in 10 s (probe %s, %lu of %lu busy connections "
                    "streaming); giving up\n",
                    probe_ready ? "ready" : "not ready", (unsigned long)ready,
                    (unsigned long)g_nbusy);
            return 1;
        }
        n = epoll_wait(g_epfd, evs, MAX_BUSY + 1, (int)((deadline - now) / 1000000u) + 1);
        if (n < 0 && errno != EINTR)
            die("epoll_wait");
        for (k = 0; k < n; k++) {
            uint32_t e = evs[k].events;
            i = evs[k].data.u32;
            if (i == PROBE) {
                if (!g_probe_connected) {
                    int one = 1;
                    check_connected(g_probe_fd);
                    if (setsockopt(g_probe_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
                        die("TCP_NODELAY");
                    g_probe_connected = 1;
                    fill_probe_msg();
                    probe_try_send();
                    continue;
                }
                if ((e & EPOLLOUT) && g_sent < MSG_LEN)
                    probe_try_send();
                if ((e & (EPOLLIN | EPOLLERR | EPOLLHUP)) && probe_recv(0))
                    probe_ready = 1;
            } else {
                struct busy *b = &g_busy[i];
                uint64_t before = b->back;
                if (!b->connected) {
                    check_connected(b->fd);
                    b->connected = 1;
                }
                if (e & (EPOLLIN | EPOLLERR | EPOLLHUP))
                    (void)busy_recv(b, i, 0);
                if (e & EPOLLOUT)
                    busy_send(b, i);
                if (before < CHUNK && b->back >= CHUNK)
                    ready++;
            }
        }
    }

    /* The window. The clock is read after each epoll_wait, before its
     * events are handled; the probe's events come first. */
    for (i = 0; i < g_nbusy; i++)
        g_busy[i].back0 = g_busy[i].back;
    cpu0 = bench_cpu_ns();
    t0 = bench_now_ns();
    deadline = t0 + (uint64_t)(seconds * 1e9);
    sent_at = bench_now_ns();
    probe_send_next();
    waiting = 1;
    for (;;) {
        int n, k, timeout;
        uint64_t until = deadline;
        t1 = bench_now_ns();
        if (!waiting && t1 >= next_at) {
            sent_at = t1;
            probe_send_next();
            waiting = 1;
        }
        if (t1 >= deadline)
            break;
        if (!waiting && next_at < until)
            until = next_at;
        timeout = (int)((until - t1 + 999999u) / 1000000u);
        n = epoll_wait(g_epfd, evs, MAX_BUSY + 1, timeout);
        if (n < 0 && errno != EINTR)
            die("epoll_wait");
        t1 = bench_now_ns();
        if (t1 >= deadline)
            break;
        for (k = 0; k < n; k++) {
            if (evs[k].data.u32 != PROBE)
                continue;
            if ((evs[k].events & EPOLLOUT) && g_sent < MSG_LEN)
                probe_try_send();
            if ((evs[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) && probe_recv(0)) {
                now = bench_now_ns();
                rtt = now - sent_at;
                if (nrtt == cap) {
                    cap = cap ? 2 * cap : 65536;
                    rtts = realloc(rtts, cap * sizeof *rtts);
                    if (!rtts)
                        die("realloc");
                }
                rtts[nrtt++] = rtt;
                if (rtt > max_rtt)
                    max_rtt = rtt;
                waiting = 0;
                next_at = now + pause_ns;
                if (!pause_ns) {
                    sent_at = now;
                    probe_send_next();
                    waiting = 1;
                }
            }
        }
        for (k = 0; k < n; k++) {
            uint32_t e = evs[k].events;
            i = evs[k].data.u32;
            if (i == PROBE)
                continue;
            if (e & (EPOLLIN | EPOLLERR | EPOLLHUP))
                (void)busy_recv(&g_busy[i], i, 0);
            if (e & EPOLLOUT)
                busy_send(&g_busy[i], i);
        }
    }
    cpu1 = bench_cpu_ns();
    /* A probe still out at the end has waited at least this long. */
    if (waiting && t1 - sent_at > max_rtt)
        max_rtt = t1 - sent_at;

    for (i = 0; i < g_nbusy; i++) {
        uint64_t got = g_busy[i].back - g_busy[i].back0;
        busy_total += got;
        if (got < busy_min)
            busy_min = got;
    }
    finish();

    wall_s = (double)(t1 - t0) / 1e9;
    bench_result(g_workload, "probe_round_trips", (double)nrtt, "count");
    if (nrtt) {
        double median;
        qsort(rtts, nrtt, sizeof *rtts, cmp_u64);
        median = nrtt % 2 ? (double)rtts[nrtt / 2]
                          : ((double)rtts[nrtt / 2 - 1] + (double)rtts[nrtt / 2]) / 2;
        bench_result(g_workload, "probe_median_ms", median / 1e6, "ms");
        /* nearest rank: the ceil(0.99 n)-th smallest */
        bench_result(g_workload, "probe_p99_ms", (double)rtts[(nrtt * 99 + 99) / 100 - 1] / 1e6,
                     "ms");
        bench_result(g_workload, "probe_p999_ms", (double)rtts[(nrtt * 999 + 999) / 1000 - 1] / 1e6,
                     "ms");
    } else {
        bench_note(g_workload, "no probe round trip finished in the window");
    }
    bench_result(g_workload, "probe_max_ms", (double)max_rtt / 1e6, "ms");
    if (g_nbusy) {
        bench_result(g_workload, "busy_mbps", (double)busy_total / 1e6 / wall_s, "MB/s");
        bench_result(g_workload, "busy_min_mbps", (double)busy_min / 1e6 / wall_s, "MB/s");
    }
    bench_result(g_workload, "client_cpu_pct", (double)(cpu1 - cpu0) / (wall_s * 1e9) * 100.0, "%");
    free(rtts);
    free(g_busy);
    close(g_epfd);
    return 0;
}
