/*
 * bystanders.c - work handed to threads that were already running when the
 * method was called.
 *
 * Threads the method starts are counted (extent.c). A pool started
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
 *
 * CPU time alone can be dodged: a thread that warmed code up beforehand
 * runs it compiled, in less than the allowance. So every watched thread
 * is also single-stepped while an extent runs (which keeps it in the
 * interpreter). The program's code it runs then is counted, as work of
 * the running invocation, with everything it calls (core/borrow.c,
 * borrow_begin): no bytecode of the program's goes uncounted while the
 * method runs, whatever thread runs it. Of the JDK's code, which idle
 * threads run when they wake up, more than SENTRY_STEPS bytecodes on such
 * threads make the result hidden_threads as well (bystanders_step).
 * Either way the thread named is the one that did the most: the most CPU
 * time over the allowance, else the most bytecodes stepped.
 */
#include "agent.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BYSTANDER_CPU_NS 2000000LL /* 2 ms: far above an idle thread's wake-ups */
/* and more per bytecode of the JDK's run on it (uncounted): the engine's
 * jdk_cpu_ns (step/engine.c, fast/engine.c) */
#define SENTRY_STEPS 10000ULL      /* bytecodes: far above an idle thread's wake-ups */

enum { SENTRY_CHARGED = 1, SENTRY_JDK_FREE = 2 }; /* charged for the JDK's code it runs, or not */

/* Step thread t while the extent runs, as a bystander: single-stepping
 * also keeps it in the interpreter, so that work compiled beforehand
 * cannot hide below the CPU-time check. A thread that has ended is no
 * error. */
void bystanders_sentry_on(agent *a, jthread t)
{
    /* engine=fast: stepping any thread makes HotSpot's interpreter call into
     * the VM at every bytecode of every thread, the counted one included;
     * that engine keeps only the CPU-time check (docs/fast-engine.md) */
    if (!a->engine->steps)
        return;
    jvmtiError e = (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, t);
    if (e != JVMTI_ERROR_THREAD_NOT_ALIVE)
        jvmti_check(a, e, "SetEventNotificationMode(SINGLE_STEP) of a bystander");
}

/* Stop stepping the calling bystander thread. */
static void sentry_off(agent *a, jthread self)
{
    jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, self),
                "SetEventNotificationMode(SINGLE_STEP) of a bystander");
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
        __atomic_fetch_add(&ts->counted_cpu, cpu - ts->cpu_mark, __ATOMIC_RELAXED);
    lock_exit(a);
}

/* The calling thread's CPU time, the clock JVMTI's GetThreadCpuTime reads. */
jlong bystanders_self_cpu(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0;
    return (jlong)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Bystander ts spent the CPU time since `since` (bystanders_self_cpu) in
 * the agent's own work (its state on its first step, reading a class the
 * first time one of its methods is stepped, a counted span's start and
 * end): no work of the program's. No lock (counted_cpu is atomic). */
void bystanders_agent_cpu(thread_state *ts, jlong since)
{
    jlong now = bystanders_self_cpu();
    if (since == 0 || now <= since)
        return;
    __atomic_fetch_add(&ts->counted_cpu, now - since, __ATOMIC_RELAXED);
}

/* A thread's CPU time `cpu` less what it spent being counted or in the
 * agent, and less the engine's jdk_cpu_ns for each bytecode of the JDK's it
 * was stepped for as a bystander in this period of running extents (with
 * the fast engine, for each it ran): stepping is slow, and a
 * thread that wakes up may link call sites while it is stepped (lock
 * held). The bytecodes are few (SENTRY_STEPS for all such threads). */
static jlong uncounted(agent *a, JNIEnv *jni, jthread thread, jlong cpu)
{
    uint32_t gen = atomic_load_explicit(&a->sentry_gen, memory_order_relaxed);
    jlong per = a->engine->jdk_cpu_ns;
    for (thread_state *t = a->threads; t != NULL; t = t->next)
        if (t->ref != NULL && (*jni)->IsSameObject(jni, t->ref, thread)) {
            uint64_t stepped = t->sentry_gen == gen ? __atomic_load_n(&t->sentry_steps, __ATOMIC_RELAXED) : 0;
            jlong counting = t->measuring && cpu > t->cpu_mark ? cpu - t->cpu_mark : 0;
            return cpu - __atomic_load_n(&t->counted_cpu, __ATOMIC_RELAXED) - counting - (jlong)stepped * per;
        }
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
    bystanders_sentry_on(a, t);
}

