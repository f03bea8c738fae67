/*
 * agent.h - the counting agent's state: one context struct (struct agent)
 * plus the types the callbacks share.
 *
 * Threads: every Java thread that runs a measured extent owns one
 * thread_state, reached through a C11 thread-local pointer, and only that
 * thread writes its counters: the per-bytecode path takes no lock. Shared
 * tables (methods, keys, classes, invocations, the thread registry) are
 * changed only under a->lock, on paths that run once per method, class,
 * invocation or thread.
 */
#ifndef PSF_AGENT_H
#define PSF_AGENT_H

#include <jvmti.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "blocks.h"
#include "branchpred.h"
#include "classfile.h"
#include "instrument.h"
#include "calls.h"
#include "cpool.h"
#include "names.h"
#include "options.h"

enum bucket { BUCKET_WORK = 0, BUCKET_OVERHEAD = 1, BUCKETS = 2 };

/* How a method's frame relates to the overhead bucket. */
enum root_kind {
    ROOT_NONE = 0,      /* ordinary method */
    ROOT_ALWAYS,        /* <clinit>, method-handle linkage upcalls: overhead whenever entered */
    ROOT_IF_UPCALL,     /* loadClass(String): overhead when the JVM, not an invoke, entered it */
    ROOT_THREAD_START,  /* java.lang.Thread.start() or start(ThreadContainer): not overhead; marks the thread as the measured code's */
    ROOT_VIRTUAL_START, /* java.lang.VirtualThread.start(ThreadContainer): refused (status virtual_threads) */
    ROOT_VIRTUAL_MOUNT  /* java.lang.VirtualThread.runContinuation(): a virtual thread mounts; refused likewise */
};

/* Kinds of dependency keys (what a constant-pool operand names). KEY_LDC: an
 * ldc or ldc_w that loads a class constant (HotSpot's interpreter calls into
 * the VM for it at every execution; other constants load inline). */
enum key_kind { KEY_NEW = 0, KEY_INVOKE, KEY_INDY, KEY_ARRAY, KEY_LDC, KEY_KINDS };

/* One executed method, created on the first step into it and never freed
 * before the agent unloads. */
typedef struct method_info {
    jmethodID id;
    uint32_t index;         /* dense, 0..methods.count-1 */
    char *name;             /* "pkg.Class.name(desc)", hidden-class address normalized */
    uint8_t *code;          /* own copy of the bytecodes */
    uint32_t code_len;
    uint32_t *dep;          /* per offset: dependency key index + 1 (DEP_KEY), 0 = none, with
                             * DEP_NO_FENCE on calls of interpreter intrinsics; NULL when the
                             * method has none */
    uint32_t *tail;         /* pairs (invoke offset, return offset): a call of a method with this
                             * method's name and descriptor right before a return; NULL if none */
    uint32_t ntail;         /* number of pairs */
    uint8_t root;           /* enum root_kind */
    uint8_t program;        /* its class is the program's (the application class loader's): its
                             * bytecodes are work in any context (extent.c) */
    uint32_t bp_seed;       /* branch sites of this method: bp_seed(name) */
    _Atomic uint8_t *init_site; /* program methods: per offset, 1 = a getstatic, putstatic or invokestatic
                                 * not yet checked for a class to initialize (clinit.c); else NULL */
    _Atomic uint8_t *watch_site; /* the JDK's methods: per offset, 1 = a getstatic, putstatic or invokestatic
                                  * (DEP_WATCH) not yet executed while counted (linkage.c); else NULL */
    const struct class_info *cls; /* its class's constant pool, when it has dependencies or init sites */
    uint32_t fast;          /* engine=fast: its a->fast.methods index + 1 (no jmethodID: its lines come
                             * from the kept class file, fast_offset_lines); 0 otherwise */
} method_info;

/* Interned dependency keys ("new:java.lang.String", ...). */
typedef struct key_table {
    char **names;           /* owned strings; the key text without the kind prefix */
    uint8_t *kind;          /* enum key_kind */
    uint32_t count, cap;
    uint32_t *slots;        /* open addressing: key index + 1, 0 = empty */
    uint32_t nslots;
} key_table;

/* Per loaded class that owns an executed method: its parsed constant pool. */
typedef struct class_info {
    unsigned char *cp_bytes; /* JVMTI memory */
    cpool cp;
    int cp_ok;
} class_info;

/* One outermost invocation of the target, recorded when it ends. */
typedef struct invocation {
    char *thread;
    uint64_t n[BUCKETS];
    uint64_t unscheduled;   /* of its work, counted on threads the method did not start (core/borrow.c, borrow_fold) */
    const char *end;        /* "return", "exception", "incomplete" */
    char *exception;        /* class of the exception that ended it, or NULL */
} invocation;

/* Arrays allocated while a call's callee may be native: kept aside until the
 * next step shows whether the callee ran bytecode (then they belong to it and
 * were counted there) or not (then the native call allocated them). */
#define PEND_ALLOCS 8
typedef struct pend_alloc {
    uint32_t key;           /* array key index + 1 */
    uint64_t allocations, elements;
} pend_alloc;

