/*
 * fast_api.h - what the rest of the agent calls of the fast engine
 * (engine=fast, docs/fast-engine.md) besides its table (core/engine.h): the
 * class file hook vmentry.c wires, and the source lines of a counted
 * method from its kept class file (profile/lines.c). What the engine's
 * files share with each other is fast.h.
 */
#ifndef PSF_FAST_API_H
#define PSF_FAST_API_H

#include "agent.h"

void JNICALL fast_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data);
int fast_offset_lines(agent *a, const method_info *mi, uint32_t *line); /* its lines from the kept class file */

#endif
