/*
 * bystanders.c - work handed to threads that were already running when the
 * method was called.
 *
 * Threads the method starts are counted (extent.c). A pool started
 * earlier (an executor or the common ForkJoin pool warmed up before the
 * call) is not scheduled, so work handed to it would vanish from the
 * count. The verdict on such threads follows from what they ran, counted,
 * never from how long it took: a score must not depend on the machine's
 * load (docs/determinism.md).
 *
 * The JVM's Finalizer and Common-Cleaner threads, which run user code
 * (finalize(), Cleaner actions), are watched in every extent; all other
 * threads once the program has started a thread of its own outside a
 * measured extent (a GetAllThreads per invocation, which a single-threaded
 * program does not pay for), except the JVM's own threads alive at VMInit,
 * known by identity (a thread group's name is the program's to choose),
 * and a thread that code not being counted starts while an extent runs (a
 * pool thread, a static initializer) from its start.
 *
 * The step engine single-steps every watched thread while an extent runs,
 * which also keeps it in the interpreter: code compiled beforehand runs
 * stepped too. The program's code it runs then is counted, as work of the
 * running invocation, with everything it calls (core/borrow.c,
 * borrow_begin): no bytecode of the program's goes uncounted while the
 * method runs, whatever thread runs it. The fast engine steps no thread;
 * its block probes report every thread's blocks, and a bystander's block
 * of the program's makes the run the step engine's (fast/probes.c).
 * Where HotSpot hides stepping, in a JDK initializer that the JDK's code
 * reached on a bystander, the program's code is seen by its method
 * entries (the step engine enables them for each bystander it steps) or
 * its blocks (the fast engine), and refused (bystanders_hidden_init).
 *
 * The JDK's code such threads run outside the program's frames is not
 * counted but charged to one allowance per period of running extents:
 * each bytecode of it, and each element that System.arraycopy or a native
 * of bulk.c (checksums, compression, direct-memory copies, file I/O)
 * handles there, one unit (bystanders_native). More than SENTRY_STEPS units
 * on all such threads together (none on the Finalizer and Common-Cleaner
 * threads, which run the JDK's clean-up) make the result hidden_threads,
 * naming the thread charged the most (bystanders_check). The step engine
 * charges bytecode by bytecode; the fast engine whole blocks and the
 * copies its probes see, never less, and leaves a run that passes the
 * allowance to the step engine, so only the step engine's count decides.
 */
#include "agent.h"
#include "bystanders.h"
#include "engine.h"
#include "extent.h"
#include "jvmti_util.h"
#include "methods.h"
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTRY_STEPS 10000ULL /* bytecodes and elements: far above an idle thread's wake-ups */

enum { SENTRY_CHARGED = 1, SENTRY_JDK_FREE = 2 }; /* charged for the JDK's code it runs, or not */

/* Step thread t while the extent runs, as a bystander, and watch the
 * methods it enters (bystanders_entry). Both are enabled for t alone: the
 * counted threads run as before. A thread that has ended is no error. */
void bystanders_sentry_on(agent *a, jthread t)
{
    /* engine=fast: stepping any thread makes HotSpot's interpreter call into
     * the VM at every bytecode of every thread, the counted one included;
     * that engine's probes report bystanders' blocks instead (docs/fast-engine.md) */
    if (!a->engine->steps)
        return;
    jvmtiError e = (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, t);
    if (e != JVMTI_ERROR_THREAD_NOT_ALIVE)
        jvmti_check(a, e, "SetEventNotificationMode(SINGLE_STEP) of a bystander");
    e = (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, t);
    if (e != JVMTI_ERROR_THREAD_NOT_ALIVE)
        jvmti_check(a, e, "SetEventNotificationMode(METHOD_ENTRY) of a bystander");
}

/* Stop stepping the calling bystander thread; with `entries`, stop
 * watching its method entries too (the extents ended). */
static void sentry_off(agent *a, jthread self, int entries)
{
    jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, self),
                "SetEventNotificationMode(SINGLE_STEP) of a bystander");
    if (entries)
        jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, JVMTI_EVENT_METHOD_ENTRY, self),
                    "SetEventNotificationMode(METHOD_ENTRY) of a bystander");
}

/* Is thread one of the JVM's own, alive before the program ran? */
static int is_jvm_thread(const agent *a, JNIEnv *jni, jthread thread)
{
    for (int i = 0; i < a->njvm_threads; i++)
        if ((*jni)->IsSameObject(jni, thread, a->jvm_threads[i]))
            return 1;
    return 0;
}

