/*
 * linkage.c - the program's code that runs while HotSpot links a call
 * site or resolves a static access, where it posts no single steps.
 *
 * The first execution of an invokedynamic runs its bootstrap method inside
 * the interpreter's resolution, with single-stepping hidden: whatever the
 * bootstrap does is not counted. The JDK's bootstraps (lambdas, string
 * concatenation, records, switches) are overhead and run nothing of the
 * program's, except the functional interface's initializer that clinit.c
 * runs first, counted. A bootstrap method of the program's own (a class
 * file javac does not write, but another tool can), or a JDK bootstrap
 * that calls a method handle of the program's, would run the program's
 * code uncounted: an insertion sort of 2000 ints in a bootstrap scored as
 * the 62,031 bytecodes around it.
 *
 * The same holds for a getstatic, putstatic or invokestatic in the JDK's
 * own methods: HotSpot resolves it with stepping hidden, and the static
 * initializer it runs (the class's, its supertypes') with it. clinit.c runs
 * such initializers first, stepped, only from the program's sites: a JDK
 * initializer reached from the JDK's code runs hidden, and what it runs of
 * the program's with it. JDK initializers run the program's code where a
 * class is named in a system property (SelectorProvider's Holder,
 * LogManager, ZoneRulesProvider, ForkJoinPool's thread factory, ...) or
 * found by a ServiceLoader, and call methods of objects the program handed
 * the JDK before (a Properties subclass installed with System.setProperties).
 *
 * So the step engine opens a window at the first execution of each
 * invokedynamic of the program's (extent.c, after clinit.c's check) and
 * at the first counted execution of each static access of the JDK's
 * (DEP_WATCH in method_info.dep: one bit test on the step path of
 * instructions with a dependency key): MethodEntry events on for that
 * thread, which HotSpot posts while it hides single steps; the thread's
 * next step, which comes once the site is resolved, closes it. A method of
 * the program's entered inside the window, in the linkage of an
 * invokedynamic or in a frame the JVM ran for a static access's resolution
 * (found on the stack right above the instruction's frame: an initializer;
 * the method an invokestatic calls is no part of its resolution), ends the
 * run as hidden_work, naming it, the JDK's frame that ran it and the site.
 * The fast engine, whose probes see such code run, refuses the run the same
 * way (fast.c) rather than leaving it to this one.
 */
#include "agent.h"
#include "bystanders.h"
#include "bytecode.h"
#include "jvmti_util.h"
#include "linkage.h"
#include "methods.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open the window on the counted thread at the first execution of the
 * invokedynamic at loc of method. */
void linkage_open(agent *a, thread_state *ts, jthread thread, jmethodID method, jlocation loc)
{
    if (jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, thread),
                    "SetEventNotificationMode(METHOD_ENTRY)") != 0)
        return;
    ts->link_method = method;
    ts->link_loc = loc;
    ts->link_op = BC_INVOKEDYNAMIC;
}

/* The first counted execution of the static access at loc of m, a method
 * of the JDK's (DEP_WATCH): watch its resolution. */
void linkage_watch(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m, jlocation loc)
{
    atomic_store_explicit(&m->watch_site[loc], 0, memory_order_relaxed);
    if (ts->link_method != NULL || ts->paused)
        return;
    if (jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, thread),
                    "SetEventNotificationMode(METHOD_ENTRY)") != 0)
        return;
    ts->link_method = method;
    ts->link_loc = loc;
    ts->link_op = m->code[loc];
}

/* The thread stepped again: the call site is linked (or failed to be). */
void linkage_close(agent *a, thread_state *ts, jthread thread)
{
    ts->link_method = NULL;
    jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, JVMTI_EVENT_METHOD_ENTRY, thread),
                "SetEventNotificationMode(METHOD_ENTRY)");
}

