/*
 * fast.c - the instrumenting counting engine (engine=fast): block probes in
 * every class, counted per thread while the thread is inside a measured
 * extent, turned into the step engine's per-method opcode counts when the
 * run ends. docs/fast-engine.md says how it gives each profile field
 * exactly as the step engine does (opcode histograms, per-method and
 * per-line counts, invocations, dependency keys with their native flags,
 * array keys and elements, entries, closeness and fences, branches and
 * mispredictions, calling contexts, in the work and overhead buckets) and
 * when it leaves a run to the step engine.
 *
 * At VMInit the probe class (agent/fast/probe/java/lang/Probe.java, its class
 * file compiled into the agent) is defined in the boot loader, where every
 * loader finds it, in java.lang under a name drawn for the run (define_probe):
 * every module reads java.base and may link its public probes, and nothing
 * outside java.base reaches the rest (docs/trust-model.md). A program that
 * looks up its members, or defines a class naming it, makes the run fall
 * back (psf_declared_methods, psf_mh_resolve; the rewriter refuses such a
 * class). From then on the ClassFileLoadHook rewrites
 * every class (agent/classfile/instrument.c) with a block probe at the start of each
 * basic block and a branch probe before each conditional branch (its
 * outcome goes to the thread's predictor, a Java port of branchpred.h, at
 * the branch's site from a->fast.site) and an array probe after each array
 * instruction (the arrays it made, by array site: a->fast.sites), and a
 * call and a return probe around each invoke (its call site, a->fast.calls:
 * a call that returned with nothing counted in between is a native one), a
 * probe after each new, and an entry probe in every method (entries, and
 * the thread's exact position for closeness and fences: segments, below),
 * and the classes loaded before (the JDK's core) are
 * retransformed once. Probe ids are handed out class by class under the
 * agent's lock; each method's block table is kept for the whole run.
 *
 * Where the step engine switches single-stepping on and off for a thread
 * (extent.c: the extent's breakpoint and frame pop, helper threads, the
 * method's own class's initializer), fast_thread switches that thread's
 * probes on and off instead: Probe.counting lists the threads counting
 * now. The per-thread events the extent needs (FramePop, Exception) stay.
 *
 * Overhead roots (JDK static initializers, loadClass, linkage upcalls) and
 * the program's static initializers get root probes; at each entry on a
 * counting thread probe_root decides, from the frame that entered it, the
 * mode the frame runs in: work, overhead (a second set of hits, total and
 * predictor), or hidden (nothing counted: HotSpot hides single-stepping
 * there, so the step engine counts nothing).
 *
 * Nothing here runs per bytecode or per block of a counting thread: the
 * probes are Java, inlined by the JIT; root probes call the agent once per
 * root frame, a probe only when its thread passes the bytecode limit
 * (probe_limit, limit.c) or, on a thread that is not counting while another is,
 * until the bystanders' allowance is passed (probe_bystander). A run whose
 * counts this engine cannot give exactly (an exception inside a probe,
 * a method of a hidden class without probes, the program's code in a
 * hidden frame, a method not instrumented, a thread started, ...) records the reason
 * (fast_problem) and ends as fallback, which get_score.sh runs again with
 * the step engine: never a quietly different count.
 *
 * The engine's files: boot.c (the start at VMInit), registry.c (classes
 * rewritten), lookup.c (rewritten methods found again), probes.c (the
 * probes' natives), segments.c (a thread's exact position in a block),
 * threads.c (which threads count), hidden.c (hidden classes rewritten as
 * they are defined, or watched), exceptions.c,
 * limit.c (the bytecode limit's stop), arrays.c, collect.c
 * (the counts read back at the end); fast.h is what they share, and
 * probe_fields.h the names of the probe class's members they bind. Here:
 * the reasons a run falls back, and the capabilities the engine asks for.
 */
#include "fast.h"
#include "jvmti_util.h"

/* The current thread's JNIEnv (every caller runs on a Java thread). */
JNIEnv *fast_env(agent *a)
{
    JNIEnv *jni = NULL;
    if (a->fast.vm == NULL || (*a->fast.vm)->GetEnv(a->fast.vm, (void **)&jni, JNI_VERSION_10) != JNI_OK)
        return NULL;
    return jni;
}

/* Keep the first of several reasons in slot (size n), under the lock. */
__attribute__((format(printf, 4, 0)))
static void first_reason(agent *a, char *slot, size_t n, const char *fmt, va_list ap)
{
    char buf[768];
    vsnprintf(buf, sizeof buf, fmt, ap);
    lock_enter(a);
    if (slot[0] == '\0')
        snprintf(slot, n, "%s", buf);
    lock_exit(a);
}

/* Record why this run's counts cannot be trusted (the first reason wins);
 * the run then ends as agent_error with it (fast_collect). */
void fast_problem(agent *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    first_reason(a, a->fast.problem, sizeof a->fast.problem, fmt, ap);
    va_end(ap);
}

/* The program's code ran where the step engine sees no bytecode (HotSpot
 * hides single-stepping there): the run is refused as hidden_work, which
 * the step engine could not do for every such place, never handed to it. */
void fast_hidden_work(agent *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    first_reason(a, a->fast.hidden_work, sizeof a->fast.hidden_work, fmt, ap);
    va_end(ap);
}

/* Ask for what the engine needs; at load, engine=fast only. */
void fast_capabilities(agent *a, JavaVM *vm, jvmtiCapabilities *caps)
{
    a->fast.vm = vm;
    caps->can_retransform_classes = 1;
}
