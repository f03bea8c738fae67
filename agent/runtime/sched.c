/*
 * sched.c - the threads a measured method starts run one at a time, in an
 * order fixed by thread creation, so that the same bytecodes execute on
 * every run (docs/determinism.md, "Threads the method starts").
 *
 * Idle until counted code starts a thread (Thread.start0, wrapped here):
 * then the starting thread and every thread it starts get a slot, in
 * creation order, and exactly one slot holds the baton. A counted thread
 * executes a bytecode only while it holds the baton: its SingleStep
 * callback (extent.c) waits on this file's condition otherwise. The
 * holder passes the baton on after SCHED_QUANTUM bytecodes and at every
 * point where it would block:
 *
 *   LockSupport.park (Unsafe.park)   emulated here: the thread waits for the
 *                                    baton instead; ready after an unpark of
 *                                    it (Unsafe.unpark, wrapped), a permit it
 *                                    had, or Thread.interrupt (interrupt0)
 *   timed park, Thread.sleep         virtual time: ready once no other slot
 *                                    is (a timeout costs no real time)
 *   Thread.yield                     the next ready slot runs
 *   Object.wait (MonitorWait)        ready once the thread has left the
 *                                    monitor's wait set (notify, notifyAll,
 *                                    an interrupt, the JVM's notifyAll when
 *                                    a thread it joins ends) and taken the
 *                                    monitor back; it retakes it inside the
 *                                    JVM, and the holder's next monitorexit
 *                                    or return after a notify (wrapped) waits
 *                                    until it has
 *   timed Object.wait (wrapped)      virtual time, as a sleep: waits without
 *                                    a timeout; once no other slot is ready
 *                                    and its monitor is free, it times out:
 *                                    the JVM's own interrupt of the thread
 *                                    (JVM_Interrupt) wakes it, which the JVM
 *                                    takes as a timeout, since Thread's
 *                                    interrupted field, which would make the
 *                                    wait throw, stays unset
 *   contended monitorenter           ready once the monitor has no owner
 *   (MonitorContendedEnter)          (every other counted thread is stopped
 *                                    then, so that is the same every run)
 *   the thread's end (ThreadEnd)     the next holder first waits until the
 *                                    JVM has finished it (its join notify)
 *
 * Readiness is decided only from what the counted threads did (logical),
 * never from timing; what a decision reads of the JVM's physical state (a
 * monitor's owner and wait set) is first "settled": the new holder waits
 * until every transition already decided has physically happened (a thread
 * that began Object.wait is in the wait set, a woken waiter owns its
 * monitor again, a thread that ended is gone).
 * When no slot is ready (all wait on something outside: a thread not
 * counted, I/O), the baton is free and the waiting threads poll.
 *
 * A holder that blocks without an event the agent sees, in a state JVMTI
 * reports as Object.wait, is found by the waiting threads' poll once it is
 * in the monitor's wait set, and handled as the Object.wait it is, at the
 * point where it stopped. (A holder back from Object.wait still shows that
 * state while the JVM retakes the monitor for it: in no wait set, it is
 * left to run.) The
 * JVM's wait for a class another slot is initializing is not reported so
 * (JDK 17 and 25 show it as running): a holder inside a class initializer
 * keeps the baton past its quantum instead (sched_step), so that no other
 * slot meets the class half initialized.
 *
 * Native I/O that would wait for another thread cannot be scheduled: the
 * waiting thread keeps the baton, so the thread that would feed it never
 * runs, and a socket's data arrives on the kernel's time. bulk.c's
 * wrappers of the JDK's read, write, accept, connect, poll and selector
 * natives ask sched_io first; a read of an empty pipe, a write to a pipe
 * without room for it, any socket operation and a selector's wait end the
 * run as unschedulable, naming what and where (every other pipe operation
 * returns at once, with what the threads wrote before in the fixed order).
 *
 * Single-threaded runs never get here: a thread without a slot pays one
 * compare on its step path. The step engine only: engine=fast has no
 * per-bytecode callback to pass the baton in.
 *
 * The files: this one holds the baton (which slot runs, readiness,
 * settling, the wait for a turn) and creates the scheduler's lock
 * (sched_init; sched_impl.h takes and drops it); sched_slots.c the threads that enter and leave the schedule and the end
 * of a turn (sched_step); sched_natives.c the blocking points (the monitor
 * events and the JDK natives wrapped here, and their binding);
 * sched_io.c the I/O that cannot be scheduled. sched_impl.h is what they
 * share and no other file reads.
 */
#define _GNU_SOURCE
#include "jvmti_util.h"
#include "sched_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Thread.interrupt0's JDK function (sched_natives.c binds it). */
void(JNICALL *real_interrupt0)(JNIEnv *, jobject);

