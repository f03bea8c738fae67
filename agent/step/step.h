/*
 * step.h - the step engine's face to the rest of the agent: its
 * SingleStep callback (step.c), the stop when a carrier mounts a virtual
 * thread, and System.arraycopy's elements (arrays.c). The engine's table is
 * step/engine.c (core/engine.h).
 */
#ifndef PSF_STEP_H
#define PSF_STEP_H

#include "agent.h"

void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);
/* step/step.c: a carrier mounts a virtual thread while the method runs: virtual_threads */
void virtual_mount_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts);
void counting_arraycopy(agent *a, JNIEnv *jni, jint length); /* hooks.arraycopy */

#endif
