/*
 * extent.c - the measured extent's life cycle: where counting starts, who
 * counts, where it ends, and each thread's state (ts_get).
 *
 * Idle, the JVM runs at full speed: the only armed event is a breakpoint at
 * offset 0 of the target method. When a thread hits it outside a measured
 * extent, that thread alone gets its extent's events (FramePop, Exception,
 * SampledObjectAlloc, and SingleStep with engine=step), and a frame pop is
 * requested for the outermost target frame; when that frame pops (by
 * return or by exception) they are switched off again for the thread.
 * Threads the method starts count with it (on_thread_start); the end of
 * the run quiesces every thread and records each invocation.
 *
 * HotSpot posts no SingleStep for the location of the breakpoint whose
 * callback enabled stepping, so on_breakpoint has the engine count that
 * first bytecode by hand (count_first: step/step.c step_count). Recursive
 * invocations are inside the extent. With engine=fast the same life cycle
 * switches the thread's probes instead (fast/engine.c).
 *
 * Where the engines differ it asks the engine's table (a->engine,
 * engine.h), never the engine= option; the fast engine's probes call it
 * directly (extent_begin, extent_end). It calls clinit.c, methods.c,
 * linkage.c and sched.c directly; they call it back only through a->hooks
 * (agent.h) and read the thread's state from state.c (agent_self), and the
 * end of a run at a limit goes up to vmentry.c through a->hooks.finish.
 * Switching a thread's events and counters for a span is span.c's, which
 * borrow.c and limits.c call too. extent.h is what the files of the extent
 * (extent.c, span.c, limits.c, borrow.c, step/, fast/probes.c,
 * fast/engine.c) share.
 */
#include "bystanders.h"
#include "clinit.h"
#include "contexts.h"
#include "engine.h"
#include "events.h"
#include "extent.h"
#include "gcrefs.h"
#include "jvmti_util.h"
#include "keys.h"
#include "scheduler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A malloc'd UTF-8 copy of the thread's name, "?" when JVMTI cannot say; thread NULL: the
 * calling thread. With jni, the local references GetThreadInfo made are deleted. */
char *thread_name(agent *a, JNIEnv *jni, jthread thread)
{
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if (jvmti_check(a, (*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info), "GetThreadInfo") != 0)
        return strdup("?");
    if (jni != NULL && info.thread_group != NULL)
        (*jni)->DeleteLocalRef(jni, info.thread_group);
    if (jni != NULL && info.context_class_loader != NULL)
        (*jni)->DeleteLocalRef(jni, info.context_class_loader);
    return xstrdup_jvmti(a, info.name);
}

/* The calling thread's state, created and registered on its first use;
 * NULL (reported) when out of memory. */
thread_state *ts_get(agent *a, jthread thread)
{
    if (agent_tls != NULL)
        return agent_tls;
    thread_state *ts = calloc(1, sizeof *ts);
    if (ts == NULL) {
        agent_fail(a, "out of memory for thread state");
        return NULL;
    }
    ts->bp = malloc(BUCKETS * sizeof *ts->bp);
    if (ts->bp == NULL) {
        free(ts);
        agent_fail(a, "out of memory for thread state");
        return NULL;
    }
    for (int b = 0; b < BUCKETS; b++)
        bp_init(&ts->bp[b]);
    ts->thread_name = thread_name(a, NULL, thread); /* (its local references end with the callback) */
    ts->grant = ts->budget = 1; /* the first step asks for a grant */
    lock_enter(a);
    ts->next = a->threads;
    a->threads = ts;
    lock_exit(a);
    agent_tls = ts;
    return ts;
}

/* Grow the per-key counters to cover every key interned so far. Called with
 * no lock; reads keys.count under the lock. */
int ts_cover_keys(agent *a, thread_state *ts)
{
    lock_enter(a);
    uint32_t need = a->keys.count;
    lock_exit(a);
    return ts_keys_grow(ts, need);
}


/*
 * Measured code calls Thread.start(): tag the Thread object, so that the new
 * thread is counted from its first bytecode however late it gets to run
 * (ThreadStart comes on the new thread, possibly after the method returned),
 * and enforce the thread limit here, in the thread that asked.
 */
