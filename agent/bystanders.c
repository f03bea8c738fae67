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
 * application threads once the program has started a thread of its own
 * outside a measured extent (a GetAllThreads per invocation, which a
 * single-threaded program does not pay for).
 */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYSTANDER_CPU_NS 2000000LL /* 2 ms: far above an idle thread's wake-ups */

/* Is thread one of the JVM's own (group "system", or the innocuous group
 * of Common-Cleaner)? Application threads are in "main" or below it. */
static int is_system_thread(agent *a, JNIEnv *jni, jthread thread)
{
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if ((*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info) != JVMTI_ERROR_NONE)
        return 1;
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)info.name);
    if (info.context_class_loader != NULL)
        (*jni)->DeleteLocalRef(jni, info.context_class_loader);
    jvmtiThreadGroupInfo gi;
    memset(&gi, 0, sizeof gi);
    int system = 1;
    if (info.thread_group != NULL &&
        (*a->jvmti)->GetThreadGroupInfo(a->jvmti, info.thread_group, &gi) == JVMTI_ERROR_NONE) {
        system = gi.name != NULL && (strcmp(gi.name, "system") == 0 || strcmp(gi.name, "InnocuousThreadGroup") == 0);
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)gi.name);
        if (gi.parent != NULL)
            (*jni)->DeleteLocalRef(jni, gi.parent);
    }
    if (info.thread_group != NULL)
        (*jni)->DeleteLocalRef(jni, info.thread_group);
    return system;
}

/* At VMInit: the JVM's threads that run user code (finalize(), Cleaner
 * actions) are watched in every extent, whatever else the program does. */
void bystanders_init(agent *a, JNIEnv *jni)
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

/* Note the CPU time of one thread to compare at the extent's end. */
static void note_one(agent *a, JNIEnv *jni, thread_state *ts, jthread t)
{
    jlong cpu = 0;
    if ((*a->jvmti)->GetThreadCpuTime(a->jvmti, t, &cpu) != JVMTI_ERROR_NONE)
        return;
    ts->by_refs[ts->nby] = (*jni)->NewGlobalRef(jni, t);
    ts->by_cpu[ts->nby++] = cpu;
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
            (tag >> TAG_KIND_SHIFT) != TAG_STARTED_THREAD && (watched || !is_system_thread(a, jni, all[i])))
            note_one(a, jni, ts, all[i]);
        (*jni)->DeleteLocalRef(jni, all[i]);
    }
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)all);
}

void bystanders_check(agent *a, JNIEnv *jni, thread_state *ts)
{
    for (int i = 0; i < ts->nby; i++) {
        jlong t = 0;
        jint state = 0;
        if ((*a->jvmti)->GetThreadState(a->jvmti, ts->by_refs[i], &state) == JVMTI_ERROR_NONE &&
            (state & JVMTI_THREAD_STATE_ALIVE) &&
            (*a->jvmti)->GetThreadCpuTime(a->jvmti, ts->by_refs[i], &t) == JVMTI_ERROR_NONE &&
            t - ts->by_cpu[i] > BYSTANDER_CPU_NS && a->bystander[0] == '\0') {
            jvmtiThreadInfo info;
            memset(&info, 0, sizeof info);
            if ((*a->jvmti)->GetThreadInfo(a->jvmti, ts->by_refs[i], &info) == JVMTI_ERROR_NONE) {
                char *name = utf8_dup(info.name ? info.name : "?");
                snprintf(a->bystander, sizeof a->bystander,
                         "thread '%s', running before the method was called, used %lld ms of CPU while it ran: "
                         "work handed to threads the method did not start (a pool, finalize()) is not counted",
                         name ? name : "?", (long long)((t - ts->by_cpu[i]) / 1000000));
                free(name);
                (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)info.name);
            }
        }
        (*jni)->DeleteGlobalRef(jni, ts->by_refs[i]);
    }
    ts->nby = 0;
}
