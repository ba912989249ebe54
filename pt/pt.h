/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/pt.h - the whole coroutine core: include this one.
 *
 *   pt/lc.h      local continuations (the resume point; back-end choice)
 *   pt/thread.h  protothreads: PT_BEGIN, PT_YIELD, PT_WAIT_UNTIL, ...
 *   pt/sem.h     counting semaphores
 *   pt/gen.h     generators: values in and out, await, close and cleanup
 *   pt/version.h PT_VERSION_MAJOR, _MINOR, _PATCH, _STRING
 *
 * Header-only and freestanding: nothing but <stdint.h>, no allocation, no
 * C library calls. Configuration macros: see pt/lc.h.
 */
#ifndef PT_PT_H
#define PT_PT_H

#include "gen.h"
#include "sem.h"
#include "thread.h"
#include "version.h"

#endif /* PT_PT_H */