void thread_start_seen(agent *a, thread_state *ts, JNIEnv *jni, jthread thread)
{
    jobject started = NULL;
    if (ts->bucket == BUCKET_OVERHEAD ||
        jvmti_check(a, (*a->jvmti)->GetLocalObject(a->jvmti, thread, 0, 0, &started), "GetLocalObject") != 0 ||
        started == NULL)
        return;
    jvmti_check(a, (*a->jvmti)->SetTag(a->jvmti, started, (jlong)TAG_STARTED_THREAD << TAG_KIND_SHIFT), "SetTag");
    (*jni)->DeleteLocalRef(jni, started);
    lock_enter(a);
    uint64_t n = ++a->threads_started;
    lock_exit(a);
    if (a->opts.max_threads != 0 && n > a->opts.max_threads) {
        char msg[160];
        snprintf(msg, sizeof msg, "the method started more than %llu threads (the limit)",
                 (unsigned long long)a->opts.max_threads);
        limit_stop(a, jni, thread, "thread_limit", msg);
    }
}


/* Switch counting off for this thread at the end of a span. Returns -1
 * when the bytecode limit stopped the program meanwhile. */
static int stop_counting(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    span_thread_events(a, JVMTI_DISABLE, thread, ts);
    limit_return(a, jni, thread, ts);
    if (a->result_written)
        return -1; /* the limit stopped the program */
    ts->measuring = 0;
    ts->pend_key = 0;
    ts->npend = 0;
    sched_extent_end(a, jni, thread, ts); /* threads it started still run: it keeps its turns */
    return 0;
}

static void resume_idle_helpers(agent *a);


/* The method is entered on this thread: open an extent (or let a
 * recursion be). The step engine's breakpoint at its offset 0 and the fast
 * engine's entry probe (fast/engine.c fast_begin) come here; 1 when an extent
 * was opened. */
int extent_begin(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring)
        return 0; /* recursion: the nested invocation gets its own step */
    /* a helper no longer counted (a daemon stopped at its extent's end)
     * calls the method itself: it now opens an extent of its own */
    borrow_helper_fold(a, ts);
    borrow_fold(a, ts);
    /* an exit probe that ends the extent needs no frame pop (which
     * would keep the thread in the interpreter) */
    if (span_start_counting(a, jni, thread, ts, !a->engine->entry_probe) != 0)
        return 0;
    lock_enter(a);
    if (a->active_extents++ == 0) { /* a new allowance for bystanders' bytecodes */
        atomic_store_explicit(&a->sentry_steps, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&a->sentry_gen, 1, memory_order_relaxed);
    }
    lock_exit(a);
    char vmsg[1024];
    const char *stop = bystanders_note(a, jni, thread, vmsg, sizeof vmsg);
    span_start(a, ts);
    ts->last_exception[0] = '\0';
    if (stop != NULL) {
        limit_stop(a, jni, thread, stop, vmsg);
        return 0;
    }
    resume_idle_helpers(a);
    return 1;
}

/* Breakpoint: at the method's entry, open an extent on this thread (or
 * let a recursion be); any other breakpoint is clinit_target.c's. */
void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc)
{
    agent *a = &g_agent;
    (void)jvmti;
    if (a->dead || gcrefs_breakpoint(a, jni, thread, method))
        return;
    if (a->engine->breakpoint != NULL)
        a->engine->breakpoint(a, agent_tls, method); /* a hidden class's method (fast/); clinit_target.c's may share it */
    if (method != a->target || loc != 0) {
        clinit_breakpoint(a, jni, thread, agent_tls, method, loc); /* the method's class is initialized */
        return;
    }
    if (extent_begin(a, jni, thread) && a->engine->count_first != NULL)
        a->engine->count_first(a, agent_tls, jni, thread, method, loc); /* no SingleStep comes for this location */
}

/*
 * Code of the method's own class that runs before the method, outside any
 * extent (clinit_target.c): its static initializer, and the constructor that makes
 * the instance an instance method runs on. It is counted like an extent of
 * its own, whose counts go to the next invocation recorded. `frame`: the
 * initializer or constructor; at_entry: this is the breakpoint at its
 * offset 0, which gets no step of its own, and the frame's pop ends the
 * count; otherwise the caller runs the initializer and ends the count.
 */

/* Start counting this thread outside an invocation (see above); 0, or -1
 * when it is already counting or cannot start. */
