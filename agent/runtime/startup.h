/*
 * startup.h - what both engines' starts at VMInit share (startup.c): the
 * agent thread they run on, and which classes they hand back to the JVM.
 */
#ifndef PSF_STARTUP_H
#define PSF_STARTUP_H

#include "agent.h"

/* The Thread object of an agent thread named thread_name, its thread id
 * handed back; NULL when it cannot be made. */
jobject agent_thread_object(JNIEnv *jni, const char *thread_name);

/* Runs work(a, jni, arg) on a new agent thread named name and waits for it
 * to end: 0, or -1 (reported) when the thread cannot be started. */
int agent_thread_run(agent *a, JNIEnv *jni, const char *name, void (*work)(agent *, JNIEnv *, void *), void *arg);

/* 1 when the loaded class klass has a method with bytecode (neither
 * abstract nor native; 1 when unknown): the classes a start retransforms. */
int class_has_code(agent *a, jclass klass);

/* How many methods of the loaded class klass have bytecode (1 when
 * unknown): the weight by which the fast engine's start shares the
 * classes out between its two threads. */
int class_code_methods(agent *a, jclass klass);

/* On the main thread at VMInit, before either engine's start: the identity
 * hash codes of the classes loaded so far drawn in one order (startup.c). */
void start_hash_classes(agent *a, JNIEnv *jni);

#endif
