/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/result.h - what a wait ended with (read with PT_WAIT_RESULT), and
 * the return values of the loop's functions: 0 is success, errors are
 * negative.
 */
#ifndef PT_LOOP_RESULT_H
#define PT_LOOP_RESULT_H

enum {
    PT_OK = 0,
    PT_ETIMEDOUT = -1,  /* the wait's deadline passed first */
    PT_ECANCELLED = -2, /* the awaited task was cancelled */
    PT_EFULL = -3,      /* a bounded structure is full (timers, group) */
    PT_EINVAL = -4,     /* a bad argument, e.g. a descriptor the back end cannot hold */
    PT_EBUSY = -5,      /* already awaited / already in use */
    PT_EBADF = -6,      /* the descriptor was closed while waited on */
    PT_EFAILED = -7,    /* a task of the group failed */
    /* Sockets (loop/net.h): */
    PT_ECLOSED = -8,   /* the peer closed the connection (EOF, EPIPE) */
    PT_ERESET = -9,    /* the peer reset the connection (ECONNRESET) */
    PT_EREFUSED = -10, /* nobody listens there (ECONNREFUSED) */
    PT_EMFILE = -11,   /* out of descriptors (EMFILE, ENFILE, or one the back end cannot hold) */
    PT_ESYS = -12,     /* another system error: the socket's `err` has errno */
    PT_EBROKEN = -13,  /* the barrier was aborted or reset (loop/barrier.h) */
    /* Misuse caught at run time (the task fails with it, or the call
     * returns it; nothing else is lost): */
    PT_ELOST = -14,   /* resumed at a point the body's dispatch no longer holds */
    PT_ERETURN = -15, /* the body left by a plain `return`, not by the macros */
    PT_ECONFIG = -16, /* files of the program built with different options */
    PT_ESTALL = -17   /* virtual clock: only waits the loop cannot see are left */
};

/* Internal: the index of a result in the tables below, or their size for
 * a value that is no result (which then reads the "unknown" entry). */
#define PT__RESULTS 18
static inline int pt__result_index(int result) {
    return result <= 0 && result > -PT__RESULTS ? -result : PT__RESULTS;
}

/* The name of a result's code, "PT_ETIMEDOUT" and so on; "?" for a value
 * that is no result (libuv's uv_err_name). */
static inline const char *pt_err_name(int result) {
    static const char *const names[PT__RESULTS + 1] = {
        "PT_OK",       "PT_ETIMEDOUT", "PT_ECANCELLED", "PT_EFULL",   "PT_EINVAL",
        "PT_EBUSY",    "PT_EBADF",     "PT_EFAILED",    "PT_ECLOSED", "PT_ERESET",
        "PT_EREFUSED", "PT_EMFILE",    "PT_ESYS",       "PT_EBROKEN", "PT_ELOST",
        "PT_ERETURN",  "PT_ECONFIG",   "PT_ESTALL",     "?"};
    return names[pt__result_index(result)];
}

/* What a result means, as a phrase for messages ("timed out"; libuv's
 * uv_strerror); "unknown result" for a value that is no result. (On AVR a
 * string table is copied into RAM: these phrases take about 330 bytes
 * there once used; a board may print pt_err_name or the number instead.) */
static inline const char *pt_err_string(int result) {
    static const char *const phrases[PT__RESULTS + 1] = {
        "success",
        "timed out",
        "cancelled",
        "a bounded structure is full",
        "invalid argument",
        "already in use",
        "descriptor closed while waited on",
        "a task of the group failed",
        "connection closed by the peer",
        "connection reset by the peer",
        "connection refused",
        "out of descriptors",
        "system error (errno in the socket's err)",
        "the barrier was broken",
        "resume point lost (a switch around a wait?)",
        "the body returned without a stop macro",
        "files built with different options",
        "only waits the loop cannot see are left",
        "unknown result"};
    return phrases[pt__result_index(result)];
}

#endif /* PT_LOOP_RESULT_H */
