/*
 * target.h - finding the method to measure (target.c): vmentry.c checks
 * each prepared class, clinit_target.c asks whether a class is the target's.
 */
#ifndef PSF_TARGET_H
#define PSF_TARGET_H

#include "agent.h"

/* Called under a->lock when target_check_class finds the method's class. */
typedef void (*target_found_fn)(agent *a, JNIEnv *jni, jclass klass);
void target_check_class(agent *a, JNIEnv *jni, jclass klass, target_found_fn found);
int target_class_named(agent *a, jclass klass); /* has the spec's class name (any loader) */

#endif
