/*
 * fast.c - the instrumenting counting engine (engine=fast): block probes in
 * every class, counted per thread while the thread is inside a measured
 * extent, turned into the step engine's per-method opcode counts when the
 * run ends. docs/fast-engine.md says how it gives each profile field
 * exactly as the step engine does (opcode histograms, per-method and
 * per-line counts, invocations, dependency keys with their native flags,
 * array keys and elements, entries, closeness and fences, branches and
 * mispredictions, calling contexts, in the work and overhead buckets) and
 * when it leaves a run to the step engine.
 *
 * At VMInit the probe class (agent/fast/probe/java/lang/Probe.java, its class
 * file compiled into the agent) is defined in the boot loader, where every
 * loader finds it, in java.lang under a name drawn for the run (define_probe):
 * every module reads java.base and may link its public probes, and nothing
 * outside java.base reaches the rest (docs/trust-model.md). A program that
 * looks up its members, or defines a class naming it, makes the run fall
 * back (psf_declared_methods, psf_mh_resolve; the rewriter refuses such a
 * class). From then on the ClassFileLoadHook rewrites
 * every class (agent/classfile/instrument.c) with a block probe at the start of each
 * basic block and a branch probe before each conditional branch (its
 * outcome goes to the thread's predictor, a Java port of branchpred.h, at
 * the branch's site from a->fast.site) and an array probe after each array
 * instruction (the arrays it made, by array site: a->fast.sites), and a
 * call and a return probe around each invoke (its call site, a->fast.calls:
 * a call that returned with nothing counted in between is a native one), a
 * probe after each new, and an entry probe in every method (entries, and
 * the thread's exact position for closeness and fences: segments, below),
 * and the classes loaded before (the JDK's core) are
 * retransformed once. Probe ids are handed out class by class under the
 * agent's lock; each method's block table is kept for the whole run.
 *
 * Where the step engine switches single-stepping on and off for a thread
 * (counting.c: the extent's breakpoint and frame pop, helper threads, the
 * method's own class's initializer), fast_thread switches that thread's
 * probes on and off instead: Probe.counting lists the threads counting
 * now. The per-thread events the extent needs (FramePop, Exception) stay.
 *
 * Overhead roots (JDK static initializers, loadClass, linkage upcalls) and
 * the program's static initializers get root probes; at each entry on a
 * counting thread probe_root decides, from the frame that entered it, the
 * mode the frame runs in: work, overhead (a second set of hits, total and
 * predictor), or hidden (nothing counted: HotSpot hides single-stepping
 * there, so the step engine counts nothing).
 *
 * Nothing here runs per bytecode or per block of a counting thread: the
 * probes are Java, inlined by the JIT; root probes call the agent once per
 * root frame, a block probe only when its thread passes the bytecode limit
 * (probe_limit) or, on a thread that is not counting while another is,
 * until the bystanders' allowance is passed (probe_bystander). A run whose
 * counts this engine cannot give exactly (an exception inside a probe,
 * method-handle linkage, the program's code in a hidden frame, a method
 * not instrumented, a thread started, ...) records the reason
 * (fast_problem) and ends as fallback, which get_score.sh runs again with
 * the step engine: never a quietly different count.
 */
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
#include <sys/random.h>

/* The probe's class file as compiled (java/lang/Probe), embedded by agent/agent.mk. */
extern const unsigned char psf_probe_class[];
extern const size_t psf_probe_class_len;

#define HITS_INITIAL 4096   /* a new thread's hits array, when fewer ids exist yet */

/* The current thread's JNIEnv (every caller runs on a Java thread). */
static JNIEnv *env_of(agent *a)
{
    JNIEnv *jni = NULL;
    if (a->fast.vm == NULL || (*a->fast.vm)->GetEnv(a->fast.vm, (void **)&jni, JNI_VERSION_10) != JNI_OK)
        return NULL;
    return jni;
}

/* Keep the first of several reasons in slot (size n), under the lock. */
__attribute__((format(printf, 4, 0)))
static void first_reason(agent *a, char *slot, size_t n, const char *fmt, va_list ap)
{
    char buf[768];
    vsnprintf(buf, sizeof buf, fmt, ap);
    lock_enter(a);
    if (slot[0] == '\0')
        snprintf(slot, n, "%s", buf);
    lock_exit(a);
}

/* Record why this run's counts cannot be trusted (the first reason wins);
 * the run then ends as agent_error with it (fast_collect). */
void fast_problem(agent *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    first_reason(a, a->fast.problem, sizeof a->fast.problem, fmt, ap);
    va_end(ap);
}

/* The program's code ran where the step engine sees no bytecode (HotSpot
 * hides single-stepping there): the run is refused as hidden_work, which
 * the step engine could not do for every such place, never handed to it. */
void fast_hidden_work(agent *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    first_reason(a, a->fast.hidden_work, sizeof a->fast.hidden_work, fmt, ap);
    va_end(ap);
}

/* Ask for what the engine needs; at load, engine=fast only. */
void fast_capabilities(agent *a, JavaVM *vm, jvmtiCapabilities *caps)
{
    a->fast.vm = vm;
    caps->can_retransform_classes = 1;
}

/* A per-id table of the probes (a->fast.len, site or flags, which grow
 * under the lock), copied into a new int[] of every id handed out so far; an
 * id past them is reported (it cannot happen: a class's ids exist before
 * its code can run). */
static jintArray probe_table_of(JNIEnv *jni, jint id, const uint32_t *const *which, const uint32_t *count,
                                const char *what)
{
    agent *a = &g_agent;
    lock_enter(a);
    uint32_t n = *count;
    const uint32_t *table = *which;
    jint *copy = malloc((n ? n : 1) * sizeof *copy);
    if (copy != NULL)
        for (uint32_t i = 0; i < n; i++)
            copy[i] = (jint)table[i];
    lock_exit(a);
    if (copy == NULL) {
        fast_problem(a, "out of memory for the probes' %s", what);
        return (*jni)->NewIntArray(jni, 0);
    }
    if (id < 0 || (uint32_t)id >= n)
        fast_problem(a, "a probe ran with id %d, which was never handed out (%s)", (int)id, what);
    jintArray arr = (*jni)->NewIntArray(jni, (jsize)n);
    if (arr != NULL)
        (*jni)->SetIntArrayRegion(jni, arr, 0, (jsize)n, copy);
    free(copy);
    return arr;
}

static jintArray probe_table(JNIEnv *jni, jint id, const uint32_t *const *which, const char *what)
{
    return probe_table_of(jni, id, which, &g_agent.fast.next_id, what);
}

/* Probe.callSegs0(site): the segments after every call site handed out so far. */
static jintArray JNICALL probe_call_segs(JNIEnv *jni, jclass cls, jint site)
{
    (void)cls;
    return probe_table_of(jni, site, (const uint32_t *const *)&g_agent.fast.callseg, &g_agent.fast.next_call,
                          "segments after calls");
}

/* Probe.arraySegs0(site): the segments after every array site handed out so far. */
static jintArray JNICALL probe_array_segs(JNIEnv *jni, jclass cls, jint site)
{
    (void)cls;
    return probe_table_of(jni, site, (const uint32_t *const *)&g_agent.fast.arrayseg, &g_agent.fast.next_site,
                          "segments after arrays");
}

/* Probe.lengths0(id): the block lengths of every id handed out so far. */
static jintArray JNICALL probe_lengths(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.len, "block lengths");
}

/* Probe.sites0(id): the branch sites of every id handed out so far. */
static jintArray JNICALL probe_sites(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.site, "branch sites");
}

/* Probe.flags0(id): the program flags of every id handed out so far. */
static jintArray JNICALL probe_flags(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.flags, "program flags");
}

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
enum { FLAG_PROGRAM = 1 };

/*
 * Segments (docs/fast-engine.md, "Method entries, closeness, fences"): a block's
 * instructions split after every invoke but invokedynamic and every
 * allocation (new, newarray, anewarray, multianewarray). The block probe
 * adds the block's first segment to the thread's position, the return,
 * new and array probes the segment after their instruction, so the
 * position is exact wherever a frame waits at a call. Packed for the
 * probes: a->fast.len holds the block's length (bits 0..14), its first
 * segment's (15..29) and whether an allocation ends it (bit 30); the
 * segments after an instruction (a->fast.callseg, arrayseg) their length
 * (0..14), SEG_ALLOC (15) and SEG_PROGRAM (16, the method is the
 * program's). A block of 32768 bytecodes or more is refused.
 */
#define SEG_LEN 0x7fffu
#define SEG_ALLOC (1u << 15)
#define SEG_PROGRAM (1u << 16)
/* Probe.rootEnter's value from root0: the interrupted segment ends at an
 * allocation after the caller's instruction (SEG_AFTER), and the rest of
 * that segment the root lends, above bit 8 */
enum { SEG_AFTER = 64, LEND_SHIFT = 8 };

/* The segment of fm that starts at original offset `from` in block bb
 * (blocks.h): its length, with SEG_ALLOC when an allocation ends it. */
static uint32_t seg_from(const fast_method *fm, const blk_block *bb, uint32_t from)
{
    int alloc;
    uint32_t n = blk_segment(&fm->blocks, fm->code, (uint32_t)(bb - fm->blocks.blocks), from, &alloc);
    return n | (alloc ? SEG_ALLOC : 0);
}

/* The segment after fm's instruction at original offset pc (what a probe
 * after it adds), 0 when pc is no instruction of a block. */
static uint32_t seg_after(const fast_method *fm, uint32_t pc)
{
    int32_t b = blk_find(&fm->blocks, pc);
    if (b < 0)
        return 0;
    uint32_t len = bc_insn_length(fm->code, fm->code_len, pc);
    return seg_from(fm, &fm->blocks.blocks[b], pc + len) | (fm->program ? SEG_PROGRAM : 0);
}

/* The rest of the segment that fm's instruction at pc runs in, after it
 * (0 when it ends its segment), and in *alloc whether an allocation after
 * it ends that segment. */
static uint32_t seg_rest(const fast_method *fm, uint32_t pc, int *alloc)
{
    *alloc = 0;
    if (pc >= fm->code_len || blk_seg_ends(fm->code[pc]))
        return 0;
    uint32_t s = seg_after(fm, pc);
    *alloc = (s & SEG_ALLOC) != 0;
    return s & SEG_LEN;
}

static fast_method *method_of(agent *a, uint32_t id);
static const cpool *pool_of(agent *a, const fast_method *fm);
static char *full_name(agent *a, jmethodID id);
static fast_method *method_by_name(agent *a, const char *name);
static int by_name_add(agent *a, uint32_t index);
static method_info *fast_mi(agent *a, fast_method *fm);

/* HotSpot's interpreter resolves these with single-stepping hidden
 * (InterpreterRuntime::resolve_get_put, resolve_invoke,
 * resolve_invokehandle, resolve_invokedynamic: JvmtiHideSingleStepping),
 * and everything the resolution runs with it: loading classes, a static
 * access's or invokestatic's class initialization, linkage. */
static int hides_steps(uint8_t op)
{
    return (op >= BC_GETSTATIC && op <= BC_GETSTATIC + 3) /* getstatic, putstatic, getfield, putfield */ ||
           (bc_flags(op) & BCF_INVOKE) != 0;
}

/* What the frame a root was entered from is doing. */
typedef struct caller_view {
    uint8_t op;                 /* its original instruction */
    int64_t pc;                 /* that instruction's offset in the original code (-1: none) */
    uint32_t first_id;          /* its method's block 0 id */
    int in_probe;               /* it is in a probe before that instruction */
    int calls;                  /* an invoke that names the root itself: the root was called */
    int init_sites;             /* its method's static accesses run initializers as clinit.c's */
    char cls[512];              /* the class the instruction names, "" if none: new, anewarray,
                                   multianewarray, checkcast, instanceof, ldc of a class (the
                                   element class of an array, binary name) */
} caller_view;

/* Fill v for the frame at loc of the instrumented method `name`, which
 * entered the root `callee` ("pkg.Class.name(desc)") (lock held). 0, or -1
 * when the frame is not in instrumented code. */
static int caller_insn(agent *a, const char *name, jlocation loc, const char *callee, caller_view *v)
{
    fast_method *fm = method_by_name(a, name);
    if (fm == NULL || loc < 0)
        return -1;
    ins_method view = {.status = INS_METHOD_DONE, .pcs = fm->pcs, .npcs = fm->npcs, .new_len = fm->new_len};
    int64_t old = ins_original_offset(&view, (uint32_t)loc, &v->in_probe);
    if (old < 0 || (uint64_t)old >= fm->code_len)
        return -1;
    v->pc = old;
    v->first_id = fm->first_id;
    const uint8_t *c = fm->code + old;
    uint64_t left = fm->code_len - (uint64_t)old;
    v->op = c[0];
    v->init_sites = fm->init_sites;
    v->calls = 0;
    v->cls[0] = '\0';
    uint16_t idx = left >= 3 ? (uint16_t)(c[1] << 8 | c[2]) : 0;
    if (v->op == BC_LDC && left >= 2)
        idx = c[1];
    const cpool *cp = idx != 0 ? pool_of(a, fm) : NULL;
    if (cp == NULL)
        return 0;
    cp_str owner, mname, mdesc, cname;
    const char *paren = strchr(callee, '('), *dot = paren;
    while (dot != NULL && dot > callee && dot[-1] != '.')
        dot--;
    if ((bc_flags(v->op) & BCF_INVOKE) && dot != NULL && cp_member_ref(cp, idx, &owner, &mname, &mdesc) == 0)
        v->calls = mname.len == (size_t)(paren - dot) && memcmp(mname.ptr, dot, mname.len) == 0 &&
                   mdesc.len == strlen(paren) && memcmp(mdesc.ptr, paren, mdesc.len) == 0;
    int names_class = v->op == BC_NEW || v->op == BC_ANEWARRAY || v->op == BC_MULTIANEWARRAY ||
                      v->op == 0xc0 /* checkcast */ || v->op == 0xc1 /* instanceof */ ||
                      ((v->op == BC_LDC || v->op == BC_LDC_W) && cp_tag(cp, idx) == CP_CLASS);
    if (names_class && cp_class_name(cp, idx, &cname) == 0) {
        const char *p = cname.ptr, *end = cname.ptr + cname.len;
        while (p < end && *p == '[')
            p++;
        if (p > cname.ptr && p < end && *p == 'L' && end[-1] == ';') {
            p++;
            end--;
        } else if (p > cname.ptr) {
            end = p; /* an array of a primitive type: no class to load */
        }
        size_t n = (size_t)(end - p) < sizeof v->cls - 1 ? (size_t)(end - p) : sizeof v->cls - 1;
        for (size_t i = 0; i < n; i++)
            v->cls[i] = p[i] == '/' ? '.' : p[i];
        v->cls[n] = '\0';
    }
    return 0;
}

/* 1 when the root's frame (rm, depth 2 on this thread) belongs to a class loader. */
static int in_class_loader(agent *a, JNIEnv *jni, jmethodID rm)
{
    jclass k = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, rm, &k), "GetMethodDeclaringClass") != 0)
        return 0;
    jclass loader = (*jni)->FindClass(jni, "java/lang/ClassLoader");
    int is = loader != NULL && (*jni)->IsAssignableFrom(jni, k, loader);
    if (loader == NULL)
        (*jni)->ExceptionClear(jni);
    return is;
}

/* 1 when loadClass(String) at depth 2 on thread loads the class named `cls`. */
static int loads(agent *a, JNIEnv *jni, jthread thread, const char *cls)
{
    jobject name = NULL;
    if (cls[0] == '\0' ||
        jvmti_check(a, (*a->jvmti)->GetLocalObject(a->jvmti, thread, 2, 1, &name), "GetLocalObject") != 0 ||
        name == NULL)
        return 0;
    const char *chars = (*jni)->GetStringUTFChars(jni, name, NULL);
    int same = chars != NULL && strcmp(chars, cls) == 0;
    if (chars != NULL)
        (*jni)->ReleaseStringUTFChars(jni, name, chars);
    (*jni)->DeleteLocalRef(jni, name);
    return same;
}

/*
 * Probe.root0(id, mode), from Probe.rootEnter at the first instruction
 * of a method with root probes (block 0: id) on a counting thread in mode
 * WORK or OVERHEAD: the mode its frame runs in, decided as the step engine
 * decides its bucket (root_enter in counting.c) and as HotSpot posts its
 * steps, from the frame that entered it (the one below the root):
 *
 * - While the interpreter resolves a field access or an invoke
 *   (hides_steps; an invoke that names the root itself called it) HotSpot
 *   posts no steps, and while it resolves a class through the constant pool
 *   either (ConstantPool::klass_at_impl: a loadClass of the very class that
 *   new, anewarray, multianewarray, checkcast, instanceof or ldc names);
 *   so does the resolution of a probe's own call (the probe class, looked up
 *   once per class loader). Such a root runs HIDDEN: nothing is counted,
 *   as the step engine counts nothing. Except a static initializer that a
 *   getstatic, putstatic or invokestatic of the program's (or of
 *   reflection's accessors: init_sites_class) runs: clinit.c runs it first
 *   itself, stepped, so the JDK's is OVERHEAD and the program's work.
 * - Otherwise (a static initializer that new runs, a class that linking
 *   loads, a native such as Class.forName0, the JVM with no Java caller):
 *   a JDK initializer, Thread.exit and linkage are OVERHEAD; loadClass(String)
 *   of a class loader is OVERHEAD unless an invoke (or a native, which an
 *   invoke called) entered it: then the step engine counts it as the
 *   caller's work, and so does this engine.
 *
 * The program's static initializers have root probes too: one that HotSpot
 * runs hidden outside those clinit.c runs (from a site clinit.c does not
 * check: caller_view.init_sites) is a hole in the step engine
 * (docs/hidden-work.md), and the run is refused. So is any method-handle linkage: the method handles it links
 * run code of hidden classes, which no ClassFileLoadHook sees.
 */
