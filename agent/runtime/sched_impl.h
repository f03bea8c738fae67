/*
 * sched_impl.h - what the scheduler's files share and no other file reads:
 * sched.c (the baton), sched_slots.c (threads entering and leaving the
 * schedule), sched_natives.c (the blocking points) and sched_io.c (I/O
 * that cannot be scheduled). The scheduler's face to the rest of the agent
 * is scheduler.h; sched.c opens with how it works.
 */
#ifndef PSF_SCHED_IMPL_H
#define PSF_SCHED_IMPL_H

#include "agent.h"
#include "engine.h"
#include "scheduler.h"

#include <pthread.h>

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
/* The scheduler's lock and condition are POSIX ones, not JVMTI raw
 * monitors: HotSpot's raw monitors park on the same event as the thread's
 * Java monitor operations, so a thread waiting in the MonitorWaited
 * callback would swallow the wakeup the JVM sends it to re-enter the
 * monitor (its "redo the unpark" covers only one). */
static inline void slock(agent *a)
{
    pthread_mutex_lock(&a->sched.mutex);
}

static inline void sunlock(agent *a)
{
    pthread_mutex_unlock(&a->sched.mutex);
}

static inline void swake(agent *a)
{
    pthread_cond_broadcast(&a->sched.cond);
}

/* This thread's state while the agent runs (after VMDeath the states may
 * be freed while daemon threads still park). */
static inline thread_state *self_ts(agent *a)
{
    return a->dead || !a->sched.armed ? NULL : agent_self();
}

/* Slot me runs and holds the baton, and the scheduler is on: the thread
 * may block here in the scheduler's way (lock held). */
static inline int holds_baton(const agent *a, int32_t me)
{
    return a->sched.slots[me].state == SS_RUN && a->sched.holder == me && !a->sched.off;
}

/* This thread's slot, when the scheduler is on and it holds a live one. */
static inline int32_t my_slot(agent *a, thread_state *ts)
{
    if (a->dead || ts == NULL || ts->sched_slot == 0 || a->sched.off)
        return -1;
    return (int32_t)ts->sched_slot - 1;
}

/* sched.c */
void sched_set_holder(agent *a, int32_t h);
int32_t sched_slot_of(agent *a, JNIEnv *jni, jobject t);
void sched_drop_mon(JNIEnv *jni, jobject *ref);
void sched_release(agent *a, JNIEnv *jni, int32_t me);
int sched_counted_slot(const sched_slot *s);
void sched_pick(agent *a, JNIEnv *jni, int32_t from);
void sched_settle(agent *a, JNIEnv *jni, int32_t me);
int wait_turn(agent *a, JNIEnv *jni, int32_t me);

/* sched_slots.c */
int32_t sched_add_slot(agent *a, JNIEnv *jni, jobject t, thread_state *ts);
void sched_arm(agent *a);
void sched_block_here(agent *a, JNIEnv *jni, thread_state *ts, int32_t me, int st);

/* sched.c: Thread.interrupt0's JDK function, which sched_natives.c binds
 * and sched_pick ends a virtual timeout with */
extern void(JNICALL *real_interrupt0)(JNIEnv *, jobject);

#endif