/* JVMTI tags on class objects: kind in the bits above TAG_KIND_SHIFT, index + 1 below. */
#define TAG_KIND_SHIFT 40
#define TAG_INDEX_MASK ((1LL << TAG_KIND_SHIFT) - 1)
enum { TAG_CLASS_INFO = 1, TAG_ARRAY_KEY = 2, TAG_STARTED_THREAD = 3,
       TAG_GC_ENQUEUED = 4 /* a reference the collector cleared (gcrefs.c); no index */ };

/* Conditional-branch counters of a thread, per bucket. */
enum { BR_EXECUTED = 0, BR_TAKEN, BR_MISPREDICTED, BR_KINDS };

/* Method entries: frames the interpreter built for a Java method (the step
 * at offset 0 right after an invoke), and the sum of their closeness to the
 * previous entry on the thread; the closeness to the last entry of calls
 * that ran no bytecode and of allocations (calls.h). */
enum { CALL_ENTRIES = 0, CALL_CLOSE, CALL_FENCE_NATIVE, CALL_FENCE_ALLOC, CALL_KINDS };

/* m->dep: the key index + 1, and a flag on invokes of java.lang.Math methods
 * the interpreter runs as intrinsics (no bytecode, but no native wrapper and
 * so no fence on return: calls.h). */
#define DEP_NO_FENCE 0x80000000u
#define DEP_WATCH 0x40000000u /* a static access of the JDK's whose resolution linkage.c watches (watch_site) */
#define DEP_KEY(v) ((v) & ~(DEP_NO_FENCE | DEP_WATCH))

#define MCACHE_SIZE 4096    /* per-thread direct-mapped method cache, power of two */
#define STEP_ARRAYS 8       /* distinct (key, bucket) of the arrays one allocating step may take back */
#define OWN_SITES 64        /* per-thread array sites known to allocate only their own arrays, power of two */

typedef struct mcache_entry {
    jmethodID id;
    method_info *m;
    uint64_t *hist;         /* this thread's [BUCKETS][256] counters for m, then its offsets' */
    uint64_t *off;          /* hist + HIST_OPS: per bytecode offset and bucket, OFF_SLOT */
} mcache_entry;

/* A thread's counters of a method are one block: [BUCKETS][256] by opcode,
 * then [code_len][BUCKETS] by bytecode offset (the profile's lines, read
 * through the method's LineNumberTable when the profile is written). */
#define HIST_OPS (BUCKETS * 256)
#define OFF_SLOT(loc, b) (((uint64_t)(loc) << 1) | (uint64_t)(b))

/*
 * The calling-context tree of a thread (contexts.c): one node per call path
 * (method, and the caller's offset that called it) below a virtual root,
 * from a pool of CTX_NODES preallocated when the thread first counts. A
 * method calling itself directly stays in its node. The step path adds each
 * bytecode to the counters `cur` points at; the tree changes only at method
 * entries and returns.
 */
#define CTX_NODES 2048          /* per thread, the root included */
#define CTX_DEPTHS 32768        /* frame depths whose call site a direct recursion records */
#define CTX_NONE UINT32_MAX

typedef struct ctx_node {
    uint32_t parent;            /* node index; CTX_NONE for the root */
    uint32_t method;            /* method index; CTX_NONE for the root */
    uint32_t site;              /* the caller's offset of the call; CTX_NONE when unknown */
    uint64_t n[BUCKETS];        /* bytecodes executed in this context (its own) */
    uint64_t other[BUCKETS];    /* bytecodes of its callees that found the pool full */
} ctx_node;

/* A run of frames on the thread's stack that share one node: a method
 * recursing directly, or callees beyond the pool (folded). */
typedef struct ctx_run {
    uint32_t node;
    uint32_t count;             /* frames in the run */
    uint32_t depth;             /* the JVM's frame depth of its first frame (for exceptions) */
    uint8_t folded;             /* counted in the node's `other` */
    jmethodID method;           /* its first frame's method */
} ctx_run;

typedef struct ctx_tree {
    ctx_node *nodes;            /* CTX_NODES, allocated once; NULL until the thread counts */
    uint32_t nnodes;
    uint32_t *slots;            /* open addressing over (parent, method, site): node index + 1 */
    ctx_run *stack;             /* CTX_NODES + 1 runs: every node at most once, one folded run */
    uint16_t *entered_at;       /* CTX_DEPTHS: by frame depth, the offset of the call in the frame
                                 * below that entered a frame of a direct recursion (its run's
                                 * second frame on); read for chains of tail calls */
    uint32_t top;               /* stack[top] is the current run; stack[0] the root */
    uint64_t *cur;              /* the counters of the current run (n or other of its node) */
    uint32_t mark_top, mark_count; /* the stack as it was before the last push */
    uint64_t sink[BUCKETS];     /* cur when the pool could not be allocated */
} ctx_tree;