static jint JNICALL probe_root(JNIEnv *jni, jclass cls, jint id, jint mode)
{
    agent *a = &g_agent;
    (void)cls;
    if (a->dead || mode == MODE_HIDDEN)
        return mode;
    lock_enter(a);
    fast_method *fm = id >= 0 ? method_of(a, (uint32_t)id) : NULL;
    uint8_t root = fm != NULL ? fm->root : ROOT_NONE;
    int root_program = fm != NULL && fm->program;
    const char *root_name = fm != NULL ? fm->name : NULL; /* freed only at unload */
    lock_exit(a);
    if (root_name == NULL) {
        fast_problem(a, "a root probe ran with id %d, which belongs to no method", (int)id);
        return mode;
    }
    jthread thread = NULL;
    jmethodID rm = NULL, caller = NULL;
    jlocation rloc = 0, cloc = -1;
    if (jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 2, &rm, &rloc), "GetFrameLocation") != 0) {
        fast_problem(a, "cannot read the frame of %s", root_name);
        return mode;
    }
    jvmtiError err = (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 3, &caller, &cloc);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_NO_MORE_FRAMES) {
        (*jni)->DeleteLocalRef(jni, thread);
        fast_problem(a, "cannot read the frame that entered %s (JVMTI error %d)", root_name, (int)err);
        return mode;
    }
    /* no Java caller, or a native one: an invoke called it, or the JVM did */
    caller_view v = {.op = BC_INVOKESTATIC, .pc = -1, .calls = 1};
    char *caller_name = NULL;
    if (err == JVMTI_ERROR_NONE && cloc >= 0) {
        caller_name = full_name(a, caller);
        lock_enter(a);
        int bad = caller_insn(a, caller_name, cloc, root_name, &v);
        lock_exit(a);
        if (bad) {
            fast_problem(a, "%s was entered from %s, which has no probes", root_name,
                         caller_name ? caller_name : "a method");
            free(caller_name);
            (*jni)->DeleteLocalRef(jni, thread);
            return mode;
        }
    }
    int hidden = v.in_probe || (hides_steps(v.op) && !v.calls);

    /* an exception that leaves a static initializer goes back to the JVM
     * (ExceptionInInitializerError), as does one that leaves a root the JVM
     * entered from an instruction it resolves (no invoke of the root, no
     * native: a native caller passes it on) */
    int vm = strstr(root_name, ".<clinit>(") != NULL || !v.calls;
    int clinit_c = v.init_sites && !v.in_probe &&
                   (v.op == BC_GETSTATIC || v.op == BC_PUTSTATIC || v.op == BC_INVOKESTATIC) && !v.calls;
    jint out = mode;
    if (root == ROOT_ALWAYS && strncmp(root_name, "java.lang.invoke.MethodHandleNatives.", 37) == 0) {
        fast_problem(a, "%s ran inside the extent: the method handles it links run code of hidden classes, "
                        "which the fast engine cannot instrument", root_name);
        out = hidden ? MODE_HIDDEN : MODE_OVERHEAD;
        if (hidden && v.init_sites && !v.in_probe && v.op == BC_INVOKEDYNAMIC)
            out |= STEP_SEES;
    } else if (root == ROOT_ALWAYS) {
        out = hidden && !clinit_c ? MODE_HIDDEN : MODE_OVERHEAD;
    } else if (root == ROOT_IF_UPCALL) {
        if (in_class_loader(a, jni, rm)) {
            if (hidden || (!v.in_probe && loads(a, jni, thread, v.cls)))
                out = MODE_HIDDEN;
            else if (!(bc_flags(v.op) & BCF_INVOKE))
                out = MODE_OVERHEAD;
        }
    } else if (root_program && hidden && !clinit_c) {
        fast_hidden_work(a, "%s ran while the JVM resolved the %s in %s, where HotSpot hides single-stepping: "
                            "hidden from counting", root_name, bc_mnemonic(v.op), caller_name ? caller_name : "?");
    }
    (*jni)->DeleteLocalRef(jni, thread);
    static const char *const mode_names[] = {"work", "overhead", "hidden"};
    agent_log(a, "fast engine: %s entered from %s at %s%s: %s", root_name, caller_name ? caller_name : "the JVM",
              bc_mnemonic(v.op), v.in_probe ? " (its probe)" : "", mode_names[out & MODE_MASK]);
    /* the caller waits in the middle of its segment (a static access, not
     * an invoke nor an allocation, which end theirs): the root lends the
     * segment's rest, which the position has counted but not run, and its
     * exit gives it back; when an allocation ends that segment, its exit
     * counts the fence again from the last entry then */
    uint32_t lend = 0;
    int alloc_after = 0;
    if ((out & MODE_MASK) != MODE_HIDDEN && !v.in_probe && caller_name != NULL && err == JVMTI_ERROR_NONE && cloc >= 0) {
        lock_enter(a);
        fast_method *cf = method_by_name(a, caller_name);
        if (cf != NULL) {
            ins_method view = {.status = INS_METHOD_DONE, .pcs = cf->pcs, .npcs = cf->npcs, .new_len = cf->new_len};
            int64_t old = ins_original_offset(&view, (uint32_t)cloc, NULL);
            if (old >= 0)
                lend = seg_rest(cf, (uint32_t)old, &alloc_after);
        }
        lock_exit(a);
    }
    free(caller_name);
    /* clinit.c runs such an initializer between the invoke's step and its
     * callee's, and puts the pending invoke back afterwards: a native
     * callee is still native */
    int transparent = clinit_c && strstr(root_name, ".<clinit>(") != NULL;
    /* clinit_site sets prev_op to invokestatic once, before the JVM runs
     * every initializer the instruction needs (superclasses first, an
     * ExceptionInInitializerError's class after a failure): only the
     * first of them starts right after it. A class is initialized once, so
     * the instruction's place tells the first. */
    int as_called = 0;
    thread_state *self = agent_self();
    /* the instruction its frame was entered from: its calling context's site */
    if (self != NULL && self->probe != NULL && v.pc >= 0 && v.pc <= INT32_MAX && v.first_id <= INT32_MAX) {
        (*jni)->SetIntField(jni, self->probe, a->fast.f_ctx_at, (jint)v.pc);
        (*jni)->SetIntField(jni, self->probe, a->fast.f_ctx_at_method, (jint)v.first_id);
    }
    if (!transparent)
        self = NULL;
    if (self != NULL && (self->fast_init_caller != caller || self->fast_init_loc != cloc)) {
        self->fast_init_caller = caller;
        self->fast_init_loc = cloc;
        as_called = 1;
    }
    return out | (vm ? VM_ENTERED : 0) | (transparent ? TRANSPARENT : 0) | (as_called ? AS_CALLED : 0) |
           (alloc_after ? SEG_AFTER : 0) | (jint)(lend << LEND_SHIFT);
}

/* Probe.callSites0(site): how many call sites were handed out so far;
 * the site asked for must be among them. */
static jint JNICALL probe_call_sites(JNIEnv *jni, jclass cls, jint site)
{
    agent *a = &g_agent;
    (void)jni;
    (void)cls;
    lock_enter(a);
    uint32_t n = a->fast.next_call;
    lock_exit(a);
    if (site < 0 || (uint32_t)site >= n)
        fast_problem(a, "a return probe ran with call site %d, which was never handed out", (int)site);
    return (jint)n;
}

/* Probe.callKind0(site), the first time a call there was native on a
 * thread: 2 when its key has no fence (an invokestatic of a Math
 * interpreter intrinsic, DEP_NO_FENCE), else 1. */
static jint JNICALL probe_call_kind(JNIEnv *jni, jclass cls, jint site)
{
    agent *a = &g_agent;
    (void)jni;
    (void)cls;
    jint kind = 1;
    lock_enter(a);
    if (site >= 0 && (uint32_t)site < a->fast.next_call) {
        const fast_call *c = &a->fast.calls[site];
        const fast_method *fm = &a->fast.methods[c->method];
        const cpool *cp = fm->code[c->pc] == BC_INVOKESTATIC ? pool_of(a, fm) : NULL;
        uint32_t k = cp != NULL ? methods_key_of(a, cp, fm->code, c->pc) : 0;
        if (k != 0 && methods_no_fence(a->keys.names[k - 1]))
            kind = 2;
    }
    lock_exit(a);
    return kind;
}

/* Read-modify a long field of ts's counters. */
static void add_long(agent *a, JNIEnv *jni, thread_state *ts, jfieldID f, jlong d)
{
    (void)a;
    (*jni)->SetLongField(jni, ts->probe, f, (*jni)->GetLongField(jni, ts->probe, f) + d);
}

/* Take off the thread's position the rest of the segment that fm's
 * instruction at pc left unfinished (an exception there), and the
 * allocation fence counted when that segment started if an allocation
 * after pc ends it. */
static void seg_abort(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, uint32_t pc)
{
    int alloc;
    uint32_t rest = seg_rest(fm, pc, &alloc);
    if (rest != 0)
        add_long(a, jni, ts, a->fast.f_pos, -(jlong)rest);
    jint b = alloc ? (*jni)->GetIntField(jni, ts->probe, a->fast.f_seg_fence_b) : -1;
    if (b >= 0 && b < BUCKETS) {
        add_long(a, jni, ts, a->fast.f_fence_alloc[b], -(*jni)->GetLongField(jni, ts->probe, a->fast.f_seg_fence));
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_seg_fence_b, -1);
    }
}

/*
 * Probe.jvmEntered0(id, below): a method (block 0: id, the frame
 * below it at depth `below`) entered on a counting
 * thread, not in HIDDEN mode, when the last counted step was no invoke:
 * the JVM entered it itself, the constructor of an exception it throws at
 * an instruction (a NullPointerException at an iaload). That instruction
 * stopped in the middle of its segment, which will not finish: its rest
 * comes off the position now, as the step engine's count stops there, and
 * neither the JVM's other upcalls before it throws (the stack trace of a
 * failed initialization, recorded for later NoClassDefFoundErrors) nor
 * the Exception event that follows take it off again.
 */
static void JNICALL probe_jvm_entered(JNIEnv *jni, jclass cls, jint id, jint below)
{
    agent *a = &g_agent;
    (void)cls;
    (void)id;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || ts->probe == NULL)
        return;
    jthread thread = NULL;
    jmethodID caller = NULL;
    jlocation cloc = -1;
    if (jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return;
    jvmtiError err = (*a->jvmti)->GetFrameLocation(a->jvmti, thread, below, &caller, &cloc);
    (*jni)->DeleteLocalRef(jni, thread);
    if (err != JVMTI_ERROR_NONE || cloc < 0)
        return; /* entered from a native (a second upcall) or from no Java frame: nothing unfinished */
    char *name = full_name(a, caller);
    lock_enter(a);
    fast_method *fm = name != NULL ? method_by_name(a, name) : NULL;
    int in_probe = 0;
    int64_t old = -1;
    if (fm != NULL) {
        ins_method view = {.status = INS_METHOD_DONE, .pcs = fm->pcs, .npcs = fm->npcs, .new_len = fm->new_len};
        old = ins_original_offset(&view, (uint32_t)cloc, &in_probe);
    }
    lock_exit(a);
    free(name);
    if (old < 0 || in_probe)
        return; /* no probes there, or in a probe: the exception's fix refuses the run */
    /* the instruction the JVM entered it from: its calling context's site */
    if (old <= INT32_MAX && fm->first_id <= INT32_MAX) {
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_at, (jint)old);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_at_method, (jint)fm->first_id);
    }
    if (ts->fast_lent_method == caller && ts->fast_lent_loc == cloc)
        return; /* another upcall while the JVM throws there (an initialization error's stack trace) */
    seg_abort(a, jni, ts, fm, (uint32_t)old);
    ts->fast_lent_method = caller;
    ts->fast_lent_loc = cloc;
}

/* Probe.arraySites0(site, dims): how many array sites were handed out
 * so far; the sites asked for must be among them. */
static jint JNICALL probe_array_sites(JNIEnv *jni, jclass cls, jint site, jint dims)
{
    agent *a = &g_agent;
    (void)jni;
    (void)cls;
    lock_enter(a);
    uint32_t n = a->fast.next_site;
    lock_exit(a);
    if (site < 0 || dims < 0 || (uint64_t)site + (uint64_t)dims > n)
        fast_problem(a, "an array probe ran with site %d, which was never handed out", (int)site);
    return (jint)(n > INT32_MAX ? INT32_MAX : n);
}

static void native_charge(agent *a, thread_state *ts, uint32_t index, uint32_t pc, uint32_t ik, uint32_t key,
                          uint64_t allocations, uint64_t elements);

/* Probe.made0(array, site), after an array's clone() or Array.newArray
 * on a counting thread, for an array of another class than the one the
 * probe counts at that site itself, or after Array.multiNewArray: charge
 * each array to its runtime class's key and its elements to the call (the
 * call's key when the counts are collected), as the step engine charges
 * what the native allocated. */
static void JNICALL probe_made(JNIEnv *jni, jclass cls, jobject array, jint site)
{
    agent *a = &g_agent;
    (void)cls;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || !ts->measuring || array == NULL)
        return;
    jclass k = (*jni)->GetObjectClass(jni, array);
    uint32_t key = k != NULL ? a->hooks.array_key(a, k) : 0;
    if (k != NULL)
        (*jni)->DeleteLocalRef(jni, k);
    lock_enter(a);
    int known = site >= 0 && (uint32_t)site < a->fast.next_site;
    fast_site st = known ? a->fast.sites[site] : (fast_site){0, 0, 0, 0, 0};
    lock_exit(a);
    if (!known || key == 0) {
        fast_problem(a, "a made probe ran with site %d, which is %s", (int)site,
                     known ? "not an array" : "was never handed out");
        return;
    }
    if (st.made != INS_MAKES_LEVELS) {
        native_charge(a, ts, st.method, st.pc, 0, key, 1, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
        return;
    }
    /* Array.multiNewArray: each level's arrays, all as long as the level's
     * first, down to a level of length 0 or one whose elements are no
     * arrays (null: levels it did not make) */
    jobject cur = array;
    uint64_t count = 1;
    while (key != 0) {
        uint64_t len = (uint64_t)(*jni)->GetArrayLength(jni, (jarray)cur);
        native_charge(a, ts, st.method, st.pc, 0, key, count, count * len);
        jobject next = len > 0 && (*jni)->IsInstanceOf(jni, cur, a->fast.object_array)
                           ? (*jni)->GetObjectArrayElement(jni, (jobjectArray)cur, 0)
                           : NULL;
        jclass nk = next != NULL ? (*jni)->GetObjectClass(jni, next) : NULL;
        key = nk != NULL ? a->hooks.array_key(a, nk) : 0;
        if (nk != NULL)
            (*jni)->DeleteLocalRef(jni, nk);
        if (cur != array)
            (*jni)->DeleteLocalRef(jni, cur);
        cur = next;
        count *= len;
    }
    if (cur != NULL && cur != array)
        (*jni)->DeleteLocalRef(jni, cur);
}

/* The calling thread (a local reference), or NULL when the run is over or
 * JVMTI cannot say (reported): for the probes' natives that act on it. */
