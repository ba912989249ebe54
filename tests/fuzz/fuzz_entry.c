/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fuzz_entry.c - the differential fuzzer under libFuzzer: each
 * input is a program in the byte format of fz_decode (fz_prog.h), run
 * through the loop and the model; a divergence or a broken invariant
 * prints the story and aborts, which libFuzzer reports with the input.
 */
#include <stdlib.h>

#include "fz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static struct fz_prog pr;
    fz_decode(&pr, data, size);
    if (fz_check(&pr, stderr, "libFuzzer input", 0))
        abort();
    return 0;
}
