/*
 * loop/backend/poll.h - the poll() back end (POSIX). See loop/backend.h.
 *
 * No FD_SETSIZE: descriptors 0..n-1 can be waited on, where n is the size
 * of a table the caller owns (pt_loop_io_table); a descriptor beyond it is
 * refused with PT_EINVAL, and without a table every wait is. The table's
 * PT_IO_SLOTS(n) cells hold, in four runs of n:
 *   pfd[0..count-1]  the pollfd array handed to poll(), one entry per
 *                    descriptor waited on (reading and writing share it);
 *   at[fd]           fd's entry + 1, or 0;
 *   rd[fd], wr[fd]   the wait for reading / writing fd, or NULL.
 * Starting or dropping a wait is O(1) (a dropped entry is replaced by the
 * last one); a poll costs in proportion to the descriptors waited on. The
 * timeout is in whole milliseconds, rounded up: a sleep may end up to 1 ms
 * late, never early. A descriptor closed while waited on ends its waits
 * with PT_EBADF (POLLNVAL).
 */
#ifndef PT_LOOP_BACKEND_POLL_H
#define PT_LOOP_BACKEND_POLL_H

#if !PT_POSIX
#error "PT_BACKEND_POLL needs a POSIX host (loop/config.h)"
#endif

#include <errno.h>
#include <poll.h>

/* A cell is the size of a struct pollfd, so that the first run of cells is
 * an array of them (checked below). */
union pt_io_slot {
    struct pollfd pfd;
    struct pt_io *io;
    size_t at;
};
typedef char pt__poll_cell_check[sizeof(union pt_io_slot) == sizeof(struct pollfd) ? 1 : -1];
#define PT_IO_SLOTS(n) (4u * (size_t)(n))

struct pt__backend {
    union pt_io_slot *cells;
    size_t cap;     /* descriptors the table holds */
    size_t count;   /* pollfd entries in use */
    unsigned waits; /* waits registered */
};

#define PT__POLL_PFD(b, k) ((b)->cells[(k)].pfd)
#define PT__POLL_AT(b, fd) ((b)->cells[(b)->cap + (size_t)(fd)].at)
#define PT__POLL_RD(b, fd) ((b)->cells[2u * (b)->cap + (size_t)(fd)].io)
#define PT__POLL_WR(b, fd) ((b)->cells[3u * (b)->cap + (size_t)(fd)].io)

static inline int pt__backend_init(struct pt__backend *b) {
    b->cells = NULL;
    b->cap = b->count = 0;
    b->waits = 0;
    return PT_OK;
}

static inline void pt__backend_close(struct pt__backend *b) {
    (void)b;
}

static inline int pt__backend_table(struct pt__backend *b, union pt_io_slot *s, size_t n) {
    size_t fd;
    if (b->waits)
        return PT_EBUSY;
    b->cells = s;
    b->cap = n / 4u;
    b->count = 0;
    for (fd = 0; fd < b->cap; fd++) {
        PT__POLL_AT(b, fd) = 0;
        PT__POLL_RD(b, fd) = PT__POLL_WR(b, fd) = NULL;
    }
    return PT_OK;
}

static inline unsigned pt__backend_waits(const struct pt__backend *b) {
    return b->waits;
}

static inline int pt__backend_holds(const struct pt__backend *b, int fd) {
    return fd >= 0 && (size_t)fd < b->cap;
}

static inline int pt__backend_watch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd;
    size_t k;
    if (fd < 0 || (size_t)fd >= b->cap)
        return PT_EINVAL;
    if (((io->events & PT_READABLE) && PT__POLL_RD(b, fd)) ||
        ((io->events & PT_WRITABLE) && PT__POLL_WR(b, fd)))
        return PT_EBUSY;
    k = PT__POLL_AT(b, fd);
    if (k == 0) {
        k = ++b->count;
        PT__POLL_AT(b, fd) = k;
        PT__POLL_PFD(b, k - 1).fd = fd;
        PT__POLL_PFD(b, k - 1).events = 0;
        PT__POLL_PFD(b, k - 1).revents = 0;
    }
    if (io->events & PT_READABLE) {
        PT__POLL_RD(b, fd) = io;
        PT__POLL_PFD(b, k - 1).events |= POLLIN;
    }
    if (io->events & PT_WRITABLE) {
        PT__POLL_WR(b, fd) = io;
        PT__POLL_PFD(b, k - 1).events |= POLLOUT;
    }
    b->waits++;
    return PT_OK;
}

