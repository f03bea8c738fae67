/*
 * step_thread.h - the part of a thread's state (thread_state.step, agent.h)
 * only the step engine reads and writes (step/): its cache of the methods
 * it steps through, the arrays the last allocating instruction charged, the
 * array sites known to allocate only their own arrays, the last method
 * entry, and the frames of a chain of self-calls.
 */
#ifndef PSF_STEP_THREAD_H
#define PSF_STEP_THREAD_H

#include <jvmti.h>
#include <stdint.h>

#define MCACHE_SIZE 4096    /* per-thread direct-mapped method cache, power of two */
#define STEP_ARRAYS 8       /* distinct (key, bucket) of the arrays one allocating step may take back */
#define OWN_SITES 64        /* per-thread array sites known to allocate only their own arrays, power of two */

typedef struct mcache_entry {
    jmethodID id;
    struct method_info *m;
    uint64_t *hist;         /* this thread's [BUCKETS][256] counters for m, then its offsets' */
    uint64_t *off;          /* hist + HIST_OPS: per bytecode offset and bucket, OFF_SLOT */
} mcache_entry;

struct step_thread {
    mcache_entry cache[MCACHE_SIZE];
    jmethodID arr_method;       /* the last allocating instruction stepped (new, newarray, anewarray, */
    jlocation arr_loc;          /* multianewarray) and the arrays charged to it (by key and bucket): */
    uint32_t narr;              /* taken back if it throws (a negative size: step_arrays_thrown) */
    int arr_overflow;
    struct {
        uint32_t key;
        int bucket;
        uint64_t allocations, elements;
    } arr[STEP_ARRAYS];
    struct {                    /* array instructions that made an array of their own on this thread
                                 * (their class is resolved: step/arrays.c own_array), direct-mapped */
        jmethodID method;
        jlocation loc;
    } own_sites[OWN_SITES];
    uint64_t entry_at;          /* n[0] + n[1] at the last method entry of this span */
    jvmtiFrameInfo *tail_frames; /* step/step.c tail_returns: frames of a chain of self-calls */
    uint32_t tail_cap;          /* their number */
};

#endif
