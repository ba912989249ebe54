/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/net.h - awaitable stream sockets on the readiness check (POSIX hosts,
 * PT_CONFIG_IO): TCP over IPv4 and IPv6, and Unix-domain stream sockets.
 *
 * A struct pt_sock is a non-blocking descriptor plus the state of an
 * operation in progress in each direction: one task may read (or accept)
 * while another writes (or connects), full duplex, each operation with its
 * own deadline and cancel. The operations are macros used inside a task or
 * PT_SUB body, like PT_SLEEP; each ends with a result in PT_WAIT_RESULT()
 * and a byte count in its direction's `done`: s->rd.done for a read,
 * s->wr.done for a write. One operation per direction at a time: a second
 * task reading (or writing) the same socket meanwhile is a programming
 * error, as two readers of one stream are in asyncio. A struct pt_sock is
 * not copied while an operation is in progress (the loop holds pointers
 * into it); between operations it may be.
 *
 *   void PT_SOCK_CONNECT(struct pt_sock *s, const struct pt_addr *addr,
 *                       pt_time_t timeout)     open s and connect it
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EREFUSED | PT_EMFILE | PT_EBUSY
 *        | PT_EINVAL | PT_EFULL | PT_ESYS
 *   void PT_SOCK_ACCEPT(struct pt_sock *listener, struct pt_sock *s,
 *                      pt_time_t timeout)      accept one connection into s
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_EMFILE | PT_EBUSY | PT_EINVAL | PT_EFULL
 *        | PT_ESYS
 *   void PT_SOCK_READ(struct pt_sock *s, void *buf, size_t cap,
 *                    pt_time_t timeout)        read what is there (1..cap)
 *   void PT_SOCK_READ_EXACTLY(struct pt_sock *s, void *buf, size_t n,
 *                          pt_time_t timeout)  read exactly n bytes
 *   void PT_SOCK_READ_UNTIL(struct pt_sock *s, void *buf, size_t cap, int c,
 *                          pt_time_t timeout)  read up to and with byte c
 *   void PT_SOCK_WRITE(struct pt_sock *s, const void *buf, size_t n,
 *                     pt_time_t timeout)       write all n bytes
 *     then PT_WAIT_RESULT() -> PT_OK | PT_ETIMEDOUT | PT_ECLOSED | PT_ERESET | PT_EINVAL | PT_EFULL
 *        | PT_ESYS (READ_UNTIL also PT_EFULL: cap bytes, no delimiter)
 *
 * The size argument is read once, when the operation starts (so it may be
 * s->rd.done of the last read). The others are evaluated again after every
 * wait, so, as for every wait, they must not be locals of the body: use
 * the task's own struct.
 * `timeout` (ticks; PT_FOREVER for none) bounds the whole operation, not
 * each wait. Results, as values (never a signal, never a crash):
 *
 *   PT_OK          done
 *   PT_ETIMEDOUT   the timeout passed first (`done` says how far it got)
 *   PT_ECLOSED     the peer closed: end of file before the bytes asked
 *                  for, or a write on a connection that is gone or was
 *                  shut down here (EPIPE)
 *   PT_ERESET      the peer reset the connection
 *   PT_EREFUSED    connect: nobody listens at that address
 *   PT_EMFILE      out of descriptors, or a descriptor the loop cannot wait on
 *   PT_EFULL       READ_UNTIL: cap bytes and no delimiter; the timers were
 *                  full (a wait with a timeout)
 *   PT_EBUSY       connect or accept into a socket that is open
 *   PT_EINVAL      a socket that is not open, a bad address
 *   PT_ESYS        another error; s->err holds errno (e.g. EAGAIN for a
 *                  Unix-domain listener whose backlog is full: Linux
 *                  refuses at once rather than letting the connect wait)
 *
 * Writes never raise SIGPIPE (MSG_NOSIGNAL, or SO_NOSIGPIPE where that is
 * what the system has). Nothing allocates: buffers belong to the caller.
 *
 * Fairness: an operation that finds data (or room) at every call could keep
 * its task running, and the loop from everything else, for as long as a
 * busy peer keeps the connection full. After PT_CONFIG_SOCK_BUDGET system calls
 * in a row that moved bytes without waiting (and, for a buffered reader,
 * reads it served from its buffer), a direction goes once around the loop
 * (as a zero sleep) before its next call: one busy connection costs the
 * others at most one budget of work per iteration.
 *
 * Cancelling a task inside any of these removes its descriptor wait and
 * timer at once (pt_task_cancel) and leaves the socket open, as it was: `done`
 * says how many bytes the cancelled operation had moved (and the other
 * direction's operation goes on), and for a connect
 * the descriptor exists with the connection perhaps still in progress. The
 * task's PT_TASK_CLEANUP section decides: usually pt_sock_close(s).
 * After a timeout the socket stays open too, except for a connect, which is
 * abandoned and closed (as for any failed connect).
 *
 * The parts, by job: loop/net/addr.h (addresses), loop/net/sock.h (the
 * socket, opening and closing it, connect and accept, the wait between
 * system calls), loop/net/read_write.h (reads and writes).
 */
#ifndef PT_LOOP_NET_H
#define PT_LOOP_NET_H

#include "net/addr.h"
#include "net/read_write.h"
#include "net/sock.h"

#endif /* PT_LOOP_NET_H */
