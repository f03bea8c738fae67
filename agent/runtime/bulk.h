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
/*
 * The hidden class the fast engine is defining on this thread
 * (fast/hidden.c), so that its definition is charged as the program's
 * (0: none): the program's length, while it hands the rewritten bytes to
 * ClassLoader.defineClass0. bulk.c's wrapper charges that length instead
 * of the one it is passed, and clears the state before the JDK's native
 * runs (defining a class may define others on this thread).
 */
extern _Thread_local jint hidden_defining __attribute__((tls_model("initial-exec")));

#endif
