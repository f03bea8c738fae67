/*
 * boot.c - the fast engine's start at VMInit: the probe class defined in
 * the boot loader under the run's name, its natives, fields and methods
 * bound (probe_fields.h: the one list of the names the engine uses), the
 * JDK's members the array probes call, the lookups that would reach the
 * probe class taken over, and the classes loaded before retransformed.
 */

#include "startup.h"
#include "fast.h"
#include "jvmti_util.h"

#include <sys/random.h>

/* The ID of the probe class's field name with descriptor desc
 * (probe_fields.h), a static one when is_static; the probe class named in
 * desc as compiled (PROBE_NAME_COMPILED) is looked up under the run's
 * drawn name. NULL, with a JNI exception pending, when there is none. */
static jfieldID probe_field(agent *a, JNIEnv *jni, jclass k, const char *name, const char *desc, int is_static)
{
    char sig[sizeof a->fast.probe_name + 4];
    const char *self = strstr(desc, "L" PROBE_NAME_COMPILED ";");
    if (self != NULL) {
        snprintf(sig, sizeof sig, "%.*sL%s;", (int)(self - desc), desc, a->fast.probe_name);
        desc = sig;
    }
    return is_static ? (*jni)->GetStaticFieldID(jni, k, name, desc) : (*jni)->GetFieldID(jni, k, name, desc);
}

/*
 * Define the probe class in the boot loader under a name drawn for the run
 * (probename.h): in java.lang, which java.base exports and does not open,
 * so its public probes link from every class while its state stays out of
 * reach of reflection; then bind its natives and initialize it.
 */
static int define_probe(agent *a, JNIEnv *jni)
{
    uint8_t rnd[PROBE_NAME_RANDOM];
    size_t got = 0;
    while (got < sizeof rnd) {
        ssize_t n = getrandom(rnd + got, sizeof rnd - got, 0);
        if (n <= 0) {
            agent_fail(a, "the fast engine cannot draw its probe class's name (getrandom)");
            return -1;
        }
        got += (size_t)n;
    }
    probe_name_make(rnd, a->fast.probe_name);
    uint8_t *bytes = NULL;
    size_t nbytes = 0;
    char err[160];
    if (probe_class_rename(psf_probe_class, psf_probe_class_len, PROBE_NAME_COMPILED, a->fast.probe_name, &bytes,
                           &nbytes, err, sizeof err) != 0) {
        agent_fail(a, "the fast engine cannot rename its probe class: %s", err);
        return -1;
    }
    jclass k = (*jni)->DefineClass(jni, a->fast.probe_name, NULL, (const jbyte *)bytes, (jsize)nbytes);
    free(bytes);
    if (k == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot define its probe class in the boot loader (java.lang)");
        return -1;
    }
    a->fast.probe = (*jni)->NewGlobalRef(jni, k);
#define NATIVE(fn, name, desc) {name, desc, (void *)fn},
    static JNINativeMethod natives[] = {PROBE_NATIVES(NATIVE)};
#undef NATIVE
    if (a->fast.probe == NULL ||
        (*jni)->RegisterNatives(jni, k, natives, (jint)(sizeof natives / sizeof natives[0])) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot bind the probe's natives");
        return -1;
    }
    /* GetStaticFieldID initializes the class: here, before any probe runs
     * (the first entry of PROBE_FIELDS is static) */
    int bound = 1;
#define BIND(member, name, desc, st) bound = bound && (a->fast.member = probe_field(a, jni, k, name, desc, st)) != NULL;
    PROBE_FIELDS(BIND)
#undef BIND
#define BIND(member, name, desc, st) bound = bound && (a->fast.member = (*jni)->GetMethodID(jni, k, name, desc)) != NULL;
    PROBE_METHODS(BIND)
#undef BIND
    if (!bound) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the probe class lacks the fields the fast engine uses");
        return -1;
    }
    (*jni)->SetStaticBooleanField(jni, k, a->fast.f_watching, JNI_TRUE); /* bystanders' blocks are reported */
    (*jni)->DeleteLocalRef(jni, k);
    return 0;
}

