/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * pt/compat/lc.h - 1.4's local-continuation names over pt/lc.h. As in 1.4,
 * defining LC_INCLUDE as "lc-addrlabels.h" selects labels-as-values (the
 * later uIP/Contiki spelling, LC_CONF_INCLUDE, works too).
 */
#ifndef PT_COMPAT_LC_H
#define PT_COMPAT_LC_H

#if defined(LC_INCLUDE)
#include LC_INCLUDE
#elif defined(LC_CONF_INCLUDE)
#include LC_CONF_INCLUDE
#else
#include "lc-switch.h"
#endif

typedef pt_lc_t lc_t;
#define LC_INIT(s) PT_LC_INIT(s);
#define LC_SET(s) PT_LC_SET(s)
#define LC_END(s) PT_LC_END(s)
#define LC_RESUME(s) PT_LC_RESUME(s)

#endif /* PT_COMPAT_LC_H */
