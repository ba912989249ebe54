/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The ptloop developers */
/*
 * tests/fuzz/fz_interp.h - the interpreter's text, which tests/fuzz/fz_impl.h
 * includes twice: as fz_interp_task, a task's body opened with
 * PT_TASK_BEGIN (which trusts the loop to have tested the task's state),
 * and as fz_interp_sub, a sub-coroutine opened with PT_SUB_BEGIN (which
 * tests its own). FZ_INTERP_NAME and FZ_INTERP_BEGIN say which.
 */

/*
 * The interpreter: level 0 is the task's body (g is task->gen), level 1 a
 * sub-coroutine it awaits (g is x->sub). Everything that must survive a
 * stop is in x; ops are looked up by pc after every resume point, and
 * if/else chains keep the switch back end's cases out of our way.
 */
static inline PT_THREAD(FZ_INTERP_NAME(struct pt_loop *loop, struct pt_task *task,
                                       struct pt_gen *g)) {
    struct fz_task *x = (struct fz_task *)task;
    const int lv = g != &task->gen;
    FZ_INTERP_BEGIN;
    x->pc[lv][FZ_BODY] = 0;
    x->sub_begins += lv;
    fz_i_line(x->id, lv, "begin");
    while (x->pc[lv][FZ_BODY] < fz_i_len(x, lv, FZ_BODY)) {
        x->wstart = pt_loop_now(loop);
        if (FZ_OP(FZ_BODY) == OP_SLEEP) {
            PT_SLEEP(FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_YIELD) {
            PT_TASK_YIELD();
            fz_i_result(x, lv, FZ_BODY, "done");
        } else if (FZ_OP(FZ_BODY) == OP_JOIN) {
            PT_JOIN(FZ_OTHER(FZ_BODY), FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_EVWAIT) {
            PT_EVENT_WAIT(&fz_I.ev, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
#if FZ_IO
        } else if (FZ_OP(FZ_BODY) == OP_IOWAIT) {
            PT_IO_WAIT(&x->io, fz_I.pipe[0], PT_READABLE, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
#endif
        } else if (FZ_OP(FZ_BODY) == OP_SEMACQ) {
            PT_SEMAPHORE_ACQUIRE(&fz_I.sem, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_QPUT) {
            PT_QUEUE_PUT(&fz_I.q, pt_value_int(x->id * 100 + x->pc[lv][FZ_BODY]),
                         FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_QGET) {
            PT_QUEUE_GET(&fz_I.q, &x->got, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_GWAIT) {
            PT_GROUP_WAIT(&fz_I.grp, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_JSHIELD) {
            PT_JOIN_SHIELD(FZ_OTHER(FZ_BODY), FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_GNEXT) {
            x->next_got = NULL;
            PT_GROUP_NEXT(&fz_I.grp, &x->next_got, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_LKACQ) {
            PT_LOCK_ACQUIRE(&fz_I.lock, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_CVWAIT) {
            x->rc = PT_OK; /* lk+: the lock first, if this task does not hold it */
            if (!FZ_ARG(FZ_BODY)->c && pt_lock_owner(&fz_I.lock) != task) {
                PT_LOCK_ACQUIRE(&fz_I.lock, FZ_ARG(FZ_BODY)->b);
                x->rc = PT_WAIT_RESULT();
            }
            if (x->rc == PT_OK) {
                PT_COND_WAIT(&fz_I.cond, FZ_ARG(FZ_BODY)->b);
                x->rc = PT_WAIT_RESULT();
                fz_i_cv_check(x);
            }
            fz_i_waited(x, lv, FZ_BODY, x->rc);
        } else if (FZ_OP(FZ_BODY) == OP_BWAIT) {
            PT_BARRIER_WAIT(&fz_I.bar, &x->bidx, FZ_ARG(FZ_BODY)->b);
            FZ_WAITED(FZ_BODY);
        } else if (FZ_OP(FZ_BODY) == OP_TOBEGIN) {
            if (x->depth < FZ_SCOPES) {
                PT_TIMEOUT_BEGIN(&x->sc[x->depth], FZ_ARG(FZ_BODY)->b);
                x->depth++;
                fz_i_result(x, lv, FZ_BODY, "done");
            } else {
                fz_i_result(x, lv, FZ_BODY, "skip");
            }
        } else if (FZ_OP(FZ_BODY) == OP_TOEND) {
            x->depth -= x->depth > 0;
            fz_i_result(x, lv, FZ_BODY, fz_rc((int)PT_TIMEOUT_END(&x->sc[x->depth])));
        } else if (FZ_OP(FZ_BODY) == OP_TORENEW) { /* the innermost again (the first if none) */
            x->depth += !x->depth;
            x->rc = (int)PT_TIMEOUT_END(&x->sc[x->depth - 1]);
            PT_TIMEOUT_BEGIN(&x->sc[x->depth - 1], FZ_ARG(FZ_BODY)->b);
            fz_i_result(x, lv, FZ_BODY, fz_rc(x->rc));
        } else if (FZ_OP(FZ_BODY) == OP_SUB) {
            fz_i_result(x, lv, FZ_BODY, "start");
            PT_AWAIT(g, &x->sub, fz_interp_sub(loop, task, &x->sub));
            {
                char res[48];
                snprintf(res, sizeof res, "st %d v %ld", (int)pt_gen_status(&x->sub),
                         (long)x->sub.value.i);
                fz_i_result(x, lv, FZ_BODY, res);
            }
        } else if (FZ_OP(FZ_BODY) == OP_FAIL) {
            fz_i_result(x, lv, FZ_BODY, "done");
            PT_TASK_FAIL(pt_value_int((intptr_t)FZ_ARG(FZ_BODY)->b));
        } else if (FZ_OP(FZ_BODY) == OP_EXIT) {
            fz_i_result(x, lv, FZ_BODY, "done");
            PT_EXIT(pt__gen);
        } else if (FZ_OP(FZ_BODY) == OP_RETURN) {
            fz_i_result(x, lv, FZ_BODY, "done");
            PT_TASK_RETURN(pt_value_int((intptr_t)FZ_ARG(FZ_BODY)->b));
        } else {
            fz_i_nowait(x, lv, FZ_BODY);
        }
        x->pc[lv][FZ_BODY]++;
    }
    PT_TASK_CLEANUP();
    /* The same chain again, not a shared macro: with the switch back end
     * naming resume points by __LINE__ alone, a macro holding several
     * waits would put them on one line. */
    x->pc[lv][FZ_CLEANUP] = 0;
    if (lv)
        x->sub_cleanups++;
    else
        x->cleanups++;
    fz_i_line(x->id, lv, "cleanup");
    while (x->pc[lv][FZ_CLEANUP] < fz_i_len(x, lv, FZ_CLEANUP)) {
        x->wstart = pt_loop_now(loop);
        if (FZ_OP(FZ_CLEANUP) == OP_SLEEP) {
            PT_SLEEP(FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_YIELD) {
            PT_TASK_YIELD();
            fz_i_result(x, lv, FZ_CLEANUP, "done");
        } else if (FZ_OP(FZ_CLEANUP) == OP_JOIN) {
            PT_JOIN(FZ_OTHER(FZ_CLEANUP), FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_EVWAIT) {
            PT_EVENT_WAIT(&fz_I.ev, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_SEMACQ) {
            PT_SEMAPHORE_ACQUIRE(&fz_I.sem, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_QPUT) {
            PT_QUEUE_PUT(&fz_I.q, pt_value_int(x->id * 100 + 50 + x->pc[lv][FZ_CLEANUP]),
                         FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_QGET) {
            PT_QUEUE_GET(&fz_I.q, &x->got, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_GWAIT) {
            PT_GROUP_WAIT(&fz_I.grp, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_JSHIELD) {
            PT_JOIN_SHIELD(FZ_OTHER(FZ_CLEANUP), FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_GNEXT) {
            x->next_got = NULL;
            PT_GROUP_NEXT(&fz_I.grp, &x->next_got, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_LKACQ) {
            PT_LOCK_ACQUIRE(&fz_I.lock, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_CVWAIT) {
            x->rc = PT_OK; /* lk+: the lock first, if this task does not hold it */
            if (!FZ_ARG(FZ_CLEANUP)->c && pt_lock_owner(&fz_I.lock) != task) {
                PT_LOCK_ACQUIRE(&fz_I.lock, FZ_ARG(FZ_CLEANUP)->b);
                x->rc = PT_WAIT_RESULT();
            }
            if (x->rc == PT_OK) {
                PT_COND_WAIT(&fz_I.cond, FZ_ARG(FZ_CLEANUP)->b);
                x->rc = PT_WAIT_RESULT();
                fz_i_cv_check(x);
            }
            fz_i_waited(x, lv, FZ_CLEANUP, x->rc);
        } else if (FZ_OP(FZ_CLEANUP) == OP_BWAIT) {
            PT_BARRIER_WAIT(&fz_I.bar, &x->bidx, FZ_ARG(FZ_CLEANUP)->b);
            FZ_WAITED(FZ_CLEANUP);
        } else if (FZ_OP(FZ_CLEANUP) == OP_TOBEGIN) {
            if (x->depth < FZ_SCOPES) {
                PT_TIMEOUT_BEGIN(&x->sc[x->depth], FZ_ARG(FZ_CLEANUP)->b);
                x->depth++;
                fz_i_result(x, lv, FZ_CLEANUP, "done");
            } else {
                fz_i_result(x, lv, FZ_CLEANUP, "skip");
            }
        } else if (FZ_OP(FZ_CLEANUP) == OP_TOEND) {
            x->depth -= x->depth > 0;
            fz_i_result(x, lv, FZ_CLEANUP, fz_rc((int)PT_TIMEOUT_END(&x->sc[x->depth])));
        } else if (FZ_OP(FZ_CLEANUP) == OP_TORENEW) { /* the innermost again (the first if none) */
            x->depth += !x->depth;
            x->rc = (int)PT_TIMEOUT_END(&x->sc[x->depth - 1]);
            PT_TIMEOUT_BEGIN(&x->sc[x->depth - 1], FZ_ARG(FZ_CLEANUP)->b);
            fz_i_result(x, lv, FZ_CLEANUP, fz_rc(x->rc));
        } else {
            fz_i_nowait(x, lv, FZ_CLEANUP);
        }
        x->pc[lv][FZ_CLEANUP]++;
    }
    if (!lv && pt_lock_owner(&fz_I.lock) == task) /* a task gives the lock back at its end */
        fz_i_line(x->id, 0,
                  pt_lock_release(loop, &fz_I.lock, task) == PT_OK ? "lk_rel auto = OK"
                                                                   : "lk_rel auto = ?");
    PT_SUB_END();
}
