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
 * reports as Object.wait, is found by the waiting threads' poll and
 * handled as the Object.wait it is, at the point where it stopped. The
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
 */
#define _GNU_SOURCE
#include "agent.h"
#include "engine.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#define SCHED_QUANTUM 10000     /* bytecodes a holder runs before the next slot's turn */
#define SCHED_INIT_TURNS 100    /* turns a holder inside a class initializer keeps the baton for */
#define SCHED_POLL_MS 10        /* waiting threads look for a free baton or a stuck holder */
#define SETTLE_LIMIT_NS 10000000000LL /* a transition that never happens: give up waiting (10 s) */

enum slot_state {
    SS_RUN = 1,     /* runnable: holds the baton or waits for its turn */
    SS_PARK,        /* in LockSupport.park, untimed (emulated) */
    SS_TIMED,       /* in a timed park or Thread.sleep (emulated, virtual time) */
    SS_WAIT,        /* in Object.wait, untimed */
    SS_TWAIT,       /* in Object.wait with a timeout (virtual when vtimed) */
    SS_ENTER,       /* about to block entering a monitor another thread owns */
    SS_EXITING,     /* ThreadEnd seen: the JVM still finishes the thread (join's notifyAll) */
    SS_DONE         /* ended, or no longer counted */
};

/* The JDK's functions behind the natives wrapped here. */
typedef void(JNICALL *park_fn)(JNIEnv *, jobject, jboolean, jlong);
typedef void(JNICALL *unpark_fn)(JNIEnv *, jobject, jobject);
typedef void(JNICALL *start_fn)(JNIEnv *, jobject);
typedef void(JNICALL *sleep_fn)(JNIEnv *, jclass, jlong);
typedef void(JNICALL *yield_fn)(JNIEnv *, jclass);
static park_fn real_park;
static unpark_fn real_unpark;
static start_fn real_start0, real_interrupt0;
static sleep_fn real_sleep;
static yield_fn real_yield;

/* The scheduler's lock and condition are POSIX ones, not JVMTI raw
 * monitors: HotSpot's raw monitors park on the same event as the thread's
 * Java monitor operations, so a thread waiting in the MonitorWaited
 * callback would swallow the wakeup the JVM sends it to re-enter the
 * monitor (its "redo the unpark" covers only one). */
static void slock(agent *a)
{
    pthread_mutex_lock(&a->sched.mutex);
}

static void sunlock(agent *a)
{
    pthread_mutex_unlock(&a->sched.mutex);
}

static void swake(agent *a)
{
    pthread_cond_broadcast(&a->sched.cond);
}

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

static void set_holder(agent *a, int32_t h)
{
    a->sched.holder = h;
    if (h >= 0)
        a->sched.last = h;
    atomic_store_explicit(&a->sched.turn, h + 1, memory_order_release);
    swake(a);
}

/* The slot of thread object t (any state), or -1. */
static int32_t slot_of(agent *a, JNIEnv *jni, jobject t)
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
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)u.waiters);
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)u.notify_waiters);
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
        int32_t o = slot_of(a, jni, u.owner);
        r = o >= 0 && a->sched.slots[o].state != SS_DONE && a->sched.slots[o].state != SS_EXITING;
    }
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)u.waiters);
    (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)u.notify_waiters);
    return r;
}

static void drop_mon(JNIEnv *jni, jobject *ref)
{
    if (*ref != NULL)
        (*jni)->DeleteGlobalRef(jni, *ref);
    *ref = NULL;
}

static void pick(agent *a, JNIEnv *jni, int32_t from);

/* The holder blocks in a way only another thread can see completed (it
 * enters Object.wait, it ends): the baton is left free, and the threads
 * waiting for their turn pick (after settling that transition). A slot in
 * a virtual timed wait waits inside the JVM, not for its turn: when there
 * is one, the holder picks here, before it blocks, as the one slot that
 * is not ready (see slot_ready), so that the timeout still comes when no
 * other thread is left to pick. */
