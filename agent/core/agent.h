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
 *
 * Only the state lives here, with the helpers of state.c; every module's
 * functions are in its own header beside its .c (jvmti_util.h, keys.h,
 * methods.h, contexts.h, clinit.h, events.h, ...), the engines' state in
 * fast/fast_state.h and runtime/sched_state.h.
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

#include "buckets.h"
#include "fast_state.h"
#include "keys.h"
#include "sched_state.h"

/* How a method's frame relates to the overhead bucket. */
enum root_kind {
    ROOT_NONE = 0,      /* ordinary method */
    ROOT_ALWAYS,        /* <clinit>, method-handle linkage upcalls: overhead whenever entered */
    ROOT_IF_UPCALL,     /* loadClass(String): overhead when the JVM, not an invoke, entered it */
    ROOT_THREAD_START,  /* java.lang.Thread.start() or start(ThreadContainer): not overhead; marks the thread as the measured code's */
    ROOT_VIRTUAL_START, /* java.lang.VirtualThread.start(ThreadContainer): refused (status virtual_threads) */
    ROOT_VIRTUAL_MOUNT  /* java.lang.VirtualThread.runContinuation(): a virtual thread mounts; refused likewise */
};

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
    uint32_t frame_cost;    /* its frames' modelled stack use in words (core/stackmodel.h) */
} method_info;

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

/* each engine's part of a thread's state (thread_state.step, .fast) */
#include "fast_thread.h"
#include "step_thread.h"

/* JVMTI tags on class objects: kind in the bits above TAG_KIND_SHIFT, index + 1 below. */
#define TAG_KIND_SHIFT 40
#define TAG_INDEX_MASK ((1LL << TAG_KIND_SHIFT) - 1)
enum { TAG_CLASS_INFO = 1, TAG_ARRAY_KEY = 2, TAG_STARTED_THREAD = 3,
       TAG_GC_ENQUEUED = 4 /* a reference the collector cleared (gcrefs.c); no index */ };

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
    uint32_t below;             /* the modelled stack use of the frames below it, in words (stackmodel.h) */
    uint32_t cost;              /* not folded: each of its frames' modelled use */
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
    uint32_t *fold_use;         /* SM_MAX_FRAMES + 1: the modelled use of the folded run's first k
                                 * frames at [k] (its frames are of different methods) */
    uint64_t sink[BUCKETS];     /* cur when the pool could not be allocated */
} ctx_tree;

typedef struct thread_state {
    struct thread_state *next;  /* registry, under a->lock */
    char *thread_name;
    int measuring;              /* inside an outermost invocation */
    int paused;                 /* steps are not counted for now (clinit.c: the JVM's class lookup) */
    jmethodID pre_method;       /* counting code of the method's class that runs before it (its
                                 * initializer, a constructor): that frame's method (clinit_target.c) */
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
    int entry_far;              /* no method entry yet in this span */
    ctx_tree ctx;               /* calling contexts (contexts.c) */
    struct step_thread step;    /* the step engine's own (step/step_thread.h) */
    struct fast_thread fast;    /* engine=fast: the fast engine's own (fast/fast_thread.h) */
    uint32_t root_mark_top, root_mark_count; /* ctx stack before the overhead root's frame */
    uint32_t sched_slot;        /* sched.c: its slot + 1 while its counted threads are scheduled, else 0 */
    uint32_t sched_quantum;     /* bytecodes left of its turn */
    uint32_t sched_init_turns;  /* turns it was given on inside a class initializer (sched.c) */
} thread_state;

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
    _Atomic unsigned failures;  /* failures reported (agent_fail): only the first few are logged */

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
    volatile int program_threads; /* of those, one of the program's thread group (not the main thread) */
    volatile int late_threads;  /* such a thread started before an extent ended (fast/engine.c) */
    int jdk_feature;            /* java.vm.specification.version, read at VMInit (0: unknown) */
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

    /* the method's own class, initialized before the method runs (clinit_target.c) */
    jmethodID target_clinit;    /* its <clinit>, with a breakpoint at offset 0; NULL if none */
#define CLINIT_ENTRIES 256
    jmethodID clinit_entries[CLINIT_ENTRIES]; /* its <clinit> and those of its supertypes of the
                                 * program's (initialized first): breakpoints at offset 0 */
    int nclinit_entries;
    jmethodID *target_inits;    /* its constructors, when the method is an instance method: breakpoints
                                 * at offset 0 (the instance the method runs on is made by one) */
    int ntarget_inits;
    uint32_t constructors_counted; /* runs of them outside the method so far (clinit_target.c; under lock) */
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
     * (wire_hooks), so that clinit_target.c, natives.c and extent.c reach the
     * files above them only through these and never include their names. */
    struct agent_hooks {
        /* extent.c's pre_extent_begin/end: count code of the method's
         * class that runs outside an invocation; clinit_target.c starts and ends it */
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

#endif