/* At VMInit: the JVM's threads that run user code (finalize(), Cleaner
 * actions) are watched in every extent, whatever else the program does;
 * its other threads (Reference Handler, Signal Dispatcher, ...) never. */
void bystanders_init(agent *a, JNIEnv *jni, jthread main_thread)
{
    jint n = 0;
    jthread *all = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetAllThreads(a->jvmti, &n, &all), "GetAllThreads") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        jvmtiThreadInfo info;
        memset(&info, 0, sizeof info);
        if ((*a->jvmti)->GetThreadInfo(a->jvmti, all[i], &info) == JVMTI_ERROR_NONE) {
            if (info.name != NULL && (strcmp(info.name, "Finalizer") == 0 || strcmp(info.name, "Common-Cleaner") == 0) &&
                a->nwatched < (int)(sizeof a->watched / sizeof a->watched[0]))
                a->watched[a->nwatched++] = (*jni)->NewGlobalRef(jni, all[i]);
            else if (!(*jni)->IsSameObject(jni, all[i], main_thread) &&
                     a->njvm_threads < (int)(sizeof a->jvm_threads / sizeof a->jvm_threads[0]))
                a->jvm_threads[a->njvm_threads++] = (*jni)->NewGlobalRef(jni, all[i]);
            jvmti_free(a, info.name);
            if (info.thread_group != NULL)
                (*jni)->DeleteLocalRef(jni, info.thread_group);
            if (info.context_class_loader != NULL)
                (*jni)->DeleteLocalRef(jni, info.context_class_loader);
        }
        (*jni)->DeleteLocalRef(jni, all[i]);
    }
    jvmti_free(a, all);
}

/* 1 when a virtual thread is mounted on thread t now: its carrier's frames
 * hold VirtualThread.runContinuation. */
static int carries_virtual(agent *a, JNIEnv *jni, jthread t)
{
    jvmtiFrameInfo fr[64];
    jint n = 0;
    if ((*a->jvmti)->GetStackTrace(a->jvmti, t, 0, 64, fr, &n) != JVMTI_ERROR_NONE)
        return 0;
    for (jint i = 0; i < n; i++) {
        const method_info *m = methods_get(a, jni, fr[i].method);
        if (m != NULL && m->root == ROOT_VIRTUAL_MOUNT)
            return 1;
    }
    return 0;
}

/* The program's code under a JDK class's static initializer on thread t
 * (NULL: the calling thread), as bystanders_hidden_init describes; with
 * `began`, found on another thread's stack when the method began
 * (bystanders_note). 1 with the message in msg. */
static int under_jdk_init(agent *a, JNIEnv *jni, jthread t, const char *tname, int began, char *msg,
                          size_t cap)
{
    jvmtiFrameInfo fr[64];
    jmethodID outer = NULL, init = NULL;
    for (jint start = 0;; start += 64) {
        jint n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, t, start, 64, fr, &n) != JVMTI_ERROR_NONE || n <= 0)
            break;
        for (jint i = 0; i < n; i++) {
            const method_info *m = methods_get(a, jni, fr[i].method);
            if (m == NULL)
                continue;
            if (m->program) {
                outer = fr[i].method;
                init = NULL; /* only an initializer below the outermost counts */
            } else if (outer != NULL && init == NULL && strstr(m->name, ".<clinit>(") != NULL) {
                init = fr[i].method;
            }
        }
        if (n < 64)
            break;
    }
    if (outer == NULL || init == NULL)
        return 0;
    const method_info *p = methods_get(a, jni, outer), *j = methods_get(a, jni, init);
    char *name = tname == NULL ? thread_name(a, jni, t) : NULL;
    if (name != NULL)
        tname = name;
    if (began)
        snprintf(msg, cap,
                 "%s was running inside %s on thread '%s', which the method did not start, when the method began: "
                 "work a JDK initializer began before the method and goes on with in it cannot be counted",
                 p != NULL ? p->name : "the program's code", j != NULL ? j->name : "a JDK initializer",
                 tname != NULL ? tname : "?");
    else
        snprintf(msg, cap,
                 "%s ran inside %s, which the JVM ran on thread '%s', which the method did not start, where HotSpot "
                 "hides single-stepping (a static access's resolution in the JDK's code): hidden from counting",
                 p != NULL ? p->name : "the program's code", j != NULL ? j->name : "a JDK initializer",
                 tname != NULL ? tname : "?");
    free(name);
    return 1;
}

