/*
 * startup.c - what both engines' starts at VMInit share: the agent thread
 * they run on, and which loaded classes they retransform.
 *
 * HotSpot draws an object's identity hash code, the first time it is
 * asked for, from the asking thread's own sequence, and the JVM's work
 * for a class whose bytes a ClassFileLoadHook handed back (its own
 * parsing instead of the CDS archive's copy) draws codes too. So that the
 * program's main thread reaches main() at the same place of its sequence
 * under both engines (docs/fast-engine.md, "Identity hash codes"), both
 * starts do the same to the JVM: on an agent thread (psf-start) while the
 * main thread waits, they enable the ClassFileLoadHook and retransform
 * every modifiable class with bytecode loaded so far (class_has_code), and
 * from then on hand back the bytes of every class with bytecode (the fast
 * engine rewritten, fast/boot.c and registry.c; the step engine an
 * unchanged copy, step/start.c). An agent thread is one the program cannot
 * see or count (JVMTI hides agent threads), whose Thread object is made
 * without taking a thread id from the program (agent_thread_object).
 *
 * Before either start, on the main thread, start_hash_classes draws the
 * codes of every class loaded so far, in one order, so that no start's
 * work draws them on its own threads (the fast engine's retransformation
 * runs on two threads, which would hand the classes codes that differ
 * from run to run).
 */
#include "jvmti_util.h"
#include "startup.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * The Thread object of an agent thread named thread_name, or NULL. Its
 * constructor takes the next thread id; the counter is put back, so that
 * the program's threads get the ids they get without the agent: JDK 17's
 * Thread.threadSeqNumber (and the unstarted count it adds to its group),
 * the native counter later JDKs keep at Thread.getNextThreadIdOffset().
 */
