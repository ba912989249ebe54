/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/debug/other_file.h - sync objects initialised in another file
 * (other_file.c) than the one that walks their waiters (test_debug.c).
 */
#ifndef TESTS_DEBUG_OTHER_FILE_H
#define TESTS_DEBUG_OTHER_FILE_H

#include "loop/loop.h"

#if PT_CONFIG_SYNC
/* pt_event_init, pt_semaphore_init(sem, 0), pt_lock_init and
 * pt_queue_init(q, slot, 1), each called in other_file.c. */
void other_file_init(struct pt_event *ev, struct pt_semaphore *sem, struct pt_lock *lock,
                     struct pt_queue *q, pt_value *slot);
#endif

#endif
