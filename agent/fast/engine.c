/*
 * engine.c - the fast engine's table (core/engine.h): what the shared
 * extent life cycle asks of the fast engine, among it the exceptions that
 * leave frames no probe sees and why a run's profile may not be the step
 * engine's (fast_fallback). These sit here, not in core/, so that the
 * shared code reaches the engine only through its table; the probes'
 * own calls into the extent's life cycle are probes.c's.
 */
#include "engine.h"
#include "events.h"
#include "extent.h"
#include "fast.h"
#include "fast_api.h"
#include "jvmti_util.h"
#include "keys.h"

/*
 * engine=fast: an exception thrown inside the extent. The frames it
 * unwinds run no bytecode and no exit probe: the method's frames among
 * them leave its depth, and when the catching frame lies below the
 * extent's outermost frame (or nothing catches it), the extent ends here,
 * by exception, as the step engine's frame pop would end it. `stop` >= 0:
 * the JVM itself takes the exception at the frame of that index from the
 * top (a root frame it entered, fast_exception_fix), which is unwound too.
 */
static void exception_unwind(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method, jint stop)
{
    int depth = fast_depth(a, ts);
    jint frames = 0;
    if (depth <= 0 || jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") != 0)
        return;
    jint inside = frames - ts->fast.base + 1; /* the top frames, down to the outermost frame of the method */
    if (inside <= 0)
        return;
    jvmtiFrameInfo *f = malloc((size_t)inside * sizeof *f);
    jint n = 0;
    if (f == NULL || jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, inside, f, &n), "GetStackTrace") != 0) {
        free(f);
        agent_fail(a, "cannot read the frames an exception unwinds");
        return;
    }
    jint i = 0;
    int popped = 0;
    while (i < n && (stop >= 0 ? i <= stop : catch_method == NULL || f[i].method != catch_method))
        popped += f[i++].method == a->target; /* the catching frame, from the top */
    free(f);
    if ((stop >= 0 || i < n) && depth - popped > 0) {
        fast_set_depth(a, ts, depth - popped); /* caught inside the extent */
        return;
    }
    fast_set_depth(a, ts, 0);
    extent_end(a, jni, thread, ts, 1);
}

/* An exception thrown on a counting thread (core/extent.c on_exception). */
static void fast_on_exception(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method,
                              jlocation loc, const char *name, jmethodID catch_method)
{
    (void)name;
    /* (a StackOverflowError never reaches here: extent.c stops the run at
     * its throw, under either engine, as stack_overflow) */
    /* a stop the bytecode limit armed: an exception before its bytecode, or at or after it */
    fast_limit_interrupt(a, jni, thread, ts, method, 0, loc);
    /* a native's arrays kept for its return probe: its call does not return (as the step engine's, whose
     * next step is not the caller's instruction after the invoke, drops them) */
    native_arrays_drop(ts);
    jint stop = -1;
    /* the rest of each block the exception leaves never runs: subtracted
     * (exceptions.c), in the extent's frames (a helper thread's are all its own) */
    jint frames = 0;
    if (ts->pre_method != NULL)
        fast_problem(a, "an exception was thrown in code of the method's class counted before it");
    else if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") == 0)
        stop = fast_exception_fix(a, jni, thread, ts, catch_method, ts->helper ? frames : frames - ts->fast.base + 1);
    if (!ts->helper && ts->pre_method == NULL)
        exception_unwind(a, jni, thread, ts, catch_method, stop);
}

/* The thread's probes take the place of SingleStep and ExceptionCatch:
 * off before the shared events, on after them. */
static int fast_thread_events(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts, int before)
{
    if (before)
        return mode == JVMTI_DISABLE && fast_thread(a, ts, thread, 0) != 0 ? -1 : 0;
    return mode == JVMTI_ENABLE ? fast_thread(a, ts, thread, 1) : 0;
}

/* SampledObjectAlloc on a counting thread: the array probes count what
 * array instructions make; arrays.c looks at arrays a native method made. */
static void fast_on_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject obj, jclass klass)
{
    jboolean is_array = JNI_FALSE;
    if (jvmti_check(a, (*a->jvmti)->IsArrayClass(a->jvmti, klass, &is_array), "IsArrayClass") == 0 && is_array)
        fast_array_alloc(a, jni, thread, ts, obj, klass);
}

/* The bytecode limit stops the run: at the step engine's bytecode, with
 * its counts (limit.c), or, where the probes could not place that stop,
 * as fallback, and the step engine's run finds it. */
static void fast_on_limit(agent *a, const char *message)
{
    if (!a->fast.limit_exact)
        fast_problem(a, "%s, and the fast engine cannot place the step engine's stop: %s", message,
                     a->fast.limit_inexact[0] != '\0' ? a->fast.limit_inexact : "the run passed it between probes");
}