static jthread current_thread(agent *a)
{
    jthread thread = NULL;
    if (a->dead || jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return NULL;
    return thread;
}

/* Probe.begin0(), from Probe.enter in the measured method's first
 * instruction on a thread that is not counting: open an extent when the
 * caller (two frames down: begin0, Probe.enter, the method) is the method
 * (a class of the same name from another loader is not). */
static void JNICALL probe_begin(JNIEnv *jni, jclass cls)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = NULL;
    jmethodID caller = NULL;
    jlocation loc = 0;
    if (a->dead || a->target == NULL ||
        jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 2, &caller, &loc), "GetFrameLocation") != 0 ||
        caller != a->target)
        return;
    a->hooks.fast_begin(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Probe.end0(), from Probe.exit before the return of the extent's
 * outermost frame: close the extent. */
static void JNICALL probe_end(JNIEnv *jni, jclass cls)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = current_thread(a);
    if (thread == NULL)
        return;
    a->hooks.fast_end(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Probe.limit0(), from a block probe whose thread passed its bound:
 * the run has passed the bytecode limit, or may have (the bound counts
 * whole blocks); counting.c stops it. */
static void JNICALL probe_limit(JNIEnv *jni, jclass cls)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = current_thread(a);
    if (thread == NULL)
        return;
    a->hooks.fast_limit(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Probe.bystander0(n, program), from a block probe on a thread that
 * is not counting while another is: a block of n bytecodes began there
 * (counting.c charges it to the bystanders' allowance). */
static void JNICALL probe_bystander(JNIEnv *jni, jclass cls, jint n, jboolean program)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = current_thread(a);
    if (thread == NULL)
        return;
    a->hooks.fast_bystander(a, jni, thread, (uint32_t)(n < 0 ? 0 : n), program != JNI_FALSE);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* The probes stop reporting bystanders' blocks (the run falls back already). */
void fast_unwatch(agent *a, JNIEnv *jni)
{
    if (a->fast.probe != NULL && a->fast.f_watching != NULL)
        (*jni)->SetStaticBooleanField(jni, a->fast.probe, a->fast.f_watching, JNI_FALSE);
}

/* The frames of the measured method on this thread inside its extent
 * (the probe's depth); 0 when unknown. */
int fast_depth(agent *a, thread_state *ts)
{
    JNIEnv *jni = env_of(a);
    if (jni == NULL || ts->probe == NULL)
        return 0;
    return (int)(*jni)->GetIntField(jni, ts->probe, a->fast.f_depth);
}

/* Set that depth (1 when an extent opens, 0 when an exception ends it). */
void fast_set_depth(agent *a, thread_state *ts, int depth)
{
    JNIEnv *jni = env_of(a);
    if (jni != NULL && ts->probe != NULL)
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_depth, (jint)depth);
}

/* 1 when the class signature names a hidden class ("...+0x<hex>;", or with
 * '/' or '.' before the 0x), whose methods get no probes: JVMTI passes no
 * hidden class to the ClassFileLoadHook and cannot retransform one. */
static int hidden_signature(const char *sig)
{
    size_t n = strlen(sig);
    if (n > 0 && sig[n - 1] == ';')
        n--;
    size_t i = n;
    while (i > 0 && ((sig[i - 1] >= '0' && sig[i - 1] <= '9') || (sig[i - 1] >= 'a' && sig[i - 1] <= 'f') ||
                     (sig[i - 1] >= 'A' && sig[i - 1] <= 'F')))
        i--;
    return i < n && i >= 3 && sig[i - 1] == 'x' && sig[i - 2] == '0' &&
           (sig[i - 3] == '+' || sig[i - 3] == '/' || sig[i - 3] == '.');
}

/* A breakpoint at the start of a hidden class's method (watch_hidden). */
static void break_hidden(agent *a, jmethodID m)
{
    jlocation start = -1, end = -1;
    if ((*a->jvmti)->GetMethodLocation(a->jvmti, m, &start, &end) != JVMTI_ERROR_NONE || start < 0)
        return;
    jvmtiError err = (*a->jvmti)->SetBreakpoint(a->jvmti, m, start);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_DUPLICATE)
        fast_problem(a, "cannot watch a method of a hidden class (JVMTI error %d)", (int)err);
}

/* The first time a thread counts: from now on every hidden class's method
 * has its breakpoint (the ones seen so far get it now). Until then they
 * run without one, at full speed: a breakpoint costs an event at every
 * call, on every thread. */
static void arm_hidden(agent *a)
{
    lock_enter(a);
    int armed = a->fast.hidden_armed;
    a->fast.hidden_armed = 1;
    uint32_t n = a->fast.nhidden;
    jmethodID *copy = !armed && n > 0 ? malloc(n * sizeof *copy) : NULL;
    if (copy != NULL)
        memcpy(copy, a->fast.hidden, n * sizeof *copy);
    lock_exit(a);
    if (!armed && n > 0 && copy == NULL)
        fast_problem(a, "out of memory watching the methods of hidden classes");
    if (!armed)
        agent_log(a, "fast engine: %u methods of hidden classes watched from now on", (unsigned)n);
    for (uint32_t i = 0; copy != NULL && i < n; i++)
        break_hidden(a, copy[i]);
    free(copy);
}

/*
 * A hidden class (a lambda's proxy, a method handle's LambdaForm): its
 * methods run no probe, where the step engine counts their bytecode. A
 * breakpoint at offset 0 of each (fast_hidden_breakpoint), set once a
 * thread has counted (arm_hidden), tells when one runs on a counting
 * thread, which makes the run refused.
 */
static void watch_hidden(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    char *sig = NULL;
    if ((*jv)->GetClassSignature(jv, klass, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    int hidden = hidden_signature(sig);
    (*jv)->Deallocate(jv, (unsigned char *)sig);
    jint n = 0;
    jmethodID *m = NULL;
    if (!hidden || jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &m), "GetClassMethods") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        lock_enter(a);
        if (a->fast.nhidden == a->fast.hidden_cap) {
            uint32_t cap = a->fast.hidden_cap ? a->fast.hidden_cap * 2 : 256;
            jmethodID *v = realloc(a->fast.hidden, cap * sizeof *v);
            if (v == NULL) {
                lock_exit(a);
                fast_problem(a, "out of memory watching the methods of hidden classes");
                break;
            }
            a->fast.hidden = v;
            a->fast.hidden_cap = cap;
        }
        uint32_t k = a->fast.nhidden;
        while (k > 0 && (uintptr_t)a->fast.hidden[k - 1] > (uintptr_t)m[i]) {
            a->fast.hidden[k] = a->fast.hidden[k - 1];
            k--;
        }
        a->fast.hidden[k] = m[i];
        a->fast.nhidden++;
        int armed = a->fast.hidden_armed;
        lock_exit(a);
        if (armed)
            break_hidden(a, m[i]);
    }
    (*jv)->Deallocate(jv, (unsigned char *)m);
}

/* A breakpoint: 1 when it is at the start of a hidden class's method
 * (watch_hidden). On a counting thread outside a HIDDEN frame (where the
 * step engine counts nothing either) that makes the run refused. */
int fast_hidden_breakpoint(agent *a, thread_state *ts, jmethodID method)
{
    lock_enter(a);
    uint32_t lo = 0, hi = a->fast.nhidden;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)a->fast.hidden[mid] < (uintptr_t)method)
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = lo < a->fast.nhidden && a->fast.hidden[lo] == method;
    lock_exit(a);
    if (!found || ts == NULL || !ts->measuring || ts->probe == NULL)
        return found;
    JNIEnv *jni = env_of(a);
    if (jni != NULL && (*jni)->GetIntField(jni, ts->probe, a->fast.f_mode) == MODE_HIDDEN)
        return 1;
    char *name = full_name(a, method);
    fast_problem(a, "%s, a method of a hidden class (a lambda's or a method handle's), ran inside the extent: "
                    "it has no probes, and the step engine counts its bytecode", name ? name : "a method");
    free(name);
    return 1;
}

/* ClassPrepare, before any of the class's code runs: a hidden class's
 * methods are watched. (Every module reads java.base, the probe class's
 * module, so no module needs to be made to read it.) */
void fast_class_prepare(agent *a, JNIEnv *jni, jclass klass)
{
    (void)jni;
    watch_hidden(a, klass);
}

/* The ID of the probe class's field name with descriptor desc
 * (probe_fields.h), a static one when is_static; the probe class named in
 * desc as compiled (PROBE_NAME_COMPILED) is looked up under the run's
 * drawn name. NULL, with a JNI exception pending, when there is none. */
static jfieldID probe_field(agent *a, JNIEnv *jni, jclass k, const char *name, const char *desc, int is_static)
{
    char sig[sizeof a->fast.probe_name + 4];
    const char *self = strstr(desc, "L" PROBE_NAME_COMPILED ";");
    if (self != NULL) {
        snprintf(sig, sizeof sig, "%.*sL%s;", (int)(self - desc), desc, a->fast.probe_name);
        desc = sig;
    }
    return is_static ? (*jni)->GetStaticFieldID(jni, k, name, desc) : (*jni)->GetFieldID(jni, k, name, desc);
}

/*
 * Define the probe class in the boot loader under a name drawn for the run
 * (probename.h): in java.lang, which java.base exports and does not open,
 * so its public probes link from every class while its state stays out of
 * reach of reflection; then bind its natives and initialize it.
 */
static int define_probe(agent *a, JNIEnv *jni)
{
    uint8_t rnd[PROBE_NAME_RANDOM];
    size_t got = 0;
    while (got < sizeof rnd) {
        ssize_t n = getrandom(rnd + got, sizeof rnd - got, 0);
        if (n <= 0) {
            agent_fail(a, "the fast engine cannot draw its probe class's name (getrandom)");
            return -1;
        }
        got += (size_t)n;
    }
    probe_name_make(rnd, a->fast.probe_name);
    uint8_t *bytes = NULL;
    size_t nbytes = 0;
    char err[160];
    if (probe_class_rename(psf_probe_class, psf_probe_class_len, PROBE_NAME_COMPILED, a->fast.probe_name, &bytes,
                           &nbytes, err, sizeof err) != 0) {
        agent_fail(a, "the fast engine cannot rename its probe class: %s", err);
        return -1;
    }
    jclass k = (*jni)->DefineClass(jni, a->fast.probe_name, NULL, (const jbyte *)bytes, (jsize)nbytes);
    free(bytes);
    if (k == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot define its probe class in the boot loader (java.lang)");
        return -1;
    }
    a->fast.probe = (*jni)->NewGlobalRef(jni, k);
#define NATIVE(fn, name, desc) {name, desc, (void *)fn},
    static JNINativeMethod natives[] = {PROBE_NATIVES(NATIVE)};
#undef NATIVE
    if (a->fast.probe == NULL ||
        (*jni)->RegisterNatives(jni, k, natives, (jint)(sizeof natives / sizeof natives[0])) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot bind the probe's natives");
        return -1;
    }
    /* GetStaticFieldID initializes the class: here, before any probe runs
     * (the first entry of PROBE_FIELDS is static) */
    int bound = 1;
#define BIND(member, name, desc, st) bound = bound && (a->fast.member = probe_field(a, jni, k, name, desc, st)) != NULL;
    PROBE_FIELDS(BIND)
#undef BIND
#define BIND(member, name, desc, st) bound = bound && (a->fast.member = (*jni)->GetMethodID(jni, k, name, desc)) != NULL;
    PROBE_METHODS(BIND)
#undef BIND
    if (!bound) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the probe class lacks the fields the fast engine uses");
        return -1;
    }
    (*jni)->SetStaticBooleanField(jni, k, a->fast.f_watching, JNI_TRUE); /* bystanders' blocks are reported */
    (*jni)->DeleteLocalRef(jni, k);
    return 0;
}

/* The array probes' counters in the probe class, and the native whose arrays
 * are charged (Throwable.fillInStackTrace(I)); 0 or -1 (reported). */
static int arrays_init(agent *a, JNIEnv *jni)
{
    int bound = 1;
#define BIND(member, name, desc, st) \
    bound = bound && (a->fast.member = probe_field(a, jni, a->fast.probe, name, desc, st)) != NULL;
    PROBE_ARRAY_FIELDS(BIND)
#undef BIND
    jclass t = (*jni)->FindClass(jni, "java/lang/Throwable");
    a->fast.fill_in = t != NULL ? (*jni)->GetMethodID(jni, t, "fillInStackTrace", "(I)Ljava/lang/Throwable;") : NULL;
    if (t != NULL)
        (*jni)->DeleteLocalRef(jni, t);
    jclass c = (*jni)->FindClass(jni, "java/lang/Class");
    a->fast.init_class_name = c != NULL ? (*jni)->GetMethodID(jni, c, "initClassName", "()Ljava/lang/String;") : NULL;
    if (c != NULL)
        (*jni)->DeleteLocalRef(jni, c);
    jclass ste = (*jni)->FindClass(jni, "java/lang/StackTraceElement");
    a->fast.ste_init = ste != NULL ? (*jni)->GetStaticMethodID(jni, ste, "initStackTraceElements",
                                                               "([Ljava/lang/StackTraceElement;Ljava/lang/Throwable;)V")
                                   : NULL;
    if (a->fast.ste_init == NULL && ste != NULL) { /* JDK 21 on: the backtrace and its depth */
        (*jni)->ExceptionClear(jni);
        a->fast.ste_init = (*jni)->GetStaticMethodID(jni, ste, "initStackTraceElements",
                                                     "([Ljava/lang/StackTraceElement;Ljava/lang/Object;I)V");
    }
    if (ste != NULL)
        (*jni)->DeleteLocalRef(jni, ste);
    jclass o = (*jni)->FindClass(jni, "java/lang/Object");
    a->fast.obj_clone = o != NULL ? (*jni)->GetMethodID(jni, o, "clone", "()Ljava/lang/Object;") : NULL;
    if (o != NULL)
        (*jni)->DeleteLocalRef(jni, o);
    jclass r = (*jni)->FindClass(jni, "java/lang/reflect/Array");
    a->fast.new_array = r != NULL ? (*jni)->GetStaticMethodID(jni, r, "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;")
                                  : NULL;
    a->fast.multi_new_array = r != NULL ? (*jni)->GetStaticMethodID(jni, r, "multiNewArray",
                                                                    "(Ljava/lang/Class;[I)Ljava/lang/Object;")
                                        : NULL;
    jclass oa = (*jni)->FindClass(jni, "[Ljava/lang/Object;");
    a->fast.object_array = oa != NULL ? (*jni)->NewGlobalRef(jni, oa) : NULL;
    if (oa != NULL)
        (*jni)->DeleteLocalRef(jni, oa);
    if (r != NULL)
        (*jni)->DeleteLocalRef(jni, r);
    if (!bound || !a->fast.fill_in ||
        !a->fast.init_class_name || !a->fast.ste_init || !a->fast.obj_clone || !a->fast.new_array ||
        !a->fast.multi_new_array || !a->fast.object_array) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot find the probe's array counters or the natives whose arrays it "
                      "charges (Throwable.fillInStackTrace(int), Class.initClassName, "
                      "StackTraceElement.initStackTraceElements, Object.clone, Array.newArray, multiNewArray)");
        return -1;
    }
    return 0;
}

/* Retransform every class loaded so far (the hook rewrites them). */
/* Whether klass has a method with bytecode (neither abstract nor native;
 * 1 when unknown). A class without one, most of them interfaces, has
 * nothing to probe: the ClassFileLoadHook would add only the probes'
 * constant-pool entries, and its retransformation (HotSpot parses it anew
 * and merges the old and new pools, a linear search per added entry) would
 * be start cost for nothing. */
static int has_code(jvmtiEnv *jv, jclass klass)
{
    jint n = 0;
    jmethodID *methods = NULL;
    if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
        return 1;
    int code = 0;
    for (jint i = 0; i < n && !code; i++) {
        jint mod = 0;
        code = (*jv)->GetMethodModifiers(jv, methods[i], &mod) != JVMTI_ERROR_NONE ||
               !(mod & (0x0100 | 0x0400)); /* ACC_NATIVE, ACC_ABSTRACT */
    }
    (*jv)->Deallocate(jv, (unsigned char *)methods);
    return code;
}

/*
 * The start's retransformation on two threads. RetransformClasses runs the
 * hook (reconstituting, rewriting) and HotSpot's parsing and merging of
 * the constant pools in the calling thread, for one class after the
 * other, and only the swap of the methods at a safepoint; two calls for
 * two halves of the classes, on two threads, overlap all but that (the
 * machine has a core the start leaves idle). The second thread is a JVMTI
 * agent thread: no thread the program can see or count (JVMTI hides agent
 * threads), whose Thread object is made before the classes are rewritten
 * and whose thread id is handed back (the next thread the program starts
 * gets the id it would have got; retransform_helper). Where that cannot be
 * done the classes are retransformed on one thread, as they were.
 */
typedef struct half {
    agent *a;
    jclass *classes;            /* global refs */
    jint n;
    jvmtiError err;
    int done;                   /* under a->lock */
} half;

static void JNICALL retransform_half(jvmtiEnv *jv, JNIEnv *jni, void *arg)
{
    half *h = arg;
    (void)jni;
    h->err = (*jv)->RetransformClasses(jv, h->n, h->classes);
    lock_enter(h->a);
    h->done = 1;
    jvmti_check(h->a, (*jv)->RawMonitorNotifyAll(jv, h->a->lock), "RawMonitorNotifyAll");
    lock_exit(h->a);
}

/*
 * The Thread object of the second thread, or NULL (no second thread). Its
 * constructor takes the next thread id; the counter is put back, so that
 * the program's threads get the ids they get without the agent: JDK 17's
 * Thread.threadSeqNumber (and the unstarted count it adds to its group),
 * the native counter later JDKs keep at Thread.getNextThreadIdOffset().
 */