/* Is `name` (a method_info's) the constructor of a lambda's proxy class,
 * the hidden class LambdaMetafactory defines in the program's loader and
 * instantiates while it links a non-capturing lambda ("Main$$Lambda$1/0x...
 * .<init>()V" on 17, "Main$$Lambda/0x....<init>()V" on 25)? Its code is
 * the JDK's (it calls Object's constructor), not the program's. */
static int lambda_proxy_constructor(const char *name)
{
    const char *init = strstr(name, ".<init>(");
    const char *lambda = strstr(name, "$$Lambda");
    const char *hidden = strchr(name, '/'); /* a hidden class's name: binary name '/' suffix */
    return init != NULL && lambda != NULL && hidden != NULL && lambda < hidden && hidden < init;
}

/*
 * Inside the window of a static access: the frame right above the
 * instruction's (the topmost frame of link_method at link_loc) on the
 * thread's stack, or NULL when the instruction's frame is not on it or is
 * the top. For a getstatic or putstatic every such frame is the JVM's
 * resolution; for an invokestatic only an initializer is (the method it
 * calls, a native that calls the program back, is not): NULL then too.
 */
static jmethodID resolving_frame(agent *a, jthread thread, const thread_state *ts)
{
    jint depth = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &depth), "GetFrameCount") != 0 || depth <= 1)
        return NULL;
    jvmtiFrameInfo *frames = malloc((size_t)depth * sizeof *frames);
    if (frames == NULL) {
        agent_fail(a, "out of memory reading a stack");
        return NULL;
    }
    jint n = 0;
    jmethodID above = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, depth, frames, &n), "GetStackTrace") == 0)
        for (jint i = 1; i < n; i++)
            if (frames[i].method == ts->link_method && frames[i].location == ts->link_loc) {
                above = frames[i - 1].method;
                break;
            }
    free(frames);
    if (above == NULL || ts->link_op != BC_INVOKESTATIC)
        return above;
    char *name = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodName(a->jvmti, above, &name, NULL, NULL), "GetMethodName") != 0)
        return NULL;
    int init = strcmp(name, "<clinit>") == 0;
    jvmti_free(a, name);
    return init ? above : NULL;
}

/* MethodEntry, inside a window: a method of the program's ends the run;
 * on a bystander, bystanders.c's. */
void JNICALL linkage_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_self();
    if (a->dead)
        return;
    if (ts == NULL || (!ts->measuring && ts->sched_slot == 0)) {
        bystanders_entry(a, jni, thread, method); /* a bystander: bystanders.c watches the methods it enters */
        return;
    }
    if (ts->link_method == NULL)
        return;
    jclass klass = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &klass), "GetMethodDeclaringClass") != 0)
        return;
    int program = program_class(a, jni, klass);
    (*jni)->DeleteLocalRef(jni, klass);
    if (!program)
        return;
    const method_info *m = methods_get(a, jni, method);
    const method_info *site = methods_get(a, jni, ts->link_method);
    char msg[1024];
    if (ts->link_op == BC_INVOKEDYNAMIC) {
        if (m != NULL && lambda_proxy_constructor(m->name))
            return;
        snprintf(msg, sizeof msg,
                 "%s ran while the JVM linked the invokedynamic at offset %lld of %s: hidden from counting",
                 m != NULL ? m->name : "a method of the program's", (long long)ts->link_loc,
                 site != NULL ? site->name : "a method");
    } else {
        jmethodID by = resolving_frame(a, thread, ts);
        if (by == NULL)
            return; /* called by the instruction's own callee: stepped */
        const method_info *root = methods_get(a, jni, by);
        snprintf(msg, sizeof msg,
                 "%s ran inside %s, which the JVM ran while it resolved the %s at offset %lld of %s, where HotSpot "
                 "hides single-stepping: hidden from counting",
                 m != NULL ? m->name : "a method of the program's", root != NULL ? root->name : "a JDK method",
                 bc_mnemonic(ts->link_op), (long long)ts->link_loc, site != NULL ? site->name : "a method");
    }
    ts->link_method = NULL;
    a->hooks.stop(a, jni, thread, "hidden_work", msg);
}