/* An extent starts on thread self: watch the other threads while it runs
 * (all of them once the program started threads of its own, else the
 * Finalizer and Common-Cleaner). Threads the method started are counted,
 * not watched. Returns the status that ends the run at once, with the
 * message in msg, or NULL (engine=step):
 *  - virtual_threads: a virtual thread is mounted on one of them already;
 *    it mounted before the watch began, so no entry of runContinuation
 *    shows it, and its code runs with no steps posted (a virtual thread
 *    spinning in a queue's transfer when the method hands it work);
 *  - hidden_work: the program's code runs under a JDK initializer on one
 *    of them already (a pool's worker initializing ForkJoinPool, whose
 *    common pool makes the thread factory a system property names, as it
 *    waits for its next task): it entered before the watch began, so no
 *    method entry shows it, and the part of it after the method began
 *    would be counted, a different part each run.
 * The fast engine needs neither: its probes report every thread's blocks,
 * and the next block of the program's code there is refused
 * (bystanders_hidden_init). */
const char *bystanders_note(agent *a, JNIEnv *jni, jthread self, char *msg, size_t cap)
{
    const char *status = NULL;
    if (a->foreign_threads == 0) {
        for (int i = 0; i < a->nwatched; i++)
            bystanders_sentry_on(a, a->watched[i]);
        return NULL;
    }
    if (!a->engine->steps)
        return NULL; /* nothing to switch on: the probes report every thread's blocks */
    jint n = 0;
    jthread *all = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetAllThreads(a->jvmti, &n, &all), "GetAllThreads") != 0)
        return NULL;
    for (jint i = 0; i < n; i++) {
        jlong tag = 0;
        int watched = 0;
        for (int w = 0; w < a->nwatched; w++)
            watched |= (*jni)->IsSameObject(jni, all[i], a->watched[w]);
        if (!(*jni)->IsSameObject(jni, all[i], self) &&
            (*a->jvmti)->GetTag(a->jvmti, all[i], &tag) == JVMTI_ERROR_NONE &&
            (tag >> TAG_KIND_SHIFT) != TAG_STARTED_THREAD && (watched || !is_jvm_thread(a, jni, all[i]))) {
            bystanders_sentry_on(a, all[i]);
            /* (after the watch is on: a mount or an entry from here on is one it sees) */
            if (status == NULL && carries_virtual(a, jni, all[i])) {
                char *name = thread_name(a, jni, all[i]);
                snprintf(msg, cap,
                         "a virtual thread started before the method ran on carrier thread '%s' when the method "
                         "began: work on virtual threads is not counted",
                         name != NULL ? name : "?");
                free(name);
                status = "virtual_threads";
            } else if (status == NULL && under_jdk_init(a, jni, all[i], NULL, 1, msg, cap)) {
                status = "hidden_work";
            }
        }
        (*jni)->DeleteLocalRef(jni, all[i]);
    }
    jvmti_free(a, all);
    return status;
}

/* A thread starts that the measured code did not start (on the new thread,
 * before its first bytecode): while extents run, it is watched from here. */
void bystanders_thread_start(agent *a, jthread thread)
{
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) > 0)
        bystanders_sentry_on(a, thread);
}

/* Which kind of bystander ts is: charged for the JDK's code, or for none
 * (the Finalizer and Common-Cleaner threads, which run the JDK's own
 * clean-up). */
static int sentry_kind(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    if (ts->sentry_kind == 0) {
        ts->sentry_kind = SENTRY_CHARGED;
        for (int i = 0; i < a->nwatched; i++)
            if ((*jni)->IsSameObject(jni, thread, a->watched[i]))
                ts->sentry_kind = SENTRY_JDK_FREE;
    }
    return ts->sentry_kind;
}

/* Charge n units (bytecodes, elements) to bystander ts, on its own thread;
 * 1 when all bystanders together have now passed the allowance. */
static int sentry_charge(agent *a, thread_state *ts, uint64_t n)
{
    uint32_t gen = atomic_load_explicit(&a->sentry_gen, memory_order_relaxed);
    uint64_t mine = ts->sentry_gen == gen ? __atomic_load_n(&ts->sentry_steps, __ATOMIC_RELAXED) : 0;
    ts->sentry_gen = gen;
    __atomic_store_n(&ts->sentry_steps, mine + n, __ATOMIC_RELAXED);
    return atomic_fetch_add_explicit(&a->sentry_steps, n, memory_order_relaxed) + n > SENTRY_STEPS;
}