static jobject retransform_helper(JNIEnv *jni)
{
    jclass tc = (*jni)->FindClass(jni, "java/lang/Thread");
    jclass gc = (*jni)->FindClass(jni, "java/lang/ThreadGroup");
    if (tc == NULL || gc == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jfieldID seq = (*jni)->GetStaticFieldID(jni, tc, "threadSeqNumber", "J");
    jfieldID unstarted = NULL;
    volatile jlong *next = NULL;
    if (seq != NULL) {
        unstarted = (*jni)->GetFieldID(jni, gc, "nUnstartedThreads", "I");
    } else {
        (*jni)->ExceptionClear(jni);
        jmethodID off = (*jni)->GetStaticMethodID(jni, tc, "getNextThreadIdOffset", "()J");
        if (off != NULL)
            next = (volatile jlong *)(intptr_t)(*jni)->CallStaticLongMethod(jni, tc, off);
    }
    if ((*jni)->ExceptionCheck(jni) || (seq == NULL && next == NULL) || (seq != NULL && unstarted == NULL)) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jmethodID init = (*jni)->GetMethodID(jni, tc, "<init>", "(Ljava/lang/String;)V");
    jmethodID group_of = (*jni)->GetMethodID(jni, tc, "getThreadGroup", "()Ljava/lang/ThreadGroup;");
    jstring name = (*jni)->NewStringUTF(jni, "psf-retransform");
    if (init == NULL || group_of == NULL || name == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    jlong before = seq != NULL ? (*jni)->GetStaticLongField(jni, tc, seq) : *next;
    jobject t = (*jni)->NewObject(jni, tc, init, name);
    if (t == NULL || (*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    if (seq != NULL) {
        (*jni)->SetStaticLongField(jni, tc, seq, before);
        jobject g = (*jni)->CallObjectMethod(jni, t, group_of);
        if (g != NULL)
            (*jni)->SetIntField(jni, g, unstarted, (*jni)->GetIntField(jni, g, unstarted) - 1);
        (*jni)->ExceptionClear(jni);
    } else {
        *next = before;
    }
    return t;
}

static int retransform_loaded(agent *a, JNIEnv *jni)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jclass *classes = NULL;
    if (jvmti_check(a, (*jv)->GetLoadedClasses(jv, &n, &classes), "GetLoadedClasses") != 0)
        return -1;
    jclass *todo = malloc((n ? (size_t)n : 1) * sizeof *todo);
    jint ntodo = 0;
    for (jint i = 0; i < n; i++) {
        jboolean ok = JNI_FALSE;
        if (todo != NULL && !(*jni)->IsSameObject(jni, classes[i], a->fast.probe) &&
            (*jv)->IsModifiableClass(jv, classes[i], &ok) == JVMTI_ERROR_NONE && ok) {
            if (has_code(jv, classes[i]))
                todo[ntodo++] = classes[i];
        }
        else if (!ok)
            watch_hidden(a, classes[i]); /* hidden classes defined before VMInit */
    }
    int bad = todo == NULL ? (agent_fail(a, "out of memory for the classes to retransform"), -1) : 0;
    /* every other class to the second thread, when there is one */
    half h = {.a = a};
    jobject helper = !bad && ntodo > 1 ? retransform_helper(jni) : NULL;
    if (helper != NULL) {
        h.classes = malloc((size_t)(ntodo / 2) * sizeof *h.classes);
        for (jint i = 1; h.classes != NULL && i < ntodo; i += 2)
            if ((h.classes[h.n] = (*jni)->NewGlobalRef(jni, todo[i])) != NULL)
                h.n++;
        if (h.classes == NULL || h.n != ntodo / 2) {
            for (jint i = 0; i < h.n; i++)
                (*jni)->DeleteGlobalRef(jni, h.classes[i]);
            free(h.classes);
            h.classes = NULL;
            h.n = 0;
        }
    }
    if (h.n > 0) {
        lock_enter(a);
        a->fast.parallel = 1;
        lock_exit(a);
        if (jvmti_check(a, (*jv)->RunAgentThread(jv, helper, retransform_half, &h, JVMTI_THREAD_NORM_PRIORITY),
                        "RunAgentThread") != 0) {
            lock_enter(a);
            a->fast.parallel = 0;
            lock_exit(a);
            for (jint i = 0; i < h.n; i++)
                (*jni)->DeleteGlobalRef(jni, h.classes[i]);
            h.n = 0;
        }
    }
    if (!bad && h.n > 0) {
        jint mine = 0;
        for (jint i = 0; i < ntodo; i += 2)
            todo[mine++] = todo[i];
        bad = jvmti_check(a, (*jv)->RetransformClasses(jv, mine, todo), "RetransformClasses");
        lock_enter(a);
        while (!h.done)
            jvmti_check(a, (*jv)->RawMonitorWait(jv, a->lock, 0), "RawMonitorWait");
        a->fast.parallel = 0;
        lock_exit(a);
        bad |= jvmti_check(a, h.err, "RetransformClasses (the second thread's)");
        for (jint i = 0; i < h.n; i++)
            (*jni)->DeleteGlobalRef(jni, h.classes[i]);
    } else if (!bad && ntodo > 0) {
        bad = jvmti_check(a, (*jv)->RetransformClasses(jv, ntodo, todo), "RetransformClasses");
    }
    agent_log(a, "fast engine: %d classes loaded before VMInit retransformed on %d thread(s) (the others have "
                 "no bytecode)", (int)ntodo, h.n > 0 ? 2 : 1);
    free(h.classes);
    if (helper != NULL)
        (*jni)->DeleteLocalRef(jni, helper);
    for (jint i = 0; i < n; i++)
        (*jni)->DeleteLocalRef(jni, classes[i]);
    free(todo);
    (*jv)->Deallocate(jv, (unsigned char *)classes);
    return bad ? -1 : 0;
}

/* At VMInit, before anything else: the probe class, the module reads, the
 * hook from now on, and the classes loaded before it. */
/*
 * The natives through which Java code gets hold of a class's members
 * (Class.getDeclaredMethods0: reflection's Methods; MethodHandleNatives.
 * resolve: every method handle and VarHandle a Lookup finds), wrapped at
 * NativeMethodBind. The probes are for the rewriter's calls alone: a
 * program that looks up the probe class's members (its name can be read
 * off a heap dump) could call them, and a probe called out of turn can end
 * an extent or switch a mode early. Its fields are out of reach anyway
 * (java.lang is not open); its methods are public, so such a lookup makes
 * the run fall back, and the step engine, which has no probe class, counts
 * what the program does. JDK code never looks them up.
 */
typedef jobjectArray(JNICALL *declared_methods_fn)(JNIEnv *, jclass, jboolean);
typedef jobject(JNICALL *mh_resolve_fn)(JNIEnv *, jclass, jobject, jclass, jint, jboolean);
static declared_methods_fn real_declared_methods;
static mh_resolve_fn real_mh_resolve;

static void probe_looked_up(agent *a, const char *how)
{
    fast_problem(a, "the program looked up the probe class's members (%s): only the rewriter's probes may call them",
                 how);
}

static jobjectArray JNICALL psf_declared_methods(JNIEnv *jni, jclass cls, jboolean public_only)
{
    agent *a = &g_agent;
    if (a->fast.probe != NULL && (*jni)->IsSameObject(jni, cls, a->fast.probe))
        probe_looked_up(a, "reflection");
    return real_declared_methods(jni, cls, public_only);
}

static jobject JNICALL psf_mh_resolve(JNIEnv *jni, jclass mhn, jobject self, jclass caller, jint mode,
                                      jboolean speculative)
{
    agent *a = &g_agent;
    if (a->fast.probe != NULL && a->fast.f_member_class != NULL && self != NULL) {
        jobject c = (*jni)->GetObjectField(jni, self, a->fast.f_member_class);
        if (c != NULL && (*jni)->IsSameObject(jni, c, a->fast.probe))
            probe_looked_up(a, "a method handle or VarHandle");
        if (c != NULL)
            (*jni)->DeleteLocalRef(jni, c);
    }
    return real_mh_resolve(jni, mhn, self, caller, mode, speculative);
}

int fast_native_bound(agent *a, const char *cls, const char *name, void *address, void **new_address)
{
    if (a->opts.engine != AGENT_ENGINE_FAST)
        return 0;
    if (strcmp(name, "getDeclaredMethods0") == 0 && strcmp(cls, "Ljava/lang/Class;") == 0) {
        real_declared_methods = (declared_methods_fn)address;
        *new_address = (void *)psf_declared_methods;
        return 1;
    }
    if (strcmp(name, "resolve") == 0 && strcmp(cls, "Ljava/lang/invoke/MethodHandleNatives;") == 0) {
        real_mh_resolve = (mh_resolve_fn)address;
        *new_address = (void *)psf_mh_resolve;
        return 1;
    }
    return 0;
}

/* MemberName.clazz, which psf_mh_resolve reads; both natives must be wrapped by now. */
static int lookups_init(agent *a, JNIEnv *jni)
{
    jclass mn = (*jni)->FindClass(jni, "java/lang/invoke/MemberName");
    a->fast.f_member_class = mn != NULL ? (*jni)->GetFieldID(jni, mn, "clazz", "Ljava/lang/Class;") : NULL;
    if (mn != NULL)
        (*jni)->DeleteLocalRef(jni, mn);
    if (a->fast.f_member_class == NULL || real_declared_methods == NULL || real_mh_resolve == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "the fast engine cannot watch the lookups of its probe class's members");
        return -1;
    }
    return 0;
}

void fast_vm_init(agent *a, JNIEnv *jni)
{
    if (define_probe(a, jni) != 0 || arrays_init(a, jni) != 0 || lookups_init(a, jni) != 0)
        return;
    lock_enter(a);
    a->fast.hooked = 1;
    lock_exit(a);
    if (jvmti_check(a, (*a->jvmti)->SetEventNotificationMode(a->jvmti, JVMTI_ENABLE,
                                                             JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL),
                    "SetEventNotificationMode(CLASS_FILE_LOAD_HOOK)") != 0)
        return;
    retransform_loaded(a, jni);
}

/* The capacity that holds `need` entries: `cap` doubled (from `first`
 * when 0) until it does. */
static uint32_t grown_cap(uint32_t cap, uint32_t first, uint32_t need)
{
    if (cap == 0)
        cap = first;
    while (cap < need)
        cap *= 2;
    return cap;
}

/* Reallocate the table `ptr` to `cap` entries, or return -1 from the
 * caller (the table unchanged, its capacity field not yet raised: the
 * next call grows it again). */
#define RESIZE_OR_RETURN(ptr, cap)                                        \
    do {                                                                  \
        void *resized_ = realloc((ptr), (size_t)(cap) * sizeof *(ptr));   \
        if (resized_ == NULL)                                             \
            return -1;                                                    \
        (ptr) = resized_;                                                 \
    } while (0)

/* Grow the id tables to hold `need` ids (lock held); 0 or -1. */
static int ids_reserve(agent *a, uint32_t need)
{
    if (need <= a->fast.len_cap)
        return 0;
    uint32_t cap = grown_cap(a->fast.len_cap, 65536, need);
    RESIZE_OR_RETURN(a->fast.len, cap);
    RESIZE_OR_RETURN(a->fast.site, cap);
    RESIZE_OR_RETURN(a->fast.flags, cap);
    a->fast.len_cap = cap;
    return 0;
}

static const cpool *pool_of(agent *a, const fast_method *fm);

/* Hand fm (a->fast.methods[index]) the array sites the rewriter gave im,
 * one per level of each array instruction in code order (lock held); 0 or
 * -1 (OOM, or a count that disagrees with the rewriter's: reported). */
static int keep_sites(agent *a, uint32_t index, const fast_method *fm, const ins_method *im)
{
    if (im->nsites == 0)
        return 0;
    uint32_t need = im->first_site + im->nsites;
    if (need > a->fast.sites_cap) {
        uint32_t cap = grown_cap(a->fast.sites_cap, 4096, need);
        RESIZE_OR_RETURN(a->fast.sites, cap);
        RESIZE_OR_RETURN(a->fast.arrayseg, cap);
        a->fast.sites_cap = cap;
    }
    /* the array instructions' levels; the calls of natives that make an
     * array (a site each) only when there are more sites than levels: the
     * constant pool is read for those alone */
    uint32_t levels = 0;
    for (uint32_t pc = 0; pc < fm->code_len; pc++)
        if ((fm->blocks.mark[pc] & BLK_MARK_INSN) && (bc_flags(fm->code[pc]) & BCF_NEWARRAY))
            levels += fm->code[pc] == BC_MULTIANEWARRAY ? fm->code[pc + 3] : 1;
    const cpool *cp = levels < im->nsites ? pool_of(a, fm) : NULL;
    uint32_t site = im->first_site;
    for (uint32_t pc = 0; pc < fm->code_len; pc++) {
        if (!(fm->blocks.mark[pc] & BLK_MARK_INSN))
            continue;
        if (bc_flags(fm->code[pc]) & BCF_NEWARRAY) {
            uint32_t dims = fm->code[pc] == BC_MULTIANEWARRAY ? fm->code[pc + 3] : 1;
            for (uint32_t level = 0; level < dims && site < need; level++) {
                a->fast.arrayseg[site] = level == 0 ? seg_after(fm, pc) : 0; /* the probe passes the first */
                a->fast.sites[site++] = (fast_site){index, pc, level, 0, 0};
            }
        } else if (cp != NULL && site < need) {
            int makes = ins_makes_array(cp, fm->code, pc);
            if (makes) {
                a->fast.arrayseg[site] = 0; /* the return probe before it adds the segment */
                a->fast.sites[site++] = (fast_site){index, pc, 0, 0, (uint32_t)makes};
            }
        }
    }
    if (site != need) {
        fast_problem(a, "the array sites of %s do not match its array instructions", fm->name);
        return 0;
    }
    return 0;
}

/* Hand fm (a->fast.methods[index]) the call sites the rewriter gave im,
 * one per invoke but invokedynamic in code order (lock held); 0 or -1
 * (OOM, or a count that disagrees with the rewriter's: reported). */
static int keep_calls(agent *a, uint32_t index, const fast_method *fm, const ins_method *im)
{
    if (im->ncalls == 0)
        return 0;
    uint32_t need = im->first_call + im->ncalls;
    if (need > a->fast.calls_cap) {
        uint32_t cap = grown_cap(a->fast.calls_cap, 16384, need);
        RESIZE_OR_RETURN(a->fast.calls, cap);
        RESIZE_OR_RETURN(a->fast.callseg, cap);
        a->fast.calls_cap = cap;
    }
    uint32_t site = im->first_call;
    for (uint32_t pc = 0; pc < fm->code_len && site < need; pc++)
        if ((fm->blocks.mark[pc] & BLK_MARK_INSN) &&
            ((fm->code[pc] >= BC_INVOKEVIRTUAL && fm->code[pc] <= BC_INVOKEINTERFACE) || fm->code[pc] == BC_NEW)) {
            a->fast.callseg[site] = seg_after(fm, pc);
            a->fast.calls[site++] = (fast_call){index, pc};
        }
    if (site != need)
        fast_problem(a, "the call sites of %s do not match its invokes", fm->name);
    return 0;
}

/* Room for one more method in a->fast.methods (lock held); 0 or -1. */
static int methods_grow(agent *a)
{
    if (a->fast.nmethods < a->fast.methods_cap)
        return 0;
    uint32_t cap = a->fast.methods_cap ? a->fast.methods_cap * 2 : 4096;
    fast_method *v = realloc(a->fast.methods, cap * sizeof *v);
    if (v == NULL)
        return -1;
    a->fast.methods = v;
    a->fast.methods_cap = cap;
    return 0;
}

/* The name a method of class cls (binary name) has in the profile, and
 * whose bp_seed seeds its branch sites: UTF-8, malloc'd (NULL when out of
 * memory). */
static char *method_name(const char *cls, cp_str name, cp_str desc)
{
    char full[8192];
    snprintf(full, sizeof full, "%s.%.*s%.*s", cls, (int)(name.len < 1023 ? name.len : 1023), name.ptr,
             (int)(desc.len < 4095 ? desc.len : 4095), desc.ptr);
    return utf8_dup(full);
}

/* Keep the rewritten class's methods (lock held): name, original code,
 * block table (moved out of r), ids and block lengths; each in a place of
 * its own at the end of a->fast.methods, or with slots, in the places
 * reserve_slots gave the instrumented ones, in method order. 0 or -1 (OOM). */
static int keep_methods(agent *a, const classfile *cf, ins_result *r, int program, int init_sites, const uint8_t *data,
                        size_t len, const uint32_t *slots)
{
    char cls[1024];
    name_binary(r->class_name.ptr, r->class_name.len, cls, sizeof cls);
    if (slots == NULL && ids_reserve(a, r->next_id) != 0)
        return -1;
    uint32_t nslot = 0;
    if (a->fast.nclasses == a->fast.classes_cap) {
        uint32_t cap = a->fast.classes_cap ? a->fast.classes_cap * 2 : 1024;
        fast_class *v = realloc(a->fast.classes, cap * sizeof *v);
        if (v == NULL)
            return -1;
        a->fast.classes = v;
        a->fast.classes_cap = cap;
    }
    fast_class *fc = &a->fast.classes[a->fast.nclasses];
    memset(fc, 0, sizeof *fc);
    fc->bytes = malloc(len);
    if (fc->bytes == NULL)
        return -1;
    memcpy(fc->bytes, data, len);
    fc->len = len;
    uint32_t cls_index = a->fast.nclasses++;
    for (uint16_t i = 0; i < r->nmethods; i++) {
        ins_method *im = &r->methods[i];
        if (im->status == INS_METHOD_NO_CODE)
            continue;
        if (im->status != INS_METHOD_DONE) {
            fast_problem(a, "%s.%.*s%.*s is not instrumented: %s", cls, (int)im->name.len, im->name.ptr,
                         (int)im->desc.len, im->desc.ptr, im->why);
            continue;
        }
        if (slots == NULL && methods_grow(a) != 0)
            return -1;
        uint32_t index = slots != NULL ? slots[nslot++] : a->fast.nmethods;
        const cf_method *cm = &cf->methods[i];
        /* a finalize() HotSpot calls (not just `return`): the Finalizer
         * thread runs it after whichever collection finds the object dead,
         * and the fast engine runs the method too fast to tell whether that
         * falls inside it as in the step engine's run */
        if (program && im->name.len == 8 && memcmp(im->name.ptr, "finalize", 8) == 0 && im->desc.len == 3 &&
            memcmp(im->desc.ptr, "()V", 3) == 0 && cm->code_len > 0 && !(cm->code_len == 1 && cm->code[0] == 0xb1))
            fast_problem(a, "%s declares finalize(): the JVM's Finalizer thread runs it whenever a collection "
                            "finds such an object dead, and only the step engine's run shows what of that falls "
                            "inside the method", cls);
        char name[1024], desc[4096];
        snprintf(name, sizeof name, "%.*s", (int)im->name.len, im->name.ptr);
        snprintf(desc, sizeof desc, "%.*s", (int)im->desc.len, im->desc.ptr);
        fast_method *fm = &a->fast.methods[index];
        memset(fm, 0, sizeof *fm);
        fm->name = method_name(cls, im->name, im->desc);
        fm->code = malloc(cm->code_len ? cm->code_len : 1);
        if (fm->name == NULL || fm->code == NULL) {
            free(fm->name);
            free(fm->code);
            return -1;
        }
        memcpy(fm->code, cm->code, cm->code_len);
        fm->code_len = cm->code_len;
        fm->blocks = im->blocks;
        memset(&im->blocks, 0, sizeof im->blocks); /* moved: ins_free leaves them */
        fm->pcs = im->pcs;
        fm->npcs = im->npcs;
        fm->new_len = im->new_len;
        im->pcs = NULL;
        fm->first_id = im->first_id;
        fm->cls = cls_index;
        fm->cf_index = i;
        fm->root = methods_root_kind(cls, name, desc);
        if (program && fm->root == ROOT_ALWAYS && strcmp(name, "<clinit>") == 0)
            fm->root = ROOT_NONE; /* the program's own initializers are work (as methods.c) */
        fm->program = (uint8_t)(program != 0);
        fm->init_sites = (uint8_t)(init_sites != 0);
        fm->root_probes = im->calls == 2;
        uint32_t seed = bp_seed(fm->name);
        for (uint32_t b = 0; b < fm->blocks.nblocks; b++) {
            const blk_block *bb = &fm->blocks.blocks[b];
            if (bb->ninsns > SEG_LEN)
                fast_problem(a, "%s has a block of %u bytecodes (the fast engine packs lengths in 15 bits)", fm->name,
                             bb->ninsns);
            uint32_t first = seg_from(fm, bb, bb->start);
            a->fast.len[fm->first_id + b] = (bb->ninsns & SEG_LEN) | (first & SEG_LEN) << 15 |
                                            ((first & SEG_ALLOC) ? 1u << 30 : 0);
            /* the step engine's site of this branch: its method's name, its
             * offset in the original code */
            a->fast.site[fm->first_id + b] = bb->end_kind == BLK_END_COND ? bp_site(seed, bb->last) : 0;
            a->fast.flags[fm->first_id + b] = fm->program ? FLAG_PROGRAM : 0;
        }
        if (keep_sites(a, index, fm, im) != 0 || keep_calls(a, index, fm, im) != 0)
            return -1;
        if (slots == NULL)
            a->fast.nmethods++;
        if (by_name_add(a, index) != 0)
            return -1;
    }
    return 0;
}

/*
 * The places the methods of a class rewritten during the start's
 * retransformation on two threads (retransform_loaded) reserved, in method
 * order: a->fast.methods stays in probe-id order, as method_of's search
 * needs, whichever thread's class comes first.
 */
typedef struct slot_list {
    agent *a;
    uint32_t *slots;
    uint32_t n, cap;
} slot_list;

/* The rewriter's reserve: the method's probe ids, array sites and call
 * sites, and its place in a->fast.methods, with the id tables grown to
 * hold them (under the lock); 0 or -1. */
static int reserve_slots(void *ctx, uint32_t ids, uint32_t sites, uint32_t calls, uint32_t *first_id,
                         uint32_t *first_site, uint32_t *first_call)
{
    slot_list *l = ctx;
    agent *a = l->a;
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 64;
        uint32_t *v = realloc(l->slots, cap * sizeof *v);
        if (v == NULL)
            return -1;
        l->slots = v;
        l->cap = cap;
    }
    lock_enter(a);
    int bad = (uint64_t)a->fast.next_id + ids > INT32_MAX || (uint64_t)a->fast.next_site + sites > INT32_MAX ||
              (uint64_t)a->fast.next_call + calls > INT32_MAX || ids_reserve(a, a->fast.next_id + ids) != 0 ||
              methods_grow(a) != 0;
    if (!bad) {
        *first_id = a->fast.next_id;
        *first_site = a->fast.next_site;
        *first_call = a->fast.next_call;
        a->fast.next_id += ids;
        a->fast.next_site += sites;
        a->fast.next_call += calls;
        fast_method *fm = &a->fast.methods[a->fast.nmethods];
        memset(fm, 0, sizeof *fm);  /* no blocks: method_of finds it once keep_methods filled it */
        fm->first_id = *first_id;
        l->slots[l->n++] = a->fast.nmethods++;
    }
    lock_exit(a);
    return bad ? -1 : 0;
}

/* What the rewriter's calls_filter needs to know of the class. */
typedef struct calls_ctx {
    const agent *a;
    const char *cls;            /* binary name */
    int measured;               /* it is the measured class (by name) */
    int oom;                    /* seed_of ran out of memory: the sites it gave are wrong */
} calls_ctx;

/* The rewriter's branch_seed: bp_seed of the method's name, as keep_methods
 * gives it the sites of the branches that keep their probes. */
static uint32_t seed_of(void *ctx, cp_str name, cp_str desc)
{
    calls_ctx *c = ctx;
    char *full = method_name(c->cls, name, desc);
    if (full == NULL) {
        c->oom = 1;
        return 0;
    }
    uint32_t seed = bp_seed(full);
    free(full);
    return seed;
}

/* Whether s, a name or descriptor from a class file (modified UTF-8), is
 * utf8 (standard UTF-8, as the spec is written): the step engine converts
 * JVMTI's names before it compares them (target.c), so a name with
 * characters beyond U+FFFF (surrogate pairs here) must match the same way. */
static int mutf8_is(cp_str s, const char *utf8)
{
    size_t n = strlen(utf8);
    if (memchr(s.ptr, 0xED, s.len) == NULL && memchr(s.ptr, 0xC0, s.len) == NULL)
        return s.len == n && memcmp(s.ptr, utf8, n) == 0; /* no surrogate, no NUL: the same bytes */
    char *u = malloc(2 * (size_t)s.len + 1);
    if (u == NULL)
        return 0;
    size_t need = mutf8_to_utf8(s.ptr, s.len, u, 2 * (size_t)s.len + 1);
    int same = need == n && memcmp(u, utf8, n) == 0;
    free(u);
    return same;
}

/* The rewriter's calls_filter: 1, the entry and exit probes, for the
 * methods of the measured class (by name: ClassPrepare has not found it
 * yet) with the measured method's name and, when the spec gives one,
 * descriptor; 2, the root entry and exit probes, for every method that may
 * open an overhead frame (methods_root_kind: JDK initializers, loadClass,
 * method-handle linkage, Thread.exit) and for every static initializer (the
 * program's too: where the JVM runs one decides whether the step engine
 * sees it, probe_root). */
static int calls_of(void *ctx, cp_str name, cp_str desc)
{
    const calls_ctx *c = ctx;
    const char *d = c->a->spec.descriptor;
    if (c->measured && mutf8_is(name, c->a->spec.name) && (d == NULL || mutf8_is(desc, d)))
        return 1;
    char n[256], ds[256];
    if (name.len >= sizeof n || desc.len >= sizeof ds)
        return 0; /* no root has a name or descriptor that long */
    memcpy(n, name.ptr, name.len);
    n[name.len] = '\0';
    memcpy(ds, desc.ptr, desc.len);
    ds[desc.len] = '\0';
    uint8_t root = methods_root_kind(c->cls, n, ds);
    return root == ROOT_ALWAYS || root == ROOT_IF_UPCALL ? 2 : 0;
}

/*
 * ClassFileLoadHook: rewrite the class with block probes, ids from
 * a->fast.next_id; the measured method also gets the entry and exit probes
 * that open and close its extents. A class that cannot be rewritten is left as it is and
 * recorded as a problem (its code would run uncounted).
 */
void JNICALL fast_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data)
{
    agent *a = &g_agent;
    (void)redefined;
    (void)domain;
    if (a->dead || !a->fast.hooked || len <= 0 || (name != NULL && strcmp(name, a->fast.probe_name) == 0))
        return;
    int program = program_loader(a, jni, loader);
    int init_sites = init_sites_loader(a, jni, loader);
    classfile cf;
    char err[256];
    if (cf_parse(&cf, data, (size_t)len, err, sizeof err) != 0) {
        fast_problem(a, "class %s cannot be read for instrumentation: %s", name ? name : "?", err);
        return;
    }
    int measured = mutf8_is(cf.this_name, a->spec.class_internal);
    char cls[1024];
    name_binary(cf.this_name.ptr, cf.this_name.len, cls, sizeof cls);
    calls_ctx cc = {.a = a, .cls = cls, .measured = measured};
    /* during the start's retransformation on two threads, each rewrites
     * outside the lock, its methods' numbers reserved one by one */
    slot_list sl = {.a = a};
    int parallel = a->fast.parallel;
    if (!parallel)
        lock_enter(a);
    /* the probes every class calls share the names p and q (Probe.java): a
     * class's pool gains two names and a Methodref per descriptor */
    ins_options opt = {.probe_class = a->fast.probe_name, .probe_method = "p", .branch_method = "p",
                       .first_id = a->fast.next_id, .array_method = "array", .first_site = a->fast.next_site,
                       .copy_method = program ? "programCopy" : "copy", .made_method = "made",
                       .root_entry_method = "rootEnter", .root_exit_method = "rootExit", .calls_filter = calls_of,
                       .calls_ctx = &cc, .call_method = "q", .return_method = "q",
                       .first_call = a->fast.next_call, .other_entry_method = "entered",
                       .other_entry_block_method = "p", .new_method = "q", .consts = 1, .program = program,
                       .fold_method = "p", .branch_seed = seed_of, .seed_ctx = &cc};
    if (measured) {
        opt.entry_method = "enter";
        opt.exit_method = "exit";
    }
    if (parallel) {
        opt.reserve = reserve_slots;
        opt.reserve_ctx = &sl;
    }
    ins_result r;
    int failed = ins_rewrite_parsed(&cf, data, (size_t)len, &opt, &r, err, sizeof err) != 0;
    if (failed) {
        if (!parallel)
            lock_exit(a);
        free(sl.slots);
        cf_free(&cf);
        fast_problem(a, "class %s cannot be instrumented: %s", name ? name : "?", err);
        return;
    }
    if (parallel)
        lock_enter(a);
    if (cc.oom || r.nmethods != cf.method_count ||
        keep_methods(a, &cf, &r, program, init_sites, data, (size_t)len, parallel ? sl.slots : NULL) != 0) {
        lock_exit(a);
        agent_fail(a, "out of memory keeping the block tables of %s", name ? name : "a class");
        free(sl.slots);
        ins_free(&r);
        cf_free(&cf);
        return;
    }
    if (!parallel) {
        a->fast.next_id = r.next_id;
        a->fast.next_site = r.next_site;
        a->fast.next_call = r.next_call;
    }
    lock_exit(a);
    free(sl.slots);
    /* a class without bytecode keeps its own bytes: the rewrite only added
     * the probes' constant-pool entries, which the JVM would parse for
     * nothing */
    int code = 0;
    for (uint16_t i = 0; i < r.nmethods && !code; i++)
        code = r.methods[i].status != INS_METHOD_NO_CODE;
    unsigned char *out = NULL;
    if (code && jvmti_check(a, (*jvmti)->Allocate(jvmti, (jlong)r.len, &out), "Allocate") == 0) {
        memcpy(out, r.bytes, r.len);
        *new_data = out;
        *new_len = (jint)r.len;
    }
    ins_free(&r);
    cf_free(&cf);
}

