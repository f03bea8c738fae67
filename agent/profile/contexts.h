/*
 * contexts.h - the calling-context tree of a thread (contexts.c; the
 * types are agent.h's ctx_tree): one node per call path, entered and left
 * at method entries and returns.
 */
#ifndef PSF_CONTEXTS_H
#define PSF_CONTEXTS_H

#include "agent.h"

int ctx_start(agent *a, thread_state *ts);  /* a span starts: pool allocated once, stack at the root */
int ctx_enter(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m,
              jmethodID site_method, jlocation site); /* 1: the frame passes the modelled stack's budget */
uint32_t ctx_frames(const thread_state *ts); /* the frames of the thread's contexts */
uint64_t ctx_use(const thread_state *ts);    /* their modelled stack use, in words */
void ctx_leave(thread_state *ts, uint64_t frames); /* frames returned */
int64_t ctx_tail_callers(const thread_state *ts, uint32_t method, uint32_t call); /* contexts.c: -1 unknown */
void ctx_mark(const thread_state *ts, uint32_t *top, uint32_t *count); /* the stack now */
void ctx_restore(thread_state *ts, uint32_t top, uint32_t count); /* back to a mark */
void ctx_catch(agent *a, thread_state *ts, jthread thread, jmethodID method); /* an exception caught there */
void ctx_free(thread_state *ts);
uint32_t ctx_child(thread_state *ts, uint32_t parent, uint32_t method, uint32_t site); /* fast.c's tree */

#endif
