/*
 * buckets.h - the kinds of counts every counter of the agent is split by:
 * the bucket (work, or the overhead of class initialization and linkage)
 * and a thread's conditional-branch counters. The agent's state (agent.h)
 * and the fast engine's (fast/fast_state.h) both hold counters of them.
 */
#ifndef PSF_BUCKETS_H
#define PSF_BUCKETS_H

enum bucket { BUCKET_WORK = 0, BUCKET_OVERHEAD = 1, BUCKETS = 2 };

/* Conditional-branch counters of a thread, per bucket. */
enum { BR_EXECUTED = 0, BR_TAKEN, BR_MISPREDICTED, BR_KINDS };

#endif