typedef struct thread_state {
    struct thread_state *next;  /* registry, under a->lock */
    char *thread_name;
    int measuring;              /* inside an outermost invocation */
    int paused;                 /* steps are not counted for now (clinit.c: the JVM's class lookup) */
    jmethodID pre_method;       /* counting code of the method's class that runs before it (its
                                 * initializer, a constructor): that frame's method (clinit.c) */
    int bucket;                 /* enum bucket of the bytecode now executing */
    jmethodID root_method;      /* the overhead root frame we wait to pop */
    uint8_t prev_op;            /* opcode of the last step: the bytecode now executing */
    jmethodID prev_method;      /* method of the last step */
    jlocation prev_loc;         /* its offset */
    uint8_t saved_prev_op;      /* prev_op when the overhead root was entered */
    uint32_t pend_key;          /* invoke key + 1 awaiting the native check */
    int pend_fence;             /* that callee, if it runs no bytecode, returns through a fence */
    jmethodID pend_method;
    jlocation pend_next;        /* where the caller resumes if the callee ran no bytecode */
    pend_alloc pend[PEND_ALLOCS]; /* arrays allocated since that invoke */
    int npend;
    int helper;                 /* a thread the measured code started: counted for its whole life */
    uint32_t inv_index;         /* helper: the invocation (0-based) whose extent started it */
    int daemon;                 /* helper: a daemon thread, counted only while an extent runs */
    int idle_helper;            /* daemon helper between extents: keeps its slot, uncounted (extent.c) */
    jmethodID link_method;      /* linkage.c: the invokedynamic being linked, or the JDK's static access
                                 * being resolved (its method, offset) */
    jlocation link_loc;
    uint8_t link_op;            /* the instruction at link_loc */
    jmethodID borrow_method;    /* a bystander counted in the program's code: the frame it began in */
    uint32_t borrow_inv;        /* ... the invocation (0-based) it counts for */
    int borrow_live;            /* ... 1 until its end or the extents' end stops it (atomic access) */
    jthread ref;                /* global reference to the thread (for VMDeath's stack check) */
    char last_exception[256];   /* class of the last exception thrown on this thread in an extent */
    uint8_t sentry_kind;        /* bystanders.c, a thread stepped as a bystander: 0 not yet
                                 * known, SENTRY_CHARGED, SENTRY_JDK_FREE */
    uint64_t sentry_steps;      /* its bytecodes and native elements charged there in period sentry_gen
                                 * (atomic access) */
    uint32_t sentry_gen;
    uint32_t sentry_looked;     /* the period in which its stack was looked at for the program's frames */
    uint64_t n[BUCKETS];        /* bytecodes of the current invocation */
    uint64_t grant, budget;     /* bytecode limit: steps granted by the last check of the shared
                                 * total (a->counted), and steps left of them */
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
    uint64_t **hist;            /* by method index: HIST_OPS + BUCKETS * code_len counters, lazily allocated */
    uint32_t hist_cap;
    uint64_t *dep[BUCKETS];     /* by key index: count */
    uint64_t *elems[BUCKETS];   /* by key index: array elements */
    uint8_t *native;            /* by key index: 1 once an invoke of it ran no bytecode */
    uint32_t dep_cap;
    branchpred *bp;             /* this thread's simulated branch predictors, one per bucket, so
                                 * that overhead (class initialization) cannot change the work
                                 * bucket's misses */
    uint64_t br[BUCKETS][BR_KINDS]; /* conditional branches: executed, taken, mispredicted */
    uint64_t calls[BUCKETS][CALL_KINDS]; /* method entries, their closeness, fences' closeness */
    uint64_t entry_at;          /* n[0] + n[1] at the last method entry of this span */
    jvmtiFrameInfo *tail_frames; /* step/step.c tail_returns: frames of a chain of self-calls */
    uint32_t tail_cap;          /* their number */
    int entry_far;              /* no method entry yet in this span */
    jobject probe;              /* engine=fast: global ref to this thread's probe counters (Probe.java, fast/threads.c) */
    jint fast_base;             /* engine=fast: frames below and including the extent's outermost frame */
    jmethodID fast_init_caller; /* engine=fast: the instruction (method, location) at which the last */
    jlocation fast_init_loc;    /* initializer clinit.c would run was entered (fast/probes.c probe_root) */
    jmethodID fast_lent_method; /* engine=fast: the instruction (method, location) whose segment's rest */
    jlocation fast_lent_loc;    /* a JVM-entered frame took off the position (probe_jvm_entered) */
    struct fast_fix { uint32_t id, after; int bucket; } *fixes; /* engine=fast: instructions of block id
                                 * after offset `after` that an exception kept from running, and the
                                 * bucket they were counted in (fast.c) */
    uint32_t nfixes, fixes_cap;
    struct fast_native_array { uint32_t method, pc, key, invoke; int bucket; uint64_t allocations, elements; } *narrays;
                                /* engine=fast: what native calls handled, by the calling
                                 * instruction (a->fast.methods[method], original pc, its key
                                 * `invoke`) and the key of the arrays it allocated (0 for
                                 * elements charged by size) (fast.c) */
    uint32_t nnarrays, narrays_cap;
    ctx_tree ctx;               /* calling contexts (contexts.c) */
    uint32_t root_mark_top, root_mark_count; /* ctx stack before the overhead root's frame */
    uint32_t sched_slot;        /* sched.c: its slot + 1 while its counted threads are scheduled, else 0 */
    uint32_t sched_quantum;     /* bytecodes left of its turn */
    uint32_t sched_init_turns;  /* turns it was given on inside a class initializer (sched.c) */
} thread_state;

