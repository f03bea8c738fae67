/*
 * limits.c - max_bytecodes, the one limit on the method's counted work:
 * a shared total that threads add to in grants, so the per-bytecode path
 * takes no lock, and the stop of the run when the total passes the limit
 * or a thread loops on one instruction forever.
 */
#include "engine.h"
#include "events.h"
#include "extent.h"
#include "jvmti_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* max_bytecodes holds for the method as a whole: every thread it runs on, all
 * invocations. Threads do not touch the shared total on every step: each
 * counts down a grant of up to LIMIT_GRANT steps, then adds the grant to the
 * total and gets the next, never more than the steps left before the limit
 * plus one. Returns 1 when the total has passed the limit. One thread alone
 * stops on exactly the step after the limit; several may pass it by up to a
 * grant each. */
#define LIMIT_GRANT 65536

/* Add a thread's counted steps to the shared total; the new total. */
static uint64_t limit_add(agent *a, uint64_t steps)
{
    return atomic_fetch_add_explicit(&a->counted, steps, memory_order_relaxed) + steps;
}

/* 1 when a total of `total` steps is over max_bytecodes (0: no limit). */
static int limit_passed(const agent *a, uint64_t total)
{
    return a->opts.max_bytecodes != 0 && total > a->opts.max_bytecodes;
}

/* Stop the program with status bytecode_limit (limit_stop: does not return
 * when the JVM halts). */
void bytecode_limit_stop(agent *a, JNIEnv *jni, jthread thread)
{
    char msg[160];
    snprintf(msg, sizeof msg, "the method executed more than %llu bytecodes (the limit)",
             (unsigned long long)a->opts.max_bytecodes);
    if (a->engine->limit != NULL)
        a->engine->limit(a, msg); /* fast/: it may not stop where the step engine does */
    limit_stop(a, jni, thread, "bytecode_limit", msg);
}

/* A goto to itself: no step is posted for it again, and nothing else runs
 * in the frame, so it would spin uncounted until the wall-clock limit. It
 * executes more bytecodes than any limit: stop now. (goto_w to itself is
 * left to the clock: javac emits goto_w only for jumps beyond 32 KB.) */
void endless_loop_stop(agent *a, JNIEnv *jni, jthread thread, const char *method, uint32_t loc)
{
    if (a->opts.max_bytecodes == 0)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "the method executed more than %llu bytecodes (the limit): an endless loop,"
             " a goto to itself at offset %u of %s", (unsigned long long)a->opts.max_bytecodes,
             (unsigned)loc, method);
    limit_stop(a, jni, thread, "bytecode_limit", msg);
}

/* The thread used up its grant: report it and take the next. */
int limit_grant(agent *a, thread_state *ts)
{
    uint64_t total = limit_add(a, ts->grant);
    if (limit_passed(a, total))
        return 1;
    uint64_t left = a->opts.max_bytecodes != 0 ? a->opts.max_bytecodes - total + 1 : LIMIT_GRANT;
    ts->grant = ts->budget = left < LIMIT_GRANT ? left : LIMIT_GRANT;
    return 0;
}

/* A thread stops counting (its extent ended, or the helper thread ends):
 * hand back what it counted of its grant, so the total stays exact, and
 * stop the program if that passes the limit. The next step asks anew. */
void limit_return(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    uint64_t total = limit_add(a, ts->grant - ts->budget);
    ts->grant = ts->budget = 1;
    if (limit_passed(a, total))
        bytecode_limit_stop(a, jni, thread);
}


/*
 * A limit was exceeded: the result (with the limit's status) goes out now,
 * then the JVM is halted through Runtime.halt, the JVM's own way to stop at
 * once. Runs on the offending thread, inside a JVMTI callback: no exit().
 */
void limit_stop(agent *a, JNIEnv *jni, jthread thread, const char *status, const char *message)
{
    /* this thread counts no more; it stays "measuring" so that the result
     * lists its invocation as incomplete */
    span_thread_events(a, JVMTI_DISABLE, thread, agent_tls);
    lock_enter(a);
    int first = a->stop_status == NULL && !a->result_written;
    if (first) {
        a->stop_status = status;
        snprintf(a->stop_message, sizeof a->stop_message, "%s", message);
    }
    lock_exit(a);
    if (!first)
        return;
    /* The JVM's end (VMDeath on another thread) may have begun writing the
     * result since the check above: halting now would cut it off (the run
     * then ended with exit 97 and no result). That thread ends the run. */
    if (!a->hooks.finish(a, jni))
        return;
    jclass rt = (*jni)->FindClass(jni, "java/lang/Runtime");
    jmethodID get = rt ? (*jni)->GetStaticMethodID(jni, rt, "getRuntime", "()Ljava/lang/Runtime;") : NULL;
    jmethodID halt = rt ? (*jni)->GetMethodID(jni, rt, "halt", "(I)V") : NULL;
    jobject runtime = get ? (*jni)->CallStaticObjectMethod(jni, rt, get) : NULL;
    if (runtime != NULL && halt != NULL)
        (*jni)->CallVoidMethod(jni, runtime, halt, 97);
    /* Only reached if halt failed (a SecurityManager refusing it, no stack
     * left): the result is out, and the program must not run on uncounted. */
    (*jni)->ExceptionClear(jni);
    fprintf(stderr, "psf-agent: Runtime.halt failed after %s; ending the process\n", status);
    _exit(97);
}