/* Wait on the condition for at most ms milliseconds (lock held). */
static void swait(agent *a, int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += (long)ms * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&a->sched.cond, &a->sched.mutex, &t);
}

void sched_set_holder(agent *a, int32_t h)
{
    a->sched.holder = h;
    if (h >= 0)
        a->sched.last = h;
    atomic_store_explicit(&a->sched.turn, h + 1, memory_order_release);
    swake(a);
}

/* The slot of thread object t (any state), or -1. */
int32_t sched_slot_of(agent *a, JNIEnv *jni, jobject t)
{
    for (uint32_t i = 0; i < a->sched.n; i++)
        if ((*jni)->IsSameObject(jni, a->sched.slots[i].thread, t))
            return (int32_t)i;
    return -1;
}

/* Monitor of obj, seen from slot s: its owner (OWN_NONE, OWN_SELF: s's
 * thread, OWN_OTHER), and is s's thread in its wait set? 0, or -1 (reported). */
enum { OWN_NONE, OWN_SELF, OWN_OTHER };
static int monitor_of(agent *a, JNIEnv *jni, jobject obj, const sched_slot *s, int *owner, int *in_waitset)
{
    jvmtiMonitorUsage u;
    memset(&u, 0, sizeof u);
    if (jvmti_check(a, (*a->jvmti)->GetObjectMonitorUsage(a->jvmti, obj, &u), "GetObjectMonitorUsage") != 0)
        return -1;
    *owner = u.owner == NULL ? OWN_NONE : (*jni)->IsSameObject(jni, u.owner, s->thread) ? OWN_SELF : OWN_OTHER;
    *in_waitset = 0;
    for (jint i = 0; i < u.notify_waiter_count; i++)
        if ((*jni)->IsSameObject(jni, u.notify_waiters[i], s->thread))
            *in_waitset = 1;
    jvmti_free(a, u.waiters);
    jvmti_free(a, u.notify_waiters);
    return 0;
}

/* The monitor of obj is free for slot s: no owner, or s's own thread. */
static int free_for(agent *a, JNIEnv *jni, jobject obj, const sched_slot *s)
{
    int owner = OWN_OTHER, in_ws = 0;
    return monitor_of(a, jni, obj, s, &owner, &in_ws) == 0 && owner != OWN_OTHER;
}

/* The monitor's owner is the thread of a slot other than s that is still
 * counted (stopped at a deterministic point). */
static int owned_by_other_slot(agent *a, JNIEnv *jni, jobject obj, const sched_slot *s)
{
    jvmtiMonitorUsage u;
    memset(&u, 0, sizeof u);
    if (jvmti_check(a, (*a->jvmti)->GetObjectMonitorUsage(a->jvmti, obj, &u), "GetObjectMonitorUsage") != 0)
        return 0;
    int r = 0;
    if (u.owner != NULL && !(*jni)->IsSameObject(jni, u.owner, s->thread)) {
        int32_t o = sched_slot_of(a, jni, u.owner);
        r = o >= 0 && a->sched.slots[o].state != SS_DONE && a->sched.slots[o].state != SS_EXITING;
    }
    jvmti_free(a, u.waiters);
    jvmti_free(a, u.notify_waiters);
    return r;
}

void sched_drop_mon(JNIEnv *jni, jobject *ref)
{
    if (*ref != NULL)
        (*jni)->DeleteGlobalRef(jni, *ref);
    *ref = NULL;
}


/* The holder blocks in a way only another thread can see completed (it
 * enters Object.wait, it ends): the baton is left free, and the threads
 * waiting for their turn sched_pick (after settling that transition). A slot in
 * a virtual timed wait waits inside the JVM, not for its turn: when there
 * is one, the holder picks here, before it blocks, as the one slot that
 * is not ready (see slot_ready), so that the timeout still comes when no
 * other thread is left to pick (sched_pick). */
void sched_release(agent *a, JNIEnv *jni, int32_t me)
{
    a->sched.last = me;
    sched_set_holder(a, -1);
    for (uint32_t i = 0; i < a->sched.n; i++)
        if ((int32_t)i != me && a->sched.slots[i].state == SS_TWAIT && a->sched.slots[i].vtimed) {
            a->sched.entering = me;
            sched_pick(a, jni, me);
            a->sched.entering = -1;
            return;
        }
}

/* Is slot s ready to take the baton? pass 0: everything but a virtual
 * timeout; pass 1: a virtual timeout (a timed park, a sleep, a timed
 * Object.wait on a free monitor). */
