/*
 * threads.c - each counting thread's probe object, and which threads
 * count: Probe.counting (and Probe.one when only one does) published under
 * the lock, switched where the step engine switches single-stepping
 * (fast_thread), the totals synced for the bytecode limit, and every
 * thread switched off at the end (fast_quiesce).
 */

#include "fast.h"
#include "jvmti_util.h"

/* Publish the threads now counting as Probe.counting, and the thread
 * counting when only one does as Probe.one (lock held). `one` is
 * cleared first and set last, so that a probe never finds there a thread
 * that the array it reads next does not hold. */
static int publish(agent *a, JNIEnv *jni)
{
    fast_own_alloc = 1; /* the agent's array: its class untagged (fast_array_alloc) */
    jobjectArray arr = (*jni)->NewObjectArray(jni, (jsize)a->fast.non, a->fast.probe, NULL);
    fast_own_alloc = 0;
    if (arr == NULL) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    for (uint32_t i = 0; i < a->fast.non; i++)
        (*jni)->SetObjectArrayElement(jni, arr, (jsize)i, a->fast.on[i]->fast.probe);
    (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_one, NULL);
    (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_counting, arr);
    if (a->fast.non == 1)
        (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_one, a->fast.on[0]->fast.probe);
    (*jni)->DeleteLocalRef(jni, arr);
    return 0;
}

/* This thread's counters object, made on first use: a the probe class without a
 * constructor run (none may run on a counted thread), hits sized for the
 * ids handed out so far. */
static jobject probe_of(agent *a, JNIEnv *jni, thread_state *ts, jthread thread)
{
    if (ts->fast.probe != NULL)
        return ts->fast.probe;
    lock_enter(a);
    uint32_t ids = a->fast.next_id;
    lock_exit(a);
    jobject p = (*jni)->AllocObject(jni, a->fast.probe);
    jsize size = (jsize)(ids > HITS_INITIAL ? ids : HITS_INITIAL);
    fast_own_alloc = 1; /* the agent's arrays: their classes untagged (fast_array_alloc) */
    jlongArray hits = (*jni)->NewLongArray(jni, size), ohits = (*jni)->NewLongArray(jni, size);
    /* a predictor per bucket, all 0, as bp_init */
    jbyteArray counters = (*jni)->NewByteArray(jni, (jsize)BP_ENTRIES);
    jbyteArray ocounters = (*jni)->NewByteArray(jni, (jsize)BP_ENTRIES);
    fast_own_alloc = 0;
    if (p == NULL || hits == NULL || ohits == NULL || counters == NULL || ocounters == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    (*jni)->SetObjectField(jni, p, a->fast.f_thread, thread);
    (*jni)->SetObjectField(jni, p, a->fast.f_hits, hits);
    (*jni)->SetObjectField(jni, p, a->fast.f_ohits, ohits);
    (*jni)->SetObjectField(jni, p, a->fast.f_counters, counters);
    (*jni)->SetObjectField(jni, p, a->fast.f_ocounters, ocounters);
    /* its calling-context tree's arrays; a Java call needs no exception
     * pending, so one the thread is throwing is put back after it */
    jthrowable thrown = (*jni)->ExceptionOccurred(jni);
    if (thrown != NULL)
        (*jni)->ExceptionClear(jni);
    (*jni)->CallVoidMethod(jni, p, a->fast.m_ctx_init);
    int failed = (*jni)->ExceptionCheck(jni);
    if (failed)
        (*jni)->ExceptionClear(jni);
    if (thrown != NULL) {
        (*jni)->Throw(jni, thrown);
        (*jni)->DeleteLocalRef(jni, thrown);
    }
    if (failed)
        return NULL;
    ts->fast.probe = (*jni)->NewGlobalRef(jni, p);
    (*jni)->DeleteLocalRef(jni, hits);
    (*jni)->DeleteLocalRef(jni, ohits);
    (*jni)->DeleteLocalRef(jni, counters);
    (*jni)->DeleteLocalRef(jni, ocounters);
    (*jni)->DeleteLocalRef(jni, p);
    return ts->fast.probe;
}

/* Read the thread's probe totals into ts->n, bucket by bucket. */
static void sync_total(agent *a, JNIEnv *jni, thread_state *ts)
{
    if (ts->fast.probe == NULL)
        return;
    ts->n[BUCKET_WORK] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_n);
    ts->n[BUCKET_OVERHEAD] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_on);
}

/* A thread's bound as it is switched on: the bytecodes left before the
 * run passes max_bytecodes, all threads' earlier spans counted (as the
 * step engine's shared total, extent.c); no bound without a limit. */
static jlong limit_bound(agent *a)
{
    uint64_t max = a->opts.max_bytecodes, counted = atomic_load_explicit(&a->counted, memory_order_relaxed);
    if (max == 0 || max > (uint64_t)INT64_MAX)
        return INT64_MAX;
    return counted >= max ? 0 : (jlong)(max - counted);
}

