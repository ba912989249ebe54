/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/cross/ticks_fn.c - durations of run-time values in ticks (loop/
 * ticks.h), each in a function of its own: check.sh compiles it for the
 * small targets at several tick rates and checks with nm that none calls
 * a helper for 64-bit arithmetic (pt_time_t is 32 bits there).
 */
#include "loop/ticks.h"

pt_time_t ticks_of_us(uint32_t us);
pt_time_t ticks_of_ms(uint32_t ms);
pt_time_t ticks_of_sec(uint32_t s);

pt_time_t ticks_of_us(uint32_t us) {
    return PT_US(us);
}

pt_time_t ticks_of_ms(uint32_t ms) {
    return PT_MS(ms);
}

pt_time_t ticks_of_sec(uint32_t s) {
    return PT_SEC(s);
}
