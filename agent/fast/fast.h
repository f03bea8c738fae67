/*
 * fast.h - what the files of the fast engine (agent/fast/) share with each
 * other and with no one else: the probe class's embedded bytes, and the
 * functions one file of the engine calls in another. The engine's face to
 * the rest of the agent is its table (engine.c, core/engine.h), and the
 * class file hook and the lines of kept class files in fast_api.h; its
 * state is fast_state.h's, in the agent's.
 */
#ifndef PSF_FAST_H
#define PSF_FAST_H

#include "agent.h"
#include "bytecode.h"
#include "classfile.h"
#include "instrument.h"
#include "mutf8.h"
#include "probe_fields.h"
#include "probename.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    uint8_t root_probes;        /* it has the root entry and exit probes (Probe.root, with id and ~id) */
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

/* The probe's class file as compiled (java/lang/Probe), embedded by agent/agent.mk. */
extern const unsigned char psf_probe_class[];
extern const size_t psf_probe_class_len;

#define HITS_INITIAL 4096   /* a new thread's hits array, when fewer ids exist yet */

/* Probe modes (Probe.WORK, OVERHEAD, HIDDEN), and in a root frame's
 * entry (Probe.rootModes) the flag VM_ENTERED: the JVM, not an invoke,
 * entered it, so an exception that leaves it goes back to the JVM; and
 * TRANSPARENT: a static initializer clinit.c would run for an access of
 * the program's, whose exit puts back the pending call (Probe.call); with
 * AS_CALLED, the first one run at that instruction, entered "as if
 * called" (a method entry); STEP_SEES: a HIDDEN root whose program code
 * the step engine counts or refuses itself (the linkage of an
 * invokedynamic of the program's: clinit.c, linkage.c), so that such
 * code makes the run fall back rather than be refused here. */
enum { MODE_WORK = 0, MODE_OVERHEAD = 1, MODE_HIDDEN = 2, MODE_MASK = 3, VM_ENTERED = 4, TRANSPARENT = 8,
       AS_CALLED = 32, STEP_SEES = 128 };
/* a->fast.flags: the program's block */
/* a->fast.flags: the block's class is the program's; for block 0 of a
 * method, above FLAG_COST_SHIFT, its frames' modelled stack use
 * (core/stackmodel.h; Probe.COST_SHIFT) */
enum { FLAG_PROGRAM = 1, FLAG_COST_SHIFT = 8 };

/*
 * Segments (docs/fast-engine.md, "Method entries, closeness, fences"): a block's
 * instructions split after every invoke (invokedynamic too) and every
 * allocation (new, newarray, anewarray, multianewarray). The block probe
 * adds the block's first segment to the thread's position, the return,
 * new and array probes the segment after their instruction, so the
 * position is exact wherever a frame waits at a call. Packed for the
 * probes: a->fast.len holds the block's length (bits 0..14), its first
 * segment's (15..29), whether an allocation ends it (bit 30) and whether
 * the block is a goto to itself (LEN_ENDLESS, bit 31: its probe asks
 * limit.c to stop the run where the step engine does); the
 * segments after an instruction (a->fast.callseg, arrayseg) their length
 * (0..14), SEG_ALLOC (15) and SEG_PROGRAM (16, the method is the
 * program's). A block of 32768 bytecodes or more is refused.
 */
#define SEG_LEN 0x7fffu
#define SEG_ALLOC (1u << 15)
#define SEG_PROGRAM (1u << 16)
#define LEN_ENDLESS (1u << 31)
/* The root entry probe's value from root0: the interrupted segment ends at an
 * allocation after the caller's instruction (SEG_AFTER), and the rest of
 * that segment the root lends, above bit 8 */
enum { SEG_AFTER = 64, LEND_SHIFT = 8 };

/* fast.c */
JNIEnv *fast_env(agent *a);

/* probes.c: the probe natives (PROBE_NATIVES) and segments */
jintArray JNICALL probe_lengths(JNIEnv *jni, jclass cls, jint id);
jintArray JNICALL probe_sites(JNIEnv *jni, jclass cls, jint id);
jintArray JNICALL probe_flags(JNIEnv *jni, jclass cls, jint id);
jint JNICALL probe_root(JNIEnv *jni, jclass cls, jint id, jint mode);
void JNICALL probe_begin(JNIEnv *jni, jclass cls);
void JNICALL probe_end(JNIEnv *jni, jclass cls);
jlong JNICALL probe_limit(JNIEnv *jni, jclass cls, jint kind, jint id, jlong bound);
void JNICALL probe_bystander(JNIEnv *jni, jclass cls, jint n, jboolean program);
jint JNICALL probe_array_sites(JNIEnv *jni, jclass cls, jint site, jint dims);
jint JNICALL probe_call_sites(JNIEnv *jni, jclass cls, jint site);
jint JNICALL probe_call_kind(JNIEnv *jni, jclass cls, jint site);
jintArray JNICALL probe_call_segs(JNIEnv *jni, jclass cls, jint site);
jintArray JNICALL probe_array_segs(JNIEnv *jni, jclass cls, jint site);
void JNICALL probe_jvm_entered(JNIEnv *jni, jclass cls, jint id, jint below);
void JNICALL probe_made(JNIEnv *jni, jclass cls, jobject array, jint site);
void JNICALL probe_deep(JNIEnv *jni, jclass cls, jint id, jint frames, jint use);

/* segments.c: a thread's exact position inside a block */
uint32_t seg_from(const fast_method *fm, const blk_block *bb, uint32_t from);
uint32_t seg_after(const fast_method *fm, uint32_t pc);
uint32_t seg_rest(const fast_method *fm, uint32_t pc, int *alloc);
void fast_add_long(agent *a, JNIEnv *jni, thread_state *ts, jfieldID f, jlong d);
void seg_abort(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, uint32_t pc);