jobject agent_thread_object(JNIEnv *jni, const char *thread_name)
{
    jclass tc = (*jni)->FindClass(jni, "java/lang/Thread");
    jclass gc = (*jni)->FindClass(jni, "java/lang/ThreadGroup");
    if (tc == NULL || gc == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jfieldID seq = (*jni)->GetStaticFieldID(jni, tc, "threadSeqNumber", "J");
    jfieldID unstarted = NULL;
    volatile jlong *next = NULL;
    if (seq != NULL) {
        unstarted = (*jni)->GetFieldID(jni, gc, "nUnstartedThreads", "I");
    } else {
        (*jni)->ExceptionClear(jni);
        jmethodID off = (*jni)->GetStaticMethodID(jni, tc, "getNextThreadIdOffset", "()J");
        if (off != NULL)
            next = (volatile jlong *)(intptr_t)(*jni)->CallStaticLongMethod(jni, tc, off);
    }
    if ((*jni)->ExceptionCheck(jni) || (seq == NULL && next == NULL) || (seq != NULL && unstarted == NULL)) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jmethodID init = (*jni)->GetMethodID(jni, tc, "<init>", "(Ljava/lang/String;)V");
    jmethodID group_of = (*jni)->GetMethodID(jni, tc, "getThreadGroup", "()Ljava/lang/ThreadGroup;");
    jstring name = (*jni)->NewStringUTF(jni, thread_name);
    if (init == NULL || group_of == NULL || name == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jlong before = seq != NULL ? (*jni)->GetStaticLongField(jni, tc, seq) : *next;
    jobject t = (*jni)->NewObject(jni, tc, init, name);
    if (t == NULL || (*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    if (seq != NULL) {
        (*jni)->SetStaticLongField(jni, tc, seq, before);
        jobject g = (*jni)->CallObjectMethod(jni, t, group_of);
        if (g != NULL)
            (*jni)->SetIntField(jni, g, unstarted, (*jni)->GetIntField(jni, g, unstarted) - 1);
        (*jni)->ExceptionClear(jni);
    } else {
        *next = before;
    }
    return t;
}

typedef struct job {
    agent *a;
    void (*work)(agent *, JNIEnv *, void *);
    void *arg;
    int done;                   /* under a->lock */
} job;

static void JNICALL job_thread(jvmtiEnv *jv, JNIEnv *jni, void *arg)
{
    job *j = arg;
    (void)jv;
    j->work(j->a, jni, j->arg);
    lock_enter(j->a);
    j->done = 1;
    jvmti_check(j->a, (*j->a->jvmti)->RawMonitorNotifyAll(j->a->jvmti, j->a->lock), "RawMonitorNotifyAll");
    lock_exit(j->a);
}

int agent_thread_run(agent *a, JNIEnv *jni, const char *name, void (*work)(agent *, JNIEnv *, void *), void *arg)
{
    job j = {.a = a, .work = work, .arg = arg};
    jobject t = agent_thread_object(jni, name);
    if (t == NULL) {
        agent_fail(a, "cannot make the Thread object of the agent thread %s", name);
        return -1;
    }
    if (jvmti_check(a, (*a->jvmti)->RunAgentThread(a->jvmti, t, job_thread, &j, JVMTI_THREAD_NORM_PRIORITY),
                    "RunAgentThread") != 0) {
        (*jni)->DeleteLocalRef(jni, t);
        return -1;
    }
    lock_enter(a);
    while (!j.done)
        jvmti_check(a, (*a->jvmti)->RawMonitorWait(a->jvmti, a->lock, 0), "RawMonitorWait");
    lock_exit(a);
    (*jni)->DeleteLocalRef(jni, t);
    return 0;
}

int class_code_methods(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jmethodID *methods = NULL;
    if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
        return 1;
    int code = 0;
    for (jint i = 0; i < n; i++) {
        jint mod = 0;
        code += (*jv)->GetMethodModifiers(jv, methods[i], &mod) != JVMTI_ERROR_NONE ||
                !(mod & (0x0100 | 0x0400)); /* ACC_NATIVE, ACC_ABSTRACT */
    }
    jvmti_free(a, methods);
    return code;
}

int class_has_code(agent *a, jclass klass)
{
    return class_code_methods(a, klass) > 0;
}

/* A loaded class and its signature, sorted by signature. */
typedef struct named_class {
    jclass klass;
    char *sig;
    jint order; /* GetLoadedClasses' order: same-named classes of other loaders */
} named_class;

static int by_signature(const void *x, const void *y)
{
    const named_class *p = x, *q = y;
    int c = strcmp(p->sig != NULL ? p->sig : "", q->sig != NULL ? q->sig : "");
    return c != 0 ? c : (p->order > q->order) - (p->order < q->order);
}

/*
 * On the main thread at VMInit, before either engine's start: the
 * identity hash code of every class loaded so far but arrays' (and of the
 * primitive types' classes) drawn from the main thread's own sequence, in the order
 * of the classes' signatures, under both engines alike. HotSpot draws a
 * class's code when it verifies the class, and a retransformation
 * verifies each class anew (with its mirror); without this the start's
 * RetransformClasses would draw the codes of the JDK's classes on the
 * start's threads: a different code for String.class under each engine,
 * and under the fast engine, which retransforms on two threads, in each
 * run (JDK 17, whose CDS archive holds no mirrors with -XX:+UseSerialGC;
 * JDK 25's archived mirrors come with their codes). The classes the fast
 * engine's start loads and the step engine's does not (fast/boot.c) are
 * loaded first, so that under
 * both engines their codes are drawn here rather than one engine's start
 * drawing them on its thread and the other the program's main thread in
 * the measured code (docs/fast-engine.md, "Identity hash codes").
 */
void start_hash_classes(agent *a, JNIEnv *jni)
{
    /* Array: arrays_init; NoSuchMethodError: the JDK 17 signature of
     * StackTraceElement.initStackTraceElements looked up on a later JDK */
    static const char *const start_classes[] = {"java/lang/reflect/Array", "java/lang/NoSuchMethodError"};
    static const char *const boxes[] = {"java/lang/Boolean", "java/lang/Byte",  "java/lang/Character",
                                        "java/lang/Short",   "java/lang/Integer", "java/lang/Long",
                                        "java/lang/Float",   "java/lang/Double",  "java/lang/Void"};
    jvmtiEnv *jv = a->jvmti;
    for (size_t i = 0; i < sizeof start_classes / sizeof start_classes[0]; i++) {
        jclass k = (*jni)->FindClass(jni, start_classes[i]);
        if (k == NULL) {
            (*jni)->ExceptionClear(jni);
            agent_fail(a, "cannot load %s at the start", start_classes[i]);
            return;
        }
        (*jni)->DeleteLocalRef(jni, k);
    }
    jint n = 0, drawn = 0;
    jclass *classes = NULL;
    if (jvmti_check(a, (*jv)->GetLoadedClasses(jv, &n, &classes), "GetLoadedClasses") != 0)
        return;
    named_class *v = calloc(n > 0 ? (size_t)n : 1, sizeof *v);
    if (v == NULL) {
        agent_fail(a, "out of memory for the classes loaded at the start");
    } else {
        for (jint i = 0; i < n; i++) {
            v[i].klass = classes[i];
            v[i].order = i;
            if (jvmti_check(a, (*jv)->GetClassSignature(jv, classes[i], &v[i].sig, NULL), "GetClassSignature") != 0)
                v[i].sig = NULL;
        }
        qsort(v, (size_t)n, sizeof *v, by_signature);
        for (jint i = 0; i < n; i++) {
            jint code = 0;
            /* not an array class: no start verifies one, and which exist by now
             * is not the same in every run (ConcurrentHashMap$CounterCell[] is
             * made when two threads contend for a map's count) */
            if (v[i].sig != NULL && v[i].sig[0] != '[') {
                jvmti_check(a, (*jv)->GetObjectHashCode(jv, v[i].klass, &code), "GetObjectHashCode");
                drawn++;
            }
            jvmti_free(a, v[i].sig);
        }
        free(v);
    }
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++) {
        jclass box = (*jni)->FindClass(jni, boxes[i]);
        jfieldID f = box != NULL ? (*jni)->GetStaticFieldID(jni, box, "TYPE", "Ljava/lang/Class;") : NULL;
        jobject prim = f != NULL ? (*jni)->GetStaticObjectField(jni, box, f) : NULL;
        jint code = 0;
        if (prim != NULL)
            jvmti_check(a, (*jv)->GetObjectHashCode(jv, prim, &code), "GetObjectHashCode");
        else
            (*jni)->ExceptionClear(jni);
        if (prim != NULL)
            (*jni)->DeleteLocalRef(jni, prim);
        if (box != NULL)
            (*jni)->DeleteLocalRef(jni, box);
    }
    for (jint i = 0; i < n; i++)
        (*jni)->DeleteLocalRef(jni, classes[i]);
    jvmti_free(a, classes);
    agent_log(a, "start: identity hash codes of %d classes drawn on the main thread", (int)drawn);
}
