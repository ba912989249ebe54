/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt/compat/lc-addrlabels.h - 1.4's labels-as-values back end. */
#ifndef PT_COMPAT_LC_ADDRLABELS_H
#define PT_COMPAT_LC_ADDRLABELS_H
#ifndef PT_CONFIG_LC_ADDRLABELS
#define PT_CONFIG_LC_ADDRLABELS 1
#endif
#include "../lc.h"
#endif