/* The array probes' counters in the probe class, and the native whose arrays
 * are charged (Throwable.fillInStackTrace(I)); 0 or -1 (reported). */
static int arrays_init(agent *a, JNIEnv *jni)
{
    int bound = 1;
#define BIND(member, name, desc, st) \
    bound = bound && (a->fast.member = probe_field(a, jni, a->fast.probe, name, desc, st)) != NULL;
    PROBE_ARRAY_FIELDS(BIND)
#undef BIND
    jclass t = (*jni)->FindClass(jni, "java/lang/Throwable");
    a->fast.fill_in = t != NULL ? (*jni)->GetMethodID(jni, t, "fillInStackTrace", "(I)Ljava/lang/Throwable;") : NULL;
    if (t != NULL)
        (*jni)->DeleteLocalRef(jni, t);
    jclass c = (*jni)->FindClass(jni, "java/lang/Class");
    a->fast.init_class_name = c != NULL ? (*jni)->GetMethodID(jni, c, "initClassName", "()Ljava/lang/String;") : NULL;
    if (c != NULL)
        (*jni)->DeleteLocalRef(jni, c);
    jclass ste = (*jni)->FindClass(jni, "java/lang/StackTraceElement");
    a->fast.ste_init = ste != NULL ? (*jni)->GetStaticMethodID(jni, ste, "initStackTraceElements",
                                                               "([Ljava/lang/StackTraceElement;Ljava/lang/Throwable;)V")
                                   : NULL;
    if (a->fast.ste_init == NULL && ste != NULL) { /* JDK 21 on: the backtrace and its depth */
        (*jni)->ExceptionClear(jni);
        a->fast.ste_init = (*jni)->GetStaticMethodID(jni, ste, "initStackTraceElements",
                                                     "([Ljava/lang/StackTraceElement;Ljava/lang/Object;I)V");
    }
    if (ste != NULL)
        (*jni)->DeleteLocalRef(jni, ste);
    jclass o = (*jni)->FindClass(jni, "java/lang/Object");
    a->fast.obj_clone = o != NULL ? (*jni)->GetMethodID(jni, o, "clone", "()Ljava/lang/Object;") : NULL;
    if (o != NULL)
        (*jni)->DeleteLocalRef(jni, o);
    jclass r = (*jni)->FindClass(jni, "java/lang/reflect/Array");
    a->fast.new_array = r != NULL ? (*jni)->GetStaticMethodID(jni, r, "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;")
                                  : NULL;
    a->fast.multi_new_array = r != NULL ? (*jni)->GetStaticMethodID(jni, r, "multiNewArray",
                                                                    "(Ljava/lang/Class;[I)Ljava/lang/Object;")
                                        : NULL;
    jclass oa = (*jni)->FindClass(jni, "[Ljava/lang/Object;");
    a->fast.object_array = oa != NULL ? (*jni)->NewGlobalRef(jni, oa) : NULL;
    if (oa != NULL)
        (*jni)->DeleteLocalRef(jni, oa);
    if (r != NULL)
        (*jni)->DeleteLocalRef(jni, r);
    if (!bound || !a->fast.fill_in ||
        !a->fast.init_class_name || !a->fast.ste_init || !a->fast.obj_clone || !a->fast.new_array ||
        !a->fast.multi_new_array || !a->fast.object_array) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot find the probe's array counters or the natives whose arrays it "
                      "charges (Throwable.fillInStackTrace(int), Class.initClassName, Class.getDeclaredMethods0, "
                      "StackTraceElement.initStackTraceElements, Object.clone, Array.newArray, multiNewArray)");
        return -1;
    }
    return 0;
}