static void release(agent *a, JNIEnv *jni, int32_t me)
{
    a->sched.last = me;
    set_holder(a, -1);
    for (uint32_t i = 0; i < a->sched.n; i++)
        if ((int32_t)i != me && a->sched.slots[i].state == SS_TWAIT && a->sched.slots[i].vtimed) {
            a->sched.entering = me;
            pick(a, jni, me);
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

static void settle(agent *a, JNIEnv *jni, int32_t me);

/* A live slot whose thread is counted (or is about to start, counted), or
 * a daemon helper between extents, which the next extent counts again from
 * where the schedule left it (core/extent.c, extents_end). */
static int counted_slot(const sched_slot *s)
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
        if (counted_slot(&a->sched.slots[i]))
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
static int32_t my_slot(agent *a, thread_state *ts);
static thread_state *self_ts(agent *a);

/* Hand the baton to the first ready slot after `from` in creation order
 * (from itself last), or leave it free, once what the slots did has
 * physically happened (settle; by the calling thread, about its own slot
 * it cannot wait). Lock held. */
static void pick(agent *a, JNIEnv *jni, int32_t from)
{
    int32_t h0 = a->sched.holder;
    settle(a, jni, my_slot(a, self_ts(a)));
    if (a->sched.holder != h0)
        return; /* another thread picked while settle waited */
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
            set_holder(a, (int32_t)i);
            if (timed_out) {
                real_interrupt0(jni, s->thread); /* its virtual timeout: see w_wait */
                a->sched.check = 1; /* it settles before it runs: it was not waiting for its turn */
            }
            return;
        }
    set_holder(a, -1);
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
static void settle(agent *a, JNIEnv *jni, int32_t me)
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
                    drop_mon(jni, &s->mon);
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
 * reports as Object.wait. Handled as Object.wait from here. */
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
    s->mon = (*jni)->NewGlobalRef(jni, mon);
    (*jni)->DeleteLocalRef(jni, mon);
    s->state = (st & JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT) ? SS_TWAIT : SS_WAIT;
    s->pending = 1;
    s->arrived = 0;
    pick(a, jni, h);
}

/* Wait (lock held) until slot me holds the baton, the slot is dropped or
 * the scheduler is off; then settle. 1 when it holds the baton. */
static int wait_turn(agent *a, JNIEnv *jni, int32_t me)
{
    int waited = 0;
    while (!a->sched.off && a->sched.slots[me].state != SS_DONE && a->sched.holder != me) {
        waited = 1;
        swait(a, SCHED_POLL_MS);
        if (a->sched.off)
            break;
        if (a->sched.holder == -1)
            pick(a, jni, a->sched.last); /* something outside the slots may have freed one */
        else if (a->sched.holder != me)
            watchdog(a, jni);
    }
    if (a->sched.off || a->sched.slots[me].state == SS_DONE)
        return 0;
    if (waited || a->sched.check)
        settle(a, jni, me);
    return 1;
}

/* This thread's state while the agent runs (after VMDeath the states may
 * be freed while daemon threads still park). */
/* Slot me runs and holds the baton, and the scheduler is on: the thread
 * may block here in the scheduler's way (lock held). */
static int holds_baton(const agent *a, int32_t me)
{
    return a->sched.slots[me].state == SS_RUN && a->sched.holder == me && !a->sched.off;
}

static thread_state *self_ts(agent *a)
{
    return a->dead || !a->sched.armed ? NULL : agent_self();
}

/* This thread's slot, when the scheduler is on and it holds a live one. */
static int32_t my_slot(agent *a, thread_state *ts)
{
    if (a->dead || ts == NULL || ts->sched_slot == 0 || a->sched.off)
        return -1;
    return (int32_t)ts->sched_slot - 1;
}

/* Does this thread hold a slot (bulk.c asks before sched_io)? */
int sched_scheduled(void)
{
    agent *a = &g_agent;
    return a->sched.armed && my_slot(a, self_ts(a)) >= 0;
}

/* What I/O of `kind` on fd (len bytes for a write) would wait for: NULL
 * when it returns at once. */
static const char *io_waits(int fd, enum sched_io kind, jlong len)
{
    if (kind == SCHED_IO_SELECT)
        return "waited in a selector";
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL; /* the JDK reports the bad descriptor */
    if (S_ISSOCK(st.st_mode))
        return kind == SCHED_IO_READ ? "read a socket" : kind == SCHED_IO_WRITE ? "wrote to a socket"
                                                                              : "waited on a socket";
    if (!S_ISFIFO(st.st_mode))
        return NULL; /* files and devices do not wait for threads */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK) != 0)
        return NULL; /* returns at once, with what is there */
    struct pollfd p = {fd, kind == SCHED_IO_READ ? POLLIN : POLLOUT, 0};
    if (kind == SCHED_IO_READ)
        return poll(&p, 1, 0) == 0 ? "read an empty pipe" : NULL; /* data, or the writer gone */
    int queued = 0, size = fcntl(fd, F_GETPIPE_SZ);
    if (size < 0 || ioctl(fd, FIONREAD, &queued) != 0)
        return NULL;
    if (poll(&p, 1, 0) != 0 && (p.revents & (POLLERR | POLLHUP)) != 0)
        return NULL; /* the reader is gone: the write fails at once */
    return len > (jlong)size - queued ? "wrote more to a pipe than it has room for" : NULL;
}

