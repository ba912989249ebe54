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
    PT_EBROKEN = -13   /* the barrier was aborted or reset (loop/barrier.h) */
};

/* A short name for a result, for messages: "PT_ETIMEDOUT" and so on. */
static inline const char *pt_strerror(int result) {
    static const char *const names[] = {"PT_OK",      "PT_ETIMEDOUT", "PT_ECANCELLED", "PT_EFULL",
                                        "PT_EINVAL",  "PT_EBUSY",     "PT_EBADF",      "PT_EFAILED",
                                        "PT_ECLOSED", "PT_ERESET",    "PT_EREFUSED",   "PT_EMFILE",
                                        "PT_ESYS",    "PT_EBROKEN"};
    return result <= 0 && -result < (int)(sizeof names / sizeof names[0]) ? names[-result] : "?";
}

#endif /* PT_LOOP_RESULT_H */
