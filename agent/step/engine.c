/*
 * engine.c - the step engine's table (core/engine.h): what the shared
 * extent life cycle asks of the reference engine, which counts by
 * single-stepping. Its events (SingleStep, ExceptionCatch) are switched
 * with the extent's, and everything the fast engine adds (probes, a class
 * file rewritten at load, counts read back at the end) it has none of.
 */
#include "engine.h"
#include "extent.h"
#include "jvmti_util.h"
#include "start.h"

/* The step engine's events of a thread, after the shared ones (before=0):
 * ExceptionCatch (contexts.c unwinds its calling contexts) and SingleStep. */
static int step_thread_events(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts, int before)
{
    jvmtiEnv *jv = a->jvmti;
    (void)ts;
    if (before)
        return 0;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_EXCEPTION_CATCH, thread),
                    "SetEventNotificationMode(EXCEPTION_CATCH)") != 0)
        return -1;
    return jvmti_check(a, (*jv)->SetEventNotificationMode(jv, mode, JVMTI_EVENT_SINGLE_STEP, thread),
                       "SetEventNotificationMode(SINGLE_STEP)");
}

static void step_capabilities(agent *a, JavaVM *vm, jvmtiCapabilities *caps)
{
    (void)a; (void)vm;
    caps->can_generate_method_entry_events = 1; /* linkage.c: code a call site's linkage runs */
    step_capabilities_start(caps); /* start.c: the fast engine's retransformation too */
}

static void step_exception(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc,
                           const char *name, jmethodID catch_method)
{
    (void)jni; (void)thread; (void)name; (void)catch_method;
    step_arrays_thrown(a, ts, method, loc);
}

const struct engine_ops step_engine_ops = {
    .name = "step",
    .profile_attr = NULL,
    .steps = 1,
    .entry_probe = 0,
    .capabilities = step_capabilities,
    .vm_init = step_vm_init,
    .class_file_load = step_class_file_load,
    .thread_events = step_thread_events,
    .count_first = step_count, /* the breakpoint's location, a span's first */
    .exception = step_exception,
    .array_alloc = step_array_alloc,
    .elements = step_elements,
};