/*
 * The start's retransformation on two threads. RetransformClasses runs the
 * hook (reconstituting, rewriting) and HotSpot's parsing and merging of
 * the constant pools in the calling thread, for one class after the
 * other, and only the swap of the methods at a safepoint; two calls for
 * two halves of the classes, on two threads, overlap all but that (the
 * machine has a core the start leaves idle). The second thread is a JVMTI
 * agent thread: no thread the program can see or count (JVMTI hides agent
 * threads), whose Thread object is made before the classes are rewritten
 * and whose thread id is handed back (the next thread the program starts
 * gets the id it would have got; agent_thread_object). Where that cannot be
 * done the classes are retransformed on one thread.
 */
typedef struct half {
    agent *a;
    jclass *classes;            /* global refs */
    jint n;
    jvmtiError err;
    int done;                   /* under a->lock */
} half;

static void JNICALL retransform_half(jvmtiEnv *jv, JNIEnv *jni, void *arg)
{
    half *h = arg;
    (void)jni;
    h->err = (*jv)->RetransformClasses(jv, h->n, h->classes);
    lock_enter(h->a);
    h->done = 1;
    jvmti_check(h->a, (*jv)->RawMonitorNotifyAll(jv, h->a->lock), "RawMonitorNotifyAll");
    lock_exit(h->a);
}

/* The classes to retransform, heaviest first (by the number of methods
 * with bytecode; GetLoadedClasses' order among equals). */
typedef struct weighed {
    jclass klass;
    int weight;
    jint order;
} weighed;

static int heaviest_first(const void *x, const void *y)
{
    const weighed *p = x, *q = y;
    if (p->weight != q->weight)
        return p->weight < q->weight ? 1 : -1;
    return (p->order > q->order) - (p->order < q->order);
}

/* Retransform every class loaded so far (the hook rewrites them). A class
 * without bytecode (class_code_methods), most of them interfaces, has nothing
 * to probe: the ClassFileLoadHook would add only the probes'
 * constant-pool entries, and its retransformation (HotSpot parses it anew
 * and merges the old and new pools, a linear search per added entry) would
 * be start cost for nothing. The two threads' shares are balanced by
 * weight, heaviest class first to the lighter share (the work of a class,
 * the rewriting, HotSpot's parsing and its merge of the pools, grows with
 * its methods): the start ends when the busier thread does. */
