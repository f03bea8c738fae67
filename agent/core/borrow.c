/*
 * borrow.c - counts handed from one thread or invocation to another:
 * helpers' counts charged to the invocation they worked for, and the code
 * a thread the method did not start runs for it while it runs (a borrowed
 * span, borrow_begin: a bystander running the method's task), counted and
 * charged to the invocation running.
 */
#include "extent.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ts's counts, zeroed then, go to invocation inv (0-based), or, while that
 * one still runs, to the next one recorded (pre_n). `unscheduled`: they
 * ran on a thread the method did not start, which nothing schedules, so
 * how much of them falls inside the method's run can vary (lock held). */
void borrow_charge_counts(agent *a, thread_state *ts, uint32_t inv, int unscheduled)
{
    int recorded = inv < a->ninvocations;
    uint64_t *to = recorded ? a->invocations[inv].n : a->pre_n;
    for (int b = 0; b < BUCKETS; b++)
        to[b] += ts->n[b];
    if (unscheduled)
        *(recorded ? &a->invocations[inv].unscheduled : &a->pre_unscheduled) += ts->n[BUCKET_WORK];
    ts->n[0] = ts->n[1] = 0;
}

/* A helper no longer counted (a daemon stopped at its extent's end) begins
 * to count for something else: what it counted as a helper stays with the
 * invocation that started it. */
void borrow_helper_fold(agent *a, thread_state *ts)
{
    if (!ts->helper)
        return;
    lock_enter(a);
    borrow_charge_counts(a, ts, ts->inv_index, 0);
    lock_exit(a);
    ts->helper = ts->daemon = ts->idle_helper = 0;
}

/* What a bystander counted in the program's code (borrow_begin) goes to
 * the invocation it counted for; to the next one recorded while that one
 * still runs. After the span ended (or the extents' end stopped it). */
void borrow_fold(agent *a, thread_state *ts)
{
    if (ts->borrow_method == NULL)
        return;
    lock_enter(a);
    borrow_charge_counts(a, ts, ts->borrow_inv, 1);
    lock_exit(a);
    ts->borrow_method = NULL;
}

/* The depth of the outermost frame of the program's on the calling
 * thread's stack; -1 when there is none (or JVMTI cannot say). */
jint outermost_program_frame(agent *a, JNIEnv *jni)
{
    jvmtiFrameInfo fr[256];
    jint found = -1;
    for (jint start = 0;; start += 256) {
        jint n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, start, 256, fr, &n) != JVMTI_ERROR_NONE || n <= 0)
            return found;
        for (jint i = 0; i < n; i++) {
            const method_info *m = methods_get(a, jni, fr[i].method);
            if (m != NULL && m->program)
                found = start + i;
        }
        if (n < 256)
            return found;
    }
}

/* The calling contexts of frames root..0 of the calling thread, outermost
 * first, as if counting had entered each of them. */
static void borrow_contexts(agent *a, thread_state *ts, JNIEnv *jni, jthread thread, jint root)
{
    jmethodID caller = NULL;
    jlocation call = -1;
    jvmtiFrameInfo fr[256];
    for (jint top = root; top >= 0; top -= 256) {
        jint lo = top >= 255 ? top - 255 : 0, n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, lo, top - lo + 1, fr, &n) != JVMTI_ERROR_NONE)
            return;
        for (jint i = n - 1; i >= 0; i--) {
            const method_info *m = methods_get(a, jni, fr[i].method);
            if (m == NULL)
                return;
            ctx_enter(a, ts, thread, fr[i].method, m, caller, call);
            caller = fr[i].method;
            call = fr[i].location;
        }
    }
}

/*
 * A bystander, a thread the method did not start that is stepped while an
 * extent runs (bystanders.c), executes a bytecode of the program's, or of
 * the JDK's that the program's code may have called: from here it is
 * counted, for the invocation running, until the outermost frame of the
 * program's on its stack returns (borrow_end) or the last running extent
 * ends (extents_end). So the program's code counts while the
 * method runs on every thread, with everything it calls: work handed to a
 * thread started before the method, finalize(), a Cleaner's action. The
 * JDK's code such a thread runs outside the program's frames (a pool
 * waking up, the Finalizer's loop) is not: bystanders.c watches it.
 * Returns -1, counting nothing, when no frame of the program's is on the
 * stack.
 */
int borrow_begin(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc)
{
    jint root = outermost_program_frame(a, jni);
    jmethodID root_method = NULL;
    jlocation root_loc = 0;
    if (root < 0 ||
        (*a->jvmti)->GetFrameLocation(a->jvmti, NULL, root, &root_method, &root_loc) != JVMTI_ERROR_NONE) {
        return -1;
    }
    borrow_helper_fold(a, ts);
    borrow_fold(a, ts); /* a span the extents' end stopped */
    if (span_start_counting(a, jni, thread, ts, 0) != 0)
        return 0;
    if (jvmti_check(a, (*a->jvmti)->NotifyFramePop(a->jvmti, thread, root), "NotifyFramePop") != 0) {
        span_thread_events(a, JVMTI_DISABLE, thread, ts);
        return 0;
    }
    lock_enter(a);
    ts->borrow_inv = a->ninvocations; /* the invocation running: recorded at its end */
    lock_exit(a);
    ts->borrow_method = root_method;
    bystanders_look(a, ts); /* below this frame, nothing of the program's is left to look for */
    span_start(a, ts);
    borrow_contexts(a, ts, jni, thread, root);
    ts->prev_op = 0; /* nothing called it: it was running already (or returned to from the JDK) */
    ts->prev_method = method;
    __atomic_store_n(&ts->borrow_live, 1, __ATOMIC_RELEASE);
    a->engine->count_first(a, ts, jni, thread, method, loc); /* borrowing is the step engine's */
    return 0;
}

/* The span borrow_begin started stops being counted (lock not held):
 * on its own thread when its frame pops, or on the thread whose extent
 * ended last; whichever comes first. */
int borrow_stop(agent *a, thread_state *ts, jthread thread)
{
    if (!__atomic_exchange_n(&ts->borrow_live, 0, __ATOMIC_ACQ_REL))
        return 0;
    span_thread_events(a, JVMTI_DISABLE, thread, ts);
    ts->measuring = 0;
    return 1;
}

/* The frame a bystander began to count in returns: what it counted goes to
 * its invocation, and while extents still run it is watched again. */
void borrow_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    int stopped = borrow_stop(a, ts, thread);
    if (stopped)
        limit_return(a, jni, thread, ts);
    if (a->result_written)
        return; /* the limit stopped the program */
    borrow_fold(a, ts);
    lock_enter(a);
    int active = a->active_extents > 0;
    lock_exit(a);
    if (active)
        bystanders_sentry_on(a, thread);
}
