/*
 * sched_natives.c - the scheduler's blocking points: the JVMTI monitor
 * events (contended enter, wait, waited) and the JDK natives it wraps
 * (Thread.start0, Unsafe.park and unpark, Thread.interrupt0, sleep and
 * yield, Object.wait, notify and notifyAll), where a thread that holds the
 * baton gives it up or a waiting one becomes ready; and their binding
 * (sched_native_bound while the JDK boots, sched_check_bound at VMInit).
 * Part of the scheduler (sched.c, which says how each is handled).
 */
#define _GNU_SOURCE
#include "sched_impl.h"

#include <dlfcn.h>
#include <string.h>

/* The JDK's functions behind the natives wrapped here. */
typedef void(JNICALL *park_fn)(JNIEnv *, jobject, jboolean, jlong);
typedef void(JNICALL *unpark_fn)(JNIEnv *, jobject, jobject);
typedef void(JNICALL *start_fn)(JNIEnv *, jobject);
typedef void(JNICALL *sleep_fn)(JNIEnv *, jclass, jlong);
typedef void(JNICALL *yield_fn)(JNIEnv *, jclass);
static park_fn real_park;
static unpark_fn real_unpark;
static start_fn real_start0;
static sleep_fn real_sleep;
static yield_fn real_yield;

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
                int32_t me = sched_add_slot(a, jni, cur, ts);
                if (me >= 0 && a->sched.holder < 0)
                    sched_set_holder(a, me); /* it runs: it holds the baton */
                (*jni)->DeleteLocalRef(jni, cur);
            }
        }
        if (ts->sched_slot != 0) {
            sched_arm(a);
            added = sched_add_slot(a, jni, self, NULL);
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
        sched_drop_mon(jni, &s->mon);
        s->mon = (*jni)->NewGlobalRef(jni, obj); /* its join notify waits for a monitor */
    } else if (holds_baton(a, me)) {
        s->mon = (*jni)->NewGlobalRef(jni, obj);
        sched_block_here(a, jni, ts, me, SS_ENTER);
        sched_drop_mon(jni, &s->mon);
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
        sched_drop_mon(jni, &a->sched.slots[me].mon); /* on its way to its end */
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
        sched_drop_mon(jni, &s->mon);
        s->mon = (*jni)->NewGlobalRef(jni, obj);
        s->state = timeout != 0 || s->vtimed ? SS_TWAIT : SS_WAIT;
        s->pending = 1; /* not yet in the wait set: the next holder waits for that */
        s->arrived = 0;
        s->in_callback = 1; /* until MonitorWaited */
        sched_release(a, jni, me);
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
        sched_block_here(a, jni, ts, me, !absolute && time == 0 ? SS_PARK : SS_TIMED);
    sunlock(a);
}

static void JNICALL w_unpark(JNIEnv *jni, jobject unsafe, jobject thread)
{
    agent *a = &g_agent;
    if (thread != NULL && a->sched.armed && !a->sched.off) {
        slock(a);
        int32_t t = sched_slot_of(a, jni, thread);
        if (t >= 0 && a->sched.slots[t].state != SS_DONE && a->sched.slots[t].state != SS_EXITING) {
            a->sched.slots[t].permit = 1;
            if (a->sched.holder == -1)
                sched_pick(a, jni, a->sched.last); /* unparked from outside while every slot waited */
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
    int32_t t = sched_slot_of(a, jni, self);
    if (t >= 0) {
        sched_slot *s = &a->sched.slots[t];
        if (s->state == SS_PARK || s->state == SS_TIMED || s->state == SS_WAIT || s->state == SS_TWAIT)
            s->wake = 1; /* park and sleep return, wait throws */
        if (s->state == SS_WAIT || s->state == SS_TWAIT)
            a->sched.check = 1;
        if (a->sched.holder == -1)
            sched_pick(a, jni, a->sched.last);
    }
    sunlock(a);
}

typedef void(JNICALL *notify_fn)(JNIEnv *, jobject);
static notify_fn real_notify, real_notify_all;
typedef void(JNICALL *wait_fn)(JNIEnv *, jobject, jlong);
static wait_fn real_wait;

/* Object.wait(long) (JDK 17), Object.wait0(long) (21+): a timeout on a
 * thread that holds the baton is virtual, as a sleep's is. The thread
 * waits without one (MonitorWait still records SS_TWAIT); sched_pick ends the
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
            sched_block_here(a, jni, ts, me, SS_TIMED);
            sunlock(a);
            real_sleep(jni, cls, 0); /* throws InterruptedException if an interrupt woke it */
            return;
        }
        sunlock(a);
    } else if (me >= 0 && !a->dead && time == 0) {
        slock(a);
        if (a->sched.holder == me && !a->sched.off) {
            sched_pick(a, jni, me); /* sleep(0): a yield */
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
            sched_pick(a, jni, me);
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
