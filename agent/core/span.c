/*
 * span.c - a thread's counted span switched on: the extent's per-thread
 * events on or off (span_thread_events), counting started at a method
 * entered as if called (span_start_counting), and the counters a span starts
 * from (span_start).
 *
 * Apart from extent.c so that the files that open and close spans
 * (extent.c, borrow.c) and the bytecode limit (limits.c), which switches a
 * stopping thread's events off, all stand on it and none of them calls
 * another back: extent.c calls borrow.c and limits.c, borrow.c calls
 * limits.c, and each calls this file, which calls none of them.
 */
#include "extent.h"
#include "engine.h"

/* Switch the per-thread events of an extent (FramePop, SampledObjectAlloc,
 * Exception, and the engine's own: step/engine.c's SingleStep and
 * ExceptionCatch, fast/engine.c's probes) on or off for thread (state ts);
 * 0, or -1 (reported). */
int span_thread_events(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts)
{
    jvmtiEnv *jv = a->jvmti;
    /* a window left open (an exception from the resolution ended the
     * extent before the next step): method entries would keep the thread
     * interpreted and their events coming (the thread's own: another
     * thread's state is its own to change) */
    if (mode == JVMTI_DISABLE && ts != NULL && ts == agent_tls && ts->link_method != NULL)
        linkage_close(a, ts, thread);
    if (a->engine->thread_events(a, mode, thread, ts, 1) != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_FRAME_POP, thread),
                    "SetEventNotificationMode(FRAME_POP)") != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, thread),
                             "SetEventNotificationMode(SAMPLED_OBJECT_ALLOC)") != 0)
        return -1;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_EXCEPTION, thread),
                    "SetEventNotificationMode(EXCEPTION)") != 0)
        return -1;
    return a->engine->thread_events(a, mode, thread, ts, 0);
}

/* Switch counting on for this thread, at a method entered as if called
 * (an extent, or code of the method's class that runs before it). With
 * notify_pop, the frame now at the top ends it when it pops. */
int span_start_counting(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int notify_pop)
{
    if (span_thread_events(a, JVMTI_ENABLE, thread, ts) != 0 ||
        (notify_pop && jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, 0), "NotifyFramePop") != 0)) {
        span_thread_events(a, JVMTI_DISABLE, thread, ts);
        return -1;
    }
    if (ts->ref == NULL)
        ts->ref = (*jni)->NewGlobalRef(jni, thread);
    return 0;
}

/* The counters a counted span starts from; its calling contexts start at
 * the root. */
void span_start(agent *a, thread_state *ts)
{
    ctx_start(a, ts);
    ts->measuring = 1;
    ts->bucket = BUCKET_WORK;
    ts->n[0] = ts->n[1] = 0;
    ts->pend_key = 0;
    ts->npend = 0;
    ts->prev_op = BC_INVOKESTATIC; /* entered by a call */
    ts->entry_far = 1;
    ts->prev_method = NULL;        /* (not the last span's last step) */
    ts->prev_loc = -1;
}
