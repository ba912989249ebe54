/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: the sync objects with PT_CONFIG_SYNC 0. A core built without them
 * cannot take a task off a semaphore's list, so loop/sync.h refuses to
 * compile rather than leave a waiter linked in a list the core forgot.
 * Correct form: PT_CONFIG_SYNC left at its default, 1.
 *
 * misuse-expect: need PT_CONFIG_SYNC 1
 */
#define _POSIX_C_SOURCE 200809L
#ifdef PT_MISUSE
#define PT_CONFIG_SYNC 0
#endif
#include "loop/sync.h"

int main(void) {
    struct pt_semaphore sem;
    pt_semaphore_init(&sem, 1);
    return 0;
}