/* Publish the threads now counting as Probe.counting, and the thread
 * counting when only one does as Probe.one (lock held). `one` is
 * cleared first and set last, so that a probe never finds there a thread
 * that the array it reads next does not hold. */
static int publish(agent *a, JNIEnv *jni)
{
    jobjectArray arr = (*jni)->NewObjectArray(jni, (jsize)a->fast.non, a->fast.probe, NULL);
    if (arr == NULL) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    for (uint32_t i = 0; i < a->fast.non; i++)
        (*jni)->SetObjectArrayElement(jni, arr, (jsize)i, a->fast.on[i]->probe);
    (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_one, NULL);
    (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_counting, arr);
    if (a->fast.non == 1)
        (*jni)->SetStaticObjectField(jni, a->fast.probe, a->fast.f_one, a->fast.on[0]->probe);
    (*jni)->DeleteLocalRef(jni, arr);
    return 0;
}

/* This thread's counters object, made on first use: a the probe class without a
 * constructor run (none may run on a counted thread), hits sized for the
 * ids handed out so far. */
static jobject probe_of(agent *a, JNIEnv *jni, thread_state *ts, jthread thread)
{
    if (ts->probe != NULL)
        return ts->probe;
    lock_enter(a);
    uint32_t ids = a->fast.next_id;
    lock_exit(a);
    jobject p = (*jni)->AllocObject(jni, a->fast.probe);
    jsize size = (jsize)(ids > HITS_INITIAL ? ids : HITS_INITIAL);
    jlongArray hits = (*jni)->NewLongArray(jni, size), ohits = (*jni)->NewLongArray(jni, size);
    /* a predictor per bucket, all 0, as bp_init */
    jbyteArray counters = (*jni)->NewByteArray(jni, (jsize)BP_ENTRIES);
    jbyteArray ocounters = (*jni)->NewByteArray(jni, (jsize)BP_ENTRIES);
    if (p == NULL || hits == NULL || ohits == NULL || counters == NULL || ocounters == NULL) {
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    (*jni)->SetObjectField(jni, p, a->fast.f_thread, thread);
    (*jni)->SetObjectField(jni, p, a->fast.f_hits, hits);
    (*jni)->SetObjectField(jni, p, a->fast.f_ohits, ohits);
    (*jni)->SetObjectField(jni, p, a->fast.f_counters, counters);
    (*jni)->SetObjectField(jni, p, a->fast.f_ocounters, ocounters);
    /* its calling-context tree's arrays; a Java call needs no exception
     * pending, so one the thread is throwing is put back after it */
    jthrowable thrown = (*jni)->ExceptionOccurred(jni);
    if (thrown != NULL)
        (*jni)->ExceptionClear(jni);
    (*jni)->CallVoidMethod(jni, p, a->fast.m_ctx_init);
    int failed = (*jni)->ExceptionCheck(jni);
    if (failed)
        (*jni)->ExceptionClear(jni);
    if (thrown != NULL) {
        (*jni)->Throw(jni, thrown);
        (*jni)->DeleteLocalRef(jni, thrown);
    }
    if (failed)
        return NULL;
    ts->probe = (*jni)->NewGlobalRef(jni, p);
    (*jni)->DeleteLocalRef(jni, hits);
    (*jni)->DeleteLocalRef(jni, ohits);
    (*jni)->DeleteLocalRef(jni, counters);
    (*jni)->DeleteLocalRef(jni, ocounters);
    (*jni)->DeleteLocalRef(jni, p);
    return ts->probe;
}

/* Read the thread's probe totals into ts->n, bucket by bucket. */
static void sync_total(agent *a, JNIEnv *jni, thread_state *ts)
{
    if (ts->probe == NULL)
        return;
    ts->n[BUCKET_WORK] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_n);
    ts->n[BUCKET_OVERHEAD] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_on);
}

/* A thread's bound as it is switched on: the bytecodes left before the
 * run passes max_bytecodes, all threads' earlier spans counted (as the
 * step engine's shared total, counting.c); no bound without a limit. */
static jlong limit_bound(agent *a)
{
    uint64_t max = a->opts.max_bytecodes, counted = atomic_load_explicit(&a->counted, memory_order_relaxed);
    if (max == 0 || max > (uint64_t)INT64_MAX)
        return INT64_MAX;
    return counted >= max ? 0 : (jlong)(max - counted);
}

/*
 * Switch the probes of `thread` (state ts) on or off, where the step engine
 * enables or disables its single-stepping. On: its total starts from 0 (as
 * the step engine's span). Off: its total is read into ts->n. 0, or -1
 * (reported).
 */
int fast_thread(agent *a, thread_state *ts, jthread thread, int on)
{
    JNIEnv *jni = env_of(a);
    if (jni == NULL || ts == NULL || a->fast.probe == NULL) {
        agent_fail(a, "the fast engine cannot switch a thread's probes %s", on ? "on" : "off");
        return -1;
    }
    if (on && probe_of(a, jni, ts, thread) == NULL) {
        agent_fail(a, "out of memory for a thread's probe counters");
        return -1;
    }
    if (on)
        arm_hidden(a);
    if (!on) {
        sync_total(a, jni, ts);
    } else {
        /* the totals from 0, in the work bucket with no root frame open
         * (as start_counting sets the step engine's bucket) */
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_n, 0);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_on, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_mode, MODE_WORK);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_sp, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_pending, 0); /* no call pending (start_span) */
        /* as if an invoke were the last step: the first method entered is an
         * entry, with no closeness (start_span: entry_far) */
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_call_mark, 0);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_pos, 0);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_bound, limit_bound(a));
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_entry_at, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_entry_far, 1);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_seg_fence_b, -1);
        /* its calling contexts from the root, one frame in its run (start_span: ctx_start) */
        jintArray rc = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_run_count);
        if (rc == NULL) {
            agent_fail(a, "the fast engine cannot start a thread's calling contexts");
            return -1;
        }
        jint one = 1;
        (*jni)->SetIntArrayRegion(jni, rc, 0, 1, &one);
        (*jni)->DeleteLocalRef(jni, rc);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_top, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_cur, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_nsaved, 0);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_last, -1);
    }
    lock_enter(a);
    uint32_t i = 0;
    while (i < a->fast.non && a->fast.on[i] != ts)
        i++;
    int changed = 0;
    if (on && i == a->fast.non) {
        if (a->fast.non == a->fast.on_cap) {
            uint32_t cap = a->fast.on_cap ? a->fast.on_cap * 2 : 8;
            thread_state **v = realloc(a->fast.on, cap * sizeof *v);
            if (v == NULL) {
                lock_exit(a);
                agent_fail(a, "out of memory for the list of counting threads");
                return -1;
            }
            a->fast.on = v;
            a->fast.on_cap = cap;
        }
        a->fast.on[a->fast.non++] = ts;
        changed = 1;
    } else if (!on && i < a->fast.non) {
        a->fast.on[i] = a->fast.on[--a->fast.non];
        changed = 1;
        /* its span's bytecodes go to the limit's total (counting.c's limit_return checks it) */
        atomic_fetch_add_explicit(&a->counted, ts->n[BUCKET_WORK] + ts->n[BUCKET_OVERHEAD], memory_order_relaxed);
    }
    int bad = changed ? publish(a, jni) : 0;
    lock_exit(a);
    if (bad)
        agent_fail(a, "out of memory switching a thread's probes");
    return bad ? -1 : 0;
}

/* Every thread's probes off at once, their totals read: the counts stop
 * moving before the profile is written. Threads keep their `measuring`. */
void fast_quiesce(agent *a)
{
    JNIEnv *jni = env_of(a);
    if (jni == NULL || a->fast.probe == NULL)
        return;
    lock_enter(a);
    a->fast.non = 0;
    publish(a, jni);
    lock_exit(a);
    /* every thread: a helper that ended (no longer measuring) still owes
     * its total to its invocation; for a thread switched off before, the
     * total read then has not moved */
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        sync_total(a, jni, ts);
}

/* The fast_method that probe id belongs to (binary search by first_id), or NULL. */
static fast_method *method_of(agent *a, uint32_t id)
{
    uint32_t lo = 0, hi = a->fast.nmethods;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->fast.methods[mid].first_id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    fast_method *fm = &a->fast.methods[lo - 1];
    return id - fm->first_id < fm->blocks.nblocks ? fm : NULL;
}

/* This thread's counters of mi (as counting.c's cache_fill); NULL on OOM. */
static uint64_t *thread_hist(thread_state *ts, const method_info *mi)
{
    if (mi->index >= ts->hist_cap) {
        uint32_t cap = ts->hist_cap ? ts->hist_cap : 1024;
        while (cap <= mi->index)
            cap *= 2;
        uint64_t **h = realloc(ts->hist, cap * sizeof *h);
        if (h == NULL)
            return NULL;
        memset(h + ts->hist_cap, 0, (cap - ts->hist_cap) * sizeof *h);
        ts->hist = h;
        ts->hist_cap = cap;
    }
    if (ts->hist[mi->index] == NULL)
        ts->hist[mi->index] = calloc(HIST_OPS + (size_t)BUCKETS * mi->code_len, sizeof(uint64_t));
    return ts->hist[mi->index];
}

/* The constant pool of fm's class, parsed on first use (lock held); NULL
 * when it cannot be read (reported). */
static const cpool *pool_of(agent *a, const fast_method *fm)
{
    fast_class *fc = &a->fast.classes[fm->cls];
    if (!fc->parsed) {
        char err[256];
        if (cf_parse(&fc->cf, fc->bytes, fc->len, err, sizeof err) != 0) {
            fast_problem(a, "the class of %s cannot be read again: %s", fm->name, err);
            return NULL;
        }
        fc->parsed = 1;
    }
    return &fc->cf.cp;
}

/* The source line of each offset of mi, a method the probes counted
 * (mi->fast), from its class's kept class file by the step engine's rule
 * (cf_offset_lines): the JVM's table is the rewritten code's. line holds
 * mi->code_len entries; 0, or -1 when out of memory (the rewriter checked
 * the table and the class file was read before: nothing else fails). */
