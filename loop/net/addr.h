/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/net/addr.h - the addresses of the sockets of loop/net.h: IPv4,
 * IPv6 and Unix-domain, made from text and written as text.
 */
#ifndef PT_LOOP_NET_ADDR_H
#define PT_LOOP_NET_ADDR_H

#include "../config.h"
#include "../result.h"

#if PT_CONFIG_IO

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>

/* An address of any family the sockets here speak. */
struct pt_addr {
    union {
        struct sockaddr sa;
        struct sockaddr_in in;
        struct sockaddr_in6 in6;
        struct sockaddr_un un;
    } u;
    socklen_t len;
};

/* ---- addresses ----------------------------------------------------------- */

/* An IPv4 ("127.0.0.1") or IPv6 ("::1") address and port. PT_EINVAL if ip
 * is neither. */
static inline int pt_addr_ip(struct pt_addr *a, const char *ip, unsigned port) {
    memset(a, 0, sizeof *a);
    if (inet_pton(AF_INET, ip, &a->u.in.sin_addr) == 1) {
        a->u.in.sin_family = AF_INET;
        a->u.in.sin_port = htons((uint16_t)port);
        a->len = (socklen_t)sizeof a->u.in;
    } else if (inet_pton(AF_INET6, ip, &a->u.in6.sin6_addr) == 1) {
        a->u.in6.sin6_family = AF_INET6;
        a->u.in6.sin6_port = htons((uint16_t)port);
        a->len = (socklen_t)sizeof a->u.in6;
    } else {
        return PT_EINVAL;
    }
    return port > 0xFFFFu ? PT_EINVAL : PT_OK;
}

/* A Unix-domain socket path. PT_EINVAL if it does not fit sun_path. */
static inline int pt_addr_unix(struct pt_addr *a, const char *path) {
    size_t n = strlen(path);
    memset(a, 0, sizeof *a);
    if (n == 0 || n >= sizeof a->u.un.sun_path)
        return PT_EINVAL;
    a->u.un.sun_family = AF_UNIX;
    memcpy(a->u.un.sun_path, path, n + 1);
    a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
    return PT_OK;
}

/* The port of an IP address (0 for other families). */
static inline unsigned pt_addr_port(const struct pt_addr *a) {
    if (a->u.sa.sa_family == AF_INET)
        return ntohs(a->u.in.sin_port);
    if (a->u.sa.sa_family == AF_INET6)
        return ntohs(a->u.in6.sin6_port);
    return 0;
}

/* "127.0.0.1:3000", "[::1]:3000" or the path, into buf (always
 * terminated). */
static inline const char *pt_addr_format(const struct pt_addr *a, char *buf, size_t cap) {
    char ip[INET6_ADDRSTRLEN];
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    if (a->u.sa.sa_family == AF_INET && inet_ntop(AF_INET, &a->u.in.sin_addr, ip, sizeof ip))
        (void)snprintf(buf, cap, "%s:%u", ip, pt_addr_port(a));
    else if (a->u.sa.sa_family == AF_INET6 &&
             inet_ntop(AF_INET6, &a->u.in6.sin6_addr, ip, sizeof ip))
        (void)snprintf(buf, cap, "[%s]:%u", ip, pt_addr_port(a));
    else if (a->u.sa.sa_family == AF_UNIX) { /* (truncated to fit, as snprintf would) */
        size_t n = strnlen(a->u.un.sun_path, sizeof a->u.un.sun_path);
        n = n < cap ? n : cap - 1;
        memcpy(buf, a->u.un.sun_path, n);
        buf[n] = '\0';
    }
    return buf;
}

#endif /* PT_CONFIG_IO */
#endif /* PT_LOOP_NET_ADDR_H */
