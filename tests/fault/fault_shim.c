/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fault/fault_shim.c - an LD_PRELOAD library that makes the system
 * calls of a socket program fail the ways a kernel may make them fail, at
 * random (seeded), so that the code above can be checked against them:
 *
 *   EINTR        select/poll/epoll_wait, and socket recv/recvfrom/read,
 *                send/sendto/write, accept/accept4, connect: the call
 *                fails before doing anything (connect: after starting,
 *                as POSIX says an interrupted connect goes on)
 *   EAGAIN       the same socket calls on a non-blocking socket: nothing
 *                there yet, although select() said ready
 *   short        a read or write moves a prefix (>= 1 byte) of the request
 *   ECONNRESET   a socket read or write fails; the shim shuts the socket
 *                down and from then on reads see end of file and writes
 *                EPIPE, as Linux does after reporting a reset
 *   EMFILE       a window of 1..PT_FAULT_EMFILE_LEN accept calls in a row
 *                fail with EMFILE
 *   any errno    select/poll/epoll_wait fail with PT_FAULT_POLL_ERR, every
 *                call or the first PT_FAULT_POLL_ERR_COUNT (ENOMEM, say:
 *                an error that lasts, which the loop must not spin on)
 *
 * Only sockets are touched (fstat S_ISSOCK): pipes, terminals and files
 * pass through. EINTR and EAGAIN are injected on non-blocking sockets only:
 * a blocking call sees EINTR only from a signal handler, which these
 * programs do not have. A read just after a MSG_PEEK that saw its bytes is
 * left alone but for EINTR: the kernel hands out bytes it has shown.
 *
 * Environment (rates are probabilities per call, 0..1; unset = 0):
 *   PT_FAULT_SEED        PRNG seed (default 1)
 *   PT_FAULT_RATE        default rate of EINTR, EAGAIN and short transfers
 *   PT_FAULT_EINTR, PT_FAULT_EAGAIN, PT_FAULT_SHORT   per-kind rates
 *   PT_FAULT_RESET       rate of ECONNRESET per socket read/write
 *   PT_FAULT_EMFILE      rate per accept of starting an EMFILE window
 *   PT_FAULT_EMFILE_LEN  longest window, in accept calls (default 4)
 *   PT_FAULT_POLL_ERR    errno, by name (ENOMEM, EINVAL, EFAULT, EBADF,
 *                        EINTR, EAGAIN, EIO) or number, that the poll-family
 *                        calls fail with before waiting (unset or 0: never)
 *   PT_FAULT_POLL_ERR_COUNT  fail only the first N poll-family calls of the
 *                        process and its children (unset or 0: every one)
 *   PT_FAULT_STATS       file kept up to date with the counts (one line,
 *                        "key=value ..."; "polls" counts every poll-family
 *                        call, "poll_err" those failed with
 *                        PT_FAULT_POLL_ERR), so even a killed process
 *                        leaves them; at exit they also go to stderr
 *                        unless PT_FAULT_QUIET is set
 *
 * Thread-safe: the PRNG, counters and per-descriptor state are under one
 * mutex, held only around bookkeeping, never across a system call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/epoll.h>
#endif

/* glibc declares the address arguments as transparent unions (typedefs
 * __SOCKADDR_ARG, __CONST_SOCKADDR_ARG) under _GNU_SOURCE; the definitions
 * must use the same types. Elsewhere they are plain pointers. */
#if !(defined(__GLIBC__) && defined(__USE_GNU)) && !defined(__SOCKADDR_ARG)
#define __SOCKADDR_ARG struct sockaddr *restrict
#define __CONST_SOCKADDR_ARG const struct sockaddr *
#endif

enum {
    K_EINTR,
    K_EAGAIN,
    K_SHORT_READ,
    K_SHORT_WRITE,
    K_RESET,
    K_EMFILE,
    K_EMFILE_WINDOWS,
    K_POLLS,
    K_POLL_ERR,
    K_N
};
static const char *const kind_name[K_N] = {"eintr",          "eagain", "short_read",
                                           "short_write",    "reset",  "emfile",
                                           "emfile_windows", "polls",  "poll_err"};

