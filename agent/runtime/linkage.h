/*
 * linkage.h - linkage (linkage.c): an invokedynamic being linked, and
 * the JDK's static accesses whose resolution is watched, counted as the
 * interpreter runs them.
 */
#ifndef PSF_LINKAGE_H
#define PSF_LINKAGE_H

#include "agent.h"

void linkage_open(agent *a, thread_state *ts, jthread thread, jmethodID method, jlocation loc);
void linkage_close(agent *a, thread_state *ts, jthread thread);
void linkage_watch(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m, jlocation loc);
void JNICALL linkage_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method);

#endif