/* sched.c: one counted thread of a method that started threads. Its state
 * changes only under sched_state.lock. */
typedef struct sched_slot {
    jobject thread;             /* global ref to the Thread object */
    thread_state *ts;           /* NULL until the thread's ThreadStart */
    int state;                  /* sched.c's enum slot_state */
    int permit;                 /* an unpark it has not consumed */
    int wake;                   /* interrupted while blocked: park and sleep return, wait throws */
    int arrived;                /* back from Object.wait (MonitorWaited), waiting for its turn */
    int pending;                /* began Object.wait, maybe not yet in the wait set */
    int in_callback;            /* blocked in one of sched.c's waits */
    int vtimed;                 /* in a timed Object.wait whose timeout is virtual (sched_natives.c, w_wait) */
    jobject mon;                /* global ref: the monitor it waits for or on */
} sched_slot;

/* sched.c: the baton the counted threads pass (docs/determinism.md). */
typedef struct sched_state {
    pthread_mutex_t mutex;      /* guards everything here (see sched_impl.h for why not a raw monitor) */
    pthread_cond_t cond;        /* the baton moved */
    int armed;                  /* a counted thread started a thread: monitor events on */
    volatile int off;           /* the run ends: nobody waits any more */
    sched_slot *slots;          /* in creation order */
    uint32_t n, cap;
    int32_t holder;             /* the slot that may run, -1: none ready */
    int32_t last;               /* the last holder: where the next pick starts from when none was */
    _Atomic int32_t turn;       /* holder + 1, read without the lock on the step path */
    volatile int check;         /* a transition to look at on every step (a thread's end blocked on a monitor) */
    int32_t entering;           /* the slot whose release decides now (release), -1: none */
} sched_state;

/* engine=fast: one instrumented method, its block table and its probe ids
 * (fast.c). Kept for the whole run: a probe id never changes its meaning. */
typedef struct fast_method {
    char *name;                 /* "pkg.Class.name(desc)", UTF-8 */
    uint8_t *code;              /* own copy of its original bytecode */
    uint32_t code_len;
    blk_table blocks;           /* owned */
    ins_pc *pcs;                /* owned: where each original instruction went (instrument.h) */
    uint32_t npcs, new_len;
    uint32_t first_id;          /* block i has probe id first_id + i */
    uint8_t root;               /* enum root_kind */
    uint8_t program;            /* its class is the program's (the application class loader's) */
    uint8_t init_sites;         /* its static accesses run initializers as clinit.c's (program.c,
                                 * init_sites_class: the program's, reflection's accessors) */
    uint8_t root_probes;        /* it has the root entry and exit probes (Probe.rootEnter, rootExit) */
    uint32_t cls;               /* its class file: a->fast.classes[cls] */
    uint16_t cf_index;          /* its place in that class file's methods */
    method_info *mi;            /* its profile entry, made when the counts are collected */
} fast_method;

/* engine=fast: a rewritten class's original bytes, for the constant pool
 * its dependency keys are read from when the counts are collected. */
typedef struct fast_class {
    uint8_t *bytes;             /* owned copy */
    size_t len;
    classfile cf;               /* parsed when first needed (parsed = 1) */
    int parsed;
} fast_class;

/* engine=fast: one array site, one level of an array instruction (fast.c). */
typedef struct fast_site {
    uint32_t method;            /* a->fast.methods[method] */
    uint32_t pc;                /* the instruction's offset in the original code */
    uint32_t level;             /* 0 for the array the instruction returns, 1 for its elements, ... */
    uint32_t key;               /* its array key (index + 1), 0 until first needed (array instructions) */
    uint32_t made;              /* the site of a made probe (a native's new array, keyed by its
                                 * class): INS_MAKES_ONE or INS_MAKES_LEVELS; else 0 */
} fast_site;

