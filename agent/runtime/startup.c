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
 */
#include "jvmti_util.h"
#include "startup.h"

#include <stddef.h>

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

int class_has_code(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jmethodID *methods = NULL;
    if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
        return 1;
    int code = 0;
    for (jint i = 0; i < n && !code; i++) {
        jint mod = 0;
        code = (*jv)->GetMethodModifiers(jv, methods[i], &mod) != JVMTI_ERROR_NONE ||
               !(mod & (0x0100 | 0x0400)); /* ACC_NATIVE, ACC_ABSTRACT */
    }
    jvmti_free(a, methods);
    return code;
}
