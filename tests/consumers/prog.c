/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/consumers/prog.c - the tiny program tests/consumers/check.sh builds
 * against the headers used each way (copied tree, meson subproject,
 * installed + pkg-config, CMake). It includes the library the documented
 * way and checks a protothread and a generator; prints a line (with
 * PT_VERSION_STRING: pt/version.h came along), returns 0 if right.
 */
#include "pt/pt.h"

#include <stdio.h>

struct ticker {
    struct pt pt;
    int n;
};

static PT_THREAD(tick(struct ticker *t)) {
    PT_BEGIN(&t->pt);
    for (t->n = 0; t->n < 3; t->n++)
        PT_YIELD(&t->pt);
    PT_END(&t->pt);
}

struct counter {
    struct pt_gen g;
    intptr_t i;
};

static PT_THREAD(count_to(struct counter *c, intptr_t n)) {
    PT_GEN_BEGIN(&c->g);
    for (c->i = 0; c->i < n; c->i++)
        PT_YIELD_VALUE(&c->g, pt_value_int(c->i));
    PT_RETURN(&c->g, pt_value_int(n));
    PT_GEN_END(&c->g);
}

int main(void) {
    struct ticker t;
    struct counter c;
    int yields = 0;
    intptr_t sum = 0;
    char st;

    PT_INIT(&t.pt);
    while (PT_SCHEDULE(tick(&t)))
        yields++;

    pt_gen_init(&c.g);
    while ((st = pt_gen_next(&c.g, count_to(&c, 4))) == PT_YIELDED)
        sum += c.g.value.i;

    printf("ptloop %s consumer: %d yields, sum %ld, result %ld\n", PT_VERSION_STRING, yields,
           (long)sum, (long)c.g.value.i);
    return yields == 3 && sum == 6 && st == PT_ENDED && c.g.value.i == 4 ? 0 : 1;
}