/* engine=fast: one call site, an invoke between a call and a return probe (fast.c). */
typedef struct fast_call {
    uint32_t method;            /* a->fast.methods[method] */
    uint32_t pc;                /* the invoke's offset in the original code */
} fast_call;

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
    jmethodID fill_in;          /* Throwable.fillInStackTrace(I), Class.initClassName, */
    jmethodID init_class_name;  /* StackTraceElement.initStackTraceElements and */
    jmethodID ste_init;         /* Class.getDeclaredMethods0 (its Method[] and the Class[] */
    jmethodID declared_methods; /* of their signatures): the natives whose arrays are charged */
    jmethodID obj_clone, new_array, multi_new_array; /* Object.clone, Array.newArray and
                                 * multiNewArray: their arrays are the made probes' */
    jclass object_array;        /* global ref: Object[] (made probes walk multiNewArray's levels) */
    jmethodID last_caller;      /* a one-entry cache of the last native's caller looked up */
    jlocation last_at;          /* (frame location): its method's index, the invoke's original */
    uint32_t last_index, last_pc, last_key; /* offset and key (fast.c native_caller; under lock) */
    int last_made;              /* and whether a made probe follows that invoke */
    jfieldID f_ohits, f_on, f_ocounters, f_obr[BR_KINDS]; /* the same in the overhead bucket */
    jfieldID f_mode, f_sp, f_root_ids, f_root_modes, f_hidden, f_hidden_root; /* the thread's root frames (Probe.rootEnter) */
    jfieldID f_pending, f_natives; /* the thread's pending call, its native calls by call site */
    jfieldID f_call_mark, f_entries, f_oentries; /* its last invoke's total, its method entries */
    /* its calling contexts (Probe.ctxInit): the tree, the runs, the saved positions, the open roots' */
    jfieldID f_ctx_parent, f_ctx_method, f_ctx_site, f_ctx_count, f_ctx_nodes, f_ctx_at, f_ctx_at_method, f_ctx_last;
    jfieldID f_run_node, f_run_count, f_ctx_top, f_ctx_cur, f_saved, f_nsaved, f_root_ctx, f_root_saved;
    jmethodID m_ctx_init;
    jfieldID f_watching;        /* static: whether block probes report bystanders' blocks */
    jfieldID f_bound;           /* its bound: the most it may count before the bytecode limit */
    jfieldID f_pos, f_entry_at, f_entry_far, f_seg_fence, f_seg_fence_b; /* its exact position, last entry */
    jfieldID f_close[BUCKETS], f_fence_native[BUCKETS], f_fence_alloc[BUCKETS]; /* closeness and fences */
    jfieldID f_root_lend, f_root_seg_fence, f_root_seg_fence_b; /* per root frame: what it lent, the fence */
    int hooked;                 /* ClassFileLoadHook rewrites classes from now on */
    int parallel;               /* the start's retransformation runs on two threads (fast.c
                                   retransform_loaded): the hook rewrites outside the lock */
    fast_method *methods;       /* in probe-id order (ids are handed out in order, under lock) */
    uint32_t nmethods, methods_cap;
    uint32_t *by_name;          /* open addressing on the name: 1 + the index in methods of the last
                                   method rewritten with that name, 0 empty (fast.c method_by_name) */
    uint32_t by_name_cap;       /* its slots: a power of two, at least twice by_name_n */
    uint32_t by_name_n;         /* the methods added to it */
    uint32_t *len;              /* by probe id: bytecodes in that block */
    uint32_t *site;             /* by probe id: the branch site of the conditional branch
                                   ending that block (bp_site), 0 for other blocks */
    uint32_t *flags;            /* by probe id: 1 when its class is the program's */
    uint32_t next_id, len_cap;  /* the next id to hand out */
    fast_site *sites;           /* by array site (under lock) */
    uint32_t next_site, sites_cap; /* the next array site to hand out */
    fast_call *calls;           /* by call site (under lock) */
    uint32_t *callseg;          /* by call site: the segment after the invoke or new (fast.c SEG_*) */
    uint32_t *arrayseg;         /* by array site: the segment after the array instruction (its first site) */
    uint32_t next_call, calls_cap; /* the next call site to hand out */
    fast_class *classes;        /* every rewritten class, by fast_method.cls */
    uint32_t nclasses, classes_cap;
    thread_state **on;          /* threads now counting (under lock), mirrored in the probe class's counting */
    uint32_t non, on_cap;
    char problem[512];          /* the first reason this run's counts cannot be trusted (under lock) */
    char hidden_work[768];      /* the first program code it saw run where the step engine sees none
                                 * (under lock): the run is refused as hidden_work, not handed over */
    char native_problem[512];   /* the first native whose arrays cannot be charged (under lock) */
    jmethodID *hidden;          /* methods of hidden classes (no probes), sorted, each with a
                                   breakpoint at offset 0 (under lock) */
    uint32_t nhidden, hidden_cap;
    int hidden_armed;           /* they have their breakpoints (a thread has counted) */
    int limit_exact;            /* the bytecode limit stopped the run where the step engine stops (limit.c) */
    struct fast_armed *armed;   /* the bytecode limit's stop waiting for the thread's next probe (limit.c) */
    char limit_inexact[256];    /* else why it could not place that stop, "" before a limit stop */
} fast_state;

/* The agent's whole state. */
struct engine_ops; /* engine.h */

