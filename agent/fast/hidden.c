/*
 * hidden.c - hidden classes (lambdas' proxies, method handles' LambdaForms,
 * StringConcatFactory's classes), which JVMTI passes to no
 * ClassFileLoadHook and cannot retransform.
 *
 * Every hidden class is defined through one native,
 * java.lang.ClassLoader.defineClass0 (Lookup.defineHiddenClass and the
 * JDK's own definers call it through JavaLangAccess.defineClass). The fast
 * engine binds that native to psf_define_class0, which hands the bytes of
 * a hidden class to the rewriter (fast_rewrite) before the JVM defines it:
 * its methods get probes like any class's, named as the step engine names
 * them ("pkg.Name/0x0").
 *
 * A hidden class defined otherwise (before the wrapper is bound, while the
 * start's retransformation runs, or one the rewriter refuses, which is
 * reported) has no probes. Its methods are watched instead: a
 * breakpoint in each, armed while a thread counts, makes a run that enters
 * one fall back (fast_problem) rather than count it as nothing. So are the
 * methods without probes of a JDK event class (jdk.internal.event), which
 * the JVM adds after the ClassFileLoadHook saw the class's bytes; each
 * watched method keeps which of the two it is, which the fallback's reason
 * names.
 */

#include "bulk.h"
#include "fast.h"
#include "jvmti_util.h"

/* A watched method, and why it has no probes. */
enum { WATCH_HIDDEN, WATCH_EVENT };
struct fast_watched {
    jmethodID method;
    int kind;                   /* WATCH_*: a hidden class's, or one the JVM added to a JDK event class */
};

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

/* ClassLoader.defineClass0's flag for a hidden class
 * (MethodHandleNatives.Constants.HIDDEN_CLASS). */
#define HIDDEN_CLASS 0x2

typedef jclass(JNICALL *define_fn)(JNIEnv *, jclass, jobject, jclass, jstring, jbyteArray, jint, jint, jobject,
                                   jboolean, jint, jobject);
static define_fn real_define;

/* ClassLoader.defineClass0 with engine=fast: the bytes of a hidden class
 * are rewritten (fast_rewrite) before the JVM defines the class; every
 * other class reaches the ClassFileLoadHook, and is passed on as it is. */
static jclass JNICALL psf_define_class0(JNIEnv *jni, jclass cl, jobject loader, jclass lookup, jstring name,
                                        jbyteArray data, jint off, jint len, jobject pd, jboolean init, jint flags,
                                        jobject class_data)
{
    agent *a = &g_agent;
    lock_enter(a);
    int rewrite = (flags & HIDDEN_CLASS) && a->fast.hooked && !a->dead && !a->fast.parallel;
    lock_exit(a);
    if (!rewrite || data == NULL || off < 0 || len <= 0 || off > (*jni)->GetArrayLength(jni, data) - len)
        return real_define(jni, cl, loader, lookup, name, data, off, len, pd, init, flags, class_data);
    unsigned char *in = malloc((size_t)len), *out = NULL;
    size_t n = 0;
    if (in == NULL) {
        fast_problem(a, "out of memory reading the bytes of a hidden class");
        return real_define(jni, cl, loader, lookup, name, data, off, len, pd, init, flags, class_data);
    }
    (*jni)->GetByteArrayRegion(jni, data, off, len, (jbyte *)in);
    jbyteArray bytes = NULL;
    if (!(*jni)->ExceptionCheck(jni) && fast_rewrite(a, jni, loader, NULL, in, (size_t)len, 1, &out, &n) &&
        n <= INT32_MAX) {
        fast_own_alloc = 1; /* made inside the native's frame, but the agent's array */
        bytes = (*jni)->NewByteArray(jni, (jsize)n);
        fast_own_alloc = 0;
        if (bytes != NULL)
            (*jni)->SetByteArrayRegion(jni, bytes, 0, (jsize)n, (const jbyte *)out);
    }
    free(in);
    free(out);
    if ((*jni)->ExceptionCheck(jni)) {
        /* no room for the rewritten bytes: the JVM's own exception, the class left undefined */
        fast_problem(a, "a hidden class's rewritten bytes could not be handed to the JVM");
        return NULL;
    }
    if (bytes == NULL) /* kept its bytes (no bytecode, or refused: recorded) */
        return real_define(jni, cl, loader, lookup, name, data, off, len, pd, init, flags, class_data);
    /* charged by the program's bytes, as the step engine charges them (bulk.c) */
    hidden_defining = len;
    jclass c = real_define(jni, cl, loader, lookup, name, bytes, 0, (jint)n, pd, init, flags, class_data);
    hidden_defining = 0;
    (*jni)->DeleteLocalRef(jni, bytes);
    return c;
}

