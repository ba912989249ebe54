/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt/compat/lc-switch.h - 1.4's switch back end: pt/lc.h's default. */
#ifndef PT_COMPAT_LC_SWITCH_H
#define PT_COMPAT_LC_SWITCH_H
#include "../lc.h"
#endif
