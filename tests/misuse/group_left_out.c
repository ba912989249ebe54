/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * Misuse: task groups with PT_CONFIG_GROUPS 0. The core then never tells a
 * group that a member finished, so loop/group.h refuses to compile.
 * Correct form: PT_CONFIG_GROUPS left at its default, 1.
 *
 * misuse-expect: need PT_CONFIG_GROUPS 1
 */
#define _POSIX_C_SOURCE 200809L
#ifdef PT_MISUSE
#define PT_CONFIG_GROUPS 0
#endif
#include "loop/group.h"

int main(void) {
    struct pt_task *members[2];
    struct pt_group g;
    pt_group_init(&g, members, 2, PT_GROUP_COLLECT);
    return 0;
}