/*
 * engine=fast: why this run's profile may not be the step engine's, or
 * NULL. Whatever the fast engine could not count exactly (fast_problem), a
 * failure of its own (the step engine may still count the run), a limit
 * that stopped the program (its limits are not the step engine's yet; but
 * gc_dependent, which depends on no count, stands: gcrefs.c; nor the
 * bytecode limit where the probes stopped at the step engine's bytecode,
 * limit.c), and
 * in a scoring run the profile fields it does not produce yet.
 */
/*
 * Why the identity hash codes the measured code read (a call of
 * Object.hashCode or System.identityHashCode that ran no bytecode, the
 * native) may not be the step engine's, or NULL. HotSpot draws identity
 * hash codes from a per-thread sequence (docs/fast-engine.md, "Identity
 * hash codes"). On JDK 17 and 25 both engines draw alike on the main
 * thread and on every thread made before VMInit: the same codes, at the
 * same places, before and inside the measured code (the tags of array
 * classes too: fast/arrays.c fast_array_alloc, step/arrays.c
 * step_array_alloc). A thread made after VMInit is seeded from a counter
 * of the whole JVM that each engine's start moves differently (every new
 * symbol moves it), so codes such a thread of the program draws differ
 * between the engines, and a count that reads them may too: the run falls
 * back when one started before an extent ended (threads an extent starts
 * fall back for Thread.start already). On other JDKs the engines are not
 * shown to agree, and every read falls back.
 */
static const char *identity_hash_read(const agent *a)
{
    static const char *const readers[] = {"java.lang.Object.hashCode()I",
                                          "java.lang.System.identityHashCode(Ljava/lang/Object;)I"};
    const char *why = NULL;
    if (a->jdk_feature != 17 && a->jdk_feature != 25)
        why = "which the two engines are shown to draw alike on JDK 17 and 25 only";
    else if (a->late_threads || (a->program_threads && a->active_extents > 0))
        why = "and a thread of the program started after the JVM's start ran: the JVM seeds the sequence it "
              "draws them from differently under each engine";
    if (why == NULL)
        return NULL;
    for (size_t r = 0; r < sizeof readers / sizeof readers[0]; r++) {
        uint32_t k = keys_find(&a->keys, KEY_INVOKE, readers[r]);
        if (k == 0)
            continue;
        for (const thread_state *ts = a->threads; ts != NULL; ts = ts->next)
            if (ts->native != NULL && k - 1 < ts->dep_cap && ts->native[k - 1])
                return why;
    }
    return NULL;
}

static const char *fast_fallback(agent *a, char *buf, size_t cap)
{
    const char *hash_why = NULL;
    if (a->stop_status != NULL &&
        (strcmp(a->stop_status, "gc_dependent") == 0 || strcmp(a->stop_status, "stack_overflow") == 0))
        return NULL; /* a refusal that depends on no count (gcrefs.c, extent.c): the step engine's too */
    if (a->fast.problem[0] != '\0')
        snprintf(buf, cap, "engine=fast cannot count this run exactly: %s", a->fast.problem);
    else if (a->error[0] != '\0')
        snprintf(buf, cap, "engine=fast failed: %s", a->error);
    else if (a->stop_status != NULL && !(a->fast.limit_exact && strcmp(a->stop_status, "bytecode_limit") == 0))
        snprintf(buf, cap, "engine=fast cannot count this run exactly: a limit stopped it (%s), and its limits are "
                           "not the step engine's yet", a->stop_status);
    else if ((hash_why = identity_hash_read(a)) != NULL)
        snprintf(buf, cap, "engine=fast cannot count this run exactly: the method read identity hash codes "
                           "(Object.hashCode, System.identityHashCode), %s", hash_why);
    else
        return NULL;
    return buf;
}

const struct engine_ops fast_engine_ops = {
    .name = "fast",
    .profile_attr = "fast", /* the same counts as the step engine's (docs/fast-engine.md) */
    .steps = 0,
    .entry_probe = 1,
    .capabilities = fast_capabilities,
    .vm_init = fast_vm_init,
    .class_file_load = fast_class_file_load,
    .class_prepare = fast_class_prepare,
    .native_bound = fast_native_bound,
    .thread_events = fast_thread_events,
    .breakpoint = fast_watched_breakpoint,
    .exception = fast_on_exception,
    .array_alloc = fast_on_alloc,
    .elements = fast_charge_elements, /* no step path: arrays.c finds the call */
    .bystanders_over = fast_bystanders_over,
    .limit = fast_on_limit,
    .fallback = fast_fallback,
    .quiesce = fast_quiesce,
    .collect = fast_collect,
};
