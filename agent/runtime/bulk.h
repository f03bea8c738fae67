/*
 * bulk.h - natives charged by the bytes they handle (bulk.c): which
 * natives are caught, and their binding (bulk_bind.c).
 */
#ifndef PSF_BULK_H
#define PSF_BULK_H

#include "agent.h"

void bulk_bind(agent *a, JNIEnv *jni);     /* at VMInit */
void bulk_class_prepared(agent *a, JNIEnv *jni, jclass klass); /* binds the natives a class declares */
int bulk_named(const char *name);          /* a native of that name is caught at NativeMethodBind */
int bulk_native_bound(const char *cls, const char *name, void *address, void **new_address); /* 1: caught */

#endif