int pre_extent_begin(agent *a, JNIEnv *jni, jthread thread, jmethodID frame, int at_entry)
{
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring)
        return -1;
    if (span_start_counting(a, jni, thread, ts, at_entry) != 0)
        return -1;
    /* an extent for the threads it starts: they are counted, daemons too,
     * while it runs (on_thread_start), and watched afterwards */
    lock_enter(a);
    a->active_extents++;
    lock_exit(a);
    span_start(a, ts);
    ts->pre_method = frame;
    if (at_entry && a->engine->count_first != NULL)
        a->engine->count_first(a, ts, jni, thread, frame, 0); /* engine=fast: block 0's probe counts it */
    return 0;
}

/* End the count pre_extent_begin started on this thread; its steps wait
 * in a->pre_n for the next invocation recorded. */
void pre_extent_end(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = agent_tls;
    if (ts == NULL || ts->pre_method == NULL)
        return;
    if (stop_counting(a, jni, thread, ts) != 0)
        return;
    lock_enter(a);
    for (int b = 0; b < BUCKETS; b++)
        a->pre_n[b] += ts->n[b];
    a->active_extents--;
    lock_exit(a);
    ts->pre_method = NULL;
    extents_end(a, jni);
}

/* Append an invocation record (takes the lock). */
static void record_invocation(agent *a, thread_state *ts, const char *end, const char *exception)
{
    lock_enter(a);
    if (a->ninvocations == a->invocations_cap) {
        invocation *v = grow_cap(a->invocations, &a->invocations_cap, 16, sizeof *v);
        if (v == NULL) {
            lock_exit(a);
            agent_fail(a, "out of memory for invocation records");
            return;
        }
        a->invocations = v;
    }
    invocation *inv = &a->invocations[a->ninvocations++];
    inv->thread = strdup(ts->thread_name ? ts->thread_name : "?");
    inv->n[0] = ts->n[0];
    inv->n[1] = ts->n[1];
    for (int b = 0; b < BUCKETS; b++) {
        inv->n[b] += a->pre_n[b]; /* its class's initializer, its instance's constructor (clinit_target.c) */
        a->pre_n[b] = 0;
    }
    inv->unscheduled = a->pre_unscheduled;
    a->pre_unscheduled = 0;
    inv->end = end;
    inv->exception = exception != NULL && exception[0] != '\0' ? strdup(exception) : NULL;
    a->active_extents--;
    lock_exit(a);
}

/* A thread the measured code started that is not (or no longer) counted:
 * later extents watch it like any thread they did not start (bystanders.c). */
static void watch_from_now(agent *a, jthread thread)
{
    jvmti_check(a, (*a->jvmti)->SetTag(a->jvmti, thread, 0), "SetTag");
    a->foreign_threads = 1;
}

/*
 * The last running extent has ended (nothing to do while another runs):
 * bystanders counted in the program's code stop (borrow_stop), and daemon
 * threads the extents started stop being counted. The
 * JVM waits for other threads, so they are counted to their end; a daemon
 * thread it would cut off at an arbitrary point (a thread pool's idle
 * worker scanning for work, say), which would make the count vary from run
 * to run.
 *
 * A daemon that the scheduler runs (sched.c) keeps its slot, uncounted
 * (idle_helper): it goes on taking turns with the other slots, so where it
 * stands when the next extent begins is the same on every run, and that
 * extent counts it again from there (resume_idle_helpers). So a pool the
 * method started in one call (a parallel stream's workers) does the work of
 * the next call counted, instead of as a thread the method did not start.
 * Without the scheduler (engine=fast, which leaves threaded runs to the
 * step engine; the run's end) it is watched like any other thread.
 */
void extents_end(agent *a, JNIEnv *jni)
{
    lock_enter(a);
    int others = a->active_extents;
    lock_exit(a);
    if (others > 0)
        return; /* another extent is still running: keep counting */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->borrow_method != NULL && ts->ref != NULL)
            borrow_stop(a, ts, ts->ref); /* its counts are folded on its thread, or at the run's end */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->helper && ts->daemon && ts->measuring && ts->ref != NULL) {
            if (ts->sched_slot != 0 && !a->dead) {
                ts->idle_helper = 1; /* its events stay on: its steps take turns (on_single_step) */
                ts->measuring = 0;
                continue;
            }
            span_thread_events(a, JVMTI_DISABLE, ts->ref, ts);
            sched_leave(a, jni, ts);
            ts->measuring = 0;
            watch_from_now(a, ts->ref);
        }
}