/* Per-descriptor state; descriptors beyond it get no faults at all. */
#define FD_TRACK 65536
#define FD_RESET 0x80000000u  /* reset injected: reads EOF, writes EPIPE */
#define FD_PEEKED 0x7fffffffu /* bytes the last MSG_PEEK showed */
static uint32_t fd_state[FD_TRACK];

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint64_t rng;
static double rate_eintr, rate_eagain, rate_short, rate_reset, rate_emfile;
static unsigned emfile_len = 4, emfile_left;
static int poll_err;                      /* PT_FAULT_POLL_ERR (0: none) */
static unsigned long long poll_err_count; /* ... for this many calls (0: all) */
/* Shared with forked children (a test may run each case in one), so the
 * counts are the whole family's: an anonymous shared mapping, updated
 * atomically (the mutex is per process after a fork). */
static unsigned long long counts_local[K_N], *counts = counts_local;
static char *stats_map; /* the PT_FAULT_STATS file, mapped */
#define STATS_SIZE 256

static int (*real_select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *restrict, size_t, int, __SOCKADDR_ARG,
                                socklen_t *restrict);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int, __CONST_SOCKADDR_ARG, socklen_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_accept)(int, __SOCKADDR_ARG, socklen_t *restrict);
static int (*real_accept4)(int, __SOCKADDR_ARG, socklen_t *restrict, int);
static int (*real_connect)(int, __CONST_SOCKADDR_ARG, socklen_t);
static int (*real_close)(int);
#ifdef __linux__
static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
#endif

/* dlsym returns void *; C forbids converting it to a function pointer
 * directly, so copy the bits (POSIX guarantees they fit). */
#define RESOLVE(var, name)                                                                         \
    do {                                                                                           \
        void *p_ = dlsym(RTLD_NEXT, name);                                                         \
        memcpy(&(var), &p_, sizeof(var));                                                          \
    } while (0)

static double env_rate(const char *name, double fallback) {
    const char *v = getenv(name);
    double r;
    if (!v || !*v)
        return fallback;
    r = strtod(v, NULL);
    return r < 0 ? 0 : r > 1 ? 1 : r;
}

/* An errno by name or number; 0 if unset. An unknown name stops the
 * program: a fault run that injects nothing proves nothing. */
static int env_errno(const char *name) {
    static const struct {
        const char *name;
        int e;
    } known[] = {{"ENOMEM", ENOMEM}, {"EINVAL", EINVAL}, {"EFAULT", EFAULT}, {"EBADF", EBADF},
                 {"EINTR", EINTR},   {"EAGAIN", EAGAIN}, {"EIO", EIO}};
    const char *v = getenv(name);
    char *end;
    long n;
    size_t i;
    if (!v || !*v)
        return 0;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(v, known[i].name) == 0)
            return known[i].e;
    n = strtol(v, &end, 0);
    if (*end || n < 0 || n > 4095) {
        fprintf(stderr, "fault_shim: %s=%s: not an errno name or number\n", name, v);
        _exit(2);
    }
    return (int)n;
}

static void write_stats(void);

static void at_exit(void) {
    unsigned k;
    const char *q = getenv("PT_FAULT_QUIET");
    pthread_mutex_lock(&mu);
    write_stats();
    if (!q || !*q) {
        fprintf(stderr, "fault_shim:");
        for (k = 0; k < K_N; k++)
            fprintf(stderr, " %s=%llu", kind_name[k], counts[k]);
        fprintf(stderr, "\n");
    }
    pthread_mutex_unlock(&mu);
}