static inline void pt__backend_unwatch(struct pt__backend *b, struct pt_io *io) {
    int fd = io->fd;
    size_t k = PT__POLL_AT(b, fd), last;
    struct pollfd *p = &PT__POLL_PFD(b, k - 1);
    if ((io->events & PT_READABLE) && PT__POLL_RD(b, fd) == io) {
        PT__POLL_RD(b, fd) = NULL;
        p->events &= (short)~POLLIN;
    }
    if ((io->events & PT_WRITABLE) && PT__POLL_WR(b, fd) == io) {
        PT__POLL_WR(b, fd) = NULL;
        p->events &= (short)~POLLOUT;
    }
    b->waits--;
    if (p->events)
        return;
    /* No wait left on fd: the last entry takes its place. */
    PT__POLL_AT(b, fd) = 0;
    last = --b->count;
    if (k - 1 != last) {
        *p = PT__POLL_PFD(b, last);
        PT__POLL_AT(b, p->fd) = k;
    }
}

/* End fd's waits: the reader's if `rmask` is in re, the writer's if
 * `wmask` is; with `result`. How many ended. */
static inline int pt__poll_end(struct pt_loop *l, struct pt__backend *b, int fd, int re,
                               int result) {
    struct pt_io *r = PT__POLL_RD(b, fd), *w = PT__POLL_WR(b, fd);
    int woke = 0;
    if (r && (re & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
        r->revents |= result == PT_OK ? PT_READABLE : 0;
        pt__io_ready(l, r, result);
        woke++;
    }
    if (w && (re & (POLLOUT | POLLHUP | POLLERR | POLLNVAL))) {
        w->revents |= result == PT_OK ? PT_WRITABLE : 0;
        if (w != r) {
            pt__io_ready(l, w, result);
            woke++;
        }
    }
    return woke;
}

static inline void pt__backend_forget(struct pt_loop *l, struct pt__backend *b, int fd) {
    if (fd >= 0 && (size_t)fd < b->cap && PT__POLL_AT(b, fd))
        (void)pt__poll_end(l, b, fd, POLLNVAL, PT_EBADF);
}

static inline int pt__backend_poll(struct pt_loop *l, struct pt__backend *b, pt_time_t now,
                                   pt_time_t timeout) {
    int n, woke = 0;
    size_t k;
    for (;;) { /* EINTR: again, with the time that is left */
        n = poll(b->count ? &PT__POLL_PFD(b, 0) : NULL, (nfds_t)b->count,
                 pt__wait_ms(now, timeout));
        if (n >= 0)
            break;
        if (errno != EINTR)
            return 0; /* ENOMEM and the like: try again next iteration */
    }
    /* A woken wait may take its entry out, the last entry moving into its
     * place: then look at the same place again (the last entry was not
     * seen yet, and its revents are from this poll). */
    for (k = 0; k < b->count && n > 0;) {
        struct pollfd *p = &PT__POLL_PFD(b, k);
        int fd = p->fd, re = p->revents;
        if (!re) {
            k++;
            continue;
        }
        p->revents = 0;
        n--;
        woke += pt__poll_end(l, b, fd, re, (re & POLLNVAL) ? PT_EBADF : PT_OK);
        if (k < b->count && PT__POLL_PFD(b, k).fd == fd)
            k++;
    }
    return woke;
}

#endif /* PT_LOOP_BACKEND_POLL_H */