/*
 * An extent begins while daemon helpers of earlier ones wait between
 * extents (extents_end): they are counted again, for this
 * invocation, from the point the schedule left them at. What each counted
 * for the earlier invocation is charged to it first. The extent's thread
 * holds the baton here, so none of them is executing a bytecode.
 */
static void resume_idle_helpers(agent *a)
{
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->idle_helper && ts->helper && ts->ref != NULL) {
            lock_enter(a);
            borrow_charge_counts(a, ts, ts->inv_index, 0);
            ts->inv_index = a->ninvocations; /* the invocation now running (recorded at its end) */
            lock_exit(a);
            ts->idle_helper = 0;
            ts->measuring = 1;
        }
}

/* The extent's outermost frame of the method pops (by_exception: an
 * exception leaves it): stop counting and record the invocation. */
void extent_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int by_exception)
{
    if (ts->helper)
        return;
    if (a->program_threads)
        a->late_threads = 1; /* its identity hash codes may be read in an extent (fast/engine.c) */
    /* a reference the collector cleared meanwhile ends the run, unless an
     * OutOfMemoryError does (the collector cleared soft references first) */
    gcrefs_extent_end(a, jni, thread, by_exception && strcmp(ts->last_exception, "java.lang.OutOfMemoryError") == 0);
    if (stop_counting(a, jni, thread, ts) != 0)
        return;
    bystanders_check(a);
    record_invocation(a, ts, by_exception ? "exception" : "return", by_exception ? ts->last_exception : NULL);
    extents_end(a, jni);
}

/* FramePop: the end of an overhead root, of a count before the method
 * (pre_extent_end), or of an outermost invocation, which is recorded. */
void JNICALL on_frame_pop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    if (ts->bucket == BUCKET_OVERHEAD) {
        if (method == ts->root_method) {
            ts->bucket = BUCKET_WORK;
            ts->root_method = NULL;
            ts->prev_op = ts->saved_prev_op; /* the bytecode that triggered it is still executing */
            ctx_restore(ts, ts->root_mark_top, ts->root_mark_count);
        }
        return;
    }
    if (ts->borrow_method != NULL) {
        if (method == ts->borrow_method)
            borrow_end(a, jni, thread, ts);
        return;
    }
    if (ts->pre_method != NULL) {
        if (method == ts->pre_method) {
            pre_extent_end(a, jni, thread);
            if (method == a->target_clinit)
                clinit_target_done(a);
        }
        return;
    }
    if (method == a->target)
        extent_end(a, jni, thread, ts, by_exception);
}

/* A helper thread (started by the measured code, counted for its whole
 * life) ends: what it counted of its grant goes to the limit's total. */
void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
    agent *a = &g_agent;
    (void)jvmti;
    thread_state *ts = agent_tls;
    if (a->dead)
        return;
    if (ts != NULL && ts->sched_slot != 0 && !ts->measuring)
        sched_thread_end(a, jni, ts); /* an uncounted thread that took turns ends */
    if (ts == NULL || !ts->helper || !ts->measuring)
        return;
    sched_thread_end(a, jni, ts); /* the next thread's turn */
    limit_return(a, jni, thread, ts);
    ts->measuring = 0; /* ended: nothing left to stop (extents_end) */
}


/* Exceptions thrown inside an extent: remember the class, so an invocation
 * that ends by exception can say which (StackOverflowError, ...). */
