/*
 * clinit.h - class initializers (clinit.c): the method's own class,
 * initialized before the method runs and counted outside it, and the
 * program's static accesses that run an initializer.
 */
#ifndef PSF_CLINIT_H
#define PSF_CLINIT_H

#include "agent.h"

void clinit_init(agent *a, JNIEnv *jni);   /* at VMInit */
void clinit_site(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method, const method_info *m, jlocation loc);
void clinit_target_prepared(agent *a, JNIEnv *jni, jclass klass); /* the method's class (lock held) */
void clinit_scan_class(agent *a, JNIEnv *jni, jclass klass); /* at ClassPrepare */
void clinit_breakpoint(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc);
void clinit_target_done(agent *a);

#endif
