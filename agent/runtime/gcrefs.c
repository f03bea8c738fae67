/*
 * gcrefs.c - counted code that takes or reads what the garbage collector did.
 *
 * When the collector finds the referent of a weak, soft or phantom
 * reference unreachable, it clears the reference and links it into the
 * JVM's pending list; the JDK's Reference Handler thread takes that list
 * (Reference.getAndClearReferencePendingList) and puts each reference on
 * its ReferenceQueue. When that happens depends on the heap, on every
 * thread's allocations and on when the Reference Handler runs: not the
 * same in two runs, nor under the two engines (each allocates its own
 * objects). A method that waits for such a reference (a poll loop, a
 * WeakHashMap's size, a Cleaner's action) would score differently from run
 * to run, and could pick an algorithm by the parity of the wait.
 *
 * So the agent marks each reference the collector enqueues and refuses the
 * run (status gc_dependent) when counted code takes one from a queue:
 *
 *   - getAndClearReferencePendingList is re-bound at VMInit to a wrapper
 *     that calls the JVM's own (JVM_GetAndClearReferencePendingList) and
 *     tags every reference of the list (JVMTI tag TAG_GC_ENQUEUED) before
 *     the Reference Handler can enqueue it;
 *   - every way of taking a reference from a queue (poll, remove, the
 *     JDK's WeakHashMap, Cleaner and caches) ends in one private method of
 *     ReferenceQueue (reallyPoll on JDK 17, poll0 on later JDKs), which
 *     runs holding the queue's lock and returns the queue's head: a JVMTI
 *     breakpoint at its offset 0 reads the head and its tag. On a thread
 *     that is counted (an extent, a thread the method started, a bystander
 *     running the program's code), a tagged head ends the run, naming the
 *     thread, the reference's class and the code that took it; unless the
 *     JVM's overhead took it for itself, with no frame of the program's
 *     in between (the MethodType table that linking a lambda or a string
 *     concatenation consults expunges the entries the collector cleared):
 *     scores do not count that work, and the program sees nothing of it.
 *
 * A reference the program enqueues itself (Reference.enqueue) carries no
 * tag and is taken as any other object; so is everything the JDK's own
 * threads (Finalizer, Common-Cleaner) take. The breakpoint fires only when
 * a queue is not empty (poll returns at once on an empty one) and is the
 * same for both engines, which set it after the fast engine's
 * retransformation. Nothing here is on the per-bytecode path.
 *
 * A referent the collector cleared can also be read with no queue at all
 * (while (ref.get() != null) allocate;): Reference.get runs as a special
 * interpreter entry and a compiled intrinsic, refersTo as an intrinsic,
 * neither a bytecode nor a native binding. So the clearing is looked at
 * instead of the read: a GarbageCollectionFinish event notes that a
 * collection ended while an extent ran; the wrapper above then notes the
 * first reference of the program's kind in the list (WeakReference,
 * SoftReference, PhantomReference themselves, or a class the boot and
 * platform loaders did not define; the JDK's own subclasses, ThreadLocal's
 * and WeakHashMap's entries among them, are left to the queue rule); and
 * at the extent's end, once the Reference Handler has taken every pending
 * list, a noted reference ends the run (gcrefs_extent_end). Not seen: a
 * JDK subclass's referent read after it was cleared and before it is
 * enqueued (docs/determinism.md, "The garbage collector").
 */
#define _GNU_SOURCE
#include "agent.h"
#include "extent.h"
#include "gcrefs.h"
#include "jvmti_util.h"
#include "methods.h"
#include "names.h"
#include "program.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GC_TAG ((jlong)TAG_GC_ENQUEUED << TAG_KIND_SHIFT)

typedef jobject(JNICALL *pending_fn)(JNIEnv *);
typedef jboolean(JNICALL *has_pending_fn)(JNIEnv *);
static pending_fn real_pending;
static has_pending_fn real_has_pending;

static void class_name_of(agent *a, JNIEnv *jni, jobject obj, char *out, size_t len);
static void thread_named(agent *a, JNIEnv *jni, jthread thread, char *out, size_t len);

/* GarbageCollectionFinish (inside the collection's safepoint, before the
 * Reference Handler can take its list: no JNI, no lock): whether a counted
 * extent was running. */