/* A scheduled thread is about to do I/O of `kind` on fd through `native`:
 * if it would wait for another thread, the run ends as unschedulable. */
void sched_io(JNIEnv *jni, int fd, enum sched_io kind, jlong len, const char *native)
{
    agent *a = &g_agent;
    int32_t me = my_slot(a, self_ts(a));
    const char *what = me < 0 ? NULL : io_waits(fd, kind, len);
    if (what == NULL)
        return;
    jthread self = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &self), "GetCurrentThread") != 0)
        return;
    char msg[512];
    int name = (int)strcspn(native, "(");
    snprintf(msg, sizeof msg,
             "thread %d of the method's threads %s in %.*s: I/O that waits for another thread cannot be scheduled "
             "the same way every run",
             me + 1, what, name, native);
    a->hooks.stop(a, jni, self, "unschedulable", msg);
}

/* Append a slot for thread object t (or revive its old one); lock held. */
static int32_t add_slot(agent *a, JNIEnv *jni, jobject t, thread_state *ts)
{
    int32_t i = slot_of(a, jni, t);
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
    drop_mon(jni, &s->mon);
    if (ts != NULL) {
        ts->sched_slot = (uint32_t)i + 1;
        ts->sched_quantum = SCHED_QUANTUM;
    }
    return i;
}

/* The first thread counted code starts: the monitor events come on. */
static void arm(agent *a)
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

/* Thread.start0 on a counted thread, of a thread it started (tagged by
 * extent.c): slots for both, before the new thread can run. */
static void JNICALL w_start0(JNIEnv *jni, jobject self)
{
    agent *a = &g_agent;
    thread_state *ts = a->dead ? NULL : agent_self();
    jlong tag = 0;
    int32_t added = -1;
    if (ts != NULL && ts->measuring && !a->dead && !a->sched.off && a->engine->steps &&
        (*a->jvmti)->GetTag(a->jvmti, self, &tag) == JVMTI_ERROR_NONE && (tag >> TAG_KIND_SHIFT) == TAG_STARTED_THREAD) {
        slock(a);
        if (ts->sched_slot == 0 || a->sched.slots[ts->sched_slot - 1].state == SS_DONE) {
            jthread cur = NULL;
            if ((*a->jvmti)->GetCurrentThread(a->jvmti, &cur) == JVMTI_ERROR_NONE) {
                int32_t me = add_slot(a, jni, cur, ts);
                if (me >= 0 && a->sched.holder < 0)
                    set_holder(a, me); /* it runs: it holds the baton */
                (*jni)->DeleteLocalRef(jni, cur);
            }
        }
        if (ts->sched_slot != 0) {
            arm(a);
            added = add_slot(a, jni, self, NULL);
        }
        sunlock(a);
    }
    real_start0(jni, self);
    if (added >= 0 && (*jni)->ExceptionCheck(jni)) {
        slock(a);
        a->sched.slots[added].state = SS_DONE; /* never started */
        sunlock(a);
    }
}

