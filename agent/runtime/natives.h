/*
 * natives.h - natives the agent catches at NativeMethodBind
 * (natives.c): System.arraycopy, the per-run values, the virtual clock,
 * and the dispatch to bulk.c, pervalues.c, the scheduler and the engine.
 */
#ifndef PSF_NATIVES_H
#define PSF_NATIVES_H

#include "agent.h"

void natives_bind(agent *a, JNIEnv *jni);  /* at VMInit: System.arraycopy, per-run values */
void natives_bind_clock(agent *a, JNIEnv *jni); /* at VMStart: the virtual clock */
void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, void *address,
                            void **new_address);

#endif