/* A thread that is not counted executed a bytecode: it is a bystander
 * stepped while an extent runs (bystanders_sentry_on). Returns 1 when the
 * bytecode is the program's, or the first of the JDK's in this period of
 * running extents: the caller counts it, with the frames above the
 * outermost of the program's on the thread's stack (core/borrow.c,
 * borrow_begin), or charges it (bystanders_charge) when there is none.
 * 0 when charged here. */
int bystanders_step(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int program)
{
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) == 0) {
        sentry_off(a, thread, 1); /* the extents ended: it runs at full speed again */
        return 0;
    }
    if (program || bystanders_look(a, ts))
        return 1;
    bystanders_charge(a, jni, thread, ts);
    return 0;
}

/* 1 the first time in a period of running extents that bystander ts asks:
 * code of the JDK's it runs then may have been called by the program's
 * (a worker that was waiting in a queue's take when the method began). */
int bystanders_look(agent *a, thread_state *ts)
{
    uint32_t gen = atomic_load_explicit(&a->sentry_gen, memory_order_relaxed);
    if (ts->sentry_looked == gen)
        return 0;
    ts->sentry_looked = gen;
    return 1;
}

/* A bytecode of the JDK's on a bystander, outside the program's frames.
 * Past the allowance it is stepped no more (its method entries are still
 * watched): the extent's check makes the result hidden_threads
 * (bystanders_check). */
void bystanders_charge(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    if (sentry_kind(a, jni, thread, ts) != SENTRY_JDK_FREE && sentry_charge(a, ts, 1))
        sentry_off(a, thread, 0);
}

/*
 * The program's code a JDK initializer runs on a bystander. A static
 * access in the JDK's code (a getstatic of SelectorProvider's Holder on a
 * pool's worker) makes HotSpot run the class's initializer inside the
 * access's resolution, with single-stepping hidden, and so whatever the
 * initializer runs: a class named in a system property, a Properties
 * object of the program's (linkage.c, top). On a counted thread linkage.c
 * watches each such access; a bystander runs the JDK's code uncounted, and
 * with no frame of the program's below, the initializer is the only way
 * the program's code gets there. So the program's code with a JDK class's
 * static initializer below its outermost frame on a bystander's stack is
 * refused, whether stepping is hidden there or not (an initializer that a
 * `new` or Class.forName ran): the step engine sees it at the method's
 * entry (bystanders_entry), the fast engine at its first block
 * (fast/probes.c), and both refuse the run the same way.
 *
 * Returns 1, with the message in msg, when the calling thread's stack
 * shows it: the outermost frame of the program's, the nearest initializer
 * of the JDK's below it, and the thread (thread_name, or when NULL its
 * name read then).
 */
int bystanders_hidden_init(agent *a, JNIEnv *jni, const char *thread_name, char *msg, size_t cap)
{
    return under_jdk_init(a, jni, NULL, thread_name, 0, msg, cap);
}

/* engine=step: MethodEntry on a bystander watched while extents run
 * (bystanders_sentry_on): a method of the program's entered under an
 * initializer of the JDK's ends the run as hidden_work
 * (bystanders_hidden_init); any other is stepped, and counted from its
 * first bytecode (borrow_begin). A carrier mounting a virtual thread
 * (VirtualThread.runContinuation) ends it as virtual_threads. Once no
 * extent runs, the thread is watched no more. */
void bystanders_entry(agent *a, JNIEnv *jni, jthread thread, jmethodID method)
{
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) == 0) {
        sentry_off(a, thread, 1);
        return;
    }
    const method_info *m = methods_get(a, jni, method);
    char msg[1024];
    if (m != NULL && m->program && bystanders_hidden_init(a, jni, NULL, msg, sizeof msg))
        a->hooks.stop(a, jni, thread, "hidden_work", msg);
    /* a carrier mounting a virtual thread: refused as its steps refuse it,
     * also past the allowance (no longer stepped): whether its start-up
     * passed the allowance first must not change the verdict */
    else if (m != NULL && m->root == ROOT_VIRTUAL_MOUNT)
        virtual_mount_stop(a, jni, thread, agent_tls);
}

