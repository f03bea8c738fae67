/*
 * scheduler.h - the scheduler's face to the rest of the agent: the threads a
 * method starts run one at a time, in an order fixed by thread creation
 * (agent/runtime/sched.c says how). vmentry.c starts it and wires its
 * monitor events, extent.c and the step engine (step/step.c) hand it their
 * threads and steps, natives.c and bulk.c ask it about the natives it
 * wraps and the I/O it cannot schedule. Its state (sched_state.h) is part
 * of the agent's; its slots' type is its files' own (sched_impl.h).
 */
#ifndef PSF_SCHEDULER_H
#define PSF_SCHEDULER_H

#include "agent.h"

/* sched.c */
int sched_init(agent *a);                  /* at load */

/* sched_slots.c */
void sched_thread_begins(agent *a, JNIEnv *jni, thread_state *ts, jthread thread); /* a counted helper's ThreadStart */
void sched_forget(agent *a, JNIEnv *jni, jthread thread); /* a started thread that will not be counted */
void sched_step(agent *a, JNIEnv *jni, thread_state *ts); /* the step path's slow part */
void sched_leave(agent *a, JNIEnv *jni, thread_state *ts); /* the thread is no longer counted */
void sched_extent_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts); /* its extent ended */
void sched_thread_end(agent *a, JNIEnv *jni, thread_state *ts);
void sched_off(agent *a);                  /* the run ends */

/* sched_natives.c */
void sched_check_bound(agent *a, JNIEnv *jni); /* at VMInit: its natives were caught */
int sched_named(const char *name);
int sched_native_bound(const char *cls, const char *name, const char *desc, void *address, void **new_address);
void JNICALL sched_monitor_contended_enter(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj);
void JNICALL sched_monitor_contended_entered(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj);
void JNICALL sched_monitor_wait(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jlong timeout);
void JNICALL sched_monitor_waited(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jboolean timed_out);

/* sched_io.c */
enum sched_io { SCHED_IO_READ, SCHED_IO_WRITE, SCHED_IO_WAIT, SCHED_IO_SELECT };
int sched_scheduled(void); /* does this thread hold a slot? */
void sched_io(JNIEnv *jni, int fd, enum sched_io kind, jlong len, const char *native); /* may end the run */

#endif
