/*
 * start.h - the step engine's start (start.c), which its table
 * (engine.c) names.
 */
#ifndef PSF_STEP_START_H
#define PSF_STEP_START_H

#include "agent.h"

void step_capabilities_start(jvmtiCapabilities *caps);
void step_vm_init(agent *a, JNIEnv *jni);
void JNICALL step_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data);

#endif