/*
 * engine=fast: a block of n bytecodes (of the program's when `program`)
 * started on a thread that is not counted, or (n elements) a copy its
 * probe saw. The fast engine steps no bystander (docs/fast-engine.md), but
 * its probes see them. Returns BYSTANDER_PROGRAM for the program's code,
 * which the step engine counts (this engine cannot: it counts no thread
 * the method did not start); the JDK's blocks are charged to the
 * allowance, whole (never less than what ran), and BYSTANDER_OVER says it
 * is passed (whether the step engine, which charges bytecode by bytecode,
 * passes it too is its to decide), else BYSTANDER_JDK. 0 while no extent
 * runs.
 */
int bystanders_fast_block(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, uint32_t n, int program)
{
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) == 0)
        return 0;
    if (program)
        return BYSTANDER_PROGRAM;
    if (sentry_kind(a, jni, thread, ts) == SENTRY_JDK_FREE)
        return BYSTANDER_JDK;
    /* BYSTANDER_OVER once, for the charge that passes the allowance (the
     * probes go on reporting: fast/probes.c) */
    uint64_t was = atomic_load_explicit(&a->sentry_steps, memory_order_relaxed);
    return sentry_charge(a, ts, n) && was <= SENTRY_STEPS ? BYSTANDER_OVER : BYSTANDER_JDK;
}

/*
 * A native handled n elements on a thread that is not counted
 * (System.arraycopy with the step engine, whose stepped bystanders call
 * the native; any native of bulk.c with either engine): on a bystander
 * while extents run, outside the program's frames (those are counted),
 * they are charged to the allowance like as many bytecodes. A native does
 * in one call what a loop of the JDK's would do in many bytecodes (a
 * list's addAll copies it with one arraycopy), so without this a pool
 * handed the JDK's copying would pass unseen. With the step engine a
 * bystander is a thread stepped in this period (it asked bystanders_look);
 * with the fast engine any thread not counted, and passing the allowance
 * leaves the run to the step engine (engine->bystanders_over).
 */
void bystanders_native(agent *a, JNIEnv *jni, uint64_t n)
{
    thread_state *ts = agent_tls;
    if (n == 0 || ts == NULL || ts->measuring || ts->sched_slot != 0 ||
        __atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) == 0)
        return;
    uint32_t gen = atomic_load_explicit(&a->sentry_gen, memory_order_relaxed);
    if (a->engine->steps && ts->sentry_looked != gen)
        return; /* not stepped in this period: no bystander of this one */
    jthread thread = NULL;
    if ((*jni)->ExceptionCheck(jni) ||
        jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return;
    uint64_t was = atomic_load_explicit(&a->sentry_steps, memory_order_relaxed);
    if (sentry_kind(a, jni, thread, ts) != SENTRY_JDK_FREE && sentry_charge(a, ts, n)) {
        if (a->engine->bystanders_over != NULL) {
            if (was <= SENTRY_STEPS) /* once, for the charge that passes it */
                a->engine->bystanders_over(a, jni);
        } else {
            sentry_off(a, thread, 0);
        }
    }
    (*jni)->DeleteLocalRef(jni, thread);
}

/* The bytecodes all bystanders together may run while extents run. */
uint64_t bystanders_allowance(void)
{
    return SENTRY_STEPS;
}

/* An extent ends (on its thread, while it still counts as running): past
 * the bystanders' allowance, the result is hidden_threads, naming the
 * bystander charged the most. */
void bystanders_check(agent *a)
{
    lock_enter(a);
    if (atomic_load_explicit(&a->sentry_steps, memory_order_relaxed) <= SENTRY_STEPS || a->bystander[0] != '\0') {
        lock_exit(a);
        return;
    }
    uint32_t gen = atomic_load_explicit(&a->sentry_gen, memory_order_relaxed);
    const thread_state *worst = NULL;
    uint64_t most = 0;
    for (const thread_state *t = a->threads; t != NULL; t = t->next) {
        uint64_t n = __atomic_load_n(&t->sentry_steps, __ATOMIC_RELAXED);
        if (t->sentry_gen == gen && n > most) {
            most = n;
            worst = t;
        }
    }
    snprintf(a->bystander, sizeof a->bystander,
             "thread '%s', not started by the method, ran %llu of the JDK's bytecodes and native elements while "
             "it ran (all such threads together may run %llu): work handed to threads the method did not start "
             "(a pool, finalize()) is not counted",
             worst != NULL && worst->thread_name != NULL ? worst->thread_name : "?", (unsigned long long)most,
             SENTRY_STEPS);
    lock_exit(a);
}
