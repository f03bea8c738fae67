/*
 * events.h - the extent's face to the rest of the agent: the JVMTI
 * events vmentry.c wires to core/extent.c (breakpoints, frame pops,
 * exceptions, allocations, threads), the end of the run (counting_quiesce,
 * counting_finish), the counting of the method's class's code outside an
 * invocation (pre_extent_begin, pre_extent_end), and the limits' stop
 * (core/limits.c). What the extent's files share with each other is
 * extent.h.
 */
#ifndef PSF_EVENTS_H
#define PSF_EVENTS_H

#include "agent.h"

void counting_charge_elements(agent *a, uint32_t key, uint64_t n); /* core/extent.c: hooks.elements */
void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);
void JNICALL on_frame_pop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception);
void JNICALL on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jclass klass, jlong size);
void JNICALL on_exception(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                          jobject exception, jmethodID catch_method, jlocation catch_loc);
void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                                jobject exception);
void JNICALL on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);
void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);
void counting_quiesce(agent *a);   /* stop every other thread's counting before the totals are read */
void counting_finish(agent *a, JNIEnv *jni);   /* at VMDeath: close invocations still running */
void limit_stop(agent *a, JNIEnv *jni, jthread thread, const char *status, const char *message);
int pre_extent_begin(agent *a, JNIEnv *jni, jthread thread, jmethodID frame, int at_entry);
void pre_extent_end(agent *a, JNIEnv *jni, jthread thread);
uint32_t counting_array_key(agent *a, jclass klass); /* an array class's dependency key, 0 if none */

#endif
