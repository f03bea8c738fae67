/*
 * clinit_impl.h - what the two files of class initialization share and no
 * other file reads: clinit.c finds the class a static access initializes
 * and initializes it, counted; clinit_target.c does the same for the
 * method's own class before the method runs.
 */
#ifndef PSF_CLINIT_IMPL_H
#define PSF_CLINIT_IMPL_H

#include "agent.h"

#define SEARCH_DEPTH 256 /* deeper class hierarchies are refused (agent_error), not searched */

/* A breakpoint at offset loc of method; one already there (the same place
 * reached twice: a shared superinterface, a supertype's initializer that
 * starts with a watched access) is fine. 0 on success. */
int clinit_set_breakpoint(agent *a, jmethodID method, jlocation loc);
/* Neither initialized nor failed: its initializer has yet to run. */
int clinit_uninitialized(agent *a, jclass klass);
/* 1 when C string s has exactly the bytes of want. */
int clinit_same(const char *s, cp_str want);
/* The class (a new local reference) that declares the field or method
 * name:desc as the JVM resolves it from k, or NULL. k is linked. */
jclass clinit_declaring_class(agent *a, JNIEnv *jni, jclass k, int field, cp_str name, cp_str desc, int depth);
/* The class the instruction names, loaded and linked through the loader of
 * the method's class (as the JVM's resolution would), or NULL. Not counted:
 * the caller has switched counting off. */
jclass clinit_named_class(agent *a, JNIEnv *jni, jmethodID method, cp_str owner);
/*
 * Initialize klass (the declaring class of name:desc) as the JVM would for
 * the instruction op: through JNI's lookup of that very member, which
 * initializes the class first (JNI GetStaticFieldID / GetStaticMethodID) and
 * throws nothing more, since the member exists. An initializer's failure is
 * returned as a local reference; NULL otherwise.
 */
jthrowable clinit_initialize(agent *a, JNIEnv *jni, jclass klass, uint8_t op, cp_str name, cp_str desc);

#endif
