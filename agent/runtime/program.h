/*
 * program.h - which classes are the program's (the application class
 * loader's) and whose static accesses run initializers clinit.c checks
 * (program.c).
 */
#ifndef PSF_PROGRAM_H
#define PSF_PROGRAM_H

#include "agent.h"

int program_loader(agent *a, JNIEnv *jni, jobject loader); /* the application class loader */
int program_class(agent *a, JNIEnv *jni, jclass klass); /* defined by the application class loader */
int init_sites_loader(agent *a, JNIEnv *jni, jobject loader); /* neither boot nor platform loader */
int init_sites_class(agent *a, JNIEnv *jni, jclass klass); /* program.c: classes whose static accesses clinit.c checks */
int program_init_trigger(uint8_t op);      /* getstatic, putstatic, invokestatic */

#endif