/* NativeMethodBind: ClassLoader.defineClass0 is bound to psf_define_class0
 * (1), the JDK's function kept. */
int hidden_native_bound(const char *cls, const char *name, void *address, void **new_address)
{
    if (strcmp(name, "defineClass0") != 0 || strcmp(cls, "Ljava/lang/ClassLoader;") != 0)
        return 0;
    if (address != (void *)psf_define_class0) {
        real_define = (define_fn)address;
        *new_address = (void *)psf_define_class0;
    }
    return 1;
}

/* 1 when the class's constant pool names the probe class: a hidden class
 * psf_define_class0 rewrote (no other class can name it: the rewriter
 * refuses one that does). */
static int has_probes(agent *a, jclass klass)
{
    jint count = 0, len = 0;
    unsigned char *cp = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetConstantPool(a->jvmti, klass, &count, &len, &cp), "GetConstantPool") != 0)
        return 0;
    size_t n = strlen(a->fast.probe_name);
    int found = 0;
    for (jint i = 0; !found && n > 0 && len >= 0 && (size_t)len >= n && i <= len - (jint)n; i++)
        found = memcmp(cp + i, a->fast.probe_name, n) == 0;
    (*a->jvmti)->Deallocate(a->jvmti, cp);
    return found;
}

/* A breakpoint at the start of a watched method (fast_watch_unprobed). */
static void break_watched(agent *a, jmethodID m)
{
    jlocation start = -1, end = -1;
    if ((*a->jvmti)->GetMethodLocation(a->jvmti, m, &start, &end) != JVMTI_ERROR_NONE || start < 0)
        return;
    jvmtiError err = (*a->jvmti)->SetBreakpoint(a->jvmti, m, start);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_DUPLICATE)
        fast_problem(a, "cannot watch a method without probes (JVMTI error %d)", (int)err);
}

/* The first time a thread counts: from now on every watched method has
 * its breakpoint (the ones seen so far get it now). Until then they run
 * without one, at full speed: a breakpoint costs an event at every call,
 * on every thread. */
void fast_arm_watched(agent *a)
{
    lock_enter(a);
    int armed = a->fast.watched_armed;
    a->fast.watched_armed = 1;
    uint32_t n = a->fast.nwatched;
    jmethodID *copy = !armed && n > 0 ? malloc(n * sizeof *copy) : NULL;
    for (uint32_t i = 0; copy != NULL && i < n; i++)
        copy[i] = a->fast.watched[i].method;
    lock_exit(a);
    if (!armed && n > 0 && copy == NULL)
        fast_problem(a, "out of memory watching the methods without probes");
    if (!armed)
        agent_log(a, "fast engine: %u methods without probes (of hidden classes and JDK event classes) watched from now on", (unsigned)n);
    for (uint32_t i = 0; copy != NULL && i < n; i++)
        break_watched(a, copy[i]);
    free(copy);
}

/* 1 when method m of a JDK event class (jdk.internal.event) has bytecode
 * but no probes: a method the JVM adds to the class after the
 * ClassFileLoadHook saw its bytes (JDK 25's ThreadSleepEvent.isEnabled(),
 * which Thread.sleep calls; the class file has none), or one not rewritten
 * yet (at VMInit), which makes the watch refuse a run that is counted
 * right: a fallback, never a wrong count. */
static int event_method_unprobed(agent *a, jmethodID m)
{
    jboolean native = JNI_FALSE;
    jlocation start = -1, end = -1;
    if ((*a->jvmti)->IsMethodNative(a->jvmti, m, &native) != JVMTI_ERROR_NONE || native ||
        (*a->jvmti)->GetMethodLocation(a->jvmti, m, &start, &end) != JVMTI_ERROR_NONE || start < 0)
        return 0;
    return fast_method_named(a, m) == NULL;
}