typedef struct agent {
    jvmtiEnv *jvmti;
    jrawMonitorID lock;
    agent_options opts;
    method_spec spec;
    int dead;                   /* VMDeath seen: callbacks return at once */

    /* target resolution */
    int class_seen;             /* a class with the target's name was prepared */
    int method_found;
    jmethodID target;
    char *target_desc;          /* resolved descriptor */
    char **candidates;          /* overloads when ambiguous */
    int ncandidates;
    int ambiguous;
    char target_problem[512];   /* why a found method cannot be measured (native, abstract) */

    /* first failure of a JVMTI call, reported as status agent_error */
    char error[512];

    /* result channel: out= file, or an authenticated record on result_fd */
    uint8_t *key_page;          /* mmap'd page holding the key, PROT_NONE except while signing */
    int result_written;         /* the result went out (a limit stop, or VMDeath) */
    _Atomic uint64_t counted;   /* steps of all threads, added a grant at a time (max_bytecodes) */
    const char *stop_status;    /* what stopped the program: "bytecode_limit", "thread_limit", "virtual_threads",
                                   "unschedulable", "hidden_work", "gc_dependent" */
    char stop_message[768];
    struct {                    /* gcrefs.c: references the collector enqueued or cleared */
        jfieldID discovered;    /* Reference.discovered: the pending list's link */
        jfieldID head;          /* ReferenceQueue.head */
        jmethodID poll;         /* ReferenceQueue's reallyPoll (17) or poll0 (21+), a breakpoint at 0 */
        jclass kinds[3];        /* global refs: WeakReference, SoftReference, PhantomReference */
        _Atomic int taking;     /* the Reference Handler is inside the pending list's wrapper */
        _Atomic uint32_t seq;   /* collections ended so far */
        _Atomic uint32_t counted_upto; /* the number of the last one that ended while an extent ran */
        _Atomic uint32_t taken; /* collections up to this number were in the lists taken before the last */
        char cleared[160];      /* the first reference of the program's kind the collector cleared while
                                 * counted code ran, "" when none (under lock) */
    } gc;
    const char *exit_kind;      /* "exit_in_method" / "halt_in_method" when the JVM ended inside the method */
    jthread main_thread;        /* global ref: the thread VMInit ran on, the launcher's main thread */
    struct {                    /* how the JVM ended, seen at VMDeath (vmentry.c): the profile's <end> */
        const char *by;         /* "exit", "halt", "return", "other"; NULL: not seen (a stop wrote the result) */
        char thread[256];       /* the thread that ended it (exit, halt, other), UTF-8 */
        char caller[1024];      /* the frame that called Runtime.exit or halt, named as in <methods> */
        int entry;              /* that frame is the bottom frame of the main thread (its entry method) */
    } end;

    /* threads: an extent counts the threads its code starts */
    int active_extents;         /* threads now inside an outermost invocation (under lock) */
    uint64_t threads_started;   /* threads that measured code started (Thread.start in an extent) */
    uint32_t arraycopy_key;     /* key index + 1 of System.arraycopy, charged per element */
    volatile int foreign_threads; /* threads started after VMInit outside any extent */
    char bystander[512];        /* a pre-existing thread that worked while the method ran */
    _Atomic uint64_t sentry_steps; /* bytecodes and native elements such threads ran since no extent
                                    * was running */
    _Atomic uint32_t sentry_gen;   /* numbers those periods: a thread's own count is of one */
    jthread watched[2];         /* Finalizer and Common-Cleaner: run user code, watched in every extent */
    int nwatched;
    jthread jvm_threads[16];    /* the JVM's other threads alive at VMInit (not main): never bystanders */
    int njvm_threads;

    /* JVM identity */
    char *vm_version, *vm_vendor, *vm_flags, *vm_info;
    jobject platform_loader;    /* global ref: classes it defines are the JDK's, not the program's */
    jobject system_loader;      /* global ref: the application class loader */
    jclass delegating_loader;   /* global ref: reflection's DelegatingClassLoader (processes=deny) */
    jclass class_class;         /* global ref: java.lang.Class (clinit.c) */
    jmethodID class_for_name;   /* Class.forName(String, boolean, ClassLoader) */
    jmethodID class_declared_fields; /* Class.getDeclaredFields0(boolean): links a class */

    /* the method's own class, initialized before the method runs (clinit.c) */
    jmethodID target_clinit;    /* its <clinit>, with a breakpoint at offset 0; NULL if none */
#define CLINIT_ENTRIES 256
    jmethodID clinit_entries[CLINIT_ENTRIES]; /* its <clinit> and those of its supertypes of the
                                 * program's (initialized first): breakpoints at offset 0 */
    int nclinit_entries;
    jmethodID *target_inits;    /* its constructors, when the method is an instance method: breakpoints
                                 * at offset 0 (the instance the method runs on is made by one) */
    int ntarget_inits;
    uint32_t constructors_counted; /* runs of them outside the method so far (clinit.c; under lock) */
    struct init_site { jmethodID method; jlocation loc; uint8_t op; cp_str owner, name, desc; } *tsites; /* breakpoints: static accesses that
                                 * name the class, in the program's other classes (under lock) */
    uint32_t ntsites, tsites_cap;
    int target_init_done;       /* it is initialized: breakpoints cleared, no more scanning */
    uint64_t pre_n[BUCKETS];    /* what its initializer and constructors executed outside the method:
                                 * charged to the next invocation recorded (under lock) */
    uint64_t pre_unscheduled;   /* of pre_n, what threads the method did not start counted (borrow_fold) */
    char *java_home;            /* native libraries below it may load (processes=deny) */

    /* shared tables */
    method_info **methods;      /* by index */
    uint32_t nmethods, methods_cap;
    method_info **mslots;       /* open addressing by jmethodID */
    uint32_t nmslots;
    key_table keys;
    class_info **classes;       /* by tag - 1 */
    uint32_t nclasses, classes_cap;

    invocation *invocations;
    uint32_t ninvocations, invocations_cap;
    thread_state *threads;

    const struct engine_ops *engine; /* the engine of this run, chosen at load (engine.h) */
    fast_state fast;            /* engine=fast only (fast.c) */
    sched_state sched;          /* sched.c */

    /* Calls that go up the agent's layers: vmentry.c sets them at load
     * (wire_hooks), so that clinit.c, natives.c and extent.c reach the
     * files above them only through these and never include their names. */
    struct agent_hooks {
        /* extent.c's pre_extent_begin/end: count code of the method's
         * class that runs outside an invocation; clinit.c starts and ends it */
        int (*pre_begin)(struct agent *a, JNIEnv *jni, jthread thread, jmethodID frame, int at_entry);
        void (*pre_end)(struct agent *a, JNIEnv *jni, jthread thread);
        /* step/arrays.c: System.arraycopy copied `length` elements (natives.c) */
        void (*arraycopy)(struct agent *a, JNIEnv *jni, jint length);
        /* core/extent.c: a native of bulk.c handled n elements for invoke key `key` */
        void (*elements)(struct agent *a, uint32_t key, uint64_t n);
        /* core/limits.c's limit_stop: a limit was exceeded on this thread; sends
         * the result with that status and halts the JVM (linkage.c, sched.c) */
        void (*stop)(struct agent *a, JNIEnv *jni, jthread thread, const char *status, const char *message);
        /* vmentry.c: decide the status and send the result, once (a limit
         * stop in extent.c); 1 when this call sent it, 0 when another
         * thread did or is doing so */
        int (*finish)(struct agent *a, JNIEnv *jni);
    } hooks;
} agent;