int fast_offset_lines(agent *a, const method_info *mi, uint32_t *line)
{
    if (mi->code_len > 0)
        memset(line, 0, mi->code_len * sizeof *line);
    if (mi->fast == 0 || mi->fast > a->fast.nmethods)
        return 0;
    lock_enter(a);
    const fast_method *fm = &a->fast.methods[mi->fast - 1];
    int r = 0;
    if (pool_of(a, fm) == NULL) {
        r = -1;
    } else {
        const classfile *cf = &a->fast.classes[fm->cls].cf;
        if (fm->cf_index >= cf->method_count || cf->methods[fm->cf_index].code_len != mi->code_len ||
            cf_offset_lines(cf, &cf->methods[fm->cf_index], line) != 0)
            r = -1;
    }
    lock_exit(a);
    return r;
}

/* Grow ts's key counters to every key interned so far (lock held). */
static int cover_keys(agent *a, thread_state *ts)
{
    return ts_keys_grow(ts, a->keys.count);
}

/* Add `times` (negative: subtract) executions of the dependency keys of
 * fm's instructions at offsets [from, to) to ts's counters (lock held);
 * 0, or -1 (reported). */
static int count_keys(agent *a, thread_state *ts, int bucket, const fast_method *fm, uint32_t from, uint32_t to,
                      int64_t times)
{
    const cpool *cp = NULL;
    for (uint32_t pc = from; pc < to; pc++) {
        if (!(fm->blocks.mark[pc] & BLK_MARK_INSN))
            continue;
        uint8_t op = fm->code[pc];
        if (op != BC_NEW && !(bc_flags(op) & BCF_INVOKE) && op != BC_LDC && op != BC_LDC_W)
            continue;
        if (cp == NULL && (cp = pool_of(a, fm)) == NULL)
            return -1;
        uint32_t k = methods_key_of(a, cp, fm->code, pc);
        if (k == 0)
            continue;
        if (cover_keys(a, ts) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            return -1;
        }
        uint64_t *slot = &ts->dep[bucket][k - 1];
        if (times < 0 && *slot < (uint64_t)-times) {
            fast_problem(a, "more keys of %s were subtracted than counted", fm->name);
            return -1;
        }
        *slot += (uint64_t)times;
    }
    return 0;
}

/* One bucket's hits of a thread (the Probe's field f, a long[] by id):
 * hits x block histogram into its method counters, and the blocks' keys. */
static int collect_hits(agent *a, JNIEnv *jni, thread_state *ts, jfieldID f, int bucket)
{
    jlongArray arr = (*jni)->GetObjectField(jni, ts->probe, f);
    if (arr == NULL)
        return -1;
    jsize n = (*jni)->GetArrayLength(jni, arr);
    jlong *hits = (*jni)->GetLongArrayElements(jni, arr, NULL);
    if (hits == NULL)
        return -1;
    int bad = 0;
    for (jsize id = 0; id < n && !bad; id++) {
        if (hits[id] == 0)
            continue;
        fast_method *fm = method_of(a, (uint32_t)id);
        if (fm == NULL) {
            fast_problem(a, "probe id %d was hit but belongs to no method", (int)id);
            continue;
        }
        if (fm->root == ROOT_THREAD_START || fm->root == ROOT_VIRTUAL_START)
            fast_problem(a, "%s ran inside the extent: the fast engine does not yet count threads started by "
                            "the method", fm->name);
        if (fast_mi(a, fm) == NULL) {
            bad = 1;
            break;
        }
        uint64_t *h = thread_hist(ts, fm->mi);
        if (h == NULL) {
            bad = 1;
            break;
        }
        const blk_block *b = &fm->blocks.blocks[(uint32_t)id - fm->first_id];
        if (count_keys(a, ts, bucket, fm, b->start, b->end, (int64_t)hits[id]) != 0)
            bad = 1;
        for (uint32_t k = 0; k < b->hist_count; k++) {
            const blk_opcount *oc = &fm->blocks.hist[b->hist_first + k];
            uint64_t add = (uint64_t)hits[id] * oc->count, *slot = &h[bucket * 256 + oc->op];
            if (*slot > UINT64_MAX - add)
                bad = 1;
            *slot += add;
        }
        /* and by offset, for the lines (profile.c): each instruction of the
         * block ran once a hit */
        for (uint32_t pc = b->start; pc < b->end; pc++) {
            if (!(fm->blocks.mark[pc] & BLK_MARK_INSN))
                continue;
            uint64_t *slot = &h[HIST_OPS + OFF_SLOT(pc, bucket)];
            if (*slot > UINT64_MAX - (uint64_t)hits[id])
                bad = 1;
            *slot += (uint64_t)hits[id];
        }
    }
    (*jni)->ReleaseLongArrayElements(jni, arr, hits, JNI_ABORT);
    (*jni)->DeleteLocalRef(jni, arr);
    return bad ? -1 : 0;
}

/* The profile entry of fm, made when first needed (lock held); NULL on OOM. */
static method_info *fast_mi(agent *a, fast_method *fm)
{
    if (fm->mi == NULL && (fm->mi = methods_add_plain(a, fm->name, fm->code, fm->code_len)) != NULL) {
        fm->mi->fast = (uint32_t)(fm - a->fast.methods) + 1;
        fm->mi->program = fm->program; /* the contexts say which frames are the program's */
    }
    return fm->mi;
}

/*
 * The thread's calling contexts (Probe.ctxInit) into its ctx_tree, which
 * profile_contexts.c writes as it writes the step engine's: a node's method
 * from its block 0's id, its site from its call site (the invoke's offset)
 * or the offset the JVM entered it at. A node whose (parent, method, site)
 * is another's (a class rewritten twice) adds to that one. 0, or -1 (OOM).
 */
static int collect_contexts(agent *a, JNIEnv *jni, thread_state *ts)
{
    if (ts->ctx.nodes == NULL)
        return 0;
    jint nn = (*jni)->GetIntField(jni, ts->probe, a->fast.f_ctx_nodes);
    if (nn < 1 || nn > CTX_NODES) {
        fast_problem(a, "a thread's calling contexts hold %d nodes", (int)nn);
        return 0;
    }
    jintArray pa = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_ctx_parent);
    jintArray ma = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_ctx_method);
    jintArray sa = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_ctx_site);
    jlongArray ca = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_ctx_count);
    jint *parent = malloc((size_t)nn * sizeof *parent), *method = malloc((size_t)nn * sizeof *method);
    jint *site = malloc((size_t)nn * sizeof *site);
    jlong *count = malloc((size_t)nn * 4 * sizeof *count);
    uint32_t *map = malloc((size_t)nn * sizeof *map);
    int bad = pa == NULL || ma == NULL || sa == NULL || ca == NULL || parent == NULL || method == NULL ||
              site == NULL || count == NULL || map == NULL;
    if (!bad) {
        (*jni)->GetIntArrayRegion(jni, pa, 0, nn, parent);
        (*jni)->GetIntArrayRegion(jni, ma, 0, nn, method);
        (*jni)->GetIntArrayRegion(jni, sa, 0, nn, site);
        (*jni)->GetLongArrayRegion(jni, ca, 0, nn * 4, count);
        bad = (*jni)->ExceptionCheck(jni);
        (*jni)->ExceptionClear(jni);
    }
    /* map[i]: the node i counts in, with bit 31 when that is its `other` (the pool was full) */
    const uint32_t FOLD = 0x80000000u;
    for (jint i = 0; i < nn && !bad; i++) {
        uint32_t to = 0;
        if (i > 0) {
            if (parent[i] < 0 || parent[i] >= i) {
                fast_problem(a, "a calling context's parent comes after it");
                break;
            }
            uint32_t p = map[parent[i]];
            fast_method *fm = method_of(a, (uint32_t)method[i]);
            if (fm == NULL) {
                fast_problem(a, "a calling context's method id %d belongs to no method", (int)method[i]);
                break;
            }
            if (fast_mi(a, fm) == NULL) {
                bad = 1;
                break;
            }
            uint32_t at = CTX_NONE;
            if (site[i] >= 0 && (uint32_t)site[i] < a->fast.next_call)
                at = a->fast.calls[site[i]].pc;
            else if (site[i] <= -2)
                at = (uint32_t)(-2 - (int64_t)site[i]);
            if (p & FOLD) {
                to = p;
            } else {
                uint32_t k = ctx_child(ts, p, fm->mi->index, at);
                to = k == CTX_NONE ? p | FOLD : k;
            }
        }
        map[i] = to;
        ctx_node *x = &ts->ctx.nodes[to & ~FOLD];
        for (int b = 0; b < BUCKETS; b++) {
            uint64_t own = (uint64_t)count[4 * i + b], other = (uint64_t)count[4 * i + 2 + b];
            if (to & FOLD)
                x->other[b] += own + other;
            else {
                x->n[b] += own;
                x->other[b] += other;
            }
        }
    }
    free(parent);
    free(method);
    free(site);
    free(count);
    free(map);
    if (pa != NULL)
        (*jni)->DeleteLocalRef(jni, pa);
    if (ma != NULL)
        (*jni)->DeleteLocalRef(jni, ma);
    if (sa != NULL)
        (*jni)->DeleteLocalRef(jni, sa);
    if (ca != NULL)
        (*jni)->DeleteLocalRef(jni, ca);
    return bad ? -1 : 0;
}

/* One thread's counts: both buckets' hits, branches, less the fixes. */
static int collect_thread(agent *a, JNIEnv *jni, thread_state *ts)
{
    if (collect_hits(a, jni, ts, a->fast.f_hits, BUCKET_WORK) != 0 ||
        collect_hits(a, jni, ts, a->fast.f_ohits, BUCKET_OVERHEAD) != 0)
        return -1;
    jint hidden = (*jni)->GetIntField(jni, ts->probe, a->fast.f_hidden);
    if (hidden > 0) {
        jint by = (*jni)->GetIntField(jni, ts->probe, a->fast.f_hidden_root);
        fast_method *fm = method_of(a, (uint32_t)hidden - 1);
        fast_method *rm = by > 0 ? method_of(a, (uint32_t)by - 1) : NULL;
        if (by < 0) /* the step engine counts it or refuses it itself: the linkage's fallback stands */
            fast_problem(a, "the program's %s ran while the JVM linked an invokedynamic of the program's, which "
                            "the step engine watches", fm != NULL ? fm->name : "code");
        else
            fast_hidden_work(a, "%s ran inside %s, which the JVM ran where HotSpot hides single-stepping (resolving "
                            "an instruction of the JDK's): hidden from counting",
                         fm != NULL ? fm->name : "the program's code", rm != NULL ? rm->name : "a JDK method");
    }
    /* its method entries (an entry probe runs before the method's first
     * instruction: nothing to correct either) */
    ts->calls[BUCKET_WORK][CALL_ENTRIES] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_entries);
    ts->calls[BUCKET_OVERHEAD][CALL_ENTRIES] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_oentries);
    for (int b = 0; b < BUCKETS; b++) {
        ts->calls[b][CALL_CLOSE] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_close[b]);
        ts->calls[b][CALL_FENCE_NATIVE] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_fence_native[b]);
        ts->calls[b][CALL_FENCE_ALLOC] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_fence_alloc[b]);
    }
    /* the thread's branch counts, per bucket; a branch probe runs right
     * before its branch, so an exception never leaves one to correct */
    for (int k = 0; k < BR_KINDS; k++) {
        ts->br[BUCKET_WORK][k] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_br[k]);
        ts->br[BUCKET_OVERHEAD][k] = (uint64_t)(*jni)->GetLongField(jni, ts->probe, a->fast.f_obr[k]);
    }
    /* what exceptions kept from running: the rest of a block counted whole */
    for (uint32_t k = 0; k < ts->nfixes; k++) {
        fast_method *fm = method_of(a, ts->fixes[k].id);
        uint64_t *h = fm != NULL && fm->mi != NULL ? thread_hist(ts, fm->mi) : NULL;
        if (h == NULL) {
            fast_problem(a, "a block an exception left early was never counted");
            continue;
        }
        int bucket = ts->fixes[k].bucket;
        const blk_block *b = &fm->blocks.blocks[ts->fixes[k].id - fm->first_id];
        if (count_keys(a, ts, bucket, fm, ts->fixes[k].after + 1, b->end, -1) != 0)
            break;
        for (uint32_t pc = ts->fixes[k].after + 1; pc < b->end; pc++) {
            if (!(fm->blocks.mark[pc] & BLK_MARK_INSN))
                continue;
            uint64_t *slot = &h[bucket * 256 + fm->code[pc]], *at = &h[HIST_OPS + OFF_SLOT(pc, bucket)];
            if (*slot == 0 || *at == 0) {
                fast_problem(a, "more instructions of %s were subtracted than counted", fm->name);
                break;
            }
            (*slot)--;
            (*at)--;
        }
    }
    return 0;
}

/* A method's name as fast_method.name has it, "pkg.Class.name(desc)" in
 * UTF-8 (malloc'd), or NULL. */
static char *full_name(agent *a, jmethodID id)
{
    jvmtiEnv *jv = a->jvmti;
    char *name = NULL, *desc = NULL, *csig = NULL, *utf8 = NULL;
    jclass klass = NULL;
    if ((*jv)->GetMethodName(jv, id, &name, &desc, NULL) == JVMTI_ERROR_NONE &&
        (*jv)->GetMethodDeclaringClass(jv, id, &klass) == JVMTI_ERROR_NONE &&
        (*jv)->GetClassSignature(jv, klass, &csig, NULL) == JVMTI_ERROR_NONE) {
        char cls[1024], full[8192];
        if (name_from_signature(csig, 0, cls, sizeof cls) == 0)
            snprintf(cls, sizeof cls, "%s", csig);
        snprintf(full, sizeof full, "%s.%s%s", cls, name, desc);
        utf8 = utf8_dup(full);
    }
    if (name)
        (*jv)->Deallocate(jv, (unsigned char *)name);
    if (desc)
        (*jv)->Deallocate(jv, (unsigned char *)desc);
    if (csig)
        (*jv)->Deallocate(jv, (unsigned char *)csig);
    return utf8;
}

/* FNV-1a of a method's name "pkg.Class.name(desc)". */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s != '\0'; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Make methods[index] the one method_by_name finds for its name: into that
 * name's slot, or an empty one (lock held; the table has room). */
static void by_name_put(agent *a, uint32_t index)
{
    uint32_t mask = a->fast.by_name_cap - 1;
    const char *name = a->fast.methods[index].name;
    for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        uint32_t e = a->fast.by_name[i];
        if (e == 0 || strcmp(a->fast.methods[e - 1].name, name) == 0) {
            a->fast.by_name[i] = index + 1;
            return;
        }
    }
}

/* Index methods[index], just kept, by name; the table doubles when it
 * would be more than half full, refilled in rewriting order so that the
 * last method of a name wins (lock held). 0, or -1 when out of memory. */
/* Add methods[index], named, to the table; growing it puts back every
 * method named so far (a place reserve_slots made, not yet filled, has no
 * name), in index order, so that of two methods of one name the later
 * stays found. */
static int by_name_add(agent *a, uint32_t index)
{
    if ((uint64_t)a->fast.by_name_n + 1 > a->fast.by_name_cap / 2) {
        uint32_t cap = a->fast.by_name_cap ? a->fast.by_name_cap * 2 : 8192;
        uint32_t *t = calloc(cap, sizeof *t);
        if (t == NULL)
            return -1;
        free(a->fast.by_name);
        a->fast.by_name = t;
        a->fast.by_name_cap = cap;
        for (uint32_t i = 0; i < a->fast.nmethods; i++)
            if (i != index && a->fast.methods[i].name != NULL)
                by_name_put(a, i);
    }
    by_name_put(a, index);
    a->fast.by_name_n++;
    return 0;
}

/* The instrumented method of that name, the one rewritten last (a class
 * retransformed later has new ids); NULL if none (lock held). A hash
 * lookup: the probes of exception constructors and overhead roots look
 * frames up by name, in some runs millions of times, among tens of
 * thousands of methods. */
static fast_method *method_by_name(agent *a, const char *name)
{
    if (name == NULL || a->fast.by_name_cap == 0)
        return NULL;
    uint32_t mask = a->fast.by_name_cap - 1;
    for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        uint32_t e = a->fast.by_name[i];
        if (e == 0)
            return NULL;
        if (strcmp(a->fast.methods[e - 1].name, name) == 0)
            return &a->fast.methods[e - 1];
    }
}

/* The fast_method of a frame's method, by its name "pkg.Class.name(desc)";
 * NULL when no instrumented method has it. */
static fast_method *method_named(agent *a, jmethodID id)
{
    char *name = full_name(a, id);
    lock_enter(a);
    fast_method *found = method_by_name(a, name);
    lock_exit(a);
    free(name);
    return found;
}

/*
 * An exception was thrown on a counting thread. Each block is counted whole
 * when its probe runs; in the frame that throws and in every frame the
 * exception unwinds, down to and including the frame that catches it, the
 * instructions after the frame's current one (the throwing instruction, or
 * the invoke in progress) up to its block's end never run. Each becomes a
 * fix subtracted at the end (fast_collect), and the thread's total drops
 * by their number now. `frames`: at most that many frames from the top
 * were counted (the extent's); a frame in a probe, or of a method that is
 * not instrumented but has bytecode, is a problem (the run is refused).
 */
/* 1 when the invoke at fm's original offset pc calls a native whose arrays
 * fast_array_alloc charges as they are made and that may throw
 * (Class.initClassName, StackTraceElement.initStackTraceElements: an
 * OutOfMemoryError): the step engine charges nothing when such a call
 * throws, since the caller does not resume after it (lock not held). */