void JNICALL on_exception(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                          jobject exception, jmethodID catch_method, jlocation catch_loc)
{
    agent *a = &g_agent;
    (void)jvmti; (void)thread; (void)catch_method; (void)catch_loc;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    jclass k = (*jni)->GetObjectClass(jni, exception);
    char *sig = NULL;
    char name[256] = "";
    if (k != NULL && (*a->jvmti)->GetClassSignature(a->jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE) {
        if (name_from_signature(sig, 0, name, sizeof name) == 0)
            snprintf(name, sizeof name, "%s", sig);
        jvmti_free(a, sig);
        char *utf8 = utf8_dup(name);
        snprintf(ts->last_exception, sizeof ts->last_exception, "%s", utf8 ? utf8 : name);
        free(utf8);
    }
    if (strcmp(name, "java.lang.StackOverflowError") == 0) {
        stack_overflow_stop(a, jni, thread, ts);
        return;
    }
    a->engine->exception(a, jni, thread, ts, method, loc, name, catch_method);
}

/*
 * A StackOverflowError thrown on a counting thread, caught or not: the
 * program is stopped here, at the throw, with status stack_overflow, under
 * either engine (docs/determinism.md, "The stack"). Where a stack of the
 * pinned size (-Xss) ends depends on the sizes of the frames on it, which
 * differ between the engines (the step engine's frames are interpreted,
 * the fast engine's compiled with probes, or interpreted with the probes'
 * larger operand stacks), so neither engine's count of such a run is the
 * other's, and a count that depends on where the stack ends is no
 * measure of the code: the run is refused by name, never handed from one
 * engine to the other. Stopping at the throw also spares the unwinding:
 * with single-stepping on, HotSpot counts the thread's frames again for
 * every frame an exception leaves (JvmtiThreadState::count_frames), which
 * took 60 s for 9,000 frames.
 */
void stack_overflow_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts)
{
    char msg[512];
    unsigned inv = ts->helper ? (unsigned)ts->inv_index + 1 : (unsigned)a->ninvocations + 1;
    snprintf(msg, sizeof msg,
             "a StackOverflowError was thrown inside the method (invocation %u): where the stack ends depends on "
             "the sizes of the frames on it, which differ between the counting engines, so the run is not counted",
             inv);
    limit_stop(a, jni, thread, "stack_overflow", msg);
}

/* An exception was caught on a counting thread: the frames it unwound are
 * gone from its calling contexts (contexts.c). */
void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                                jobject exception)
{
    (void)jvmti; (void)jni; (void)loc; (void)exception;
    thread_state *ts = agent_tls;
    if (g_agent.dead || ts == NULL || !ts->measuring || ts->paused)
        return;
    ctx_catch(&g_agent, ts, thread, method);
    /* The stack is the catching frame's now: the step before the handler (a
     * return, when the JVM ran the exception's constructor) must not leave
     * that frame too at the handler's first step (step_context). */
    ts->prev_op = BC_NOP;
}

/*
 * Whether a thread that starts after VMInit, not started by measured code,
 * is one of the program's: in the main thread group (or one below it), and
 * none of the launcher's (main, DestroyJavaVM). The JDK's own threads made then (the
 * Common-Cleaner, the Notification Thread) belong to the system group.
 * Only a thread made after VMInit draws identity hash codes the engines
 * may not agree on (fast/engine.c identity_hash_read).
 */
static int program_thread(agent *a, JNIEnv *jni, jthread thread)
{
    if (a->main_thread != NULL && (*jni)->IsSameObject(jni, thread, a->main_thread))
        return 0; /* (ThreadStart may come for it: the launcher's thread named main, not counted either) */
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    if ((*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info) != JVMTI_ERROR_NONE)
        return 1;
    int program = 0;
    /* the launcher's own threads: main, and DestroyJavaVM, which it attaches when main() returned */
    int name_main = info.name != NULL && (strcmp(info.name, "main") == 0 || strcmp(info.name, "DestroyJavaVM") == 0);
    jthreadGroup g = info.thread_group;
    while (g != NULL && !program) {
        jvmtiThreadGroupInfo gi;
        memset(&gi, 0, sizeof gi);
        if ((*a->jvmti)->GetThreadGroupInfo(a->jvmti, g, &gi) != JVMTI_ERROR_NONE) {
            program = 1;
            break;
        }
        program = gi.name != NULL && strcmp(gi.name, "main") == 0;
        jvmti_free(a, gi.name);
        (*jni)->DeleteLocalRef(jni, g);
        g = gi.parent;
    }
    if (g != NULL)
        (*jni)->DeleteLocalRef(jni, g);
    if (info.context_class_loader != NULL)
        (*jni)->DeleteLocalRef(jni, info.context_class_loader);
    program = program && !name_main;
    agent_log(a, "thread %s started after VMInit%s", info.name != NULL ? info.name : "?",
              program ? ": the program's" : "");
    jvmti_free(a, info.name);
    return program;
}

/*
 * A thread that measured code started (its Thread object was tagged in
 * thread_start_seen) works for that code: it is counted for its whole life,
 * so work handed to it cannot vanish by finishing after the method returned.
 */