static void init(void) {
    const char *seed = getenv("PT_FAULT_SEED"), *path = getenv("PT_FAULT_STATS");
    const char *len = getenv("PT_FAULT_EMFILE_LEN");
    const char *err_count = getenv("PT_FAULT_POLL_ERR_COUNT");
    double base = env_rate("PT_FAULT_RATE", 0);
    RESOLVE(real_select, "select");
    RESOLVE(real_poll, "poll");
    RESOLVE(real_recv, "recv");
    RESOLVE(real_recvfrom, "recvfrom");
    RESOLVE(real_read, "read");
    RESOLVE(real_send, "send");
    RESOLVE(real_sendto, "sendto");
    RESOLVE(real_write, "write");
    RESOLVE(real_accept, "accept");
    RESOLVE(real_accept4, "accept4");
    RESOLVE(real_connect, "connect");
    RESOLVE(real_close, "close");
#ifdef __linux__
    RESOLVE(real_epoll_wait, "epoll_wait");
#endif
    {
        void *m = mmap(NULL, sizeof counts_local, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED)
            counts = (unsigned long long *)m;
    }
    rng = seed ? strtoull(seed, NULL, 0) : 1;
    rate_eintr = env_rate("PT_FAULT_EINTR", base);
    rate_eagain = env_rate("PT_FAULT_EAGAIN", base);
    rate_short = env_rate("PT_FAULT_SHORT", base);
    rate_reset = env_rate("PT_FAULT_RESET", 0);
    rate_emfile = env_rate("PT_FAULT_EMFILE", 0);
    if (len && strtoul(len, NULL, 10) > 0)
        emfile_len = (unsigned)strtoul(len, NULL, 10);
    poll_err = env_errno("PT_FAULT_POLL_ERR");
    poll_err_count = err_count ? strtoull(err_count, NULL, 10) : 0;
    if (path && *path) {
        /* Mapped, then closed: the program's descriptor count is its own. */
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644); /* never truncated: see below */
        if (fd >= 0) {
            if (ftruncate(fd, STATS_SIZE) == 0) {
                void *m = mmap(NULL, STATS_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (m != MAP_FAILED)
                    stats_map = (char *)m;
            }
            real_close(fd);
        }
    }
    write_stats();
    atexit(at_exit);
}

/* At load, before the program can fork: a child then shares the parent's
 * counts, and no process truncates the stats file under another's mapping
 * (a write past a file's end is SIGBUS). */
__attribute__((constructor)) static void init_at_load(void) {
    pthread_once(&once, init);
}

/* Under mu. Space-padded to the mapping's size, so the file always reads
 * as one line of the latest counts. */
static void write_stats(void) {
    char line[STATS_SIZE];
    size_t n = 0;
    unsigned k;
    if (!stats_map)
        return;
    for (k = 0; k < K_N && n < sizeof line; k++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s=%llu ", kind_name[k], counts[k]);
    if (n > sizeof line - 1)
        n = sizeof line - 1;
    memset(line + n, ' ', sizeof line - 1 - n);
    line[sizeof line - 1] = '\n';
    memcpy(stats_map, line, sizeof line);
}

/* xorshift64*: uniform in [0, 1). Under mu. */
static double rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * UINT64_C(2685821657736338717)) >> 11) / 9007199254740992.0;
}

/* Under mu: true with probability r (never draws when r is 0, so a rate
 * left at 0 does not change the sequence of the others). */
static int chance(double r) {
    if (rng == 0)
        rng = 1;
    return r > 0 && rnd() < r;
}

static void count(int k) {
    (void)__sync_fetch_and_add(&counts[k], 1ull);
    write_stats();
}