int fast_retransform_loaded(agent *a, JNIEnv *jni)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jclass *classes = NULL;
    if (jvmti_check(a, (*jv)->GetLoadedClasses(jv, &n, &classes), "GetLoadedClasses") != 0)
        return -1;
    weighed *ws = malloc((n ? (size_t)n : 1) * sizeof *ws);
    jclass *todo = malloc((n ? (size_t)n : 1) * sizeof *todo);
    jint ntodo = 0;
    for (jint i = 0; i < n; i++) {
        jboolean ok = JNI_FALSE;
        if (todo != NULL && ws != NULL && !(*jni)->IsSameObject(jni, classes[i], a->fast.probe) &&
            (*jv)->IsModifiableClass(jv, classes[i], &ok) == JVMTI_ERROR_NONE && ok) {
            int w = class_code_methods(a, classes[i]);
            if (w > 0)
                ws[ntodo++] = (weighed){classes[i], w, i};
        }
        else if (!ok)
            fast_watch_unprobed(a, classes[i]); /* hidden classes defined before VMInit */
    }
    int bad = todo == NULL || ws == NULL ? (agent_fail(a, "out of memory for the classes to retransform"), -1) : 0;
    long total = 0;
    if (!bad) {
        qsort(ws, (size_t)ntodo, sizeof *ws, heaviest_first);
        for (jint i = 0; i < ntodo; i++)
            total += ws[i].weight;
    }
    /* a share of the classes to the second thread, when there is one */
    half h = {.a = a};
    jobject helper = !bad && ntodo > 1 ? agent_thread_object(jni, "psf-retransform") : NULL;
    jint mine = 0;
    long mine_w = 0, its_w = 0; /* the shares' weights */
    if (helper != NULL) {
        h.classes = malloc((size_t)ntodo * sizeof *h.classes);
        for (jint i = 0; h.classes != NULL && i < ntodo; i++) {
            if (its_w < mine_w) {
                if ((h.classes[h.n] = (*jni)->NewGlobalRef(jni, ws[i].klass)) == NULL)
                    break;
                h.n++;
                its_w += ws[i].weight;
            } else {
                todo[mine++] = ws[i].klass;
                mine_w += ws[i].weight;
            }
        }
        if (h.classes == NULL || h.n + mine != ntodo) {
            for (jint i = 0; i < h.n; i++)
                (*jni)->DeleteGlobalRef(jni, h.classes[i]);
            free(h.classes);
            h.classes = NULL;
            h.n = 0;
        }
    }
    if (h.n == 0) { /* one thread: every class its */
        mine_w = total;
        its_w = 0;
    }
    if (h.n > 0) {
        lock_enter(a);
        a->fast.parallel = 1;
        lock_exit(a);
        if (jvmti_check(a, (*jv)->RunAgentThread(jv, helper, retransform_half, &h, JVMTI_THREAD_NORM_PRIORITY),
                        "RunAgentThread") != 0) {
            lock_enter(a);
            a->fast.parallel = 0;
            lock_exit(a);
            for (jint i = 0; i < h.n; i++)
                (*jni)->DeleteGlobalRef(jni, h.classes[i]);
            h.n = 0;
            mine_w = total;
            its_w = 0;
        }
    }
    if (!bad && h.n > 0) {
        bad = jvmti_check(a, (*jv)->RetransformClasses(jv, mine, todo), "RetransformClasses");
        lock_enter(a);
        while (!h.done)
            jvmti_check(a, (*jv)->RawMonitorWait(jv, a->lock, 0), "RawMonitorWait");
        a->fast.parallel = 0;
        lock_exit(a);
        bad |= jvmti_check(a, h.err, "RetransformClasses (the second thread's)");
        for (jint i = 0; i < h.n; i++)
            (*jni)->DeleteGlobalRef(jni, h.classes[i]);
    } else if (!bad && ntodo > 0) {
        for (jint i = 0; i < ntodo; i++)
            todo[i] = ws[i].klass;
        bad = jvmti_check(a, (*jv)->RetransformClasses(jv, ntodo, todo), "RetransformClasses");
    }
    agent_log(a, "fast engine: %d classes loaded before VMInit retransformed on %d thread(s) (the others have "
                 "no bytecode), shares of %ld and %ld methods with bytecode", (int)ntodo, h.n > 0 ? 2 : 1, mine_w,
              its_w);
    free(h.classes);
    if (helper != NULL)
        (*jni)->DeleteLocalRef(jni, helper);
    for (jint i = 0; i < n; i++)
        (*jni)->DeleteLocalRef(jni, classes[i]);
    free(todo);
    free(ws);
    jvmti_free(a, classes);
    return bad ? -1 : 0;
}

/* At VMInit, before anything else: the probe class, the module reads, the
 * hook from now on, and the classes loaded before it. */
/*
 * The natives through which Java code gets hold of a class's members
 * (Class.getDeclaredMethods0: reflection's Methods; MethodHandleNatives.
 * resolve: every method handle and VarHandle a Lookup finds), wrapped at
 * NativeMethodBind. The probes are for the rewriter's calls alone: a
 * program that looks up the probe class's members (its name can be read
 * off a heap dump) could call them, and a probe called out of turn can end
 * an extent or switch a mode early. Its fields are out of reach anyway
 * (java.lang is not open); its methods are public, so such a lookup makes
 * the run fall back, and the step engine, which has no probe class, counts
 * what the program does. JDK code never looks them up.
 */
typedef jobjectArray(JNICALL *declared_methods_fn)(JNIEnv *, jclass, jboolean);
typedef jobject(JNICALL *mh_resolve_fn)(JNIEnv *, jclass, jobject, jclass, jint, jboolean);
static declared_methods_fn real_declared_methods;
static mh_resolve_fn real_mh_resolve;