static int slot_ready(agent *a, JNIEnv *jni, sched_slot *s, int pass)
{
    int32_t e = a->sched.entering;
    if (e >= 0 && s == &a->sched.slots[e])
        return 0; /* releasing the baton, blocked at once */
    switch (s->state) {
    case SS_RUN:
        return pass == 0;
    case SS_PARK:
        return pass == 0 && (s->permit || s->wake);
    case SS_TIMED:
        return pass == 1 || s->permit || s->wake;
    case SS_WAIT:
    case SS_TWAIT: {
        /* pass 0: back from the wait with the monitor retaken; a timed wait
         * the JVM times out itself (not wrapped: vtimed unset) also while it
         * still waits on a free monitor (a yield whose real timeout the
         * others wait for). pass 1: a virtual timeout on a free monitor. */
        int owner = OWN_OTHER, in_ws = 0;
        int virt = s->state == SS_TWAIT && s->vtimed;
        if ((pass != 0 && !virt) || monitor_of(a, jni, s->mon, s, &owner, &in_ws) != 0)
            return 0;
        if (pass != 0)
            /* the monitor free, or held by the slot that releases the
             * baton to wait on it, which lets go of it as it does */
            return in_ws && (owner == OWN_NONE ||
                             (owner == OWN_OTHER && e >= 0 && a->sched.slots[e].mon != NULL &&
                              (a->sched.slots[e].state == SS_WAIT || a->sched.slots[e].state == SS_TWAIT) &&
                              (*jni)->IsSameObject(jni, a->sched.slots[e].mon, s->mon)));
        return (!in_ws && owner == OWN_SELF) || (s->state == SS_TWAIT && !virt && in_ws && owner == OWN_NONE);
    }
    case SS_ENTER:
        return pass == 0 && free_for(a, jni, s->mon, s);
    default:
        return 0;
    }
}

/* A live slot whose thread is counted (or is about to start, counted), or
 * a daemon helper between extents, which the next extent counts again from
 * where the schedule left it (core/extent.c, extents_end). */
int sched_counted_slot(const sched_slot *s)
{
    return s->state != SS_DONE && s->state != SS_EXITING &&
           (s->ts == NULL || s->ts->measuring || s->ts->idle_helper);
}

/*
 * A thread whose extent ended while threads it started still run keeps its
 * slot, uncounted (its steps still come, for its turns alone): what it does
 * next (print, end, join) interleaves with them the same way every run.
 * Once no counted slot is left, such threads run free again. Lock held.
 */
static void release_participants(agent *a)
{
    for (uint32_t i = 0; i < a->sched.n; i++)
        if (sched_counted_slot(&a->sched.slots[i]))
            return;
    for (uint32_t i = 0; i < a->sched.n; i++) {
        sched_slot *s = &a->sched.slots[i];
        if (s->state == SS_DONE || s->state == SS_EXITING || s->ts == NULL)
            continue;
        s->state = SS_DONE;
        s->ts->sched_slot = 0;
        (void)(*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, s->thread);
    }
}

/* Hand the baton to the first ready slot after `from` in creation order
 * (from itself last), or leave it free, once what the slots did has
 * physically happened (sched_settle; by the calling thread, about its own slot
 * it cannot wait). Lock held. */
void sched_pick(agent *a, JNIEnv *jni, int32_t from)
{
    int32_t h0 = a->sched.holder;
    sched_settle(a, jni, my_slot(a, self_ts(a)));
    if (a->sched.holder != h0)
        return; /* another thread picked while sched_settle waited */
    release_participants(a);
    uint32_t n = a->sched.n;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 1; k <= n; k++) {
            uint32_t i = (uint32_t)(from + (int32_t)k) % n;
            sched_slot *s = &a->sched.slots[i];
            if (!slot_ready(a, jni, s, pass))
                continue;
            if (s->state == SS_PARK || s->state == SS_TIMED) {
                if (s->permit && !s->wake)
                    s->permit = 0; /* an unpark consumed; an interrupt is not */
                s->wake = 0;
            }
            int timed_out = pass == 1 && s->state == SS_TWAIT;
            s->state = SS_RUN;
            sched_set_holder(a, (int32_t)i);
            if (timed_out) {
                real_interrupt0(jni, s->thread); /* its virtual timeout: see w_wait */
                a->sched.check = 1; /* it settles before it runs: it was not waiting for its turn */
            }
            return;
        }
    sched_set_holder(a, -1);
}

static void pause_short(void)
{
    struct timespec d = {0, 20000};
    nanosleep(&d, NULL);
}

/*
 * The new holder, before it runs: wait until every transition decided so
 * far has physically happened, so that what the next decision reads of the
 * JVM is the same on every run. Lock held (released while waiting).
 */