void JNICALL on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
    agent *a = &g_agent;
    (void)jvmti;
    jlong tag = 0;
    if (a->dead || (*a->jvmti)->GetTag(a->jvmti, thread, &tag) != JVMTI_ERROR_NONE)
        return;
    if ((tag >> TAG_KIND_SHIFT) != TAG_STARTED_THREAD) {
        if (program_thread(a, jni, thread))
            a->program_threads = 1;
        a->foreign_threads = 1; /* from now on, extents watch the other threads */
        bystanders_thread_start(a, thread); /* and one that starts while they run */
        return;
    }
    lock_enter(a);
    uint32_t inv_index = a->ninvocations; /* the invocation that started it is still running, or the last one */
    if (a->active_extents == 0 && inv_index > 0)
        inv_index--;
    lock_exit(a);
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof info);
    int daemon = 0;
    if ((*a->jvmti)->GetThreadInfo(a->jvmti, thread, &info) == JVMTI_ERROR_NONE) {
        daemon = info.is_daemon;
        jvmti_free(a, info.name);
    }
    lock_enter(a);
    int active = a->active_extents > 0;
    lock_exit(a);
    if (daemon && !active) {
        /* a daemon thread counts only while an extent runs, and this one began too late */
        watch_from_now(a, thread);
        sched_forget(a, jni, thread);
        return;
    }
    thread_state *ts = ts_get(a, thread);
    if (ts == NULL || ts->measuring) {
        sched_forget(a, jni, thread);
        return;
    }
    if (span_thread_events(a, JVMTI_ENABLE, thread, ts) != 0) {
        span_thread_events(a, JVMTI_DISABLE, thread, ts);
        sched_forget(a, jni, thread);
        return;
    }
    if (ts->ref == NULL)
        ts->ref = (*jni)->NewGlobalRef(jni, thread);
    ts->daemon = daemon;
    ts->helper = 1;
    ts->inv_index = inv_index;
    ts->bucket = BUCKET_WORK;
    ctx_start(a, ts);
    sched_thread_begins(a, jni, ts, thread); /* its slot, made when it was started */
    ts->prev_op = BC_INVOKEVIRTUAL; /* Thread.run is entered by the JVM as a call */
    ts->entry_far = 1;              /* ... with no entry before it on this thread */
    ts->measuring = 1;
}


/* Is the current thread inside Runtime.halt or Runtime.exit? */
static const char *exit_kind_of_current(agent *a, JNIEnv *jni)
{
    jvmtiFrameInfo frames[64];
    jint n = 0;
    if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, 0, 64, frames, &n) != JVMTI_ERROR_NONE)
        return NULL;
    const char *kind = NULL;
    for (jint i = 0; i < n && kind == NULL; i++) {
        char *name = NULL, *sig = NULL;
        jclass k = NULL;
        if ((*a->jvmti)->GetMethodName(a->jvmti, frames[i].method, &name, NULL, NULL) != JVMTI_ERROR_NONE)
            continue;
        if ((*a->jvmti)->GetMethodDeclaringClass(a->jvmti, frames[i].method, &k) == JVMTI_ERROR_NONE &&
            (*a->jvmti)->GetClassSignature(a->jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE &&
            strcmp(sig, "Ljava/lang/Runtime;") == 0) {
            if (strcmp(name, "halt") == 0)
                kind = "halt_in_method";
            else if (strcmp(name, "exit") == 0)
                kind = "exit_in_method";
        }
        jvmti_free(a, sig);
        jvmti_free(a, name);
        if (k != NULL)
            (*jni)->DeleteLocalRef(jni, k);
    }
    return kind;
}

/* Switch off the step events of every other measuring thread, so that the
 * totals read next stop moving. */
void counting_quiesce(agent *a)
{
    thread_state *self = agent_tls;
    sched_off(a); /* threads waiting for their turn go on, uncounted */
    if (a->engine->quiesce != NULL)
        a->engine->quiesce(a); /* fast/: every thread's probes off, their totals read */
    lock_enter(a);
    thread_state *list = a->threads;
    lock_exit(a);
    static const jvmtiEvent events[] = {JVMTI_EVENT_SINGLE_STEP, JVMTI_EVENT_FRAME_POP,
                                        JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, JVMTI_EVENT_EXCEPTION,
                                        JVMTI_EVENT_EXCEPTION_CATCH};
    for (thread_state *ts = list; ts != NULL; ts = ts->next)
        if (ts != self && ts->ref != NULL && ts->measuring)
            for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) /* a thread that ended: nothing to stop */
                (void)(*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, events[i], ts->ref);
}

