/*
 * linkage.c - the program's code that runs while HotSpot links a call
 * site, where it posts no single steps.
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
 * So the step engine opens a window at the first execution of each
 * invokedynamic (counting.c, after clinit.c's check): MethodEntry events
 * on for that thread, which HotSpot posts while it hides single steps;
 * the thread's next step, which comes once the site is linked, closes it.
 * A method of the program's entered inside the window ends the run as
 * hidden_work, naming it and the call site. (The fast engine refuses
 * method-handle linkage and leaves such runs to this one.)
 */
#include "agent.h"

#include <stdio.h>
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

/* MethodEntry, only inside a window: a method of the program's ends the run. */
void JNICALL linkage_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || ts->link_method == NULL)
        return;
    jclass klass = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &klass), "GetMethodDeclaringClass") != 0)
        return;
    int program = program_class(a, jni, klass);
    (*jni)->DeleteLocalRef(jni, klass);
    if (!program)
        return;
    const method_info *m = methods_get(a, jni, method);
    if (m != NULL && lambda_proxy_constructor(m->name))
        return;
    const method_info *site = methods_get(a, jni, ts->link_method);
    char msg[768];
    snprintf(msg, sizeof msg,
             "%s ran while the JVM linked the invokedynamic at offset %lld of %s: hidden from counting",
             m != NULL ? m->name : "a method of the program's", (long long)ts->link_loc,
             site != NULL ? site->name : "a method");
    ts->link_method = NULL;
    a->hooks.stop(a, jni, thread, "hidden_work", msg);
}