void sched_thread_begins(agent *a, JNIEnv *jni, thread_state *ts, jthread thread)
{
    if (!a->sched.armed)
        return;
    slock(a);
    int32_t i = slot_of(a, jni, thread);
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
    int32_t i = slot_of(a, jni, thread);
    if (i >= 0 && a->sched.slots[i].ts == NULL && a->sched.slots[i].state != SS_DONE) {
        a->sched.slots[i].state = SS_DONE;
        if (a->sched.holder == i)
            pick(a, jni, i);
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
        pick(a, jni, me); /* my turn is over: the next ready slot, me last */
    else if (a->sched.holder == me && a->sched.check &&
             (!ts->measuring || ts->prev_op == 0xc3 /* monitorexit */ ||
              (ts->prev_op >= 0xac && ts->prev_op <= 0xb1) /* a return: maybe a synchronized method's */))
        settle(a, jni, me); /* a monitor a woken waiter or an ending thread waits for may be free now */
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
static void block_here(agent *a, JNIEnv *jni, thread_state *ts, int32_t me, int st)
{
    sched_slot *s = &a->sched.slots[me];
    s->state = st;
    s->in_callback = 1;
    pick(a, jni, me);
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
        drop_mon(jni, &s->mon);
        if (a->sched.holder == me)
            pick(a, jni, me);
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
        if ((int32_t)i != me && counted_slot(&a->sched.slots[i]))
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
 * its joiners): the next holder waits for that (settle). */
void sched_thread_end(agent *a, JNIEnv *jni, thread_state *ts)
{
    int32_t me = my_slot(a, ts);
    if (me < 0)
        return;
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (s->state != SS_DONE) {
        drop_mon(jni, &s->mon);
        s->state = SS_EXITING;
        if (a->sched.holder == me)
            release(a, jni, me);
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

/* ---- blocking points ---- */

void JNICALL sched_monitor_contended_enter(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj)
{
    agent *a = &g_agent;
    (void)jvmti; (void)thread;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->dead)
        return;
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (s->state == SS_EXITING) {
        drop_mon(jni, &s->mon);
        s->mon = (*jni)->NewGlobalRef(jni, obj); /* its join notify waits for a monitor */
    } else if (holds_baton(a, me)) {
        s->mon = (*jni)->NewGlobalRef(jni, obj);
        block_here(a, jni, ts, me, SS_ENTER);
        drop_mon(jni, &s->mon);
    }
    sunlock(a);
}

void JNICALL sched_monitor_contended_entered(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj)
{
    agent *a = &g_agent;
    (void)jvmti; (void)thread; (void)obj;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->dead)
        return;
    slock(a);
    if (a->sched.slots[me].state == SS_EXITING)
        drop_mon(jni, &a->sched.slots[me].mon); /* on its way to its end */
    sunlock(a);
}

void JNICALL sched_monitor_wait(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jlong timeout)
{
    agent *a = &g_agent;
    (void)jvmti; (void)thread;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->dead)
        return;
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (holds_baton(a, me)) {
        drop_mon(jni, &s->mon);
        s->mon = (*jni)->NewGlobalRef(jni, obj);
        s->state = timeout != 0 || s->vtimed ? SS_TWAIT : SS_WAIT;
        s->pending = 1; /* not yet in the wait set: the next holder waits for that */
        s->arrived = 0;
        s->in_callback = 1; /* until MonitorWaited */
        release(a, jni, me);
    }
    sunlock(a);
}

void JNICALL sched_monitor_waited(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jboolean timed_out)
{
    agent *a = &g_agent;
    (void)jvmti; (void)jni; (void)thread; (void)obj; (void)timed_out;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->dead)
        return;
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (s->state == SS_WAIT || s->state == SS_TWAIT || s->in_callback) {
        /* It takes the monitor back now, and waits for its turn at its next
         * step. Not here: this callback runs inside the JVM's monitor
         * protocol, and a thread held here while the monitor is passed
         * on loses the JVM's wakeups (its waits share one event). (A
         * virtual timeout gave it the baton before it woke: SS_RUN.) */
        s->arrived = 1;
        s->in_callback = 0;
        swake(a);
    }
    sunlock(a);
}

