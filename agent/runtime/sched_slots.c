/*
 * sched_slots.c - the threads that enter and leave the schedule: a slot
 * for each thread counted code starts (sched_add_slot) and for the thread that
 * starts it, the monitor events switched on then (sched_arm), the end of a
 * thread's turn on its step path (sched_step) and where it gives the baton
 * up to block (sched_block_here), and a thread that stops being counted, ends,
 * or outlives its extent (sched_leave, sched_thread_end,
 * sched_extent_end). Part of the scheduler (sched.c, which says how it
 * works).
 */
#define _GNU_SOURCE
#include "sched_impl.h"

#include <stdlib.h>
#include <string.h>

/* Append a slot for thread object t (or revive its old one); lock held. */
int32_t sched_add_slot(agent *a, JNIEnv *jni, jobject t, thread_state *ts)
{
    int32_t i = sched_slot_of(a, jni, t);
    if (i < 0) {
        if (a->sched.n == a->sched.cap) {
            sched_slot *v = grow_cap(a->sched.slots, &a->sched.cap, 16, sizeof *v);
            if (v == NULL)
                return -1;
            a->sched.slots = v;
        }
        i = (int32_t)a->sched.n++;
        memset(&a->sched.slots[i], 0, sizeof a->sched.slots[i]);
        a->sched.slots[i].thread = (*jni)->NewGlobalRef(jni, t);
    }
    sched_slot *s = &a->sched.slots[i];
    s->state = SS_RUN;
    s->ts = ts;
    s->permit = s->wake = s->arrived = s->pending = 0;
    sched_drop_mon(jni, &s->mon);
    if (ts != NULL) {
        ts->sched_slot = (uint32_t)i + 1;
        ts->sched_quantum = SCHED_QUANTUM;
    }
    return i;
}

/* The first thread counted code starts: the monitor events come on. */
void sched_arm(agent *a)
{
    if (a->sched.armed)
        return;
    a->sched.armed = 1;
    static const jvmtiEvent ev[] = {JVMTI_EVENT_MONITOR_WAIT, JVMTI_EVENT_MONITOR_WAITED,
                                    JVMTI_EVENT_MONITOR_CONTENDED_ENTER, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED};
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, ev[i], NULL),
                    "SetEventNotificationMode(MONITOR_*)");
}

void sched_thread_begins(agent *a, JNIEnv *jni, thread_state *ts, jthread thread)
{
    if (!a->sched.armed)
        return;
    slock(a);
    int32_t i = sched_slot_of(a, jni, thread);
    if (i >= 0 && a->sched.slots[i].state == SS_RUN && a->sched.slots[i].ts == NULL) {
        a->sched.slots[i].ts = ts;
        ts->sched_slot = (uint32_t)i + 1;
        ts->sched_quantum = SCHED_QUANTUM;
    }
    sunlock(a);
}

void sched_forget(agent *a, JNIEnv *jni, jthread thread)
{
    if (!a->sched.armed)
        return;
    slock(a);
    int32_t i = sched_slot_of(a, jni, thread);
    if (i >= 0 && a->sched.slots[i].ts == NULL && a->sched.slots[i].state != SS_DONE) {
        a->sched.slots[i].state = SS_DONE;
        if (a->sched.holder == i)
            sched_pick(a, jni, i);
    }
    sunlock(a);
}

/* Is a class initializer (<clinit>) among this thread's frames? Read once
 * per turn that ends, in batches of frames (no allocation). */
static int in_initializer(agent *a, JNIEnv *jni)
{
    jvmtiFrameInfo frames[256];
    for (jint start = 0;; start += 256) {
        jint n = 0;
        if ((*a->jvmti)->GetStackTrace(a->jvmti, NULL, start, 256, frames, &n) != JVMTI_ERROR_NONE || n <= 0)
            return 0;
        for (jint i = 0; i < n; i++) {
            const method_info *m = methods_get(a, jni, frames[i].method);
            if (m != NULL && strstr(m->name, ".<clinit>(") != NULL)
                return 1;
        }
        if (n < 256)
            return 0;
    }
}

/* The step path's slow part: the quantum is used up, or this thread does
 * not hold the baton, or a transition must be looked at again. */