/* hidden.c: hidden classes rewritten as they are defined; methods without probes (hidden or JDK event classes) watched */
void fast_arm_watched(agent *a);
void fast_watch_unprobed(agent *a, jclass klass);
int hidden_native_bound(const char *cls, const char *name, void *address, void **new_address);

/* boot.c: the start at VMInit */
int fast_retransform_loaded(agent *a, JNIEnv *jni);

/* registry.c: classes rewritten, ids handed out */
int fast_rewrite(agent *a, JNIEnv *jni, jobject loader, const char *name, const unsigned char *data, size_t len,
                 int hidden, unsigned char **out, size_t *out_len);
int fast_reserve_slots(void *ctx, uint32_t ids, uint32_t sites, uint32_t calls, uint32_t *first_id, uint32_t *first_site, uint32_t *first_call);

/* lookup.c: the rewritten methods found again */
fast_method *fast_method_of(agent *a, uint32_t id);
const cpool *fast_pool_of(agent *a, const fast_method *fm);
char *fast_full_name(agent *a, jmethodID id);
int fast_by_name_add(agent *a, uint32_t index);
fast_method *fast_method_by_name(agent *a, const char *name);
fast_method *fast_method_named(agent *a, jmethodID id);

/* collect.c: the counts read back */
method_info *fast_mi(agent *a, fast_method *fm);

/* arrays.c: array sites and natives' arrays */
int fast_collect_arrays(agent *a, JNIEnv *jni, thread_state *ts);
void fast_native_charge(agent *a, thread_state *ts, uint32_t index, uint32_t pc, uint32_t ik, uint32_t key, uint64_t allocations, uint64_t elements);
void JNICALL probe_native_arrays(JNIEnv *jni, jclass cls, jint site, jboolean nat); /* Probe.nativeArrays0 */
void native_arrays_drop(thread_state *ts); /* the arrays a native allocated, kept for a return probe, forgotten */
int fast_charged_native_call(agent *a, const fast_method *fm, uint32_t pc);

/* The engine's functions its files call across the folder (fast.c, boot.c,
 * threads.c, hidden.c, exceptions.c, arrays.c, collect.c, probes.c); the
 * rest of the agent reaches them through the engine's table (engine.c). */
void fast_capabilities(agent *a, JavaVM *vm, jvmtiCapabilities *caps); /* at load */
void fast_vm_init(agent *a, JNIEnv *jni);  /* at VMInit, first, on an agent thread: probe class, hook, retransformation */
void fast_class_prepare(agent *a, JNIEnv *jni, jclass klass); /* a hidden class's methods are watched */
int fast_watched_breakpoint(agent *a, thread_state *ts, jmethodID method); /* 1: a watched method's */
int fast_thread(agent *a, thread_state *ts, jthread thread, int on); /* switch a thread's probes on/off */
void fast_problem(agent *a, const char *fmt, ...); /* this run's counts cannot be trusted: why */
void fast_hidden_work(agent *a, const char *fmt, ...); /* the program's code ran hidden from stepping: refused */
/* NativeMethodBind: the natives that look up a class's members are wrapped (1), with engine=fast */
int fast_native_bound(agent *a, const char *cls, const char *name, void *address, void **new_address);
void fast_unwatch(agent *a, JNIEnv *jni);         /* block probes stop reporting bystanders' blocks */
void fast_bystanders_over(agent *a, JNIEnv *jni); /* bystanders passed their allowance: the step engine decides */
int fast_depth(agent *a, thread_state *ts);          /* frames of the method in the thread's extent */
jint fast_exception_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method,
                        jint frames); /* an exception unwinds the top `frames` frames at most */
/* In a fix's bucket (thread_state.fast.fixes): the instruction at `after` keeps its count but not its
 * key (the bytecode limit stopped the run on it: limit.c) */
#define FIX_KEY 0x100
/* the bytecode limit stops the run at original offset pc of the frame at depth skip (or, gone !=
 * NULL, of a frame of method gone that returned since to that frame, which is at the invoke at
 * call_pc): what it and the frames below it (frames in all) leave unrun comes off; 0, or -1 */
int fast_limit_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint skip, jint frames, uint32_t pc,
                   jmethodID gone, int64_t call_pc);
/* limit.c: the bytecode limit's stop, armed until the thread's next probe: the measured method's
 * exit probe (before the extent ends), and an exception or a frame the JVM entered at `loc` of the
 * frame `from_top` frames from the top (-1: not at an instruction): at or after the limit's
 * bytecode, the run stops there */
void fast_limit_exit(agent *a, JNIEnv *jni, jthread thread, thread_state *ts);
int fast_limit_armed(const agent *a, const thread_state *ts); /* the limit's stop waits on ts */
void fast_limit_interrupt(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jint from_top,
                          jlocation loc);
void fast_set_depth(agent *a, thread_state *ts, int depth);
void fast_quiesce(agent *a);               /* every thread's probes off, their totals read */
void fast_collect(agent *a, JNIEnv *jni);  /* the probes' hits into the threads' method counters */
void fast_array_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject array, jclass klass);
/* 1 while the agent makes an array of its own on this thread (hidden.c: a
 * hidden class's rewritten bytes; threads.c: Probe.counting, a thread's
 * counters): not the native's, its class untagged (fast_array_alloc skips it;
 * arrays.c holds it) */
extern _Thread_local int fast_own_alloc __attribute__((tls_model("initial-exec")));
                                           /* SampledObjectAlloc of an array on a counting thread */
void fast_charge_elements(agent *a, thread_state *ts, uint32_t k, uint64_t n); /* a native charged by size */

#endif