void JNICALL gcrefs_gc_finish(jvmtiEnv *jvmti)
{
    agent *a = &g_agent;
    (void)jvmti;
    uint32_t seq = atomic_fetch_add(&a->gc.seq, 1) + 1;
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) > 0)
        atomic_store(&a->gc.counted_upto, seq);
}

/* 1 when r's class is of the program's kind: WeakReference,
 * SoftReference or PhantomReference itself, or a class neither the boot
 * nor the platform loader defined (the program's subclass). The JDK's own
 * subclasses (ThreadLocal's and WeakHashMap's entries, the MethodType
 * table's, a Cleaner's) are what the queue rule is for. */
static int program_kind(agent *a, JNIEnv *jni, jobject r)
{
    jclass k = (*jni)->GetObjectClass(jni, r);
    if (k == NULL)
        return 0;
    int yes = 0;
    for (int i = 0; i < 3 && !yes; i++)
        yes = (*jni)->IsSameObject(jni, k, a->gc.kinds[i]);
    if (!yes)
        yes = init_sites_class(a, jni, k);
    (*jni)->DeleteLocalRef(jni, k);
    return yes;
}

/* Reference.getAndClearReferencePendingList: the JVM's list, every
 * reference of it tagged. The list is linked through Reference.discovered
 * and ends with null. When a collection of the list ended while an extent
 * ran, the first reference of the program's kind in it is noted for
 * gcrefs_extent_end. */
static jobject JNICALL psf_pending_list(JNIEnv *env, jclass cls)
{
    agent *a = &g_agent;
    (void)cls;
    atomic_fetch_add(&a->gc.taking, 1);
    /* The list holds what the collections up to the take cleared: every
     * one numbered up to `before`, and any that came between reading it and
     * the take. Counted: one of them ended while an extent ran (a counted
     * collection between the take and the next one's `before` makes both
     * takes counted, never neither). */
    uint32_t before = atomic_load(&a->gc.seq);
    jobject head = real_pending(env);
    int counted = atomic_load(&a->gc.counted_upto) > atomic_load(&a->gc.taken);
    atomic_store(&a->gc.taken, before);
    /* after VMDeath the result is out and JVMTI refuses tags */
    jobject r = head != NULL && !a->dead ? (*env)->NewLocalRef(env, head) : NULL;
    while (r != NULL) {
        jlong tag = 0;
        if (counted && jvmti_check(a, (*a->jvmti)->GetTag(a->jvmti, r, &tag), "GetTag") == 0 &&
            tag != GC_TAG && program_kind(a, env, r)) {
            char cls_name[128];
            class_name_of(a, env, r, cls_name, sizeof cls_name);
            lock_enter(a);
            if (a->gc.cleared[0] == '\0')
                snprintf(a->gc.cleared, sizeof a->gc.cleared, "%s", cls_name);
            lock_exit(a);
            counted = 0; /* one is enough */
        }
        jvmti_check(a, (*a->jvmti)->SetTag(a->jvmti, r, GC_TAG), "SetTag");
        jobject next = (*env)->GetObjectField(env, r, a->gc.discovered);
        (*env)->DeleteLocalRef(env, r);
        r = next;
    }
    atomic_fetch_sub(&a->gc.taking, 1);
    return head;
}

/* The end of an extent (before it stops counting), on its thread: once the
 * Reference Handler has taken what the collections so far cleared (it
 * runs on its own; at most 2 s), a reference of the program's kind that a
 * collection cleared while counted code ran ends the run. Work that reads
 * it (Reference.get, refersTo: neither a bytecode nor a native binding,
 * see the top) depends on when the collector ran. Not when an
 * OutOfMemoryError ends the extent (out_of_memory): the collector clears
 * every soft reference, the JDK's caches' among them, before it throws
 * one. */
