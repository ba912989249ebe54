/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * demos/generators.c - the generator programs of "Part 1" (docs/demos.md, "The
 * articles"), in C: a producer yielding words, a consumer receiving a sent
 * value, and a coroutine that prints idx=0..2 as it is resumed and then
 * returns a string (once as a plain generator, once awaiting a one-yield
 * helper, the way the article's async version awaits _async_yield).
 *
 * tests/meson.build runs this program with every back end and compares its
 * output byte for byte with tests/expected/generators.txt.
 *
 * It takes no options. On a POSIX host --help (-h) says so and any other
 * argument is refused (exit 2); on a board, where it also runs, main has
 * no arguments.
 */
#include <stdio.h>
#include <string.h>

#include "pt/pt.h"

/* def producer(): yield "my"; yield "name"; yield "is"; yield "dean" */
static PT_THREAD(producer(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, pt_value_str("my"));
    PT_YIELD_VALUE(g, pt_value_str("name"));
    PT_YIELD_VALUE(g, pt_value_str("is"));
    PT_YIELD_VALUE(g, pt_value_str("dean"));
    PT_GEN_END(g);
}

/* def consumer(): val = yield; print(val) */
static PT_THREAD(consumer(struct pt_gen *g)) {
    PT_GEN_BEGIN(g);
    PT_YIELD(g);
    printf("%s\n", g->value.s);
    PT_GEN_END(g);
}

/* The idx loop needs a counter that survives yields: it lives here. */
struct sleepy {
    struct pt_gen gen;
    int idx;
    struct pt_gen child; /* the awaited one-yield helper (async version) */
};

static const char *const my_name = "मेरा नाम डीन है";

/* def sleepy_boi(): for idx in range(3): print(idx); yield; return "..." */
static PT_THREAD(sleepy_boi(struct sleepy *s)) {
    struct pt_gen *g = &s->gen;
    PT_GEN_BEGIN(g);
    for (s->idx = 0; s->idx < 3; s->idx++) {
        printf("idx=%d\n", s->idx);
        PT_YIELD(g);
    }
    PT_RETURN(g, pt_value_str(my_name));
    PT_GEN_END(g);
}

/* def _async_yield(obj): return (yield obj) */
static PT_THREAD(async_yield(struct pt_gen *g, pt_value obj)) {
    PT_GEN_BEGIN(g);
    PT_YIELD_VALUE(g, obj);
    PT_RETURN(g, g->value);
    PT_GEN_END(g);
}

/* async def sleepy_boi_async(): ... await _async_yield(None) ... */
static PT_THREAD(sleepy_boi_async(struct sleepy *s)) {
    struct pt_gen *g = &s->gen;
    PT_GEN_BEGIN(g);
    for (s->idx = 0; s->idx < 3; s->idx++) {
        printf("idx=%d\n", s->idx);
        PT_AWAIT(g, &s->child, async_yield(&s->child, PT_NONE));
    }
    PT_RETURN(g, pt_value_str(my_name));
    PT_GEN_END(g);
}

/* while True: print("sending..."); coro.send(None) until StopIteration */
static void drive(struct sleepy *s, char (*coro)(struct sleepy *)) {
    pt_gen_init(&s->gen);
    for (;;) {
        printf("sending value to coroutine/generator\n");
        if (pt_gen_send(&s->gen, PT_NONE, coro(s)) == PT_ENDED) {
            printf("%s\n", s->gen.value.s);
            break;
        }
    }
}

#if defined(__unix__) || defined(__APPLE__)
#define GEN_ARGS 1
#else
#define GEN_ARGS 0
#endif

#if GEN_ARGS
int main(int argc, char **argv) {
#else
int main(void) {
#endif
    struct pt_gen g;
    struct sleepy s;
    const char *sep = "";

#if GEN_ARGS
    if (argc > 1) {
        int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        if (!help)
            fprintf(stderr, "generators: unexpected argument %s\n", argv[1]);
        fprintf(help ? stdout : stderr, "usage: generators [--help]\n");
        if (help)
            printf("The generator programs of Part 1: send(), yield and return.\n");
        return help ? 0 : 2;
    }
#endif

    printf("# producer: print(\" \".join(producer()))\n");
    pt_gen_init(&g);
    while (pt_gen_next(&g, producer(&g)) == PT_YIELDED) {
        printf("%s%s", sep, g.value.s);
        sep = " ";
    }
    printf("\n");

    /* Python wants a generator started with next() (send(None)) before a
     * value can be sent; the first next() runs it to its `val = yield`. */
    printf("# consumer: c = consumer(); next(c); c.send(\"hello!\")\n");
    pt_gen_init(&g);
    (void)pt_gen_next(&g, consumer(&g));
    (void)pt_gen_send(&g, pt_value_str("hello!"), consumer(&g));

    printf("# sleepy_boi(): a generator\n");
    drive(&s, sleepy_boi);
    printf("# sleepy_boi_async(): awaiting _async_yield(None)\n");
    drive(&s, sleepy_boi_async);
    return 0;
}