/* Is the current thread interrupted? */
static int self_interrupted(agent *a)
{
    jint st = 0;
    return (*a->jvmti)->GetThreadState(a->jvmti, NULL, &st) == JVMTI_ERROR_NONE &&
           (st & JVMTI_THREAD_STATE_INTERRUPTED) != 0;
}

static void JNICALL w_park(JNIEnv *jni, jobject unsafe, jboolean absolute, jlong time)
{
    agent *a = &g_agent;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me < 0 || a->dead) {
        real_park(jni, unsafe, absolute, time);
        return;
    }
    slock(a);
    sched_slot *s = &a->sched.slots[me];
    if (!holds_baton(a, me)) {
        sunlock(a);
        real_park(jni, unsafe, absolute, time);
        return;
    }
    if (s->permit)
        s->permit = 0;          /* a permit it had: returns at once */
    else if (time < 0 || (absolute && time == 0) || self_interrupted(a))
        ;                       /* returns at once, as the JDK's park does */
    else
        block_here(a, jni, ts, me, !absolute && time == 0 ? SS_PARK : SS_TIMED);
    sunlock(a);
}

static void JNICALL w_unpark(JNIEnv *jni, jobject unsafe, jobject thread)
{
    agent *a = &g_agent;
    if (thread != NULL && a->sched.armed && !a->sched.off) {
        slock(a);
        int32_t t = slot_of(a, jni, thread);
        if (t >= 0 && a->sched.slots[t].state != SS_DONE && a->sched.slots[t].state != SS_EXITING) {
            a->sched.slots[t].permit = 1;
            if (a->sched.holder == -1)
                pick(a, jni, a->sched.last); /* unparked from outside while every slot waited */
            sunlock(a);
            return;
        }
        sunlock(a);
    }
    real_unpark(jni, unsafe, thread);
}

static void JNICALL w_interrupt0(JNIEnv *jni, jobject self)
{
    agent *a = &g_agent;
    real_interrupt0(jni, self);
    if (!a->sched.armed || a->sched.off)
        return;
    slock(a);
    int32_t t = slot_of(a, jni, self);
    if (t >= 0) {
        sched_slot *s = &a->sched.slots[t];
        if (s->state == SS_PARK || s->state == SS_TIMED || s->state == SS_WAIT || s->state == SS_TWAIT)
            s->wake = 1; /* park and sleep return, wait throws */
        if (s->state == SS_WAIT || s->state == SS_TWAIT)
            a->sched.check = 1;
        if (a->sched.holder == -1)
            pick(a, jni, a->sched.last);
    }
    sunlock(a);
}

typedef void(JNICALL *notify_fn)(JNIEnv *, jobject);
static notify_fn real_notify, real_notify_all;
typedef void(JNICALL *wait_fn)(JNIEnv *, jobject, jlong);
static wait_fn real_wait;

