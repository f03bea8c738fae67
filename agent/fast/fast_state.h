/*
 * fast_state.h - the fast engine's state (engine=fast, docs/fast-engine.md),
 * part of the agent's (agent.h) but read and changed only by the engine's
 * files (agent/fast/); the types of its tables (fast_method, fast_class,
 * fast_site, fast_call) are theirs alone (fast.h).
 */
#ifndef PSF_FAST_STATE_H
#define PSF_FAST_STATE_H

#include <jvmti.h>
#include <stdint.h>

#include "buckets.h"

/* engine=fast: the instrumenting engine's state (fast.c). */
typedef struct fast_state {
    JavaVM *vm;
    jclass probe;               /* global ref: the probe class (Probe.java), defined in the boot loader */
    char probe_name[64];        /* its internal name, drawn for the run (probename.h) */
    jfieldID f_member_class;    /* MemberName.clazz: which class a method handle's lookup resolves in */
    jfieldID f_counting, f_one, f_thread, f_hits, f_n, f_depth;
    jfieldID f_counters, f_br[BR_KINDS]; /* the thread's predictor, its branch counts (BR_*) */
    jfieldID f_history, f_ohistory; /* its predictor's last outcomes, in each bucket */
    jfieldID f_allocations, f_elements;  /* the thread's arrays by site */
    jfieldID f_copied;          /* the elements its System.arraycopy calls copied */
    jfieldID f_oallocations, f_oelements, f_ocopied; /* the same in OVERHEAD mode */
    jfieldID f_classes;         /* the class counted at each made probe's site */
    jmethodID fill_in;          /* Throwable.fillInStackTrace(I), Class.initClassName and */
    jmethodID init_class_name;  /* StackTraceElement.initStackTraceElements: the natives whose */
    jmethodID ste_init;         /* arrays are charged (they call no Java code) */
    jmethodID obj_clone, new_array, multi_new_array; /* Object.clone, Array.newArray and
                                 * multiNewArray: their arrays are the made probes' */
    jclass object_array;        /* global ref: Object[] (made probes walk multiNewArray's levels) */
    jmethodID last_caller;      /* a one-entry cache of the last native's caller looked up */
    jlocation last_at;          /* (frame location): its method's index, the invoke's original */
    uint32_t last_index, last_pc, last_key; /* offset and key (fast.c native_caller; under lock) */
    int last_made;              /* and whether a made probe follows that invoke */
    jfieldID f_ohits, f_on, f_ocounters, f_obr[BR_KINDS]; /* the same in the overhead bucket */
    /* the thread's root frames (the root entry probe) */
    jfieldID f_mode, f_sp, f_root_ids, f_root_modes, f_hidden, f_hidden_root;
    jfieldID f_pending, f_natives; /* the thread's pending call, its native calls by call site */
    jfieldID f_pending_at, f_native_arrays; /* the total at that call; 1: a native's arrays await its return */
    jfieldID f_call_mark, f_entries, f_oentries; /* its last invoke's total, its method entries */
    /* its calling contexts (Probe.ctxInit): the tree, the runs, the saved positions, the open roots' */
    jfieldID f_ctx_parent, f_ctx_method, f_ctx_site, f_ctx_count, f_ctx_nodes, f_ctx_at, f_ctx_at_method, f_ctx_last;
    jfieldID f_run_node, f_run_count, f_ctx_top, f_ctx_cur, f_saved, f_nsaved, f_root_ctx, f_root_saved;
    jmethodID m_ctx_init;
    jfieldID f_watching;        /* static: whether block probes report bystanders' blocks */
    jfieldID f_bound;           /* its bound: the most it may count before the bytecode limit */
    jfieldID f_pos, f_entry_at, f_seg_fence, f_seg_fence_b; /* its exact position, last entry */
    jfieldID f_close[BUCKETS], f_fence_native[BUCKETS], f_fence_alloc[BUCKETS]; /* closeness and fences */
    jfieldID f_root_lend, f_root_seg_fence, f_root_seg_fence_b; /* per root frame: what it lent, the fence */
    int hooked;                 /* ClassFileLoadHook rewrites classes from now on */
    int parallel;               /* the start's retransformation runs on two threads (fast.c
                                   fast_retransform_loaded): the hook rewrites outside the lock */
    struct fast_method *methods; /* in probe-id order (ids are handed out in order, under lock) */
    uint32_t nmethods, methods_cap;
    uint32_t *by_name;          /* open addressing on the name: 1 + the index in methods of the last
                                   method rewritten with that name, 0 empty (fast.c fast_method_by_name) */
    uint32_t by_name_cap;       /* its slots: a power of two, at least twice by_name_n */
    uint32_t by_name_n;         /* the methods added to it */
    uint32_t *len;              /* by probe id: bytecodes in that block */
    uint32_t *site;             /* by probe id: the branch site of the conditional branch
                                   ending that block (bp_site), 0 for other blocks */
    uint32_t *flags;            /* by probe id: 1 when its class is the program's */
    uint32_t next_id, len_cap;  /* the next id to hand out */
    struct fast_site *sites;    /* by array site (under lock) */
    uint32_t next_site, sites_cap; /* the next array site to hand out */
    struct fast_call *calls;    /* by call site (under lock) */
    uint32_t *callseg;          /* by call site: the segment after the invoke or new (fast.c SEG_*) */
    uint32_t *arrayseg;         /* by array site: the segment after the array instruction (its first site) */
    uint32_t next_call, calls_cap; /* the next call site to hand out */
    struct fast_class *classes; /* every rewritten class, by fast_method.cls */
    uint32_t nclasses, classes_cap;
    struct thread_state **on;   /* threads now counting (under lock), mirrored in the probe class's counting */
    uint32_t non, on_cap;
    char problem[512];          /* the first reason this run's counts cannot be trusted (under lock) */
    char hidden_work[768];      /* the first program code it saw run where the step engine sees none
                                 * (under lock): the run is refused as hidden_work, not handed over */
    struct fast_watched *watched; /* methods without probes whose bytecode the step engine counts (hidden
                                     classes', those the JVM adds to a JDK event class), each with its kind,
                                     sorted, each with a breakpoint at offset 0 (under lock; hidden.c) */
    uint32_t nwatched, watched_cap;
    int watched_armed;          /* they have their breakpoints (a thread has counted) */
    int limit_exact;            /* the bytecode limit stopped the run where the step engine stops (limit.c) */
    struct fast_armed *armed;   /* the bytecode limit's stop waiting for the thread's next probe (limit.c) */
    char limit_inexact[256];    /* else why it could not place that stop, "" before a limit stop */
} fast_state;

#endif
