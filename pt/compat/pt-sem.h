/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/* pt/compat/pt-sem.h - drop-in for protothreads 1.4's "pt-sem.h". */
#ifndef PT_COMPAT_PT_SEM_H
#define PT_COMPAT_PT_SEM_H

#include "pt.h"

#include "../sem.h"

#endif /* PT_COMPAT_PT_SEM_H */