static int charged_native_call(agent *a, const fast_method *fm, uint32_t pc)
{
    if (!(bc_flags(fm->code[pc]) & BCF_INVOKE) || fm->code[pc] == BC_INVOKEDYNAMIC)
        return 0;
    lock_enter(a);
    const cpool *cp = pool_of(a, fm);
    cp_str owner, name, desc;
    int hit = cp != NULL &&
              cp_member_ref(cp, (uint16_t)(fm->code[pc + 1] << 8 | fm->code[pc + 2]), &owner, &name, &desc) == 0 &&
              ((owner.len == 15 && memcmp(owner.ptr, "java/lang/Class", 15) == 0 && name.len == 13 &&
                memcmp(name.ptr, "initClassName", 13) == 0) ||
               (owner.len == 27 && memcmp(owner.ptr, "java/lang/StackTraceElement", 27) == 0 && name.len == 22 &&
                memcmp(name.ptr, "initStackTraceElements", 22) == 0));
    lock_exit(a);
    return hit;
}

/*
 * The calling contexts' side of an exception (Probe.ctxInit): the stack of
 * runs, the saved positions and the open roots' positions, read once; the
 * frames the exception unwinds are walked from the throwing one, each
 * given its position: the throwing frame the current one (below any frame
 * the JVM entered for the exception, a constructor, which no return probe
 * popped), every frame under it the one its call probe saved (the invoke
 * it waits at), or, under a root the JVM entered, the one saved at that
 * root's entry. A frame's fix comes off its node; the catching frame's
 * position becomes the thread's.
 */
typedef struct ctx_walk {
    int ok;                     /* the state was read */
    jint top, nsaved, j;        /* the current run, saved positions, the next one not yet walked */
    jint *node, *count;         /* runNode, runCount up to top */
    jlong *saved, *root_ctx;
    jint *root_saved;
    jlong pos;                  /* the position of the frame walked last; -1 unknown */
    jint pos_saved;             /* nsaved for it */
    jlong jvm;                  /* a position to save above it as a frame the JVM left (-1: none) */
    jint last;                  /* the offset the JVM left that frame at (-1: none) */
} ctx_walk;

static void ctx_walk_free(ctx_walk *w)
{
    free(w->node);
    free(w->count);
    free(w->saved);
    free(w->root_ctx);
    free(w->root_saved);
}

static int ctx_walk_read(agent *a, JNIEnv *jni, thread_state *ts, jint sp, ctx_walk *w)
{
    memset(w, 0, sizeof *w);
    w->pos = -1;
    w->jvm = -1;
    w->last = -1;
    w->top = (*jni)->GetIntField(jni, ts->probe, a->fast.f_ctx_top);
    w->nsaved = (*jni)->GetIntField(jni, ts->probe, a->fast.f_nsaved);
    jintArray na = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_run_node);
    jintArray ca = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_run_count);
    jlongArray sa = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_saved);
    jlongArray ra = sp > 0 ? (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_ctx) : NULL;
    jintArray rs = sp > 0 ? (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_saved) : NULL;
    if (w->top >= 0 && w->top <= CTX_NODES && w->nsaved >= 0 && na != NULL && ca != NULL && sa != NULL &&
        (sp == 0 || (ra != NULL && rs != NULL))) {
        w->node = malloc(((size_t)w->top + 1) * sizeof *w->node);
        w->count = malloc(((size_t)w->top + 1) * sizeof *w->count);
        w->saved = malloc(((size_t)w->nsaved + 1) * sizeof *w->saved);
        w->root_ctx = malloc(((size_t)sp + 1) * sizeof *w->root_ctx);
        w->root_saved = malloc(((size_t)sp + 1) * sizeof *w->root_saved);
        if (w->node != NULL && w->count != NULL && w->saved != NULL && w->root_ctx != NULL && w->root_saved != NULL) {
            (*jni)->GetIntArrayRegion(jni, na, 0, w->top + 1, w->node);
            (*jni)->GetIntArrayRegion(jni, ca, 0, w->top + 1, w->count);
            (*jni)->GetLongArrayRegion(jni, sa, 0, w->nsaved, w->saved);
            if (sp > 0) {
                (*jni)->GetLongArrayRegion(jni, ra, 0, sp, w->root_ctx);
                (*jni)->GetIntArrayRegion(jni, rs, 0, sp, w->root_saved);
            }
            w->ok = !(*jni)->ExceptionCheck(jni);
            (*jni)->ExceptionClear(jni);
        }
    }
    if (na != NULL)
        (*jni)->DeleteLocalRef(jni, na);
    if (ca != NULL)
        (*jni)->DeleteLocalRef(jni, ca);
    if (sa != NULL)
        (*jni)->DeleteLocalRef(jni, sa);
    if (ra != NULL)
        (*jni)->DeleteLocalRef(jni, ra);
    if (rs != NULL)
        (*jni)->DeleteLocalRef(jni, rs);
    if (!w->ok) {
        ctx_walk_free(w);
        memset(w, 0, sizeof *w);
        fast_problem(a, "cannot read a thread's calling contexts at an exception");
        return -1;
    }
    w->j = w->nsaved;
    return 0;
}

#define CTX_JVM 0x80000000LL /* Probe.JVM */

/* The next frame's position: the throwing frame's (first), or the call its
 * frame waits at. */
static void ctx_walk_frame(ctx_walk *w, int first)
{
    if (!w->ok)
        return;
    if (first) {
        w->pos = (jlong)w->top << 32 | w->count[w->top];
        while (w->j > 0 && (w->saved[w->j - 1] & CTX_JVM)) /* frames the JVM entered for it */
            w->pos = w->saved[--w->j];
    } else {
        while (w->j > 0 && (w->saved[w->j - 1] & CTX_JVM))
            w->j--;
        w->pos = w->j > 0 ? w->saved[--w->j] : -1;
    }
    w->pos_saved = w->j;
}

/* The counters of the current position's node in bucket b, as an index into ctxCount; -1 unknown. */
static jint ctx_walk_slot(const ctx_walk *w, int b)
{
    if (!w->ok || w->pos < 0)
        return -1;
    jint top = (jint)(w->pos >> 32);
    if (top < 0 || top > w->top)
        return -1;
    jint r = w->node[top];
    return r < 0 ? 4 * (r & 0x7fffffff) + 2 + b : 4 * r + b;
}

/* Take `less` off the node of the frame walked last, in bucket b. */
static void ctx_walk_less(agent *a, JNIEnv *jni, thread_state *ts, const ctx_walk *w, int b, uint64_t less)
{
    jint slot = ctx_walk_slot(w, b);
    if (less == 0 || slot < 0)
        return;
    jlongArray ca = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_ctx_count);
    if (ca == NULL)
        return;
    jlong v = 0;
    (*jni)->GetLongArrayRegion(jni, ca, slot, 1, &v);
    v -= (jlong)less;
    (*jni)->SetLongArrayRegion(jni, ca, slot, 1, &v);
    (*jni)->ExceptionClear(jni);
    (*jni)->DeleteLocalRef(jni, ca);
}

/* The thread's contexts at the frame walked last (the catching one). */
static void ctx_walk_set(agent *a, JNIEnv *jni, thread_state *ts, const ctx_walk *w)
{
    if (!w->ok || w->pos < 0)
        return;
    jint top = (jint)(w->pos >> 32), count = (jint)(w->pos & 0x7fffffff);
    if (top < 0 || top > w->top)
        return;
    jintArray ca = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_run_count);
    if (ca == NULL)
        return;
    (*jni)->SetIntArrayRegion(jni, ca, top, 1, &count);
    (*jni)->DeleteLocalRef(jni, ca);
    jint r = w->node[top];
    (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_top, top);
    (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_cur, r < 0 ? 4 * (r & 0x7fffffff) + 2 : 4 * r);
    jint nsaved = w->pos_saved;
    if (w->jvm >= 0) {
        jlongArray sa = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_saved);
        jlong q = w->jvm | CTX_JVM;
        if (sa != NULL && nsaved < (*jni)->GetArrayLength(jni, sa)) {
            (*jni)->SetLongArrayRegion(jni, sa, nsaved++, 1, &q);
            (*jni)->SetIntField(jni, ts->probe, a->fast.f_ctx_last, w->last);
        }
        if (sa != NULL)
            (*jni)->DeleteLocalRef(jni, sa);
    }
    (*jni)->SetIntField(jni, ts->probe, a->fast.f_nsaved, nsaved);
}

jint fast_exception_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method, jint frames)
{
    if (frames <= 0 || ts->probe == NULL)
        return -1;
    /* the root frames open on the thread (Probe.rootEnter), innermost
     * last, and the mode each runs in: a frame's blocks were counted in the
     * mode of the innermost root frame at or below it */
    jint sp = (*jni)->GetIntField(jni, ts->probe, a->fast.f_sp);
    jint mode = (*jni)->GetIntField(jni, ts->probe, a->fast.f_mode);
    jint *ids = NULL, *modes = NULL, *lends = NULL, *fence_b = NULL;
    jlong *fences = NULL;
    if (sp > 0) {
        jintArray ia = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_ids);
        jintArray ma = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_modes);
        jintArray la = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_lend);
        jlongArray fa = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_seg_fence);
        jintArray ba = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_root_seg_fence_b);
        ids = malloc((size_t)sp * sizeof *ids);
        modes = malloc((size_t)sp * sizeof *modes);
        lends = malloc((size_t)sp * sizeof *lends);
        fence_b = malloc((size_t)sp * sizeof *fence_b);
        fences = malloc((size_t)sp * sizeof *fences);
        if (ia == NULL || ma == NULL || la == NULL || fa == NULL || ba == NULL || ids == NULL || modes == NULL ||
            lends == NULL || fence_b == NULL || fences == NULL) {
            free(ids);
            free(modes);
            free(lends);
            free(fence_b);
            free(fences);
            fast_problem(a, "cannot read a thread's open root frames");
            return -1;
        }
        (*jni)->GetIntArrayRegion(jni, ia, 0, sp, ids);
        (*jni)->GetIntArrayRegion(jni, ma, 0, sp, modes);
        (*jni)->GetIntArrayRegion(jni, la, 0, sp, lends);
        (*jni)->GetLongArrayRegion(jni, fa, 0, sp, fences);
        (*jni)->GetIntArrayRegion(jni, ba, 0, sp, fence_b);
        (*jni)->DeleteLocalRef(jni, ia);
        (*jni)->DeleteLocalRef(jni, ma);
        (*jni)->DeleteLocalRef(jni, la);
        (*jni)->DeleteLocalRef(jni, fa);
        (*jni)->DeleteLocalRef(jni, ba);
    }
    jvmtiFrameInfo *f = malloc((size_t)frames * sizeof *f);
    jint n = 0;
    if (f == NULL || jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, frames, f, &n), "GetStackTrace") != 0) {
        free(f);
        free(ids);
        free(modes);
        free(lends);
        free(fence_b);
        free(fences);
        fast_problem(a, "cannot read the frames an exception unwinds");
        return -1;
    }
    ctx_walk cw;
    ctx_walk_read(a, jni, ts, sp, &cw);
    uint64_t less[BUCKETS] = {0};
    jint k = sp, popped = 0, m = mode, stop = -1;
    int top = 1; /* the first frame with bytecode: the throwing one, or the caller of a native that threw */
    for (jint i = 0; i < n; i++) {
        int last = catch_method != NULL && f[i].method == catch_method;
        if (f[i].location >= 0) {
            fast_method *fm = method_named(a, f[i].method);
            int in_probe = 0;
            ins_method view = {.status = INS_METHOD_DONE, .pcs = fm ? fm->pcs : NULL, .npcs = fm ? fm->npcs : 0,
                               .new_len = fm ? fm->new_len : 0};
            int64_t old = fm != NULL ? ins_original_offset(&view, (uint32_t)f[i].location, &in_probe) : -1;
            if (m != MODE_HIDDEN && (old < 0 || in_probe)) { /* hidden frames counted nothing */
                fast_problem(a, "an exception was thrown %s", old < 0 ? "through a method that has no probes"
                                                                      : "inside a probe (a StackOverflowError?)");
                break;
            }
            if (top && m != MODE_HIDDEN && charged_native_call(a, fm, (uint32_t)old))
                fast_problem(a, "%s threw at offset %" PRId64 " in a call of a native whose arrays were charged "
                             "as they were made (the step engine charges none when the call throws)", fm->name, old);
            if (top && m != MODE_HIDDEN) {
                /* the throwing frame's segment stops here: its rest off the
                 * position, unless the exception's constructor, entered by
                 * the JVM, took it off already (probe_jvm_entered) */
                if (ts->fast_lent_method == f[i].method && ts->fast_lent_loc == f[i].location)
                    ts->fast_lent_method = NULL;
                else
                    seg_abort(a, jni, ts, fm, (uint32_t)old);
            }
            if (m != MODE_HIDDEN) /* hidden frames have no contexts */
                ctx_walk_frame(&cw, i == 0);
            top = 0;
            int32_t b = m != MODE_HIDDEN ? blk_find(&fm->blocks, (uint32_t)old) : -1;
            if (m != MODE_HIDDEN && b < 0)
                break;
            if (b >= 0) {
                if (ts->nfixes == ts->fixes_cap) {
                    uint32_t cap = ts->fixes_cap ? ts->fixes_cap * 2 : 64;
                    struct fast_fix *v = realloc(ts->fixes, cap * sizeof *v);
                    if (v == NULL) {
                        agent_fail(a, "out of memory for the fast engine's exception fixes");
                        break;
                    }
                    ts->fixes = v;
                    ts->fixes_cap = cap;
                }
                /* the program's code is work in an overhead frame too */
                int bucket = m == MODE_OVERHEAD && !fm->program ? BUCKET_OVERHEAD : BUCKET_WORK;
                ts->fixes[ts->nfixes++] = (struct fast_fix){fm->first_id + (uint32_t)b, (uint32_t)old, bucket};
                const blk_block *blk = &fm->blocks.blocks[b];
                uint64_t fl = 0;
                for (uint32_t pc = (uint32_t)old + 1; pc < blk->end; pc++)
                    fl += (fm->blocks.mark[pc] & BLK_MARK_INSN) != 0;
                less[bucket] += fl;
                if (m != MODE_HIDDEN)
                    ctx_walk_less(a, jni, ts, &cw, bucket, fl);
            }
            if (fm != NULL && fm->root_probes && k > 0 && !last) {
                /* the frame that opened the innermost root frame not yet
                 * passed: it ends here; below it, the mode of the one before */
                if (ids[k - 1] != (jint)fm->first_id) {
                    fast_problem(a, "an exception unwound %s, whose root frame the fast engine did not see open",
                                 fm->name);
                    break;
                }
                k--;
                popped++;
                m = k > 0 ? modes[k - 1] & MODE_MASK : MODE_WORK;
                if (modes[k] & VM_ENTERED) { /* the JVM takes the exception there */
                    if (cw.ok && cw.pos >= 0) {
                        /* as the step engine, which sees no frame end: the
                         * root's frame stays current, its throw the last
                         * step, until the next exception, which finds its
                         * caller's position saved above */
                        cw.pos_saved = cw.root_saved[k];
                        cw.jvm = cw.root_ctx[k];
                        cw.last = old >= 0 && old <= INT32_MAX ? (jint)old : -1;
                    }
                    stop = i;
                    break;
                }
            }
        }
        if (last)
            break;
    }
    free(f);
    ctx_walk_set(a, jni, ts, &cw);
    ctx_walk_free(&cw);
    if (popped > 0) { /* the root frames the exception unwinds end here, as their exit probes would */
        jint left = sp - popped;
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_sp, left);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_mode, left > 0 ? modes[left - 1] & MODE_MASK : MODE_WORK);
        /* what they lent back to the position, and their callers' fences
         * (the segments they interrupted now stop at the instruction the
         * JVM throws from, where the next Exception event takes them off) */
        jlong lent = 0;
        for (jint j = left; j < sp; j++)
            lent += lends[j];
        if (lent != 0)
            add_long(a, jni, ts, a->fast.f_pos, lent);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_seg_fence, fences[left]);
        (*jni)->SetIntField(jni, ts->probe, a->fast.f_seg_fence_b, fence_b[left]);
    }
    free(ids);
    free(modes);
    free(lends);
    free(fence_b);
    free(fences);
    if (less[BUCKETS - 1] > 0 || less[BUCKET_WORK] > 0) {
        jlong w = (*jni)->GetLongField(jni, ts->probe, a->fast.f_n), o = (*jni)->GetLongField(jni, ts->probe, a->fast.f_on);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_n, w - (jlong)less[BUCKET_WORK]);
        (*jni)->SetLongField(jni, ts->probe, a->fast.f_on, o - (jlong)less[BUCKET_OVERHEAD]);
    }
    return stop;
}

/* ---- arrays ------------------------------------------------------------- */

/* The array key of one array site (lock held), as the step engine names
 * the class of the array that level allocates (counting.c array_key:
 * name_from_signature(signature, 1)); interned on first use. 0 when the
 * instruction's class cannot be read (reported). */
static uint32_t site_key(agent *a, uint32_t site)
{
    fast_site *st = &a->fast.sites[site];
    if (st->key != 0)
        return st->key;
    const fast_method *fm = &a->fast.methods[st->method];
    const uint8_t *p = fm->code + st->pc;
    char elem[1024];
    cp_str c = {0};
    if (p[0] != BC_NEWARRAY) {
        const cpool *cp = pool_of(a, fm);
        if (cp == NULL || cp_class_name(cp, (uint16_t)(p[1] << 8 | p[2]), &c) != 0 || c.len == 0) {
            fast_problem(a, "the array class of %s at offset %u cannot be read", fm->name, st->pc);
            return 0;
        }
    }
    size_t n = name_array_level(p[0], p[1], c.ptr, c.len, st->level, elem, sizeof elem);
    if (n == 0 || n >= sizeof elem) {
        fast_problem(a, "the array instruction of %s at offset %u names no array type", fm->name, st->pc);
        return 0;
    }
    char *utf8 = utf8_dup(elem);
    st->key = utf8 != NULL ? keys_intern(&a->keys, KEY_ARRAY, utf8) : 0;
    free(utf8);
    if (st->key == 0)
        agent_fail(a, "out of memory for the keys of arrays");
    return st->key;
}

/* The keys of a made probe's site (lock held): *k, the array key of the
 * class its thread counted there (classes[site]); *ik, the call's invoke
 * key. 0, or -1 (reported). */