void bystanders_note(agent *a, JNIEnv *jni, thread_state *ts, jthread self)
{
    lock_enter(a); /* bystanders_thread_start reads the notes of running extents */
    ts->nby = 0;
    lock_exit(a);
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

/* A thread starts that the measured code did not start (on the new thread,
 * before its first bytecode). It is judged by the CPU time it uses from
 * here: what it used before is the JVM's (creating the thread) and the
 * agent's, never the program's, and on a loaded machine it alone can pass
 * BYSTANDER_CPU_NS (a worker started just before the method, whose start
 * event comes after the method began). An extent that noted it already
 * (GetAllThreads lists a thread before its start event) judges it from
 * here as well. */
void bystanders_thread_start(agent *a, JNIEnv *jni, jthread thread)
{
    lock_enter(a);
    int active = a->active_extents > 0;
    lock_exit(a);
    if (!active)
        return;
    bystanders_sentry_on(a, thread);
    jlong cpu = bystanders_self_cpu();
    lock_enter(a);
    if (a->active_extents > 0) {
        jlong from = uncounted(a, jni, thread, cpu);
        if (a->nlate < (int)(sizeof a->late / sizeof a->late[0]))
            a->late[a->nlate++] = (struct by_thread){(*jni)->NewGlobalRef(jni, thread), from};
        else
            overflow(a);
        for (thread_state *t = a->threads; t != NULL; t = t->next)
            for (int i = 0; i < t->nby; i++)
                if (t->by_cpu[i] < from && (*jni)->IsSameObject(jni, t->by_refs[i], thread))
                    t->by_cpu[i] = from;
    }
    lock_exit(a);
}

/* Which kind of bystander ts is: charged for the JDK's code, or for none
 * (the Finalizer and Common-Cleaner threads, which run the JDK's own
 * clean-up). */
static int sentry_kind(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    if (ts->sentry_kind == 0) {
        if (ts->ref == NULL)
            ts->ref = (*jni)->NewGlobalRef(jni, thread); /* uncounted() finds its steps */
        ts->sentry_kind = SENTRY_CHARGED;
        for (int i = 0; i < a->nwatched; i++)
            if ((*jni)->IsSameObject(jni, thread, a->watched[i]))
                ts->sentry_kind = SENTRY_JDK_FREE;
    }
    return ts->sentry_kind;
}

/* Charge n bytecodes to bystander ts; 1 when all bystanders together have
 * now passed the allowance. */
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
        sentry_off(a, thread); /* the extents ended: it runs at full speed again */
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
 * Such bytecodes of every bystander count toward one allowance per period
 * of running extents, except on the Finalizer and Common-Cleaner threads.
 * Past the allowance every bystander is stepped no more (its work now
 * shows in its CPU time) and the extent's check makes the result
 * hidden_threads (bystanders_check). */
void bystanders_charge(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    if (sentry_kind(a, jni, thread, ts) != SENTRY_JDK_FREE && sentry_charge(a, ts, 1))
        sentry_off(a, thread);
}

/*
 * engine=fast: a block of n bytecodes (of the program's when `program`)
 * started on a thread that is not counted. The fast engine steps no
 * bystander (docs/fast-engine.md), but its block probes see them. Returns
 * BYSTANDER_PROGRAM for the program's code, which the step engine counts
 * (this engine cannot: it counts no thread the method did not start);
 * the JDK's blocks are charged to the allowance, whole (never less than
 * what ran), and BYSTANDER_OVER says it is passed (whether the step
 * engine, which charges bytecode by bytecode, passes it too is its to
 * decide), else BYSTANDER_JDK. 0 while no extent runs.
 */
int bystanders_fast_block(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, uint32_t n, int program)
{
    if (__atomic_load_n(&a->active_extents, __ATOMIC_RELAXED) == 0)
        return 0;
    if (program)
        return BYSTANDER_PROGRAM;
    if (sentry_kind(a, jni, thread, ts) == SENTRY_JDK_FREE)
        return BYSTANDER_JDK;
    return sentry_charge(a, ts, n) ? BYSTANDER_OVER : BYSTANDER_JDK;
}

/* The bytecodes all bystanders together may run while extents run. */
uint64_t bystanders_allowance(void)
{
    return SENTRY_STEPS;
}

/* Past the bystanders' allowance and no thread over the CPU-time one:
 * name the bystander that ran the most bytecodes (lock held). */
static void sentry_report(agent *a)
{
    if (atomic_load_explicit(&a->sentry_steps, memory_order_relaxed) <= SENTRY_STEPS || a->bystander[0] != '\0')
        return;
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
             "thread '%s', not started by the method, ran %llu bytecodes while it ran (all such threads "
             "together may run %llu): work handed to threads the method did not start "
             "(a pool, finalize()) is not counted",
             worst != NULL && worst->thread_name != NULL ? worst->thread_name : "?", (unsigned long long)most,
             SENTRY_STEPS);
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

/* Name the worst thread in the result, if any (lock held). */
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
        judge(a, jni, a->late[i].ref, a->late[i].cpu, "started while the method ran by code that is not counted", &w);
    for (int i = 0; i < ts->nby; i++)
        judge(a, jni, ts->by_refs[i], ts->by_cpu[i], "running before the method was called", &w);
    report(a, jni, &w);
    sentry_report(a);
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