void gcrefs_extent_end(agent *a, JNIEnv *jni, jthread thread, int out_of_memory)
{
    if (real_has_pending == NULL || a->dead)
        return;
    for (int i = 0; i < 2000; i++) {
        /* the list first: the wrapper counts itself in before it takes it */
        if (!real_has_pending(jni) && atomic_load(&a->gc.taking) == 0)
            break;
        usleep(1000);
    }
    char cls[sizeof a->gc.cleared];
    lock_enter(a);
    memcpy(cls, a->gc.cleared, sizeof cls);
    if (out_of_memory)
        a->gc.cleared[0] = cls[0] = '\0'; /* nor for a later extent */
    lock_exit(a);
    if (cls[0] == '\0')
        return;
    char who[64], msg[sizeof a->stop_message];
    thread_named(a, jni, thread, who, sizeof who);
    snprintf(msg, sizeof msg,
             "the garbage collector cleared a %s while %s ran the method: what reads it (Reference.get, refersTo) "
             "depends on when the collector ran",
             cls, who);
    a->hooks.stop(a, jni, thread, "gc_dependent", msg);
}

/* "Ljava/lang/ref/WeakReference;" -> "java.lang.ref.WeakReference" into out. */
static void class_name_of(agent *a, JNIEnv *jni, jobject obj, char *out, size_t len)
{
    snprintf(out, len, "a reference");
    jclass k = (*jni)->GetObjectClass(jni, obj);
    char *sig = NULL;
    if (k == NULL || jvmti_check(a, (*a->jvmti)->GetClassSignature(a->jvmti, k, &sig, NULL), "GetClassSignature") != 0)
        return;
    size_t n = name_from_signature(sig, 0, out, len);
    if (n == 0 || n >= len)
        snprintf(out, len, "a reference");
    jvmti_free(a, sig);
    (*jni)->DeleteLocalRef(jni, k);
}

#define TAKER_FRAMES 256

/* Whose take is it? Walking out from the poll: a frame of the program's
 * first makes it the program's work (1, *taker names that frame); a frame
 * of the JVM's overhead first (an overhead root: a JDK class's static
 * initializer, a method-handle linkage upcall, whose work scores do not
 * count and whose result the program does not see) makes it not counted
 * (0); neither, within TAKER_FRAMES, makes it the counted thread's work
 * (1, *taker names the innermost frame outside java.lang.ref). */
static int counted_take(agent *a, JNIEnv *jni, jthread thread, const char **taker)
{
    jvmtiFrameInfo frames[TAKER_FRAMES];
    jint n = 0;
    *taker = "?";
    if (jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, TAKER_FRAMES, frames, &n), "GetStackTrace") != 0)
        return 1;
    for (jint i = 1; i < n; i++) {
        const method_info *m = methods_get(a, jni, frames[i].method);
        if (m == NULL)
            continue;
        if (m->program) {
            *taker = m->name;
            return 1;
        }
        if (m->root == ROOT_ALWAYS)
            return 0;
        if (strcmp(*taker, "?") == 0 && strncmp(m->name, "java.lang.ref.", 14) != 0)
            *taker = m->name;
    }
    return 1;
}

/* "thread 'NAME'" into out. */
static void thread_named(agent *a, JNIEnv *jni, jthread thread, char *out, size_t len)
{
    char *name = thread_name(a, jni, thread);
    snprintf(out, len, "thread '%s'", name != NULL ? name : "?");
    free(name);
}

/* The breakpoint at offset 0 of ReferenceQueue's poll (see the top). 1:
 * it was that method's. */
int gcrefs_breakpoint(agent *a, JNIEnv *jni, jthread thread, jmethodID method)
{
    if (method == NULL || method != a->gc.poll)
        return 0;
    thread_state *ts = agent_tls;
    if (ts == NULL || !ts->measuring)
        return 1;
    jobject queue = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetLocalObject(a->jvmti, thread, 0, 0, &queue), "GetLocalObject") != 0 ||
        queue == NULL)
        return 1;
    jobject head = (*jni)->GetObjectField(jni, queue, a->gc.head);
    (*jni)->DeleteLocalRef(jni, queue);
    if (head == NULL)
        return 1;
    jlong tag = 0;
    const char *where = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetTag(a->jvmti, head, &tag), "GetTag") == 0 && tag == GC_TAG &&
        counted_take(a, jni, thread, &where)) {
        char cls[128], who[64], msg[sizeof a->stop_message];
        class_name_of(a, jni, head, cls, sizeof cls);
        thread_named(a, jni, thread, who, sizeof who);
        int len = snprintf(msg, sizeof msg, "%s took a %s the garbage collector enqueued from a ReferenceQueue, in %s",
                           who, cls, where);
        if (len >= (int)sizeof msg) /* cut: say so */
            memcpy(msg + sizeof msg - 4, "...", 4);
        (*jni)->DeleteLocalRef(jni, head);
        a->hooks.stop(a, jni, thread, "gc_dependent", msg);
        return 1;
    }
    (*jni)->DeleteLocalRef(jni, head);
    return 1;
}

