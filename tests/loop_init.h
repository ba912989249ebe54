/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/loop_init.h - how every test initialises its loop: pt_loop_init,
 * then, where there is a readiness back end, a table for the descriptors
 * below TEST_IO_FDS (as many as select() holds, so that every back end
 * refuses the same descriptors). A loop initialised again first gives back
 * what the last initialisation took (epoll's descriptor), so that a case
 * leaves no descriptor open.
 */
#ifndef TESTS_LOOP_INIT_H
#define TESTS_LOOP_INIT_H

#if PT_CONFIG_IO
#include <sys/select.h>
#define TEST_IO_FDS FD_SETSIZE
static union pt_io_slot test_io_slots[PT_IO_SLOTS(TEST_IO_FDS)];
#endif
static struct pt_loop *test_loop_open; /* the loop initialised last */

static inline int test_loop_init(struct pt_loop *l, struct pt_timer_slot *heap, size_t cap) {
    int rc;
    if (test_loop_open)
        pt_loop_close(test_loop_open);
    rc = pt_loop_init(l, heap, cap);
    test_loop_open = l;
#if PT_CONFIG_IO
    (void)pt_loop_io_table(l, test_io_slots, sizeof test_io_slots / sizeof test_io_slots[0]);
#endif
    return rc;
}

/* Give back what the last test_loop_init took. */
static inline void test_loop_close(void) {
    if (test_loop_open)
        pt_loop_close(test_loop_open);
    test_loop_open = NULL;
}

#endif /* TESTS_LOOP_INIT_H */
