/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * bench/echo_client.c - the common load client of workload W6 (TCP echo
 * ping-pong, bench/WORKLOADS.md): one thread, epoll, plain C. The same
 * client drives every echo server, so that only the server differs.
 *
 *   echo_client [--idle <N>] <label> <port> <C> <seconds> [<server pid>]
 *
 * Opens C connections to 127.0.0.1:<port> (TCP_NODELAY), makes one untimed
 * 64-byte round trip on each, then for <seconds> keeps one 64-byte message
 * in flight per connection: send it, wait until all 64 bytes are back, send
 * the next. Prints RESULT lines anchor=<label> workload=W6.c<C>: rps,
 * client_cpu_pct and, given the server's pid, server_cpu_pct,
 * server_user_ns_per_req and server_sys_ns_per_req (from the utime and
 * stime of /proc/<pid>/stat, sampled at the start and the end of the
 * window).
 *
 * Every message carries its connection and sequence number, so every byte
 * echoed is checked against what was sent: a wrong, extra or missing byte,
 * or a connection the server closes, prints INVALID and exits 1. Exits 1
 * without figures if connecting and the first round trips take over 10 s,
 * or at once if the descriptor limit, raised to the hard limit, cannot
 * hold C connections. Linux only (epoll).
 *
 * --idle N (workload W8): before the C active connections, opens N idle
 * ones that never send, IDLE_BATCH connects at a time, and waits (up to
 * 30 s) until the server has accepted them all: until no connection to
 * <port> is left in its accept queue (an established socket of the
 * server's side without an inode in /proc/net/tcp; skipped, with a line on
 * stderr, if that file cannot be read). They stay open through the window;
 * one that becomes readable (the server closed it, or sent bytes unasked)
 * is INVALID. The workload id is then W8.c<C>.idle<N> (W8.c100.idle0:
 * W6.c100's parameters, the baseline), and with the server's pid two more
 * figures: server_cpu_ns_per_req (user + system) and server_peak_rss_mib
 * (VmHWM of /proc/<pid>/status at the end of the window: the peak over the
 * server's life so far).
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
#define SETUP_LIMIT_NS (10 * UINT64_C(1000000000))
#define IDLE_LIMIT_NS (30 * UINT64_C(1000000000))
#define IDLE_BATCH 1000 /* idle connects in flight at once */
/* epoll data of idle connection j: IDLE_TAG | j, and IDLE_CONNECTING too
 * until it is connected (active connection i: i) */
#define IDLE_TAG UINT32_C(0x80000000)
#define IDLE_CONNECTING UINT32_C(0x40000000)

struct conn {
    int fd;
    int connected;
    int want_out;        /* EPOLLOUT is in the interest set */
    uint32_t seq;        /* number of the message in flight */
    unsigned sent, back; /* bytes of it written / echoed back so far */
    unsigned char msg[MSG_LEN];
};

static struct conn *g_conns;
static int *g_idle; /* the idle connections' descriptors (--idle) */
static int g_epfd;
static char g_workload[32];
static long long g_count; /* round trips completed since the last reset */

static void die(const char *what) {
    perror(what);
    exit(1);
}

/* Message seq of connection i: both numbers, then a counter pattern, so
 * that a byte from another connection or an older message is caught. */
static void fill_msg(struct conn *c, uint32_t i) {
    unsigned k;
    for (k = 0; k < 4; k++) {
        c->msg[k] = (unsigned char)(i >> (8 * k));
        c->msg[4 + k] = (unsigned char)(c->seq >> (8 * k));
    }
    for (k = 8; k < MSG_LEN; k++)
        c->msg[k] = (unsigned char)(i + c->seq + k);
}

static void set_interest(struct conn *c, uint32_t i, int out) {
    struct epoll_event ev;
    ev.events = EPOLLIN | (out ? EPOLLOUT : 0);
    ev.data.u32 = i;
    if (epoll_ctl(g_epfd, EPOLL_CTL_MOD, c->fd, &ev) != 0)
        die("epoll_ctl");
    c->want_out = out;
}

static void try_send(struct conn *c, uint32_t i) {
    while (c->sent < MSG_LEN) {
        ssize_t n = send(c->fd, c->msg + c->sent, MSG_LEN - c->sent, MSG_NOSIGNAL);
        if (n > 0) {
            c->sent += (unsigned)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            printf("INVALID anchor=%s workload=%s connection %u: send: %s\n", bench_anchor,
                   g_workload, (unsigned)i, strerror(errno));
            exit(1);
        }
    }
    /* On loopback a 64-byte send completes at once; EPOLLOUT only for the
     * rare partial one, so the common path costs no epoll_ctl. */
    if ((c->sent < MSG_LEN) != c->want_out)
        set_interest(c, i, c->sent < MSG_LEN);
}

static void send_next(struct conn *c, uint32_t i) {
    c->seq++;
    c->sent = c->back = 0;
    fill_msg(c, i);
    try_send(c, i);
}

/* Reads what the server echoed; returns 1 when the message is all back. */
static int on_readable(struct conn *c, uint32_t i) {
    unsigned char buf[4 * MSG_LEN];
    for (;;) {
        ssize_t n = recv(c->fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (n <= 0) {
            printf("INVALID anchor=%s workload=%s connection %u: %s after %lld round trips\n",
                   bench_anchor, g_workload, (unsigned)i,
                   n == 0 ? "closed by the server" : strerror(errno), g_count);
            exit(1);
        }
        if (c->back + (unsigned)n > c->sent || memcmp(buf, c->msg + c->back, (size_t)n) != 0) {
            printf("INVALID anchor=%s workload=%s connection %u message %lu: %ld bytes "
                   "echoed at offset %u differ from what was sent (%u bytes sent)\n",
                   bench_anchor, g_workload, (unsigned)i, (unsigned long)c->seq, (long)n, c->back,
                   c->sent);
            exit(1);
        }
        c->back += (unsigned)n;
        if (c->back == MSG_LEN)
            return 1;
    }
}

/* An event on an idle connection: it never sends, so the server closed it
 * or sent bytes it was not asked for. */
static void idle_event(uint32_t j) {
    char b;
    ssize_t n = recv(g_idle[j], &b, 1, MSG_DONTWAIT);
    printf("INVALID anchor=%s workload=%s idle connection %u: %s after %lld round trips\n",
           bench_anchor, g_workload, (unsigned)j,
           n == 0  ? "closed by the server"
           : n > 0 ? "the server sent bytes unasked"
                   : strerror(errno),
           g_count);
    exit(1);
}

/* Connections to 127.0.0.1:<port> still in the server's accept queue: its
 * side of them is established (or half-open) but has no inode yet, which
 * accept() gives it. -1 if /proc/net/tcp cannot be read. */
static long unaccepted(unsigned port) {
    char line[512];
    long n = 0;
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f)
        return -1;
    if (!fgets(line, sizeof line, f)) { /* the header */
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        unsigned long inode;
        unsigned lport, state;
        if (sscanf(line, " %*d: %*x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x %*u %*d %lu", &lport, &state,
                   &inode) == 3 &&
            lport == port && inode == 0 && (state == 0x01 || state == 0x03))
            n++;
    }
    fclose(f);
    return n;
}

/* --idle: opens nidle connections that never send, IDLE_BATCH at a time
 * (each batch connected before the next starts, so the listen backlog is
 * never the limit), then waits until the server has accepted them all. */
static void open_idle(const struct sockaddr_in *addr, uint32_t nidle) {
    static struct epoll_event evs[1024];
    uint64_t deadline = bench_now_ns() + IDLE_LIMIT_NS;
    uint32_t j = 0, k, pending;
    long left;
    while (j < nidle) {
        uint32_t end = nidle - j < IDLE_BATCH ? nidle : j + IDLE_BATCH;
        for (k = j; k < end; k++) {
            struct epoll_event ev;
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            if (fd < 0)
                die("socket");
            if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0)
                die("fcntl");
            if (connect(fd, (const struct sockaddr *)addr, sizeof *addr) != 0 &&
                errno != EINPROGRESS)
                die("connect");
            ev.events = EPOLLOUT;
            ev.data.u32 = IDLE_TAG | IDLE_CONNECTING | k;
            if (epoll_ctl(g_epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
                die("epoll_ctl");
            g_idle[k] = fd;
        }
        for (pending = end - j; pending > 0;) {
            uint64_t now = bench_now_ns();
            int n, e;
            if (now >= deadline) {
                fprintf(stderr,
                        "echo_client: %lu of %lu idle connections made in 30 s; giving up\n",
                        (unsigned long)(end - pending), (unsigned long)nidle);
                exit(1);
            }
            n = epoll_wait(g_epfd, evs, 1024, (int)((deadline - now) / 1000000u) + 1);
            if (n < 0 && errno != EINTR)
                die("epoll_wait");
            for (e = 0; e < n; e++) {
                struct epoll_event ev;
                uint32_t i = evs[e].data.u32 & ~(IDLE_TAG | IDLE_CONNECTING);
                int err = 0;
                socklen_t len = sizeof err;
                if (!(evs[e].data.u32 & IDLE_CONNECTING)) /* connected, then closed */
                    idle_event(i);
                if (getsockopt(g_idle[i], SOL_SOCKET, SO_ERROR, &err, &len) != 0)
                    die("getsockopt");
                if (err) {
                    errno = err;
                    die("connect (idle)");
                }
                /* Connected: from now on only an end or bytes would wake it. */
                ev.events = EPOLLIN | EPOLLRDHUP;
                ev.data.u32 = IDLE_TAG | i;
                if (epoll_ctl(g_epfd, EPOLL_CTL_MOD, g_idle[i], &ev) != 0)
                    die("epoll_ctl");
                pending--;
            }
        }
        j = end;
    }
    while ((left = unaccepted(ntohs(addr->sin_port))) > 0) {
        struct timespec ts = {0, 20000000};
        if (bench_now_ns() >= deadline) {
            fprintf(stderr,
                    "echo_client: %ld connections still wait in the server's accept "
                    "queue after 30 s; giving up\n",
                    left);
            exit(1);
        }
        nanosleep(&ts, NULL);
    }
    if (left < 0)
        fprintf(stderr, "echo_client: /proc/net/tcp unreadable: not checking that the server "
                        "accepted the idle connections\n");
}

/* utime + stime of a process, in clock ticks: fields 14 and 15 of
 * /proc/<pid>/stat, counted after the command name (which may hold
 * spaces and parentheses, so from the last ')'). */
static void proc_cpu_ticks(long pid, unsigned long long *user, unsigned long long *sys) {
    char path[64], buf[1024];
    const char *p;
    size_t n;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (!f)
        die(path);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    p = strrchr(buf, ')');
    if (!p ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", user, sys) != 2) {
        fprintf(stderr, "echo_client: cannot parse %s\n", path);
        exit(1);
    }
}

/* The peak RSS of a process so far, in KiB: VmHWM of /proc/<pid>/status;
 * -1 if it cannot be read. */
static long proc_peak_rss_kib(long pid) {
    char path[64], line[256];
    long kib = -1;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* This program's numeric arguments (bench/net_common.h). */
#define checked_arg(s, name, lo, hi) net_checked_arg("echo_client", (s), (name), (lo), (hi))

int main(int argc, char **argv) {
    static struct epoll_event evs[1024];
    struct sockaddr_in addr;
    uint32_t nconn, nidle = 0, i, ready = 0;
    int idle_mode = 0, argi = 1;
    double seconds, wall_s, tick_ns;
    long pid = 0;
    uint64_t t0, t1, deadline, cpu0, cpu1;
    unsigned long long u0 = 0, s0 = 0, u1 = 0, s1 = 0;
    long peak_kib = -1;
    char *end;

    if (argc > 2 && strcmp(argv[1], "--idle") == 0) {
        nidle = (uint32_t)checked_arg(argv[2], "idle connections", 0, 100000);
        idle_mode = 1;
        argi = 3;
    }
    if (argc - argi != 4 && argc - argi != 5) {
        fprintf(stderr, "usage: %s [--idle <N>] <label> <port> <C> <seconds> [<server pid>]\n",
                argv[0]);
        return 2;
    }
    bench_anchor = argv[argi];
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)checked_arg(argv[argi + 1], "port", 1, 65535));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    nconn = (uint32_t)checked_arg(argv[argi + 2], "C", 1, 100000);
    seconds = strtod(argv[argi + 3], &end);
    if (end == argv[argi + 3] || *end || !(seconds > 0 && seconds < 3600)) {
        fprintf(stderr, "echo_client: bad seconds '%s'\n", argv[argi + 3]);
        return 2;
    }
    if (argc - argi == 5)
        pid = (long)checked_arg(argv[argi + 4], "server pid", 1, 1u << 30);
    if (idle_mode)
        snprintf(g_workload, sizeof g_workload, "W8.c%lu.idle%lu", (unsigned long)nconn,
                 (unsigned long)nidle);
    else
        snprintf(g_workload, sizeof g_workload, "W6.c%lu", (unsigned long)nconn);

    /* C (and N idle) sockets, the epoll descriptor and stdio: say so if
     * the limit, raised to the hard one, cannot hold them (rather than fail
     * half-way through connecting). */
    net_raise_nofile();
    {
        struct rlimit rl;
        unsigned long need = (unsigned long)nconn + nidle + 8;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            rl.rlim_cur < (rlim_t)need) {
            fprintf(stderr,
                    "echo_client: C=%lu and %lu idle need %lu descriptors; RLIMIT_NOFILE is %lu "
                    "(hard %lu)\n",
                    (unsigned long)nconn, (unsigned long)nidle, need, (unsigned long)rl.rlim_cur,
                    (unsigned long)rl.rlim_max);
            return 1;
        }
    }
    g_conns = calloc(nconn, sizeof *g_conns);
    g_idle = calloc(nidle ? nidle : 1, sizeof *g_idle);
    g_epfd = epoll_create1(0);
    if (!g_conns || !g_idle || g_epfd < 0)
        die("setup");
    if (nidle)
        open_idle(&addr, nidle);

    /* Untimed: connect all, then one round trip on each. */
    deadline = bench_now_ns() + SETUP_LIMIT_NS;
    for (i = 0; i < nconn; i++) {
        struct conn *c = &g_conns[i];
        struct epoll_event ev;
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        if (c->fd < 0)
            die("socket");
        if (fcntl(c->fd, F_SETFL, O_NONBLOCK) != 0)
            die("fcntl");
        if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) != 0 && errno != EINPROGRESS)
            die("connect");
        /* Writable = connected (or failed); EPOLLIN for the round trip. */
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.u32 = i;
        if (epoll_ctl(g_epfd, EPOLL_CTL_ADD, c->fd, &ev) != 0)
            die("epoll_ctl");
        c->want_out = 1;
    }
    while (ready < nconn) {
        uint64_t now = bench_now_ns();
        int n, k;
        if (now >= deadline) {
            fprintf(stderr,
                    "echo_client: %lu of %lu connections made their first round trip in 10 s; "
                    "giving up\n",
                    (unsigned long)ready, (unsigned long)nconn);
            return 1;
        }
        n = epoll_wait(g_epfd, evs, 1024, (int)((deadline - now) / 1000000u) + 1);
        if (n < 0 && errno != EINTR)
            die("epoll_wait");
        for (k = 0; k < n; k++) {
            struct conn *c;
            i = evs[k].data.u32;
            if (i & IDLE_TAG)
                idle_event(i & ~IDLE_TAG);
            c = &g_conns[i];
            if (!c->connected) {
                int err = 0, one = 1;
                socklen_t len = sizeof err;
                if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
                    die("getsockopt");
                if (err) {
                    errno = err;
                    die("connect");
                }
                if (setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
                    die("TCP_NODELAY");
                c->connected = 1;
                fill_msg(c, i);
                try_send(c, i);
                continue;
            }
            if ((evs[k].events & EPOLLOUT) && c->sent < MSG_LEN)
                try_send(c, i);
            if ((evs[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) && on_readable(c, i))
                ready++;
        }
    }

    /* The window: every connection sends its next message at once; each
     * one echoed back counts and is followed by the next. The clock is read
     * after each epoll_wait, before its events are handled, so every round
     * trip counted was back before the end of the window. */
    if (pid)
        proc_cpu_ticks(pid, &u0, &s0);
    cpu0 = bench_cpu_ns();
    t0 = bench_now_ns();
    deadline = t0 + (uint64_t)(seconds * 1e9);
    g_count = 0;
    for (i = 0; i < nconn; i++)
        send_next(&g_conns[i], i);
    for (;;) {
        int n, k;
        t1 = bench_now_ns();
        if (t1 >= deadline)
            break;
        n = epoll_wait(g_epfd, evs, 1024, (int)((deadline - t1 + 999999u) / 1000000u));
        if (n < 0 && errno != EINTR)
            die("epoll_wait");
        t1 = bench_now_ns();
        if (t1 >= deadline)
            break;
        for (k = 0; k < n; k++) {
            struct conn *c;
            i = evs[k].data.u32;
            if (i & IDLE_TAG)
                idle_event(i & ~IDLE_TAG);
            c = &g_conns[i];
            if ((evs[k].events & EPOLLOUT) && c->sent < MSG_LEN)
                try_send(c, i);
            if ((evs[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) && on_readable(c, i)) {
                g_count++;
                send_next(c, i);
            }
        }
    }
    cpu1 = bench_cpu_ns();
    if (pid)
        proc_cpu_ticks(pid, &u1, &s1);

    if (pid && idle_mode)
        peak_kib = proc_peak_rss_kib(pid);
    for (i = 0; i < nconn; i++)
        close(g_conns[i].fd);
    for (i = 0; i < nidle; i++)
        close(g_idle[i]);
    if (g_count == 0) {
        printf("INVALID anchor=%s workload=%s no round trip completed in the window\n",
               bench_anchor, g_workload);
        return 1;
    }

    wall_s = (double)(t1 - t0) / 1e9;
    tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);
    bench_result(g_workload, "rps", (double)g_count / wall_s, "req/s");
    if (pid) {
        double user_ns = (double)(u1 - u0) * tick_ns, sys_ns = (double)(s1 - s0) * tick_ns;
        bench_result(g_workload, "server_cpu_pct", (user_ns + sys_ns) / (wall_s * 1e9) * 100.0,
                     "%");
        bench_result(g_workload, "server_user_ns_per_req", user_ns / (double)g_count, "ns");
        bench_result(g_workload, "server_sys_ns_per_req", sys_ns / (double)g_count, "ns");
        if (idle_mode) {
            bench_result(g_workload, "server_cpu_ns_per_req", (user_ns + sys_ns) / (double)g_count,
                         "ns");
            if (peak_kib >= 0)
                bench_result(g_workload, "server_peak_rss_mib", (double)peak_kib / 1024.0, "MiB");
        }
    }
    bench_result(g_workload, "client_cpu_pct", (double)(cpu1 - cpu0) / (wall_s * 1e9) * 100.0, "%");
    free(g_conns);
    free(g_idle);
    close(g_epfd);
    return 0;
}