/* Object.wait(long) (JDK 17), Object.wait0(long) (21+): a timeout on a
 * thread that holds the baton is virtual, as a sleep's is. The thread
 * waits without one (MonitorWait still records SS_TWAIT); pick ends the
 * wait once no other slot is ready and the monitor is free (slot_ready's
 * pass 1) by the JVM's own interrupt of the thread: it unparks the waiter
 * without setting Thread's interrupted field, so the JVM takes the wakeup
 * as a timeout and the wait returns normally, at the same point of every
 * run. A notify or a real interrupt before that ends it as for an untimed
 * wait. */
static void JNICALL w_wait(JNIEnv *jni, jobject self, jlong ms)
{
    agent *a = &g_agent;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me >= 0 && !a->dead && ms > 0) {
        slock(a);
        int virt = holds_baton(a, me);
        a->sched.slots[me].vtimed = virt;
        sunlock(a);
        if (virt) {
            real_wait(jni, self, 0);
            slock(a);
            a->sched.slots[me].vtimed = 0;
            sunlock(a);
            return;
        }
    }
    real_wait(jni, self, ms);
}

/* notify, notifyAll: a waiter leaves the wait set and takes the monitor
 * back once it is free: the holder's next monitorexit or return settles. */
static void notified(agent *a)
{
    if (!a->sched.armed || a->sched.off || a->dead)
        return;
    slock(a);
    for (uint32_t i = 0; i < a->sched.n; i++)
        if (a->sched.slots[i].state == SS_WAIT || a->sched.slots[i].state == SS_TWAIT)
            a->sched.check = 1;
    sunlock(a);
}

static void JNICALL w_notify(JNIEnv *jni, jobject self)
{
    real_notify(jni, self);
    notified(&g_agent);
}

static void JNICALL w_notify_all(JNIEnv *jni, jobject self)
{
    real_notify_all(jni, self);
    notified(&g_agent);
}

static void JNICALL w_sleep(JNIEnv *jni, jclass cls, jlong time)
{
    agent *a = &g_agent;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me >= 0 && !a->dead && time > 0) {
        slock(a);
        if (holds_baton(a, me) && !self_interrupted(a)) {
            block_here(a, jni, ts, me, SS_TIMED);
            sunlock(a);
            real_sleep(jni, cls, 0); /* throws InterruptedException if an interrupt woke it */
            return;
        }
        sunlock(a);
    } else if (me >= 0 && !a->dead && time == 0) {
        slock(a);
        if (a->sched.holder == me && !a->sched.off) {
            pick(a, jni, me); /* sleep(0): a yield */
            wait_turn(a, jni, me);
            ts->sched_quantum = SCHED_QUANTUM;
        }
        sunlock(a);
    }
    real_sleep(jni, cls, time);
}

static void JNICALL w_yield(JNIEnv *jni, jclass cls)
{
    agent *a = &g_agent;
    thread_state *ts = self_ts(a);
    int32_t me = my_slot(a, ts);
    if (me >= 0 && !a->dead) {
        slock(a);
        if (a->sched.holder == me && !a->sched.off) {
            pick(a, jni, me);
            wait_turn(a, jni, me);
            ts->sched_quantum = SCHED_QUANTUM;
        }
        sunlock(a);
        return;
    }
    real_yield(jni, cls);
}

/* ---- binding ---- */

static const struct sched_native {
    const char *cls, *name, *desc;
    void *wrapper;
    void **real;
} natives[] = {
    {"Ljdk/internal/misc/Unsafe;", "park", "(ZJ)V", (void *)w_park, (void **)&real_park},
    {"Ljdk/internal/misc/Unsafe;", "unpark", "(Ljava/lang/Object;)V", (void *)w_unpark, (void **)&real_unpark},
    {"Ljava/lang/Thread;", "start0", "()V", (void *)w_start0, (void **)&real_start0},
    {"Ljava/lang/Object;", "notify", "()V", (void *)w_notify, (void **)&real_notify},
    {"Ljava/lang/Object;", "notifyAll", "()V", (void *)w_notify_all, (void **)&real_notify_all},
    {"Ljava/lang/Thread;", "interrupt0", "()V", (void *)w_interrupt0, (void **)&real_interrupt0},
    {"Ljava/lang/Thread;", "sleep", "(J)V", (void *)w_sleep, (void **)&real_sleep},        /* JDK 17 */
    {"Ljava/lang/Thread;", "sleep0", "(J)V", (void *)w_sleep, (void **)&real_sleep},       /* JDK 21: nanoseconds */
    {"Ljava/lang/Thread;", "sleepNanos0", "(J)V", (void *)w_sleep, (void **)&real_sleep},  /* JDK 22+: nanoseconds */
    {"Ljava/lang/Thread;", "yield", "()V", (void *)w_yield, (void **)&real_yield},         /* JDK 17 */
    {"Ljava/lang/Thread;", "yield0", "()V", (void *)w_yield, (void **)&real_yield},        /* JDK 21+ */
};