static void probe_looked_up(agent *a, const char *how)
{
    fast_problem(a, "the program looked up the probe class's members (%s): only the rewriter's probes may call them",
                 how);
}

static jobjectArray JNICALL psf_declared_methods(JNIEnv *jni, jclass cls, jboolean public_only)
{
    agent *a = &g_agent;
    if (a->fast.probe != NULL && (*jni)->IsSameObject(jni, cls, a->fast.probe))
        probe_looked_up(a, "reflection");
    return real_declared_methods(jni, cls, public_only);
}

static jobject JNICALL psf_mh_resolve(JNIEnv *jni, jclass mhn, jobject self, jclass caller, jint mode,
                                      jboolean speculative)
{
    agent *a = &g_agent;
    if (a->fast.probe != NULL && a->fast.f_member_class != NULL && self != NULL) {
        jobject c = (*jni)->GetObjectField(jni, self, a->fast.f_member_class);
        if (c != NULL && (*jni)->IsSameObject(jni, c, a->fast.probe))
            probe_looked_up(a, "a method handle or VarHandle");
        if (c != NULL)
            (*jni)->DeleteLocalRef(jni, c);
    }
    return real_mh_resolve(jni, mhn, self, caller, mode, speculative);
}

int fast_native_bound(agent *a, const char *cls, const char *name, void *address, void **new_address)
{
    (void)a;
    if (hidden_native_bound(cls, name, address, new_address))
        return 1;
    if (strcmp(name, "getDeclaredMethods0") == 0 && strcmp(cls, "Ljava/lang/Class;") == 0) {
        real_declared_methods = (declared_methods_fn)address;
        *new_address = (void *)psf_declared_methods;
        return 1;
    }
    if (strcmp(name, "resolve") == 0 && strcmp(cls, "Ljava/lang/invoke/MethodHandleNatives;") == 0) {
        real_mh_resolve = (mh_resolve_fn)address;
        *new_address = (void *)psf_mh_resolve;
        return 1;
    }
    return 0;
}

/* MemberName.clazz, which psf_mh_resolve reads; both natives must be wrapped by now. */
static int lookups_init(agent *a, JNIEnv *jni)
{
    jclass mn = (*jni)->FindClass(jni, "java/lang/invoke/MemberName");
    a->fast.f_member_class = mn != NULL ? (*jni)->GetFieldID(jni, mn, "clazz", "Ljava/lang/Class;") : NULL;
    if (mn != NULL)
        (*jni)->DeleteLocalRef(jni, mn);
    if (a->fast.f_member_class == NULL || real_declared_methods == NULL || real_mh_resolve == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot watch the lookups of its probe class's members");
        return -1;
    }
    return 0;
}

/* The start itself: the probe class, the lookups it watches, the hook from
 * now on, and the classes loaded before VMInit rewritten. */
static void fast_boot(agent *a, JNIEnv *jni, void *arg)
{
    (void)arg;
    if (define_probe(a, jni) != 0 || arrays_init(a, jni) != 0 || lookups_init(a, jni) != 0)
        return;
    lock_enter(a);
    a->fast.hooked = 1;
    lock_exit(a);
    if (jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE,
                                                             JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL),
                    "SetEventNotificationMode(CLASS_FILE_LOAD_HOOK)") != 0)
        return;
    fast_retransform_loaded(a, jni);
}

/*
 * The start runs on an agent thread of its own (psf-start), while the main
 * thread waits (runtime/startup.c): what it runs (defining the probe
 * class, RetransformClasses) draws identity hash codes from the running
 * thread's sequence (the classes' own codes are drawn on the main thread
 * before, startup.c start_hash_classes), and the main thread's place
 * in its own sequence must not depend on the engine nor on how the two
 * retransforming threads interleave (docs/fast-engine.md, "Identity hash
 * codes"). The step engine's start does the same to the JVM
 * (step/start.c).
 */
void fast_vm_init(agent *a, JNIEnv *jni)
{
    agent_thread_run(a, jni, "psf-start", fast_boot, NULL);
}
