/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * examples/timeouts.c - a timeout scope, as `async with asyncio.timeout(d)`:
 * one deadline over every wait between PT_TIMEOUT_BEGIN and PT_TIMEOUT_END.
 * When it passes, the wait in progress ends PT_ETIMEDOUT, every later wait
 * in the scope ends at once the same way (C does not unwind: the body runs
 * on to its end), and PT_TIMEOUT_END says PT_ETIMEDOUT. A scope whose
 * deadline does not pass ends PT_OK and changes nothing.
 */
#include <stdio.h>

#include "loop/loop.h"

struct job {
    struct pt_task task;
    struct pt_timeout scope; /* zeroed, and outlives the scope: not a local */
    struct pt_event never;   /* nobody sets it */
};

#define SAY(what)                                                                                  \
    printf("%4u ms  %-28s -> %s\n", (unsigned)PT_TO_MS(pt_loop_now(loop)), (what),                 \
           pt_err_name(PT_WAIT_RESULT()))

static PT_THREAD(run(struct pt_loop *loop, struct pt_task *task)) {
    struct job *j = (struct job *)task;
    PT_TASK_BEGIN(loop, task);
    PT_TIMEOUT_BEGIN(&j->scope, PT_MS(250)); /* deadline: 250 ms from now */
    PT_SLEEP(PT_MS(100));
    SAY("sleep 100 ms");
    PT_EVENT_WAIT(&j->never, PT_FOREVER); /* would wait for ever: cut at 250 */
    SAY("wait for an event");
    PT_SLEEP(PT_MS(100)); /* past the deadline: ends at once */
    SAY("sleep 100 ms more");
    PT_TIMEOUT_END(&j->scope);
    SAY("end of the 250 ms scope");

    PT_TIMEOUT_BEGIN(&j->scope, PT_MS(1000)); /* the struct may be reused */
    PT_SLEEP(PT_MS(100));
    SAY("sleep 100 ms");
    PT_TIMEOUT_END(&j->scope);
    SAY("end of the 1000 ms scope");
    PT_TASK_END();
}

int main(void) {
    static struct pt_timer_slot timers[4]; /* an open scope holds a timer too */
    static struct job j;
    struct pt_loop loop;
    if (pt_loop_init(&loop, timers, 4) != PT_OK)
        return 1;
    pt_loop_use_virtual_clock(&loop, 0);
    pt_event_init(&j.never);
    (void)pt_loop_spawn(&loop, &j.task, run);
    return pt_loop_run(&loop) == PT_OK ? 0 : 1;
}