/*
 * Switch the probes of `thread` (state ts) on or off, where the step engine
 * enables or disables its single-stepping. On: its total starts from 0 (as
 * the step engine's span). Off: its total is read into ts->n. 0, or -1
 * (reported).
 */
int fast_thread(agent *a, thread_state *ts, jthread thread, int on)
{
    JNIEnv *jni = fast_env(a);
    if (jni == NULL || ts == NULL || a->fast.probe == NULL) {
        agent_fail(a, "the fast engine cannot switch a thread's probes %s", on ? "on" : "off");
        return -1;
    }
    if (on && probe_of(a, jni, ts, thread) == NULL) {
        agent_fail(a, "out of memory for a thread's probe counters");
        return -1;
    }
    if (on)
        fast_arm_watched(a);
    if (!on) {
        sync_total(a, jni, ts);
    } else {
        /* the totals from 0, in the work bucket with no root frame open
         * (as span_start_counting sets the step engine's bucket) */
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_n, 0);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_on, 0);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_mode, MODE_WORK);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_sp, 0);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_pending, 0); /* no call pending (span_start) */
        /* as if an invoke were the last step: the first method entered is an
         * entry, with no closeness (span_start: entry_far; PROBE_FAR, Probe.FAR: the
         * last entry so far back that nothing is close to it) */
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_call_mark, 0);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_pos, 0);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_bound, limit_bound(a));
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_entry_at, PROBE_FAR);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_seg_fence_b, -1);
        /* its calling contexts from the root, one frame in its run (span_start: ctx_start) */
        jintArray rc = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_run_count);
        if (rc == NULL) {
            agent_fail(a, "the fast engine cannot start a thread's calling contexts");
            return -1;
        }
        jint one = 1;
        (*jni)->SetIntArrayRegion(jni, rc, 0, 1, &one);
        (*jni)->DeleteLocalRef(jni, rc);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_top, 0);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_cur, 0);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_nsaved, 0);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_last, -1);
    }
    lock_enter(a);
    uint32_t i = 0;
    while (i < a->fast.non && a->fast.on[i] != ts)
        i++;
    int changed = 0;
    /* another thread counts already: this one began counting on its own
     * while that one's count runs (the method's class's initializer or
     * constructor, or the method, run on a thread it did not start); the
     * step engine counts that work for the invocation running, unscheduled
     * (core/borrow.c), not as a count of its own */
    int beside = on && i == a->fast.non && a->fast.non > 0;
    char counted[128] = "?";
    if (beside && a->fast.on[0]->thread_name != NULL)
        snprintf(counted, sizeof counted, "%s", a->fast.on[0]->thread_name);
    if (on && i == a->fast.non) {
        if (a->fast.non == a->fast.on_cap) {
            thread_state **v = grow_cap(a->fast.on, &a->fast.on_cap, 8, sizeof *v);
            if (v == NULL) {
                lock_exit(a);
                agent_fail(a, "out of memory for the list of counting threads");
                return -1;
            }
            a->fast.on = v;
        }
        a->fast.on[a->fast.non++] = ts;
        changed = 1;
    } else if (!on && i < a->fast.non) {
        a->fast.on[i] = a->fast.on[--a->fast.non];
        changed = 1;
        /* its span's bytecodes go to the limit's total (core/limits.c's limit_return checks it) */
        atomic_fetch_add_explicit(&a->counted, ts->n[BUCKET_WORK] + ts->n[BUCKET_OVERHEAD], memory_order_relaxed);
    }
    int bad = changed ? publish(a, jni) : 0;
    lock_exit(a);
    if (beside)
        fast_problem(a, "thread '%s' began counting while thread '%s' counted: the step engine counts the "
                        "program's code a thread the method did not start runs for the invocation running",
                     ts->thread_name != NULL ? ts->thread_name : "?", counted);
    /* no arrays a native allocated kept for a call's return probe: the
     * span's counts start or end here, and the arrays allocated here
     * (the counters, Probe.counting) are the agent's */
    native_arrays_drop(ts);
    if (bad)
        agent_fail(a, "out of memory switching a thread's probes");
    return bad ? -1 : 0;
}

/* Every thread's probes off at once, their totals read: the counts stop
 * moving before the profile is written. Threads keep their `measuring`. */
void fast_quiesce(agent *a)
{
    JNIEnv *jni = fast_env(a);
    if (jni == NULL || a->fast.probe == NULL)
        return;
    lock_enter(a);
    a->fast.non = 0;
    publish(a, jni);
    lock_exit(a);
    /* every thread: a helper that ended (no longer measuring) still owes
     * its total to its invocation; for a thread switched off before, the
     * total read then has not moved */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        sync_total(a, jni, ts);
}
