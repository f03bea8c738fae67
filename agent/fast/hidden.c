/*
 * hidden.c - hidden classes (lambdas' and method handles' classes), whose
 * methods get no probes: JVMTI passes no hidden class to the
 * ClassFileLoadHook and cannot retransform one.
 *
 * Their methods are watched instead: a breakpoint in each, armed while a
 * thread counts, makes a run that enters one fall back (fast_problem)
 * rather than count it as nothing.
 */

#include "fast.h"

/* 1 when the class signature names a hidden class ("...+0x<hex>;", or with
 * '/' or '.' before the 0x), whose methods get no probes: JVMTI passes no
 * hidden class to the ClassFileLoadHook and cannot retransform one. */
static int hidden_signature(const char *sig)
{
    size_t n = strlen(sig);
    if (n > 0 && sig[n - 1] == ';')
        n--;
    size_t i = n;
    while (i > 0 && ((sig[i - 1] >= '0' && sig[i - 1] <= '9') || (sig[i - 1] >= 'a' && sig[i - 1] <= 'f') ||
                     (sig[i - 1] >= 'A' && sig[i - 1] <= 'F')))
        i--;
    return i < n && i >= 3 && sig[i - 1] == 'x' && sig[i - 2] == '0' &&
           (sig[i - 3] == '+' || sig[i - 3] == '/' || sig[i - 3] == '.');
}

/* A breakpoint at the start of a hidden class's method (fast_watch_hidden). */
static void break_hidden(agent *a, jmethodID m)
{
    jlocation start = -1, end = -1;
    if ((*a->jvmti)->GetMethodLocation(a->jvmti, m, &start, &end) != JVMTI_ERROR_NONE || start < 0)
        return;
    jvmtiError err = (*a->jvmti)->SetBreakpoint(a->jvmti, m, start);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_DUPLICATE)
        fast_problem(a, "cannot watch a method of a hidden class (JVMTI error %d)", (int)err);
}

/* The first time a thread counts: from now on every hidden class's method
 * has its breakpoint (the ones seen so far get it now). Until then they
 * run without one, at full speed: a breakpoint costs an event at every
 * call, on every thread. */
void fast_arm_hidden(agent *a)
{
    lock_enter(a);
    int armed = a->fast.hidden_armed;
    a->fast.hidden_armed = 1;
    uint32_t n = a->fast.nhidden;
    jmethodID *copy = !armed && n > 0 ? malloc(n * sizeof *copy) : NULL;
    if (copy != NULL)
        memcpy(copy, a->fast.hidden, n * sizeof *copy);
    lock_exit(a);
    if (!armed && n > 0 && copy == NULL)
        fast_problem(a, "out of memory watching the methods of hidden classes");
    if (!armed)
        agent_log(a, "fast engine: %u methods of hidden classes watched from now on", (unsigned)n);
    for (uint32_t i = 0; copy != NULL && i < n; i++)
        break_hidden(a, copy[i]);
    free(copy);
}

/*
 * A hidden class (a lambda's proxy, a method handle's LambdaForm): its
 * methods run no probe, where the step engine counts their bytecode. A
 * breakpoint at offset 0 of each (fast_hidden_breakpoint), set once a
 * thread has counted (fast_arm_hidden), tells when one runs on a counting
 * thread, which makes the run refused.
 */
void fast_watch_hidden(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    char *sig = NULL;
    if ((*jv)->GetClassSignature(jv, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    int hidden = hidden_signature(sig);
    (*jv)->Deallocate(jv, (unsigned char *)sig);
    jint n = 0;
    jmethodID *m = NULL;
    if (!hidden || jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &m), "GetClassMethods") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        lock_enter(a);
        if (a->fast.nhidden == a->fast.hidden_cap) {
            jmethodID *v = grow_cap(a->fast.hidden, &a->fast.hidden_cap, 256, sizeof *v);
            if (v == NULL) {
                lock_exit(a);
                fast_problem(a, "out of memory watching the methods of hidden classes");
                break;
            }
            a->fast.hidden = v;
        }
        uint32_t k = a->fast.nhidden;
        while (k > 0 && (uintptr_t)a->fast.hidden[k - 1] > (uintptr_t)m[i]) {
            a->fast.hidden[k] = a->fast.hidden[k - 1];
            k--;
        }
        a->fast.hidden[k] = m[i];
        a->fast.nhidden++;
        int armed = a->fast.hidden_armed;
        lock_exit(a);
        if (armed)
            break_hidden(a, m[i]);
    }
    (*jv)->Deallocate(jv, (unsigned char *)m);
}

/* A breakpoint: 1 when it is at the start of a hidden class's method
 * (fast_watch_hidden). On a counting thread outside a HIDDEN frame (where the
 * step engine counts nothing either) that makes the run refused. */
int fast_hidden_breakpoint(agent *a, thread_state *ts, jmethodID method)
{
    lock_enter(a);
    uint32_t lo = 0, hi = a->fast.nhidden;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)a->fast.hidden[mid] < (uintptr_t)method)
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = lo < a->fast.nhidden && a->fast.hidden[lo] == method;
    lock_exit(a);
    if (!found || ts == NULL || !ts->measuring || ts->fast.probe == NULL)
        return found;
    JNIEnv *jni = fast_env(a);
    if (jni != NULL && (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode) == MODE_HIDDEN)
        return 1;
    char *name = fast_full_name(a, method);
    fast_problem(a, "%s, a method of a hidden class (a lambda's or a method handle's), ran inside the extent: "
                    "it has no probes, and the step engine counts its bytecode", name ? name : "a method");
    free(name);
    return 1;
}

/* ClassPrepare, before any of the class's code runs: a hidden class's
 * methods are watched. (Every module reads java.base, the probe class's
 * module, so no module needs to be made to read it.) */
void fast_class_prepare(agent *a, JNIEnv *jni, jclass klass)
{
    (void)jni;
    fast_watch_hidden(a, klass);
}