/*
 * A hidden class without probes (one psf_define_class0 did not rewrite),
 * or a JDK event class with methods the JVM added: those methods run no
 * probe, where the step engine counts their bytecode. They are watched,
 * each with its kind: a breakpoint at offset 0 of each
 * (fast_watched_breakpoint), set once a thread has counted
 * (fast_arm_watched), tells when one runs on a counting thread, which
 * makes the run refused.
 */
void fast_watch_unprobed(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    char *sig = NULL;
    if ((*jv)->GetClassSignature(jv, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    /* A hidden class of package jdk.internal.event is watched as a hidden
     * class's (or not at all once it has probes), and that is its right
     * kind: the JVM adds methods only to the event classes, subclasses of
     * jdk.internal.event.Event, and none of those is hidden. The package's
     * only hidden classes are the lambdas' of EventHelper (its
     * logX509ValidationEvent, on JDK 17 and 25), which are a lambda's; a
     * program cannot define one there, since java.base neither exports
     * nor opens the package to it, so it gets no Lookup with the access
     * defineHiddenClass needs. */
    int hidden = hidden_signature(sig);
    int event = !hidden && strncmp(sig, "Ljdk/internal/event/", 20) == 0;
    jvmti_free(a, sig);
    if (hidden && has_probes(a, klass))
        return; /* rewritten as it was defined (psf_define_class0) */
    jint n = 0;
    jmethodID *m = NULL;
    if (!(hidden || event) || jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &m), "GetClassMethods") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        if (event && !event_method_unprobed(a, m[i]))
            continue;
        lock_enter(a);
        if (a->fast.nwatched == a->fast.watched_cap) {
            struct fast_watched *v = grow_cap(a->fast.watched, &a->fast.watched_cap, 256, sizeof *v);
            if (v == NULL) {
                lock_exit(a);
                fast_problem(a, "out of memory watching the methods without probes");
                break;
            }
            a->fast.watched = v;
        }
        uint32_t k = a->fast.nwatched;
        while (k > 0 && (uintptr_t)a->fast.watched[k - 1].method > (uintptr_t)m[i]) {
            a->fast.watched[k] = a->fast.watched[k - 1];
            k--;
        }
        a->fast.watched[k] = (struct fast_watched){m[i], event ? WATCH_EVENT : WATCH_HIDDEN};
        a->fast.nwatched++;
        int armed = a->fast.watched_armed;
        lock_exit(a);
        if (armed)
            break_watched(a, m[i]);
    }
    jvmti_free(a, m);
}

/* A breakpoint: 1 when it is at the start of a watched method
 * (fast_watch_unprobed). On a counting thread outside a HIDDEN frame (where the
 * step engine counts nothing either) that makes the run refused, for the
 * reason its kind gives. */
int fast_watched_breakpoint(agent *a, thread_state *ts, jmethodID method)
{
    lock_enter(a);
    uint32_t lo = 0, hi = a->fast.nwatched;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)a->fast.watched[mid].method < (uintptr_t)method)
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = lo < a->fast.nwatched && a->fast.watched[lo].method == method;
    int kind = found ? a->fast.watched[lo].kind : WATCH_HIDDEN;
    lock_exit(a);
    if (!found || ts == NULL || !ts->measuring || ts->fast.probe == NULL)
        return found;
    JNIEnv *jni = fast_env(a);
    if (jni != NULL && (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode) == MODE_HIDDEN)
        return 1;
    char *name = fast_full_name(a, method);
    if (kind == WATCH_EVENT)
        fast_problem(a, "%s, a method the JVM added to a JDK event class, ran inside the extent: "
                        "it has no probes, and the step engine counts its bytecode", name ? name : "a method");
    else
        fast_problem(a, "%s, a method of a hidden class (a lambda's or a method handle's), ran inside the extent: "
                        "it has no probes, and the step engine counts its bytecode", name ? name : "a method");
    free(name);
    return 1;
}

/* ClassPrepare, before any of the class's code runs: a hidden class's
 * methods, and a JDK event class's without probes, are watched. (Every module reads java.base, the probe class's
 * module, so no module needs to be made to read it.) */
void fast_class_prepare(agent *a, JNIEnv *jni, jclass klass)
{
    (void)jni;
    fast_watch_unprobed(a, klass);
}
