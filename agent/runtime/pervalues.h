/*
 * pervalues.h - values that would differ between runs (clock=virtual,
 * pervalues.c): the natives that may be swapped for fixed ones.
 */
#ifndef PSF_PERVALUES_H
#define PSF_PERVALUES_H

#include "agent.h"

int pervalues_named(const char *name);     /* a native of that name may be swapped */
int pervalues_swap(const char *cls, const char *name, const char *desc, void *address,
                    void **new_address); /* 1: swapped (desc: the native's descriptor) */
void pervalues_bind(agent *a, JNIEnv *jni); /* at VMInit: natives the JDK registered itself */

#endif
