/*
 * extent.h - what the files of the measured extent share with each other
 * and with no one else: core/extent.c (its life cycle and the threads'
 * state), core/span.c, core/limits.c, core/borrow.c, the step engine
 * (step/step.c, step/arrays.c, step/engine.c), and the fast engine's calls
 * into it (fast/probes.c, fast/engine.c: extent_begin, extent_end). The
 * extent's face to the rest of the agent (on_breakpoint, on_frame_pop,
 * counting_finish, ...) is in events.h.
 */
#ifndef PSF_EXTENT_H
#define PSF_EXTENT_H

#include "agent.h"
#include "bytecode.h"
#include "mutf8.h"

/* core/extent.c */
char *thread_name(agent *a, JNIEnv *jni, jthread thread);
thread_state *ts_get(agent *a, jthread thread);
int ts_cover_keys(agent *a, thread_state *ts);
void thread_start_seen(agent *a, thread_state *ts, JNIEnv *jni, jthread thread);
void extents_end(agent *a, JNIEnv *jni);
int extent_begin(agent *a, JNIEnv *jni, jthread thread); /* 1: an extent opened */
void extent_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int by_exception);
/* a StackOverflowError on a counting thread: the program stops, status stack_overflow */
void stack_overflow_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts);

/* core/span.c */
int span_thread_events(agent *a, jvmtiEventMode mode, jthread thread, thread_state *ts);
int span_start_counting(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, int notify_pop);
void span_start(agent *a, thread_state *ts);

/* core/limits.c */
void bytecode_limit_stop(agent *a, JNIEnv *jni, jthread thread);
void endless_loop_stop(agent *a, JNIEnv *jni, jthread thread, const char *method, uint32_t loc);
int limit_grant(agent *a, thread_state *ts);
void limit_return(agent *a, JNIEnv *jni, jthread thread, thread_state *ts);

/* core/borrow.c */
void borrow_charge_counts(agent *a, thread_state *ts, uint32_t inv, int unscheduled);
void borrow_helper_fold(agent *a, thread_state *ts);
void borrow_fold(agent *a, thread_state *ts);
jint outermost_program_frame(agent *a, JNIEnv *jni);
int borrow_begin(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc);
int borrow_stop(agent *a, thread_state *ts, jthread thread);
void borrow_end(agent *a, JNIEnv *jni, jthread thread, thread_state *ts);

/* step/step.c */
uint32_t step_cache_slot(jmethodID id);
int step_context(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m, jlocation loc);
void step_count(agent *a, thread_state *ts, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);

/* step/arrays.c */
void step_arrays_thrown(agent *a, thread_state *ts, jmethodID method, jlocation loc);
void step_array_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject obj, jclass klass);
void step_elements(agent *a, thread_state *ts, uint32_t k, uint64_t n);

#endif
