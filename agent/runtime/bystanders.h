/*
 * bystanders.h - threads that were running before the method and work
 * while it runs (bystanders.c says how they are judged and when a run is
 * refused for them).
 */
#ifndef PSF_BYSTANDERS_H
#define PSF_BYSTANDERS_H

#include "agent.h"

void bystanders_init(agent *a, JNIEnv *jni, jthread main_thread);
void bystanders_thread_start(agent *a, jthread thread);
const char *bystanders_note(agent *a, JNIEnv *jni, jthread self, char *msg, size_t cap); /* a status ending the run (msg), or NULL */
void bystanders_check(agent *a);
int bystanders_step(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int program); /* 1: count it */
void bystanders_charge(agent *a, JNIEnv *jni, jthread thread, thread_state *ts); /* a bytecode of the JDK's */
int bystanders_look(agent *a, thread_state *ts); /* 1 once a period: look for the program's frames */
/* 1: the program's code runs under a JDK initializer on this bystander (message in msg; thread_name NULL: read) */
int bystanders_hidden_init(agent *a, JNIEnv *jni, const char *thread_name, char *msg, size_t cap);
void bystanders_entry(agent *a, JNIEnv *jni, jthread thread, jmethodID method); /* MethodEntry */
enum { BYSTANDER_OVER = 1, BYSTANDER_PROGRAM = 2, BYSTANDER_JDK = 3 }; /* bystanders_fast_block */
int bystanders_fast_block(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, uint32_t n, int program);
void bystanders_sentry_on(agent *a, jthread t);
void bystanders_native(agent *a, JNIEnv *jni, uint64_t n); /* a native handled n elements */
uint64_t bystanders_allowance(void);

#endif
