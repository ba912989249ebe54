/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * cross/size/sizes.c - the sizes of the state structs, read without
 * running anything: each is the size of an initialised global (so it lands
 * in .data, never in a common block), which cross/size_report.py reads with
 * <target>-nm -S.
 */
#define PT_CONFIG_PORT_VIRTUAL 1 /* a board's clock is its port's (loop/port/) */
#ifndef PT_CONFIG_STALL_CHECK
#define PT_CONFIG_STALL_CHECK 0 /* (as on a board with a clock: loop_core.c's) */
#endif
#include "loop/core.h"
#if PT_CONFIG_SYNC
#include "loop/barrier.h"
#include "loop/lock.h"
#endif
#if PT_CONFIG_GROUPS
#include "loop/group.h"
#endif
#if PT_CONFIG_CALLBACKS
#include "loop/timeout.h"
#endif

char size_pt[sizeof(struct pt)] = {1};
char size_pt_gen[sizeof(struct pt_gen)] = {1};
char size_pt_sem[sizeof(struct pt_sem)] = {1};
char size_task[sizeof(struct pt_task)] = {1};
char size_loop[sizeof(struct pt_loop)] = {1};
#if PT_CONFIG_CALLBACKS
char size_handle[sizeof(struct pt_handle)] = {1};
char size_timeout[sizeof(struct pt_timeout)] = {1};
#endif
#if PT_CONFIG_SYNC
char size_event[sizeof(struct pt_event)] = {1};
char size_loop_sem[sizeof(struct pt_semaphore)] = {1};
char size_lock[sizeof(struct pt_lock)] = {1};
char size_cond[sizeof(struct pt_cond)] = {1};
char size_barrier[sizeof(struct pt_barrier)] = {1};
char size_queue[sizeof(struct pt_queue)] = {1};
#endif
#if PT_CONFIG_GROUPS
char size_group[sizeof(struct pt_group)] = {1};
#endif
/* A timer is one slot of the caller's heap array. */
char size_timer[sizeof(struct pt_timer_slot)] = {1};
