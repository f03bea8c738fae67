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
/* Set by a wrapper around ClassLoader.defineClass0 that hands the JDK other
 * bytes than the program's (the fast engine's hidden classes, fast/hidden.c)
 * for the call it makes next on this thread: the program's length, which
 * bulk.c's wrapper charges instead of the length it is passed; 0 none. */
extern _Thread_local jint bulk_define0_len __attribute__((tls_model("initial-exec")));

#endif