/* state.c: the one instance, zeroed at load by Agent_OnLoad */
extern agent g_agent;
/* state.c: the calling thread's state (extent.c makes it), NULL before */
extern _Thread_local thread_state *agent_tls __attribute__((tls_model("initial-exec")));
thread_state *agent_self(void);
/* Grow ts's per-key counters (dep, elems, native) to hold `need` keys,
 * new ones zero; 0, or -1 out of memory (what was there is kept). */
int ts_keys_grow(thread_state *ts, uint32_t need);
/* ts's counters of method mi (opcode histogram, then per-offset counts of
 * each bucket), made zero on first use; NULL out of memory. Both engines
 * count into them: the step engine per bytecode (step.c cache_fill), the
 * fast one when it reads its hits back (fast/collect.c). */
uint64_t *ts_hist(thread_state *ts, const method_info *mi);
/* The agent's growing arrays (n used of *cap, one more wanted): p
 * reallocated to twice *cap elements of `size` bytes (`first` when *cap
 * is 0), *cap updated; NULL out of memory, p and *cap then unchanged. */
void *grow_cap(void *p, uint32_t *cap, uint32_t first, size_t size);

/* jvmti_util.c */
int jvmti_check(agent *a, jvmtiError err, const char *call);
void agent_fail(agent *a, const char *fmt, ...);
void agent_log(agent *a, const char *fmt, ...);
void lock_enter(agent *a);
void lock_exit(agent *a);
char *xstrdup_jvmti(agent *a, char *s);  /* copy (as UTF-8) and Deallocate a JVMTI string */
char *utf8_dup(const char *mutf8);       /* modified UTF-8 to a malloc'd UTF-8 copy */

/* keys.c */
uint32_t keys_intern(key_table *t, enum key_kind kind, const char *name); /* index + 1, 0 on OOM */
uint32_t keys_find(const key_table *t, enum key_kind kind, const char *name); /* index + 1, 0 when absent */
void keys_free(key_table *t);

/* methods.c */
method_info *methods_get(agent *a, JNIEnv *jni, jmethodID id); /* takes a->lock; NULL on failure */
/* A method's name as the profile has it, "pkg.Class.name(desc)" in UTF-8
 * (malloc'd; NULL out of memory), from its class's JVMTI signature, its
 * name and descriptor; the class's binary name goes to cls. */
char *method_full_name(const char *csig, const char *name, const char *desc, char *cls, size_t clslen);
const class_info *methods_class(agent *a, jclass klass); /* its parsed constant pool; takes a->lock */
method_info *methods_add_plain(agent *a, const char *name, const uint8_t *code, uint32_t code_len); /* lock held */
uint8_t methods_root_kind(const char *cls, const char *name, const char *desc); /* enum root_kind */
uint32_t methods_key_of(agent *a, const cpool *cp, const uint8_t *code, uint32_t pc); /* lock held */
int methods_no_fence(const char *key);      /* 1: an invokestatic of it has no fence (DEP_NO_FENCE) */

/* bystanders.c */
void bystanders_init(agent *a, JNIEnv *jni, jthread main_thread);
void bystanders_thread_start(agent *a, jthread thread);
int bystanders_note(agent *a, JNIEnv *jni, jthread self, char *msg, size_t cap); /* 1: a virtual thread is mounted (msg) */
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