int sched_named(const char *name)
{
    for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++)
        if (strcmp(natives[i].name, name) == 0)
            return 1;
    return 0;
}

int sched_native_bound(const char *cls, const char *name, const char *desc, void *address, void **new_address)
{
    for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
        const struct sched_native *n = &natives[i];
        if (strcmp(n->cls, cls) != 0 || strcmp(n->name, name) != 0 || strcmp(n->desc, desc) != 0)
            continue;
        if (address == n->wrapper)
            return 1;
        *n->real = address;
        *new_address = n->wrapper;
        return 1;
    }
    return 0;
}

/* At VMInit: every wrapped native must have been caught while the JDK
 * booted; one missing would leave a blocking point unseen. Object's
 * notify and notifyAll are bound before any event: re-registered here
 * with the JVM's own functions. */
void sched_check_bound(agent *a, JNIEnv *jni)
{
    if (real_notify == NULL) {
        real_notify = (notify_fn)dlsym(RTLD_DEFAULT, "JVM_MonitorNotify");
        real_notify_all = (notify_fn)dlsym(RTLD_DEFAULT, "JVM_MonitorNotifyAll");
        jclass obj = (*jni)->FindClass(jni, "java/lang/Object");
        JNINativeMethod m[] = {{"notify", "()V", (void *)w_notify}, {"notifyAll", "()V", (void *)w_notify_all}};
        if (real_notify == NULL || real_notify_all == NULL || obj == NULL || (*jni)->RegisterNatives(jni, obj, m, 2) != 0) {
            (*jni)->ExceptionClear(jni);
            real_notify = real_notify_all = NULL;
        }
    }
    if (real_wait == NULL) {
        real_wait = (wait_fn)dlsym(RTLD_DEFAULT, "JVM_MonitorWait");
        jclass obj = (*jni)->FindClass(jni, "java/lang/Object");
        /* the native behind Object.wait(long): wait0 on 21+, wait itself on 17 */
        char *name = "wait0";
        if (obj != NULL && (*jni)->GetMethodID(jni, obj, name, "(J)V") == NULL) {
            (*jni)->ExceptionClear(jni);
            name = "wait";
        }
        JNINativeMethod m[] = {{name, "(J)V", (void *)w_wait}};
        if (real_wait == NULL || obj == NULL || (*jni)->RegisterNatives(jni, obj, m, 1) != 0) {
            (*jni)->ExceptionClear(jni);
            real_wait = NULL;
        }
    }
    if (real_wait == NULL)
        agent_fail(a, "cannot schedule threads: Object.wait's native could not be wrapped");
    if (real_park == NULL || real_unpark == NULL || real_start0 == NULL || real_interrupt0 == NULL ||
        real_sleep == NULL || real_yield == NULL)
        agent_fail(a, "cannot schedule threads: Thread's or Unsafe's natives were not bound through the agent "
                      "(park %d, unpark %d, start0 %d, interrupt0 %d, sleep %d, yield %d)",
                   real_park != NULL, real_unpark != NULL, real_start0 != NULL, real_interrupt0 != NULL,
                   real_sleep != NULL, real_yield != NULL);
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