static int made_site_keys(agent *a, JNIEnv *jni, jobjectArray classes, uint32_t site, uint32_t *k, uint32_t *ik)
{
    const fast_site *st = &a->fast.sites[site];
    const fast_method *fm = &a->fast.methods[st->method];
    jobject c = classes != NULL && (jsize)site < (*jni)->GetArrayLength(jni, classes)
                    ? (*jni)->GetObjectArrayElement(jni, classes, (jsize)site)
                    : NULL;
    *k = c != NULL ? a->hooks.array_key(a, (jclass)c) : 0;
    if (c != NULL)
        (*jni)->DeleteLocalRef(jni, c);
    const cpool *cp = pool_of(a, fm);
    *ik = cp != NULL ? methods_key_of(a, cp, fm->code, st->pc) : 0;
    if (*k == 0 || *ik == 0) {
        fast_problem(a, "the call in %s at offset %u made arrays whose %s", fm->name, st->pc,
                     *k == 0 ? "class has no array key" : "call has no key");
        return -1;
    }
    return 0;
}

/* Add n to a counter, refusing the run rather than wrapping. */
static int add_count(agent *a, uint64_t *slot, uint64_t n)
{
    if (*slot > UINT64_MAX - n) {
        fast_problem(a, "an array count passed 2^64");
        return -1;
    }
    *slot += n;
    return 0;
}

/* The arrays one mode's probes counted by site (fields fa, fe), into the
 * keys of `bucket` (a made probe's site: the key of the class counted
 * there, and the call's elements too); in the overhead bucket the
 * program's sites go to the work bucket. 0, or -1 (reported). */
static int collect_sites(agent *a, JNIEnv *jni, thread_state *ts, jfieldID fa, jfieldID fe, int bucket)
{
    int bad = 0;
    jlongArray aa = (*jni)->GetObjectField(jni, ts->probe, fa);
    jlongArray ea = (*jni)->GetObjectField(jni, ts->probe, fe);
    jobjectArray ca = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_classes);
    if (aa != NULL && ea != NULL) {
        jsize n = (*jni)->GetArrayLength(jni, aa);
        jlong *al = (*jni)->GetLongArrayElements(jni, aa, NULL);
        jlong *el = (*jni)->GetLongArrayElements(jni, ea, NULL);
        if (al == NULL || el == NULL || (*jni)->GetArrayLength(jni, ea) != n)
            bad = -1;
        for (jsize site = 0; site < n && !bad; site++) {
            if (al[site] == 0)
                continue;
            if ((uint32_t)site >= a->fast.next_site) {
                fast_problem(a, "array site %d was counted but never handed out", (int)site);
                continue;
            }
            uint32_t k = 0, ik = 0;
            if (a->fast.sites[site].made) { /* a native's arrays of one class: their key and the call's */
                if (made_site_keys(a, jni, ca, (uint32_t)site, &k, &ik) != 0)
                    continue;
            } else if ((k = site_key(a, (uint32_t)site)) == 0) {
                continue;
            }
            if (cover_keys(a, ts) != 0) {
                agent_fail(a, "out of memory for the fast engine's key counters");
                bad = -1;
                break;
            }
            int b = bucket == BUCKET_OVERHEAD && a->fast.methods[a->fast.sites[site].method].program ? BUCKET_WORK
                                                                                                  : bucket;
            if (add_count(a, &ts->dep[b][k - 1], (uint64_t)al[site]) != 0 ||
                add_count(a, &ts->elems[b][k - 1], (uint64_t)el[site]) != 0 ||
                (ik != 0 && add_count(a, &ts->elems[b][ik - 1], (uint64_t)el[site]) != 0))
                break;
        }
        if (al != NULL)
            (*jni)->ReleaseLongArrayElements(jni, aa, al, JNI_ABORT);
        if (el != NULL)
            (*jni)->ReleaseLongArrayElements(jni, ea, el, JNI_ABORT);
    }
    if (aa != NULL)
        (*jni)->DeleteLocalRef(jni, aa);
    if (ea != NULL)
        (*jni)->DeleteLocalRef(jni, ea);
    if (ca != NULL)
        (*jni)->DeleteLocalRef(jni, ca);
    return bad;
}

/*
 * One thread's arrays (lock held), bucket by bucket: what its array and
 * made probes counted, by site, into the keys of the arrays' element types
 * (an allocation and its elements each; a made probe's elements also to
 * its call); what native methods allocated (fast_array_alloc, made0) into
 * those keys and into the elements of the invoke that called the native,
 * as the step engine charges them (and the elements of natives charged by
 * size); what its copy probes saw System.arraycopy copy, into that
 * invoke's elements. 0, or -1 (reported).
 */
static int collect_arrays(agent *a, JNIEnv *jni, thread_state *ts)
{
    int bad = collect_sites(a, jni, ts, a->fast.f_allocations, a->fast.f_elements, BUCKET_WORK);
    if (!bad)
        bad = collect_sites(a, jni, ts, a->fast.f_oallocations, a->fast.f_oelements, BUCKET_OVERHEAD);
    for (uint32_t i = 0; i < ts->nnarrays && !bad; i++) {
        struct fast_native_array *na = &ts->narrays[i];
        if (na->invoke == 0) { /* a made probe's: the call's key, read now */
            const fast_method *fm = &a->fast.methods[na->method];
            const cpool *cp = pool_of(a, fm);
            na->invoke = cp != NULL ? methods_key_of(a, cp, fm->code, na->pc) : 0;
            if (na->invoke == 0) {
                fast_problem(a, "the call in %s at offset %u made an array and has no key", fm->name, na->pc);
                continue;
            }
        }
        if (cover_keys(a, ts) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            bad = -1;
            break;
        }
        if ((na->key != 0 && (add_count(a, &ts->dep[na->bucket][na->key - 1], na->allocations) != 0 ||
                              add_count(a, &ts->elems[na->bucket][na->key - 1], na->elements) != 0)) ||
            add_count(a, &ts->elems[na->bucket][na->invoke - 1], na->elements) != 0)
            break;
    }
    /* what System.arraycopy copied, charged to its key as counting.c does,
     * bucket by bucket */
    for (int b = 0; b < BUCKETS && !bad; b++) {
        uint64_t copied = (uint64_t)(*jni)->GetLongField(jni, ts->probe, b == BUCKET_WORK ? a->fast.f_copied
                                                                                       : a->fast.f_ocopied);
        if (copied == 0)
            continue;
        uint32_t k = a->arraycopy_key;
        if (k == 0)
            fast_problem(a, "System.arraycopy copied elements, and it has no key");
        else if (cover_keys(a, ts) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            bad = -1;
        } else {
            add_count(a, &ts->elems[b][k - 1], copied);
        }
    }
    return bad;
}

/*
 * The call a native method of this thread was called by (frame 1 of
 * `thread`, the native at the top): the caller's index in a->fast.methods,
 * the invoke's offset in its original code, the invoke's key and whether a
 * made probe follows it (*made), through a one-entry cache by frame
 * location (a native's arrays and the elements charged by size come from
 * one call site at a time). 0, or -1 when the
 * caller is not an instrumented method at an invoke with a key.
 */
static int native_caller(agent *a, jthread thread, uint32_t *index, uint32_t *pc, uint32_t *ik, int *made)
{
    jmethodID caller = NULL;
    jlocation at = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 1, &caller, &at), "GetFrameLocation") != 0 ||
        at < 0)
        return -1;
    lock_enter(a);
    int hit = a->fast.last_caller == caller && a->fast.last_at == at;
    *index = a->fast.last_index;
    *pc = a->fast.last_pc;
    *ik = a->fast.last_key;
    *made = a->fast.last_made;
    lock_exit(a);
    if (hit)
        return 0;
    fast_method *named = method_named(a, caller);
    if (named == NULL)
        return -1;
    lock_enter(a);
    const fast_method *fm = named; /* method_named's pointer, before the table can move */
    ins_method view = {.status = INS_METHOD_DONE, .pcs = fm->pcs, .npcs = fm->npcs, .new_len = fm->new_len};
    int in_probe = 0;
    int64_t old = ins_original_offset(&view, (uint32_t)at, &in_probe);
    const cpool *cp = old >= 0 && !in_probe && (bc_flags(fm->code[old]) & BCF_INVOKE) ? pool_of(a, fm) : NULL;
    uint32_t k = cp != NULL ? methods_key_of(a, cp, fm->code, (uint32_t)old) : 0;
    if (k != 0) {
        a->fast.last_caller = caller;
        a->fast.last_at = at;
        a->fast.last_index = *index = (uint32_t)(fm - a->fast.methods);
        a->fast.last_pc = *pc = (uint32_t)old;
        a->fast.last_key = *ik = k;
        a->fast.last_made = *made = ins_makes_array(cp, fm->code, (uint32_t)old);
    }
    lock_exit(a);
    return k != 0 ? 0 : -1;
}

/* Add a native's allocations (of array key `key`, 0 for none) and elements
 * to the thread's charges for the call at (index, pc) with invoke key ik. */
static void native_charge(agent *a, thread_state *ts, uint32_t index, uint32_t pc, uint32_t ik, uint32_t key,
                          uint64_t allocations, uint64_t elements)
{
    /* in the bucket of the thread's mode; the program's calls are work */
    JNIEnv *jni = env_of(a);
    jint mode = jni != NULL ? (*jni)->GetIntField(jni, ts->probe, a->fast.f_mode) : MODE_WORK;
    if (mode == MODE_HIDDEN)
        return;
    lock_enter(a);
    int program = index < a->fast.nmethods && a->fast.methods[index].program;
    lock_exit(a);
    int bucket = mode == MODE_OVERHEAD && !program ? BUCKET_OVERHEAD : BUCKET_WORK;
    uint32_t i = 0;
    while (i < ts->nnarrays && !(ts->narrays[i].method == index && ts->narrays[i].pc == pc &&
                                 ts->narrays[i].key == key && ts->narrays[i].bucket == bucket))
        i++;
    if (i == ts->nnarrays) {
        if (ts->nnarrays == ts->narrays_cap) {
            uint32_t cap = ts->narrays_cap ? ts->narrays_cap * 2 : 8;
            struct fast_native_array *v = realloc(ts->narrays, cap * sizeof *v);
            if (v == NULL) {
                agent_fail(a, "out of memory for what native calls handled");
                return;
            }
            ts->narrays = v;
            ts->narrays_cap = cap;
        }
        ts->narrays[ts->nnarrays++] = (struct fast_native_array){index, pc, key, ik, bucket, 0, 0};
    }
    ts->narrays[i].allocations += allocations;
    ts->narrays[i].elements += elements;
}

/* Record why a native's arrays cannot be charged (the first reason wins);
 * fast_collect reports it unless the run has another problem, such as
 * the class loading that made a native allocate. */
__attribute__((format(printf, 2, 3)))
static void native_problem(agent *a, const char *fmt, ...)
{
    char buf[sizeof a->fast.native_problem];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    lock_enter(a);
    if (a->fast.native_problem[0] == '\0')
        snprintf(a->fast.native_problem, sizeof a->fast.native_problem, "%s", buf);
    lock_exit(a);
}

/*
 * SampledObjectAlloc of an array (key: its array key) on a counting thread.
 * Arrays that array instructions make are the probes' (a Java frame on
 * top: the instruction, or the JVM's own work inside another instruction,
 * which the step engine does not charge either). Arrays made under
 * Object.clone and Array.newArray are the made probe's that follows their
 * call (probe_made). An array a native method makes is charged, as the
 * step engine charges it, to its key and to the elements of the invoke
 * that called the native, for Throwable.fillInStackTrace(int) (the
 * backtraces of every exception: it calls no Java code and never throws);
 * any other native that allocates an array makes the run refused, by
 * name. Arrays the probe's own natives make are the agent's.
 */
void fast_array_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject array, uint32_t key)
{
    jvmtiEnv *jv = a->jvmti;
    jmethodID m = NULL;
    jlocation loc = 0;
    if (ts->probe == NULL || jvmti_check(a, (*jv)->GetFrameLocation(jv, thread, 0, &m, &loc), "GetFrameLocation") != 0)
        return;
    if (loc != -1)
        return; /* a Java frame */
    if ((*jni)->GetIntField(jni, ts->probe, a->fast.f_mode) == MODE_HIDDEN)
        return; /* where HotSpot hides stepping (class loading): as the step engine, nothing is charged */
    uint32_t index, pc, ik;
    if (m == a->fast.obj_clone || m == a->fast.new_array || m == a->fast.multi_new_array) {
        /* the made probe after the call charges it, when the call is one
         * it follows (an array's clone(), Array.newArray) */
        int probed = 0;
        if (native_caller(a, thread, &index, &pc, &ik, &probed) != 0 || !probed)
            native_problem(a, "the native method %s allocated an array, called where no probe sees it",
                           m == a->fast.obj_clone   ? "java.lang.Object.clone"
                           : m == a->fast.new_array ? "java.lang.reflect.Array.newArray"
                                                    : "java.lang.reflect.Array.multiNewArray");
        return;
    }
    if (m != a->fast.fill_in && m != a->fast.init_class_name && m != a->fast.ste_init) {
        jclass k = NULL;
        char *name = NULL, *csig = NULL;
        if (jvmti_check(a, (*jv)->GetMethodDeclaringClass(jv, m, &k), "GetMethodDeclaringClass") != 0)
            return;
        int own = (*jni)->IsSameObject(jni, k, a->fast.probe);
        if (!own && jvmti_check(a, (*jv)->GetMethodName(jv, m, &name, NULL, NULL), "GetMethodName") == 0 &&
            jvmti_check(a, (*jv)->GetClassSignature(jv, k, &csig, NULL), "GetClassSignature") == 0) {
            char cls[1024];
            if (name_from_signature(csig, 0, cls, sizeof cls) == 0)
                snprintf(cls, sizeof cls, "%s", csig);
            native_problem(a, "the native method %s.%s allocated an array: the fast engine charges only the "
                           "arrays of Throwable.fillInStackTrace, Class.initClassName and "
                           "StackTraceElement.initStackTraceElements to their keys and the call's elements",
                           cls, name);
        }
        if (name)
            (*jv)->Deallocate(jv, (unsigned char *)name);
        if (csig)
            (*jv)->Deallocate(jv, (unsigned char *)csig);
        (*jni)->DeleteLocalRef(jni, k);
        return;
    }
    int made = 0;
    if (native_caller(a, thread, &index, &pc, &ik, &made) != 0) {
        fast_problem(a, "%s allocated an array, called from a method without probes",
                     m == a->fast.fill_in         ? "Throwable.fillInStackTrace(int)"
                     : m == a->fast.init_class_name ? "Class.initClassName"
                                                    : "StackTraceElement.initStackTraceElements");
        return;
    }
    native_charge(a, ts, index, pc, ik, key, 1, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
}

/*
 * A native charged by size (bulk.c, through counting.c) handled n
 * elements, to be charged to its invoke key k: as the step engine charges
 * them only when the invoke it just counted has that key, they are charged
 * when the native's caller is an instrumented method whose invoke at the
 * call has key k (a native called from another native, or through another
 * key, is not charged by either engine).
 */
void fast_charge_elements(agent *a, thread_state *ts, uint32_t k, uint64_t n)
{
    jthread thread = NULL;
    JNIEnv *jni = env_of(a);
    if (ts->probe == NULL || jni == NULL ||
        jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return;
    jmethodID m = NULL;
    jlocation loc = 0;
    uint32_t index, pc, ik;
    int made = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 0, &m, &loc), "GetFrameLocation") == 0 &&
        loc == -1 && native_caller(a, thread, &index, &pc, &ik, &made) == 0 && ik == k)
        native_charge(a, ts, index, pc, ik, 0, 0, n);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* ---- native calls ------------------------------------------------------ */

/* The call sites where a thread's return probes saw a native call
 * (Probe.natives): the invoke's key is native="true", as the step engine
 * marks it (ts->native, which profile.c ORs over the threads); lock held.
 * 0, or -1 (reported). */
static int collect_natives(agent *a, JNIEnv *jni, thread_state *ts)
{
    jbyteArray arr = (*jni)->GetObjectField(jni, ts->probe, a->fast.f_natives);
    if (arr == NULL)
        return 0; /* no native call on this thread */
    jsize n = (*jni)->GetArrayLength(jni, arr);
    jbyte *flags = (*jni)->GetByteArrayElements(jni, arr, NULL);
    if (flags == NULL) {
        (*jni)->DeleteLocalRef(jni, arr);
        return -1;
    }
    int bad = 0;
    for (jsize site = 0; site < n && !bad; site++) {
        if (flags[site] == 0)
            continue;
        if ((uint32_t)site >= a->fast.next_call) {
            fast_problem(a, "call site %d was flagged but never handed out", (int)site);
            continue;
        }
        const fast_call *c = &a->fast.calls[site];
        const fast_method *fm = &a->fast.methods[c->method];
        const cpool *cp = pool_of(a, fm);
        if (cp == NULL) {
            bad = 1;
            break;
        }
        uint32_t k = methods_key_of(a, cp, fm->code, c->pc);
        if (k == 0)
            continue; /* no key: nothing to mark, as in the step engine */
        if (cover_keys(a, ts) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            bad = 1;
            break;
        }
        ts->native[k - 1] = 1;
    }
    (*jni)->ReleaseByteArrayElements(jni, arr, flags, JNI_ABORT);
    (*jni)->DeleteLocalRef(jni, arr);
    return bad ? -1 : 0;
}

/* At the run's end (after fast_quiesce): every thread's hits into its
 * method counters, which profile.c adds up as it does the step engine's.
 * A recorded problem turns the run into agent_error. */
void fast_collect(agent *a, JNIEnv *jni)
{
    if (a->fast.probe == NULL)
        return;
    lock_enter(a);
    for (thread_state *ts = a->threads; ts != NULL; ts = ts->next)
        if (ts->probe != NULL && (collect_thread(a, jni, ts) != 0 || collect_arrays(a, jni, ts) != 0 ||
                                  collect_natives(a, jni, ts) != 0 || collect_contexts(a, jni, ts) != 0)) {
            agent_fail(a, "the fast engine cannot read or add up a thread's probe counts");
            break;
        }
    lock_exit(a);
    if (a->fast.problem[0] == '\0' && a->fast.native_problem[0] != '\0')
        fast_problem(a, "%s", a->fast.native_problem);
    /* a problem makes the run's status fallback (vmentry.c, status_of) */
}