/* program.c */
int program_loader(agent *a, JNIEnv *jni, jobject loader); /* the application class loader */
int program_class(agent *a, JNIEnv *jni, jclass klass); /* defined by the application class loader */
int init_sites_loader(agent *a, JNIEnv *jni, jobject loader); /* neither boot nor platform loader */
int init_sites_class(agent *a, JNIEnv *jni, jclass klass); /* program.c: classes whose static accesses clinit.c checks */
int program_init_trigger(uint8_t op);      /* getstatic, putstatic, invokestatic */

/* clinit.c */
void clinit_init(agent *a, JNIEnv *jni);   /* at VMInit */
void clinit_site(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method, const method_info *m, jlocation loc);
void linkage_open(agent *a, thread_state *ts, jthread thread, jmethodID method, jlocation loc);
void linkage_close(agent *a, thread_state *ts, jthread thread);
void linkage_watch(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m, jlocation loc);
void JNICALL linkage_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method);
void clinit_target_prepared(agent *a, JNIEnv *jni, jclass klass); /* the method's class (lock held) */
void clinit_scan_class(agent *a, JNIEnv *jni, jclass klass); /* at ClassPrepare */
void clinit_breakpoint(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc);
void clinit_target_done(agent *a);

/* progress.c */
void progress_start(agent *a);             /* at VMInit: with progress=FILE, the count so far into FILE */

/* natives.c */
void natives_bind(agent *a, JNIEnv *jni);  /* at VMInit: System.arraycopy, per-run values */
void natives_bind_clock(agent *a, JNIEnv *jni); /* at VMStart: the virtual clock */
void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, void *address,
                            void **new_address);

/* vclock.c */
long long vclock_tick(void);               /* advance this thread's virtual clock; its nanoseconds */

/* bulk.c: natives charged by the bytes they handle */
void bulk_bind(agent *a, JNIEnv *jni);     /* at VMInit */
void bulk_class_prepared(agent *a, JNIEnv *jni, jclass klass); /* binds the natives a class declares */
int bulk_named(const char *name);          /* a native of that name is caught at NativeMethodBind */
int bulk_native_bound(const char *cls, const char *name, void *address, void **new_address); /* 1: caught */
void counting_charge_elements(agent *a, uint32_t key, uint64_t n); /* core/extent.c: hooks.elements */

/* pervalues.c: values that would differ between runs (clock=virtual) */
int pervalues_named(const char *name);     /* a native of that name may be swapped */
int pervalues_swap(const char *cls, const char *name, const char *desc, void *address,
                    void **new_address); /* 1: swapped (desc: the native's descriptor) */
void pervalues_bind(agent *a, JNIEnv *jni); /* at VMInit: natives the JDK registered itself */

/* core/extent.c, step/ (the step engine's events), core/limits.c */
void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);
void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc);
void JNICALL on_frame_pop(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception);
void JNICALL on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject obj, jclass klass, jlong size);
void JNICALL on_exception(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                          jobject exception, jmethodID catch_method, jlocation catch_loc);
void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation loc,
                                jobject exception);
void JNICALL on_thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);
void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread);
void counting_quiesce(agent *a);   /* stop every other thread's counting before the totals are read */
void counting_finish(agent *a, JNIEnv *jni);   /* at VMDeath: close invocations still running */
void limit_stop(agent *a, JNIEnv *jni, jthread thread, const char *status, const char *message);
/* step/step.c: a carrier mounts a virtual thread while the method runs: virtual_threads */
void virtual_mount_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts);
int pre_extent_begin(agent *a, JNIEnv *jni, jthread thread, jmethodID frame, int at_entry);
void pre_extent_end(agent *a, JNIEnv *jni, jthread thread);
void counting_arraycopy(agent *a, JNIEnv *jni, jint length); /* hooks.arraycopy */
uint32_t counting_array_key(agent *a, jclass klass); /* an array class's dependency key, 0 if none */

/* contexts.c: the calling-context tree (see ctx_tree) */
int ctx_start(agent *a, thread_state *ts);  /* a span starts: pool allocated once, stack at the root */
void ctx_enter(agent *a, thread_state *ts, jthread thread, jmethodID method, const method_info *m,
               jmethodID site_method, jlocation site);
void ctx_leave(thread_state *ts, uint64_t frames); /* frames returned */
int64_t ctx_tail_callers(const thread_state *ts, uint32_t method, uint32_t call); /* contexts.c: -1 unknown */
void ctx_mark(const thread_state *ts, uint32_t *top, uint32_t *count); /* the stack now */
void ctx_restore(thread_state *ts, uint32_t top, uint32_t count); /* back to a mark */
void ctx_catch(agent *a, thread_state *ts, jthread thread, jmethodID method); /* an exception caught there */
void ctx_free(thread_state *ts);
uint32_t ctx_child(thread_state *ts, uint32_t parent, uint32_t method, uint32_t site); /* fast.c's tree */

/* fast/: what the rest of the agent calls of the instrumenting engine
 * (engine=fast, docs/fast-engine.md) besides its table (engine.h) */
void JNICALL fast_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data);
int fast_offset_lines(agent *a, const method_info *mi, uint32_t *line); /* its lines from the kept class file */

#endif
