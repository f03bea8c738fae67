/*
 * bystanders.c - work handed to threads that were already running when the
 * method was called.
 *
 * Threads the method starts are counted (counting.c). A pool started
 * earlier (an executor or the common ForkJoin pool warmed up before the
 * call) is not stepped, so work handed to it would vanish from the count.
 * Such work cannot be counted after the fact, but it can be seen: when an
 * extent starts, the CPU time of every other live application thread is
 * noted; when it ends, a thread that used more than BYSTANDER_CPU_NS in
 * between makes the result invalid (status hidden_threads).
 *
 * The JVM's Finalizer and Common-Cleaner threads, which run user code
 * (finalize(), Cleaner actions), are watched in every extent; all other
 * threads once the program has started a thread of its own outside a
 * measured extent (a GetAllThreads per invocation, which a single-threaded
 * program does not pay for), except the JVM's own threads alive at VMInit,
 * known by identity (a thread group's name is the program's to choose).
 * A watched thread that ends before the extent does is compared at its end
 * (ThreadEnd records its CPU time); a thread that code not being counted
 * starts while an extent runs (a pool thread, a static initializer) is
 * watched from its start. If more threads start or end than can be
 * recorded, the result is hidden_threads rather than unchecked.
 */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYSTANDER_CPU_NS 2000000LL /* 2 ms: far above an idle thread's wake-ups */

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
            (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)info.name);
            if (info.thread_group != NULL)
                (*jni)->DeleteLocalRef(jni, info.thread_group);
            if (info.context_class_loader != NULL)
                (*jni)->DeleteLocalRef(jni, info.context_class_loader);
        }
        (*jni)->DeleteLocalRef(jni, all[i]);
    }
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)all);
}

/* ts starts (start = 1) or stops being counted: keep the CPU time it
 * spends counted, which is no hidden work (a pool thread that runs the
 * method itself, a daemon helper counted in an earlier invocation). */
void bystanders_counting(agent *a, thread_state *ts, jthread thread, int start)
{
    jlong cpu = 0;
    if ((*a->jvmti)->GetThreadCpuTime(a->jvmti, thread, &cpu) != JVMTI_ERROR_NONE)
        return;
    lock_enter(a);
    if (start)
        ts->cpu_mark = cpu;
    else if (cpu > ts->cpu_mark)
        ts->counted_cpu += cpu - ts->cpu_mark;
    lock_exit(a);
}

/* A thread's CPU time `cpu` less what it spent being counted (lock held). */
static jlong uncounted(agent *a, JNIEnv *jni, jthread thread, jlong cpu)
{
    for (thread_state *t = a->threads; t != NULL; t = t->next)
        if (t->ref != NULL && (*jni)->IsSameObject(jni, t->ref, thread))
            return cpu - t->counted_cpu - (t->measuring && cpu > t->cpu_mark ? cpu - t->cpu_mark : 0);
    return cpu;
}

/* Note the CPU time of one thread to compare at the extent's end. */
static void note_one(agent *a, JNIEnv *jni, thread_state *ts, jthread t)
{
    jlong cpu = 0;
    if ((*a->jvmti)->GetThreadCpuTime(a->jvmti, t, &cpu) != JVMTI_ERROR_NONE)
        return;
    ts->by_refs[ts->nby] = (*jni)->NewGlobalRef(jni, t);
    lock_enter(a);
    ts->by_cpu[ts->nby++] = uncounted(a, jni, t, cpu);
    lock_exit(a);
}

void bystanders_note(agent *a, JNIEnv *jni, thread_state *ts, jthread self)
{
    ts->nby = 0;
    if (a->foreign_threads == 0) {
        jthread *refs = realloc(ts->by_refs, sizeof a->watched / sizeof a->watched[0] * sizeof *refs);
        jlong *cpu = realloc(ts->by_cpu, sizeof a->watched / sizeof a->watched[0] * sizeof *cpu);
        if (refs != NULL)
            ts->by_refs = refs;
        if (cpu != NULL)
            ts->by_cpu = cpu;
        for (int i = 0; i < a->nwatched && refs != NULL && cpu != NULL; i++)
            note_one(a, jni, ts, a->watched[i]);
        return;
    }
    jint n = 0;
    jthread *all = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetAllThreads(a->jvmti, &n, &all), "GetAllThreads") != 0)
        return;
    jthread *refs = realloc(ts->by_refs, (size_t)(n > 0 ? n : 1) * sizeof *refs);
    jlong *cpu = realloc(ts->by_cpu, (size_t)(n > 0 ? n : 1) * sizeof *cpu);
    if (refs != NULL)
        ts->by_refs = refs;
    if (cpu != NULL)
        ts->by_cpu = cpu;
    for (jint i = 0; i < n && refs != NULL && cpu != NULL; i++) {
        jlong tag = 0;
        int watched = 0;
        for (int w = 0; w < a->nwatched; w++)
            watched |= (*jni)->IsSameObject(jni, all[i], a->watched[w]);
        if (!(*jni)->IsSameObject(jni, all[i], self) &&
            (*a->jvmti)->GetTag(a->jvmti, all[i], &tag) == JVMTI_ERROR_NONE &&
            (tag >> TAG_KIND_SHIFT) != TAG_STARTED_THREAD && (watched || !is_jvm_thread(a, jni, all[i])))
            note_one(a, jni, ts, all[i]);
        (*jni)->DeleteLocalRef(jni, all[i]);
    }
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)all);
}

