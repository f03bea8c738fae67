/*
 * gcrefs.h - counted code that takes a reference the collector enqueued,
 * or runs while the collector clears one of the program's: the run ends
 * with status gc_dependent (gcrefs.c says why). vmentry.c starts it and
 * wires GarbageCollectionFinish; extent.c asks it at breakpoints and at an
 * extent's end.
 */
#ifndef PSF_GCREFS_H
#define PSF_GCREFS_H

#include "agent.h"

void gcrefs_init(agent *a, JNIEnv *jni);   /* at VMInit, after fast_vm_init */
int gcrefs_breakpoint(agent *a, JNIEnv *jni, jthread thread, jmethodID method); /* 1: its breakpoint */
int gcrefs_poll_method(const char *name, const char *desc); /* ReferenceQueue's method that takes the head */
void JNICALL gcrefs_gc_finish(jvmtiEnv *jvmti); /* GarbageCollectionFinish */
void gcrefs_extent_end(agent *a, JNIEnv *jni, jthread thread, int out_of_memory); /* a reference cleared while
                                                                                     * counted ends the run */

#endif
