/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/debug/other_file.c - initialises sync objects in a file of its own:
 * a header's static functions have a copy in each file, so what the walk
 * says of an object must not come from comparing with test_debug.c's
 * copies (test_debug.c: walk_names_sync_objects_initialised_in_another_file).
 */
#include "other_file.h"

#if PT_CONFIG_SYNC
void other_file_init(struct pt_event *ev, struct pt_semaphore *sem, struct pt_lock *lock,
                     struct pt_queue *q, pt_value *slot) {
    pt_event_init(ev);
    pt_semaphore_init(sem, 0);
    pt_lock_init(lock);
    pt_queue_init(q, slot, 1);
}
#else
typedef int other_file_unused; /* (ISO C: a file declares something) */
#endif
