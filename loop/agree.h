/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * loop/agree.h - what the files of one program must agree on.
 *
 * Every function of the library is static inline, so each file compiles its
 * own copy with its own options, and files meet only in the structures they
 * share: a struct pt_loop that one file initialises and another runs, tasks
 * that one file spawns on a loop that another drives. Options that change
 * those structures, or what the code that walks them expects of them, must
 * be the same in every file (loop/config.h). Nothing at link time can say so
 * for functions that are never linked, so the loop says it at run time:
 * pt_loop_init records this file's options in the loop, and the calls that
 * a second file makes first on a loop (pt_loop_spawn, pt_loop_spawn_background and the
 * pt_loop_run* calls) compare them with their own. On a difference they do
 * nothing and return PT_ECONFIG (pt_loop_run_until: 0), and
 * pt_loop_config_mismatch names the option. A loop that was never
 * initialised (zeroed memory) is refused the same way.
 */
#ifndef PT_LOOP_AGREE_H
#define PT_LOOP_AGREE_H

#include <stdint.h>

#include "types.h"

/* One bit or field per option that changes a shared structure or how the
 * core reads one; bit 15 is always set, so that zeroed memory never
 * matches. */
#define PT__AGREE_DEBUG ((uint32_t)(PT_CONFIG_DEBUG != 0) << 0)
#define PT__AGREE_BACKEND ((uint32_t)(PT_CONFIG_BACKEND & 3) << 1)
#define PT__AGREE_TIMERS ((uint32_t)(PT_CONFIG_TIMERS == PT_TIMERS_HEAP) << 3)
#define PT__AGREE_SYNC ((uint32_t)(PT_CONFIG_SYNC != 0) << 4)
#define PT__AGREE_GROUPS ((uint32_t)(PT_CONFIG_GROUPS != 0) << 5)
#define PT__AGREE_BACKGROUND ((uint32_t)(PT_CONFIG_BACKGROUND != 0) << 6)
#define PT__AGREE_CALLBACKS ((uint32_t)(PT_CONFIG_CALLBACKS != 0) << 7)
#define PT__AGREE_WIDE ((uint32_t)(PT_CONFIG_WIDE != 0) << 8)
#if defined(PT_CONFIG_LC_ADDRLABELS) && PT_CONFIG_LC_ADDRLABELS
#define PT__AGREE_LC ((uint32_t)1 << 9)
#else
#define PT__AGREE_LC ((uint32_t)0)
#endif
#define PT__AGREE_TIME64 ((uint32_t)(PT_CONFIG_TIME_BITS == 64) << 10)
#define PT__AGREE_AUX32 ((uint32_t)(PT_CONFIG_GEN_AUX32 != 0) << 11)
#define PT__AGREE_LAZY ((uint32_t)(PT_CONFIG_LAZY_CLOCK != 0) << 12)
#define PT__AGREE_SET ((uint32_t)1 << 15)
/* The rest, in the upper half: the tick and the sizes of the two shared
 * structures, which also catch an option that the bits above miss (the
 * epoll back end's PT_CONFIG_EPOLL_BATCH, for one). */
#define PT__AGREE_SIZES                                                                            \
    ((uint32_t)((PT_CONFIG_TICKS_PER_SEC + sizeof(struct pt_task) * 64u +                          \
                 sizeof(struct pt_loop)) &                                                         \
                0xFFFFu)                                                                           \
     << 16)

/* This file's options, as pt_loop_init records them. */
#define PT__AGREE                                                                                  \
    (PT__AGREE_DEBUG | PT__AGREE_BACKEND | PT__AGREE_TIMERS | PT__AGREE_SYNC | PT__AGREE_GROUPS |  \
     PT__AGREE_BACKGROUND | PT__AGREE_CALLBACKS | PT__AGREE_WIDE | PT__AGREE_LC |                  \
     PT__AGREE_TIME64 | PT__AGREE_AUX32 | PT__AGREE_LAZY | PT__AGREE_SET | PT__AGREE_SIZES)

/* Nonzero if l was initialised by a file built with this file's options. */
static inline int pt__agrees(const struct pt_loop *l) {
    return l->agree == PT__AGREE;
}

/*
 * const char *pt_loop_config_mismatch(const struct pt_loop *l)
 * NULL if l was initialised (pt_loop_init) by a file built with the same
 * options as the file calling this; otherwise the first option that
 * differs, by its macro's name ("PT_CONFIG_DEBUG", "PT_CONFIG_BACKEND", ...), or
 * "pt_loop_init" if l was never initialised. For the message of a program
 * that got PT_ECONFIG.
 */
static inline const char *pt_loop_config_mismatch(const struct pt_loop *l) {
    static const struct {
        uint32_t bits;
        const char *name;
    } options[] = {
        {PT__AGREE_SET, "pt_loop_init"},
        {(uint32_t)1 << 0, "PT_CONFIG_DEBUG"},
        {(uint32_t)3 << 1, "PT_CONFIG_BACKEND"},
        {(uint32_t)1 << 3, "PT_CONFIG_TIMERS"},
        {(uint32_t)1 << 4, "PT_CONFIG_SYNC"},
        {(uint32_t)1 << 5, "PT_CONFIG_GROUPS"},
        {(uint32_t)1 << 6, "PT_CONFIG_BACKGROUND"},
        {(uint32_t)1 << 7, "PT_CONFIG_CALLBACKS"},
        {(uint32_t)1 << 8, "PT_CONFIG_WIDE"},
        {(uint32_t)1 << 9, "PT_CONFIG_LC_ADDRLABELS"},
        {(uint32_t)1 << 10, "PT_CONFIG_TIME_BITS"},
        {(uint32_t)1 << 11, "PT_CONFIG_GEN_AUX32"},
        {(uint32_t)1 << 12, "PT_CONFIG_LAZY_CLOCK"},
        {(uint32_t)0xFFFFu << 16, "PT_CONFIG_TICKS_PER_SEC, PT_CONFIG_EPOLL_BATCH or another "
                                  "option that changes struct pt_loop"},
    };
    uint32_t differ = l->agree ^ PT__AGREE;
    size_t i;
    if (!differ)
        return NULL;
    for (i = 0; i < sizeof options / sizeof options[0]; i++)
        if (differ & options[i].bits)
            return options[i].name;
    return "?"; /* (not reached: every bit is in the table) */
}

#endif /* PT_LOOP_AGREE_H */