void sched_settle(agent *a, JNIEnv *jni, int32_t me)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int unsettled = 0;
        a->sched.check = 0;
        for (uint32_t i = 0; i < a->sched.n; i++) {
            sched_slot *s = &a->sched.slots[i];
            if ((int32_t)i == me)
                continue;
            int owner = OWN_OTHER, in_ws = 0;
            if (s->pending) {
                /* began Object.wait: in the wait set, or already back (an
                 * interrupt pending, a timeout) */
                if (s->arrived || (monitor_of(a, jni, s->mon, s, &owner, &in_ws) == 0 && in_ws))
                    s->pending = 0;
                else
                    unsettled = 1;
            } else if (s->state == SS_EXITING) {
                jint st = 0;
                if ((*a->jvmti)->GetThreadState(a->jvmti, s->thread, &st) == JVMTI_ERROR_NONE &&
                    (st & JVMTI_THREAD_STATE_TERMINATED) &&
                    monitor_of(a, jni, s->thread, s, &owner, &in_ws) == 0 && owner != OWN_SELF) {
                    s->state = SS_DONE; /* gone, its join notify done (its own monitor released) */
                    sched_drop_mon(jni, &s->mon);
                } else if (s->mon != NULL && owned_by_other_slot(a, jni, s->mon, s)) {
                    a->sched.check = 1; /* blocked on a stopped slot's monitor: look again at every step */
                } else {
                    unsettled = 1;
                }
            } else if ((s->state == SS_WAIT || s->state == SS_TWAIT) &&
                       monitor_of(a, jni, s->mon, s, &owner, &in_ws) == 0 && !in_ws && owner != OWN_SELF) {
                /* out of the wait set (notified, interrupted, timed out): the JVM
                 * wakes one such waiter when the monitor is free, and it takes
                 * the monitor back before anyone goes on */
                if (owner == OWN_NONE)
                    unsettled = 1;
                else
                    a->sched.check = 1; /* when its owner lets go: look again */
            }
        }
        if (!unsettled)
            return;
        struct timespec t1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if ((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec) > SETTLE_LIMIT_NS) {
            agent_log(a, "sched: a thread's transition did not happen in 10 s; going on");
            return;
        }
        sunlock(a);
        pause_short();
        slock(a);
    }
}

/* The holder stopped without an event this file sees, in a state JVMTI
 * reports as Object.wait, and is in the monitor's wait set. Handled as
 * Object.wait from here. (A thread back from Object.wait, its
 * MonitorWaited seen, shows that state too until the JVM's wait has
 * retaken the monitor and returned: it is in no wait set, and runs on.) */
static void watchdog(agent *a, JNIEnv *jni)
{
    int32_t h = a->sched.holder;
    if (h < 0)
        return;
    sched_slot *s = &a->sched.slots[h];
    jint st = 0;
    if (s->state != SS_RUN || s->ts == NULL || s->in_callback ||
        (*a->jvmti)->GetThreadState(a->jvmti, s->thread, &st) != JVMTI_ERROR_NONE ||
        !(st & JVMTI_THREAD_STATE_IN_OBJECT_WAIT))
        return;
    jobject mon = NULL;
    if ((*a->jvmti)->GetCurrentContendedMonitor(a->jvmti, s->thread, &mon) != JVMTI_ERROR_NONE || mon == NULL)
        return;
    int owner = OWN_OTHER, in_ws = 0;
    if (monitor_of(a, jni, mon, s, &owner, &in_ws) != 0 || !in_ws) {
        (*jni)->DeleteLocalRef(jni, mon);
        return;
    }
    sched_drop_mon(jni, &s->mon);
    s->mon = (*jni)->NewGlobalRef(jni, mon);
    (*jni)->DeleteLocalRef(jni, mon);
    s->state = (st & JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT) ? SS_TWAIT : SS_WAIT;
    s->pending = 0; /* in the wait set: settled */
    s->arrived = 0;
    sched_pick(a, jni, h);
}

/* Wait (lock held) until slot me holds the baton, the slot is dropped or
 * the scheduler is off; then sched_settle. 1 when it holds the baton. */
int wait_turn(agent *a, JNIEnv *jni, int32_t me)
{
    int waited = 0;
    while (!a->sched.off && a->sched.slots[me].state != SS_DONE && a->sched.holder != me) {
        waited = 1;
        swait(a, SCHED_POLL_MS);
        if (a->sched.off)
            break;
        if (a->sched.holder == -1)
            sched_pick(a, jni, a->sched.last); /* something outside the slots may have freed one */
        else if (a->sched.holder != me)
            watchdog(a, jni);
    }
    if (a->sched.off || a->sched.slots[me].state == SS_DONE)
        return 0;
    if (waited || a->sched.check)
        sched_settle(a, jni, me);
    return 1;
}

int sched_init(agent *a)
{
    a->sched.holder = a->sched.last = a->sched.entering = -1;
    pthread_condattr_t ca;
    if (pthread_mutex_init(&a->sched.mutex, NULL) != 0 || pthread_condattr_init(&ca) != 0 ||
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 || pthread_cond_init(&a->sched.cond, &ca) != 0) {
        agent_fail(a, "cannot create the scheduler's lock");
        return -1;
    }
    pthread_condattr_destroy(&ca);
    return 0;
}