/* At the run's end: record invocations still running as incomplete, and
 * charge pre-method counts and helper threads' counts to invocations. */
void counting_finish(agent *a, JNIEnv *jni)
{
    thread_state *self = agent_tls;
    if (self != NULL && self->measuring && !self->helper && self->pre_method == NULL)
        a->exit_kind = exit_kind_of_current(a, jni);
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->borrow_method != NULL) {
            borrow_fold(a, ts); /* a bystander's count in the program's code is no invocation */
            ts->measuring = 0;
        }
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->measuring && ts->pre_method != NULL) {
            /* the JVM ended in code of the method's class that runs before
             * it (a constructor calling System.exit): not an invocation */
            for (int b = 0; b < BUCKETS; b++)
                a->pre_n[b] += ts->n[b];
            ts->measuring = 0;
            ts->pre_method = NULL;
        } else if (ts->measuring && !ts->helper) {
            record_invocation(a, ts, "incomplete", NULL);
            ts->measuring = 0;
        }
    /* a constructor that ran after the last invocation: charged to it, so
     * the totals agree (there is always one when the result is ok) */
    if (a->ninvocations > 0) {
        for (int b = 0; b < BUCKETS; b++) {
            a->invocations[a->ninvocations - 1].n[b] += a->pre_n[b];
            a->pre_n[b] = 0;
        }
        a->invocations[a->ninvocations - 1].unscheduled += a->pre_unscheduled;
        a->pre_unscheduled = 0;
    }
    /* the work of threads an invocation started belongs to that invocation */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->helper && ts->inv_index < a->ninvocations)
            for (int b = 0; b < BUCKETS; b++)
                a->invocations[ts->inv_index].n[b] += ts->n[b];
    if (a->engine->collect != NULL)
        a->engine->collect(a, jni); /* fast/: the probes' hits into the method counters profile.c reads */
}

/* The dependency key of an array class, remembered in the class's tag; 0
 * when it is none (both engines charge arrays by it). */
uint32_t counting_array_key(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jlong tag = 0;
    if (jvmti_check(a, (*jv)->GetTag(jv, klass, &tag), "GetTag") != 0)
        return 0;
    if ((tag >> TAG_KIND_SHIFT) == TAG_ARRAY_KEY)
        return (uint32_t)(tag & TAG_INDEX_MASK);
    char *sig = NULL;
    if (jvmti_check(a, (*jv)->GetClassSignature(jv, klass, &sig, NULL), "GetClassSignature") != 0)
        return 0;
    char elem[1024];
    uint32_t k = 0;
    if (sig[0] == '[' && name_from_signature(sig, 1, elem, sizeof elem) != 0) {
        char *utf8 = utf8_dup(elem);
        lock_enter(a);
        k = utf8 ? keys_intern(&a->keys, KEY_ARRAY, utf8) : 0;
        lock_exit(a);
        free(utf8);
        if (k != 0)
            jvmti_check(a, (*jv)->SetTag(jv, klass, ((jlong)TAG_ARRAY_KEY << TAG_KIND_SHIFT) | k), "SetTag");
    }
    jvmti_free(a, sig);
    return k;
}


/* SampledObjectAlloc (every allocation, with -XX:-UseTLAB): the engine
 * charges those of a counting thread (step/arrays.c, fast/engine.c). */
void JNICALL on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jclass klass, jlong size)
{
    agent *a = &g_agent;
    (void)jvmti; (void)size;
    thread_state *ts = agent_tls;
    if (a->dead || ts == NULL || !ts->measuring)
        return;
    a->engine->array_alloc(a, jni, thread, ts, obj, klass);
}

/* A native of bulk.c handled n elements (hooks.elements): on a counting
 * thread, the engine charges them to invoke key k. */
void counting_charge_elements(agent *a, uint32_t k, uint64_t n)
{
    thread_state *ts = agent_tls;
    if (ts != NULL && ts->measuring && n > 0 && k != 0)
        a->engine->elements(a, ts, k, n);
}