void sched_step(agent *a, JNIEnv *jni, thread_state *ts)
{
    /* a turn over inside a class initializer: another slot could need the
     * class, and the JVM's wait for it posts no event (and on JDK 17 and
     * 25 shows no Object.wait state): the holder goes on, up to
     * SCHED_INIT_TURNS turns (a spin in an initializer still ends) */
    if (ts->sched_quantum == 0 && ts->sched_init_turns < SCHED_INIT_TURNS && !a->dead && in_initializer(a, jni)) {
        ts->sched_init_turns++;
        ts->sched_quantum = SCHED_QUANTUM;
    }
    slock(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->sched.slots[me].state == SS_DONE) {
        /* once the run has ended (its totals are being read), the thread
         * keeps coming here until its events are off, and its caller
         * counts nothing (on_single_step) */
        if (!a->dead)
            ts->sched_slot = 0;
        sunlock(a);
        return;
    }
    if (a->sched.holder == me && ts->sched_quantum == 0)
        sched_pick(a, jni, me); /* my turn is over: the next ready slot, me last */
    else if (a->sched.holder == me && a->sched.check &&
             (!ts->measuring || ts->prev_op == 0xc3 /* monitorexit */ ||
              (ts->prev_op >= 0xac && ts->prev_op <= 0xb1) /* a return: maybe a synchronized method's */))
        sched_settle(a, jni, me); /* a monitor a woken waiter or an ending thread waits for may be free now */
    int held = a->sched.holder == me;
    wait_turn(a, jni, me);
    if (!held || ts->sched_quantum == 0) {
        ts->sched_quantum = SCHED_QUANTUM; /* a new turn */
        ts->sched_init_turns = 0;
    }
    sunlock(a);
}

/* Slot me gives the baton up to block in state st; waits for its turn
 * again. Lock held. */
void sched_block_here(agent *a, JNIEnv *jni, thread_state *ts, int32_t me, int st)
{
    sched_slot *s = &a->sched.slots[me];
    s->state = st;
    s->in_callback = 1;
    sched_pick(a, jni, me);
    wait_turn(a, jni, me);
    s->in_callback = 0;
    ts->sched_quantum = SCHED_QUANTUM;
}

/* The counted thread stops being counted (its extent ended; a daemon
 * helper at the extent's end): its slot is dropped, the baton passed on. */
void sched_leave(agent *a, JNIEnv *jni, thread_state *ts)
{
    if (ts == NULL || ts->sched_slot == 0)
        return;
    slock(a);
    int32_t me = (int32_t)ts->sched_slot - 1;
    sched_slot *s = &a->sched.slots[me];
    if (s->state != SS_DONE && s->state != SS_EXITING) {
        s->state = SS_DONE;
        sched_drop_mon(jni, &s->mon);
        if (a->sched.holder == me)
            sched_pick(a, jni, me);
        swake(a);
    }
    ts->sched_slot = 0;
    sunlock(a);
}

/* The extent of this thread ended (its events are off): with threads it
 * started still counted, it keeps its slot and its steps, uncounted. */
void sched_extent_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    int32_t me = my_slot(a, ts);
    if (me < 0)
        return;
    slock(a);
    int others = 0;
    for (uint32_t i = 0; i < a->sched.n; i++)
        if ((int32_t)i != me && sched_counted_slot(&a->sched.slots[i]))
            others = 1;
    if (others && a->sched.slots[me].state == SS_RUN &&
        jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, thread),
                    "SetEventNotificationMode(SINGLE_STEP)") == 0) {
        sunlock(a);
        return;
    }
    sunlock(a);
    sched_leave(a, jni, ts);
}

/* ThreadEnd of a counted thread: the JVM still finishes it (the notify of
 * its joiners): the next holder waits for that (sched_settle). */
void sched_thread_end(agent *a, JNIEnv *jni, thread_state *ts)
{
    int32_t me = my_slot(a, ts);
    if (me < 0)
        return;
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (s->state != SS_DONE) {
        sched_drop_mon(jni, &s->mon);
        s->state = SS_EXITING;
        if (a->sched.holder == me)
            sched_release(a, jni, me);
    }
    sunlock(a);
}

/* Stop scheduling: the run ends (its totals are read next). */
void sched_off(agent *a)
{
    if (!a->sched.armed)
        return;
    slock(a);
    a->sched.off = 1;
    atomic_store_explicit(&a->sched.turn, -1, memory_order_release);
    swake(a);
    sunlock(a);
}
