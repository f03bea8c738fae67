/*
 * engine.h - the one table through which the shared extent life cycle
 * (core/, runtime/, profile/) reaches the counting engine of this run. Two
 * engines must give one profile (step, the reference, in agent/step/; fast,
 * in agent/fast/), and where they differ the shared code asks the table,
 * chosen once at load (engine_select), instead of testing the engine's
 * name: a property is a field, work is a call (NULL: the engine has none).
 */
#ifndef PSF_ENGINE_H
#define PSF_ENGINE_H

#include "agent.h"

struct engine_ops {
    const char *name;            /* as engine= names it */
    const char *profile_attr;    /* the profile's engine attribute; NULL for the reference, which has none */
    /* 1: counts by single-stepping. A thread the method started is counted
     * and scheduled step by step (sched.c), and stepping a bystander costs
     * the counted threads nothing more (bystanders.c); with probes, stepping
     * any thread slows every thread's interpreter, counted ones included */
    int steps;
    /* 1: the method's entry and exit probes open and close its extents:
     * no breakpoint at its entry (target.c), no FramePop at its end (extent.c) */
    int entry_probe;

    /* at load: the engine's JVMTI capabilities */
    void (*capabilities)(agent *a, JavaVM *vm, jvmtiCapabilities *caps);
    /* at VMInit, before the rest of the agent's start */
    void (*vm_init)(agent *a, JNIEnv *jni);
    /* ClassFileLoadHook, which the engine's start enables: a class's bytes
     * handed back (fast: rewritten; step: an unchanged copy) or kept */
    void (JNICALL *class_file_load)(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                    jobject domain, jint len, const unsigned char *data, jint *new_len,
                                    unsigned char **new_data);
    /* ClassPrepare of any class */
    void (*class_prepare)(agent *a, JNIEnv *jni, jclass klass);
    /* NativeMethodBind of a class-lookup native (natives.c): 1 when taken */
    int (*native_bound)(agent *a, const char *cls, const char *name, void *address, void **new_address);
    /* The engine's own per-thread counting on or off (span_thread_events):
     * called with before=1 ahead of the events both engines share
     * (FramePop, SampledObjectAlloc, Exception), before=0 after them; 0, or -1 */
    int (*thread_events)(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts, int before);
    /* any Breakpoint (ts: the thread's state, or NULL) */
    int (*breakpoint)(agent *a, thread_state *ts, jmethodID method);
    /* a span starts at a bytecode no event of the engine reports: count it */
    void (*count_first)(agent *a, thread_state *ts, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);
    /* an exception thrown on a counting thread (its class's name: `name`) */
    void (*exception)(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc,
                      const char *name, jmethodID catch_method);
    /* SampledObjectAlloc on a counting thread */
    void (*array_alloc)(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject obj, jclass klass);
    /* a native of bulk.c handled n > 0 elements for invoke key k on a counting thread */
    void (*elements)(agent *a, thread_state *ts, uint32_t k, uint64_t n);
    /* a native's elements on a bystander passed the bystanders' allowance
     * (bystanders.c); NULL: the engine's own check at the extent's end decides */
    void (*bystanders_over)(agent *a, JNIEnv *jni);
    /* the bytecode limit stops the run (message: why) */
    void (*limit)(agent *a, const char *message);
    /* why this run's profile may not be the reference's, in buf, or NULL */
    const char *(*fallback)(agent *a, char *buf, size_t cap);
    /* the run ends: every thread's counting stops before the totals are read */
    void (*quiesce)(agent *a);
    /* at the run's end, before the profile: the engine's counts into the threads' counters */
    void (*collect)(agent *a, JNIEnv *jni);
};

/* core/engine.c: the table of the engine the options name */
const struct engine_ops *engine_select(const agent_options *opts);

extern const struct engine_ops step_engine_ops; /* step/engine.c */
extern const struct engine_ops fast_engine_ops; /* fast/engine.c */

#endif