static int is_sock(int fd) {
    struct stat st;
    return fd >= 0 && fd < FD_TRACK && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int is_nonblocking(int fd, int flags) {
    int fl;
    if (flags & MSG_DONTWAIT)
        return 1;
    fl = fcntl(fd, F_GETFL);
    return fl >= 0 && (fl & O_NONBLOCK);
}

/* -1 with errno e: the call did nothing. */
static ssize_t fail(int e) {
    errno = e;
    return -1;
}

enum { DO_PASS, DO_EINTR, DO_EAGAIN, DO_SHORT, DO_RESET, DO_EOF, DO_EPIPE };

/* What to do to a socket read (peek: MSG_PEEK) or write of len bytes. */
static int decide(int fd, size_t len, int write, int peek, int nonblock) {
    int d = DO_PASS, after_peek;
    pthread_mutex_lock(&mu);
    after_peek = !write && !peek && (fd_state[fd] & FD_PEEKED) && len <= (fd_state[fd] & FD_PEEKED);
    if (fd_state[fd] & FD_RESET)
        d = write ? DO_EPIPE : DO_EOF;
    else if (nonblock && chance(rate_eintr))
        d = DO_EINTR;
    else if (after_peek)
        d = DO_PASS;
    else if (nonblock && chance(rate_eagain))
        d = DO_EAGAIN;
    else if (len > 1 && chance(rate_short))
        d = DO_SHORT;
    else if (!peek && chance(rate_reset))
        d = DO_RESET;
    /* A read that does anything uses up the peek; an interrupted one is
     * retried and must find the bytes still there. */
    if (!write && !peek && d != DO_EINTR)
        fd_state[fd] &= FD_RESET;
    if (d == DO_EINTR)
        count(K_EINTR);
    else if (d == DO_EAGAIN)
        count(K_EAGAIN);
    else if (d == DO_SHORT)
        count(write ? K_SHORT_WRITE : K_SHORT_READ);
    else if (d == DO_RESET) {
        fd_state[fd] = FD_RESET;
        count(K_RESET);
    }
    pthread_mutex_unlock(&mu);
    return d;
}

/* A prefix of len bytes, 1..len-1. */
static size_t short_len(size_t len) {
    size_t n;
    pthread_mutex_lock(&mu);
    n = 1 + (size_t)(rnd() * (double)(len - 1));
    pthread_mutex_unlock(&mu);
    return n < len ? n : len - 1;
}

static void note_peek(int fd, ssize_t r) {
    pthread_mutex_lock(&mu);
    if (!(fd_state[fd] & FD_RESET))
        fd_state[fd] = r > 0 ? (uint32_t)((size_t)r < FD_PEEKED ? (size_t)r : FD_PEEKED) : 0;
    pthread_mutex_unlock(&mu);
}

/* Common to the reads: 1 if the call was handled (*r set), 0 to go on
 * with *len (perhaps shortened). */
static int read_fault(int fd, size_t *len, int flags, ssize_t *r) {
    int d;
    if (!is_sock(fd))
        return 0;
    d = decide(fd, *len, 0, (flags & MSG_PEEK) != 0, is_nonblocking(fd, flags));
    switch (d) {
    case DO_EINTR:
        *r = fail(EINTR);
        return 1;
    case DO_EAGAIN:
        *r = fail(EAGAIN);
        return 1;
    case DO_EOF:
        *r = 0;
        return 1;
    case DO_RESET:
        (void)shutdown(fd, SHUT_RDWR); /* the peer sees the connection end */
        *r = fail(ECONNRESET);
        return 1;
    case DO_SHORT:
        *len = short_len(*len);
        return 0;
    default:
        return 0;
    }
}

static int write_fault(int fd, size_t *len, int flags, ssize_t *r) {
    int d;
    if (!is_sock(fd))
        return 0;
    d = decide(fd, *len, 1, 0, is_nonblocking(fd, flags));
    switch (d) {
    case DO_EINTR:
        *r = fail(EINTR);
        return 1;
    case DO_EAGAIN:
        *r = fail(EAGAIN);
        return 1;
    case DO_EPIPE:
        *r = fail(EPIPE);
        return 1;
    case DO_RESET:
        (void)shutdown(fd, SHUT_RDWR);
        *r = fail(ECONNRESET);
        return 1;
    case DO_SHORT:
        *len = short_len(*len);
        return 0;
    default:
        return 0;
    }
}

/* A poll-family call, counted: the errno it is to fail with, or 0.
 * PT_FAULT_POLL_ERR takes the call before any draw, so a run without it
 * draws the same EINTRs for a seed as before it existed. */
static int wait_fault(void) {
    int e = 0;
    unsigned long long k;
    pthread_mutex_lock(&mu);
    k = __sync_fetch_and_add(&counts[K_POLLS], 1ull); /* (the family's count) */
    if (poll_err && (poll_err_count == 0 || k < poll_err_count)) {
        e = poll_err;
        count(K_POLL_ERR);
    } else if (chance(rate_eintr)) {
        e = EINTR;
        count(K_EINTR);
    } else {
        write_stats();
    }
    pthread_mutex_unlock(&mu);
    return e;
}

int select(int n, fd_set *restrict rd, fd_set *restrict wr, fd_set *restrict ex,
           struct timeval *restrict tv) {
    int e;
    pthread_once(&once, init);
    if ((e = wait_fault()) != 0)
        return (int)fail(e);
    return real_select(n, rd, wr, ex, tv);
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    int e;
    pthread_once(&once, init);
    if ((e = wait_fault()) != 0)
        return (int)fail(e);
    return real_poll(fds, n, timeout);
}

#ifdef __linux__
int epoll_wait(int epfd, struct epoll_event *ev, int n, int timeout) {
    int e;
    pthread_once(&once, init);
    if ((e = wait_fault()) != 0)
        return (int)fail(e);
    return real_epoll_wait(epfd, ev, n, timeout);
}
#endif

ssize_t recv(int fd, void *buf, size_t len, int flags) {
    ssize_t r;
    pthread_once(&once, init);
    if (read_fault(fd, &len, flags, &r))
        return r;
    r = real_recv(fd, buf, len, flags);
    if ((flags & MSG_PEEK) && fd >= 0 && fd < FD_TRACK)
        note_peek(fd, r);
    return r;
}

ssize_t recvfrom(int fd, void *restrict buf, size_t len, int flags, __SOCKADDR_ARG addr,
                 socklen_t *restrict alen) {
    ssize_t r;
    pthread_once(&once, init);
    if (read_fault(fd, &len, flags, &r))
        return r;
    r = real_recvfrom(fd, buf, len, flags, addr, alen);
    if ((flags & MSG_PEEK) && fd >= 0 && fd < FD_TRACK)
        note_peek(fd, r);
    return r;
}

ssize_t read(int fd, void *buf, size_t len) {
    ssize_t r;
    pthread_once(&once, init);
    if (read_fault(fd, &len, 0, &r))
        return r;
    return real_read(fd, buf, len);
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
    ssize_t r;
    pthread_once(&once, init);
    if (write_fault(fd, &len, flags, &r))
        return r;
    return real_send(fd, buf, len, flags);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, __CONST_SOCKADDR_ARG addr,
               socklen_t alen) {
    ssize_t r;
    pthread_once(&once, init);
    if (write_fault(fd, &len, flags, &r))
        return r;
    return real_sendto(fd, buf, len, flags, addr, alen);
}

ssize_t write(int fd, const void *buf, size_t len) {
    ssize_t r;
    pthread_once(&once, init);
    if (write_fault(fd, &len, 0, &r))
        return r;
    return real_write(fd, buf, len);
}

/* accept/accept4: -1 with errno if a fault is injected, else 0. */
static int accept_fault(int fd) {
    int e = 0, nonblock;
    if (!is_sock(fd))
        return 0;
    nonblock = is_nonblocking(fd, 0);
    pthread_mutex_lock(&mu);
    if (emfile_left == 0 && chance(rate_emfile)) {
        emfile_left = 1 + (unsigned)(rnd() * emfile_len);
        if (emfile_left > emfile_len)
            emfile_left = emfile_len;
        count(K_EMFILE_WINDOWS);
    }
    if (emfile_left > 0) {
        emfile_left--;
        e = EMFILE;
        count(K_EMFILE);
    } else if (nonblock && chance(rate_eintr)) {
        e = EINTR;
        count(K_EINTR);
    } else if (nonblock && chance(rate_eagain)) {
        e = EAGAIN;
        count(K_EAGAIN);
    }
    pthread_mutex_unlock(&mu);
    return e ? (int)fail(e) : 0;
}

static int accepted(int fd) {
    if (fd >= 0 && fd < FD_TRACK) {
        pthread_mutex_lock(&mu);
        fd_state[fd] = 0;
        pthread_mutex_unlock(&mu);
    }
    return fd;
}

int accept(int fd, __SOCKADDR_ARG addr, socklen_t *restrict alen) {
    pthread_once(&once, init);
    if (accept_fault(fd) < 0)
        return -1;
    return accepted(real_accept(fd, addr, alen));
}

int accept4(int fd, __SOCKADDR_ARG addr, socklen_t *restrict alen, int flags) {
    pthread_once(&once, init);
    if (accept_fault(fd) < 0)
        return -1;
    return accepted(real_accept4(fd, addr, alen, flags));
}

/* An interrupted connect goes on in the background (POSIX): start it,
 * then say EINTR; the caller learns the outcome as for EINPROGRESS. */
int connect(int fd, __CONST_SOCKADDR_ARG addr, socklen_t alen) {
    int r, d = 0;
    pthread_once(&once, init);
    if (fd >= 0 && fd < FD_TRACK) {
        pthread_mutex_lock(&mu);
        fd_state[fd] = 0;
        pthread_mutex_unlock(&mu);
    }
    r = real_connect(fd, addr, alen);
    if ((r == 0 || errno == EINPROGRESS) && is_sock(fd) && is_nonblocking(fd, 0)) {
        pthread_mutex_lock(&mu);
        d = chance(rate_eintr);
        if (d)
            count(K_EINTR);
        pthread_mutex_unlock(&mu);
    }
    return d ? (int)fail(EINTR) : r;
}

/* The state of a descriptor dies with it (its number is reused). */
int close(int fd) {
    pthread_once(&once, init);
    if (fd >= 0 && fd < FD_TRACK) {
        pthread_mutex_lock(&mu);
        fd_state[fd] = 0;
        pthread_mutex_unlock(&mu);
    }
    return real_close(fd);
}