/* Too many threads to keep track of: fail closed (lock held). */
static void overflow(agent *a)
{
    if (a->bystander[0] == '\0')
        snprintf(a->bystander, sizeof a->bystander,
                 "more than %d threads that the method did not start began or ended while it ran: "
                 "their work cannot be checked", (int)(sizeof a->late / sizeof a->late[0]));
}

/* A thread starts that the measured code did not start (on the new thread). */
void bystanders_thread_start(agent *a, JNIEnv *jni, jthread thread)
{
    lock_enter(a);
    if (a->active_extents > 0) {
        if (a->nlate < (int)(sizeof a->late / sizeof a->late[0]))
            a->late[a->nlate++] = (struct by_thread){(*jni)->NewGlobalRef(jni, thread), 0};
        else
            overflow(a);
    }
    lock_exit(a);
}

/* A thread ends (on that thread): keep its CPU time for the extents' check.
 * Threads the measured code started and that are still counted are not
 * watched: nothing to keep. */
void bystanders_thread_end(agent *a, JNIEnv *jni, jthread thread)
{
    jlong cpu = 0, tag = 0;
    if ((*a->jvmti)->GetTag(a->jvmti, thread, &tag) != JVMTI_ERROR_NONE ||
        (tag >> TAG_KIND_SHIFT) == TAG_STARTED_THREAD ||
        (*a->jvmti)->GetThreadCpuTime(a->jvmti, thread, &cpu) != JVMTI_ERROR_NONE)
        return;
    lock_enter(a);
    if (a->active_extents > 0) {
        if (a->nended < (int)(sizeof a->ended / sizeof a->ended[0]))
            a->ended[a->nended++] = (struct by_thread){(*jni)->NewGlobalRef(jni, thread), uncounted(a, jni, thread, cpu)};
        else
            overflow(a);
    }
    lock_exit(a);
}

/* The uncounted CPU time of thread now, or at its end; -1 if unknown (lock held). */
static jlong cpu_of(agent *a, JNIEnv *jni, jthread thread)
{
    jlong t = 0;
    jint state = 0;
    if ((*a->jvmti)->GetThreadState(a->jvmti, thread, &state) == JVMTI_ERROR_NONE &&
        (state & JVMTI_THREAD_STATE_ALIVE) &&
        (*a->jvmti)->GetThreadCpuTime(a->jvmti, thread, &t) == JVMTI_ERROR_NONE)
        return uncounted(a, jni, thread, t);
    for (int i = 0; i < a->nended; i++)
        if ((*jni)->IsSameObject(jni, thread, a->ended[i].ref))
            return a->ended[i].cpu;
    return -1;
}

/* The thread that used the most CPU over the limit, among those judged. */
struct worst {
    jthread thread;
    jlong used;
    const char *when;
};

/* thread used `t - since` of CPU: keep it if it is over BYSTANDER_CPU_NS
 * and the most so far (lock held). */
static void judge(agent *a, JNIEnv *jni, jthread thread, jlong since, const char *when, struct worst *w)
{
    jlong t = cpu_of(a, jni, thread);
    if (t < 0 || t - since <= BYSTANDER_CPU_NS || t - since <= w->used)
        return;
    *w = (struct worst){thread, t - since, when};
}

/* Name the worst thread in the result (lock held). */
static void report(agent *a, JNIEnv *jni, const struct worst *w)
{
    if (w->thread == NULL || a->bystander[0] != '\0')
        return;
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if ((*a->jvmti)->GetThreadInfo(a->jvmti, w->thread, &info) != JVMTI_ERROR_NONE)
        info.name = NULL;
    char *name = utf8_dup(info.name ? info.name : "?");
    snprintf(a->bystander, sizeof a->bystander,
             "thread '%s', %s, used %lld ms of CPU while it ran: "
             "work handed to threads the method did not start (a pool, finalize()) is not counted",
             name ? name : "?", w->when, (long long)(w->used / 1000000));
    free(name);
    if (info.name != NULL)
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)info.name);
    if (info.thread_group != NULL)
        (*jni)->DeleteLocalRef(jni, info.thread_group);
    if (info.context_class_loader != NULL)
        (*jni)->DeleteLocalRef(jni, info.context_class_loader);
}

void bystanders_check(agent *a, JNIEnv *jni, thread_state *ts)
{
    struct worst w = {NULL, 0, NULL};
    lock_enter(a);
    /* every candidate is judged and the one that used the most CPU named:
     * the thread that did the work, not a starter or waiter that used a
     * little over the limit on a loaded machine */
    for (int i = 0; i < a->nlate; i++)
        judge(a, jni, a->late[i].ref, 0, "started while the method ran by code that is not counted", &w);
    for (int i = 0; i < ts->nby; i++)
        judge(a, jni, ts->by_refs[i], ts->by_cpu[i], "running before the method was called", &w);
    report(a, jni, &w);
    for (int i = 0; i < ts->nby; i++)
        (*jni)->DeleteGlobalRef(jni, ts->by_refs[i]);
    ts->nby = 0;
    lock_exit(a);
}

/* After an extent was recorded: once none runs, forget the threads that
 * began or ended meanwhile. (Not in bystanders_check, which runs while the
 * extent still counts as running, so that a thread ending meanwhile is
 * still recorded.) */
void bystanders_release(agent *a, JNIEnv *jni)
{
    lock_enter(a);
    if (a->active_extents == 0) {
        for (int i = 0; i < a->nlate; i++)
            (*jni)->DeleteGlobalRef(jni, a->late[i].ref);
        for (int i = 0; i < a->nended; i++)
            (*jni)->DeleteGlobalRef(jni, a->ended[i].ref);
        a->nlate = a->nended = 0;
    }
    lock_exit(a);
}
