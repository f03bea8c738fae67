/*
 * fast_thread.h - the part of a thread's state (thread_state.fast, agent.h)
 * only the fast engine reads and writes (agent/fast/): the thread's probe
 * counters, its frames below the extent, where an initializer or a
 * JVM-entered frame interrupted it, the instructions an exception kept
 * from running, what its native calls handled and the arrays a native
 * allocated that wait for the call's return probe. Included by agent.h
 * after pend_alloc.
 */
#ifndef PSF_FAST_THREAD_H
#define PSF_FAST_THREAD_H

#include <jvmti.h>
#include <stdint.h>

struct fast_thread {
    jobject probe;              /* global ref to this thread's probe counters (Probe.java, fast/threads.c) */
    jint base;                  /* frames below and including the extent's outermost frame */
    jmethodID init_caller;      /* the instruction (method, location) at which the last */
    jlocation init_loc;         /* initializer clinit.c would run was entered (fast/probes.c probe_root) */
    jmethodID lent_method;      /* the instruction (method, location) whose segment's rest */
    jlocation lent_loc;         /* a JVM-entered frame took off the position (probe_jvm_entered) */
    struct fast_fix { uint32_t id, after; int bucket; } *fixes; /* instructions of block id
                                 * after offset `after` that an exception kept from running, and the
                                 * bucket they were counted in (fast.c) */
    uint32_t nfixes, fixes_cap;
    struct fast_native_array { uint32_t method, pc, key, invoke; int bucket; uint64_t allocations, elements; } *narrays;
                                /* what native calls handled, by the calling
                                 * instruction (a->fast.methods[method], original pc, its key
                                 * `invoke`) and the key of the arrays it allocated (0 for
                                 * elements charged by size) (fast.c) */
    uint32_t nnarrays, narrays_cap;
    pend_alloc fpend[PEND_ALLOCS]; /* arrays a native allocated while call site fpend_site was
                                 * pending with the thread's total at fpend_at and nothing
                                 * counted since, awaiting its return probe (fast/arrays.c) */
    int nfpend;
    jint fpend_site;
    jlong fpend_at;
    jmethodID alloc_method;     /* the method on top at the thread's last array allocation, and */
    int alloc_probe;            /* whether it is the probe class's (fast/arrays.c probe_method) */
};

#endif