/* Is (name, desc) ReferenceQueue's method that takes the head (JDK 17:
 * reallyPoll, 21 and later: poll0)? */
int gcrefs_poll_method(const char *name, const char *desc)
{
    return (strcmp(name, "reallyPoll") == 0 || strcmp(name, "poll0") == 0) &&
           strcmp(desc, "()Ljava/lang/ref/Reference;") == 0;
}

/* At VMInit, after the fast engine's retransformation (which would clear
 * the breakpoint): the wrapper and the breakpoint. Failures are reported. */
void gcrefs_init(agent *a, JNIEnv *jni)
{
    jvmtiEnv *jv = a->jvmti;
    jclass ref = (*jni)->FindClass(jni, "java/lang/ref/Reference");
    jclass queue = ref ? (*jni)->FindClass(jni, "java/lang/ref/ReferenceQueue") : NULL;
    a->gc.discovered = queue ? (*jni)->GetFieldID(jni, ref, "discovered", "Ljava/lang/ref/Reference;") : NULL;
    a->gc.head = a->gc.discovered ? (*jni)->GetFieldID(jni, queue, "head", "Ljava/lang/ref/Reference;") : NULL;
    if (a->gc.head == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot find java.lang.ref.Reference.discovered or ReferenceQueue.head");
        return;
    }
    static const char *const kinds[3] = {"java/lang/ref/WeakReference", "java/lang/ref/SoftReference",
                                         "java/lang/ref/PhantomReference"};
    for (int i = 0; i < 3; i++) {
        jclass k = (*jni)->FindClass(jni, kinds[i]);
        a->gc.kinds[i] = k != NULL ? (*jni)->NewGlobalRef(jni, k) : NULL;
        if (a->gc.kinds[i] == NULL) {
            (*jni)->ExceptionClear(jni);
            agent_fail(a, "cannot find %s", kinds[i]);
            return;
        }
        (*jni)->DeleteLocalRef(jni, k);
    }
    real_has_pending = (has_pending_fn)dlsym(RTLD_DEFAULT, "JVM_HasReferencePendingList");
    real_pending = (pending_fn)dlsym(RTLD_DEFAULT, "JVM_GetAndClearReferencePendingList");
    JNINativeMethod methods[] = {
        {"getAndClearReferencePendingList", "()Ljava/lang/ref/Reference;", (void *)psf_pending_list},
    };
    if (real_pending == NULL || real_has_pending == NULL || (*jni)->RegisterNatives(jni, ref, methods, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind java.lang.ref.Reference.getAndClearReferencePendingList");
        return;
    }
    jint n = 0;
    jmethodID *ms = NULL;
    if (jvmti_check(a, (*jv)->GetClassMethods(jv, queue, &n, &ms), "GetClassMethods") != 0)
        return;
    for (jint i = 0; i < n && a->gc.poll == NULL; i++) {
        char *name = NULL, *desc = NULL;
        if (jvmti_check(a, (*jv)->GetMethodName(jv, ms[i], &name, &desc, NULL), "GetMethodName") != 0)
            break;
        if (gcrefs_poll_method(name, desc))
            a->gc.poll = ms[i];
        jvmti_free(a, name);
        jvmti_free(a, desc);
    }
    jvmti_free(a, ms);
    if (a->gc.poll == NULL) {
        agent_fail(a, "java.lang.ref.ReferenceQueue has neither reallyPoll() nor poll0()");
        return;
    }
    jvmti_check(a, (*jv)->SetBreakpoint(jv, a->gc.poll, 0), "SetBreakpoint(ReferenceQueue)");
    jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL),
                "SetEventNotificationMode(GARBAGE_COLLECTION_FINISH)");
    (*jni)->DeleteLocalRef(jni, queue);
    (*jni)->DeleteLocalRef(jni, ref);
}
