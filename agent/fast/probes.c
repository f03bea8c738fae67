/*
 * probes.c - the probe class's natives: what the Java probes ask the agent
 * (fast/probe/java/lang/Probe.java, bound in boot.c from PROBE_NATIVES).
 *
 * The probes run inlined in every method; they call the agent only where a
 * count needs the JVM's view: the per-id tables of a class's blocks, sites
 * and flags (copied into Java arrays once per class), a root frame's mode
 * (probe_root: work, overhead or hidden, from the frame that entered it),
 * a frame the JVM entered (probe_jvm_entered), an array made by a native
 * (probe_made), an extent's begin and end, the bytecode limit and the
 * bystanders' allowance. The segments a thread's exact position inside a
 * block is made of are segments.c's.
 */

#include "bystanders.h"
#include "bytes.h"
#include "events.h"
#include "extent.h"
#include "fast.h"
#include "jvmti_util.h"
#include "methods.h"
#include "stackmodel.h"

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
jintArray JNICALL probe_call_segs(JNIEnv *jni, jclass cls, jint site)
{
    (void)cls;
    return probe_table_of(jni, site, (const uint32_t *const *)&g_agent.fast.callseg, &g_agent.fast.next_call,
                          "segments after calls");
}

/* Probe.arraySegs0(site): the segments after every array site handed out so far. */
jintArray JNICALL probe_array_segs(JNIEnv *jni, jclass cls, jint site)
{
    (void)cls;
    return probe_table_of(jni, site, (const uint32_t *const *)&g_agent.fast.arrayseg, &g_agent.fast.next_site,
                          "segments after arrays");
}

/* Probe.lengths0(id): the block lengths of every id handed out so far. */
jintArray JNICALL probe_lengths(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.len, "block lengths");
}

/* Probe.sites0(id): the branch sites of every id handed out so far. */
jintArray JNICALL probe_sites(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.site, "branch sites");
}

/* Probe.flags0(id): the program flags of every id handed out so far. */
jintArray JNICALL probe_flags(JNIEnv *jni, jclass cls, jint id)
{
    (void)cls;
    return probe_table(jni, id, (const uint32_t *const *)&g_agent.fast.flags, "program flags");
}

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
    fast_method *fm = fast_method_by_name(a, name);
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
    uint16_t idx = left >= 3 ? be_u16(&c[1]) : 0;
    if (v->op == BC_LDC && left >= 2)
        idx = c[1];
    const cpool *cp = idx != 0 ? fast_pool_of(a, fm) : NULL;
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

/* The depth of a root's frame below root0: root0, Probe.root and Code(II)V
 * (the root entry probe) are above it. */
enum { ROOT_FRAME = 3 };

/* 1 when the root's frame (rm, at ROOT_FRAME on this thread) belongs to a class loader. */
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

/* 1 when loadClass(String) at ROOT_FRAME on thread loads the class named `cls`. */
static int loads(agent *a, JNIEnv *jni, jthread thread, const char *cls)
{
    jobject name = NULL;
    if (cls[0] == '\0' ||
        jvmti_check(a, (*a->jvmti)->GetLocalObject(a->jvmti, thread, ROOT_FRAME, 1, &name), "GetLocalObject") != 0 ||
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
 * Probe.root0(id, mode), from the root entry probe (Probe.root, ROOT_FRAME above the root) at the first instruction
 * of a method with root probes (block 0: id) on a counting thread in mode
 * WORK or OVERHEAD: the mode its frame runs in, decided as the step engine
 * decides its bucket (root_enter in step/step.c) and as HotSpot posts its
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
 * (docs/hidden-work.md), and the run is refused.
 */
jint JNICALL probe_root(JNIEnv *jni, jclass cls, jint id, jint mode)
{
    agent *a = &g_agent;
    (void)cls;
    if (a->dead || mode == MODE_HIDDEN)
        return mode;
    lock_enter(a);
    fast_method *fm = id >= 0 ? fast_method_of(a, (uint32_t)id) : NULL;
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
        jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, ROOT_FRAME, &rm, &rloc), "GetFrameLocation") != 0) {
        fast_problem(a, "cannot read the frame of %s", root_name);
        return mode;
    }
    jvmtiError err = (*a->jvmti)->GetFrameLocation(a->jvmti, thread, ROOT_FRAME + 1, &caller, &cloc);
    if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_NO_MORE_FRAMES) {
        (*jni)->DeleteLocalRef(jni, thread);
        fast_problem(a, "cannot read the frame that entered %s (JVMTI error %d)", root_name, (int)err);
        return mode;
    }
    /* no Java caller, or a native one: an invoke called it, or the JVM did */
    caller_view v = {.op = BC_INVOKESTATIC, .pc = -1, .calls = 1};
    char *caller_name = NULL;
    if (err == JVMTI_ERROR_NONE && cloc >= 0) {
        caller_name = fast_full_name(a, caller);
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
        /* method-handle linkage: the hidden classes it defines and runs have probes (hidden.c) */
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
    /* a stop the bytecode limit armed in the caller's frame: the JVM entered a frame there (no hidden one:
     * it counts nothing) */
    if ((out & MODE_MASK) != MODE_HIDDEN)
        fast_limit_interrupt(a, jni, thread, agent_self(), caller, 3,
                             vm && err == JVMTI_ERROR_NONE && !v.calls ? cloc : -1);
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
        fast_method *cf = fast_method_by_name(a, caller_name);
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
    if (self != NULL && self->fast.probe != NULL && v.pc >= 0 && v.pc <= INT32_MAX && v.first_id <= INT32_MAX) {
        (*jni)->SetIntField(jni, self->fast.probe, a->fast.f_ctx_at, (jint)v.pc);
        (*jni)->SetIntField(jni, self->fast.probe, a->fast.f_ctx_at_method, (jint)v.first_id);
    }
    if (!transparent)
        self = NULL;
    if (self != NULL && (self->fast.init_caller != caller || self->fast.init_loc != cloc)) {
        self->fast.init_caller = caller;
        self->fast.init_loc = cloc;
        as_called = 1;
    }
    return out | (vm ? VM_ENTERED : 0) | (transparent ? TRANSPARENT : 0) | (as_called ? AS_CALLED : 0) |
           (alloc_after ? SEG_AFTER : 0) | (jint)(lend << LEND_SHIFT);
}

/* Probe.callSites0(site): how many call sites were handed out so far;
 * the site asked for must be among them. */
jint JNICALL probe_call_sites(JNIEnv *jni, jclass cls, jint site)
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
jint JNICALL probe_call_kind(JNIEnv *jni, jclass cls, jint site)
{
    agent *a = &g_agent;
    (void)jni;
    (void)cls;
    jint kind = 1;
    lock_enter(a);
    if (site >= 0 && (uint32_t)site < a->fast.next_call) {
        const fast_call *c = &a->fast.calls[site];
        const fast_method *fm = &a->fast.methods[c->method];
        const cpool *cp = fm->code[c->pc] == BC_INVOKESTATIC ? fast_pool_of(a, fm) : NULL;
        uint32_t k = cp != NULL ? methods_key_of(a, cp, fm->code, c->pc) : 0;
        if (k != 0 && methods_no_fence(a->keys.names[k - 1]))
            kind = 2;
    }
    lock_exit(a);
    return kind;
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
void JNICALL probe_jvm_entered(JNIEnv *jni, jclass cls, jint id, jint below)
{
    agent *a = &g_agent;
    (void)cls;
    (void)id;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || ts->fast.probe == NULL)
        return;
    jthread thread = NULL;
    jmethodID caller = NULL;
    jlocation cloc = -1;
    if (jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return;
    jvmtiError err = (*a->jvmti)->GetFrameLocation(a->jvmti, thread, below, &caller, &cloc);
    fast_limit_interrupt(a, jni, thread, ts, caller, below, err == JVMTI_ERROR_NONE ? cloc : -1);
    (*jni)->DeleteLocalRef(jni, thread);
    if (err != JVMTI_ERROR_NONE || cloc < 0)
        return; /* entered from a native (a second upcall) or from no Java frame: nothing unfinished */
    char *name = fast_full_name(a, caller);
    lock_enter(a);
    fast_method *fm = name != NULL ? fast_method_by_name(a, name) : NULL;
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
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_at, (jint)old);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_at_method, (jint)fm->first_id);
    }
    if (ts->fast.lent_method == caller && ts->fast.lent_loc == cloc)
        return; /* another upcall while the JVM throws there (an initialization error's stack trace) */
    seg_abort(a, jni, ts, fm, (uint32_t)old);
    ts->fast.lent_method = caller;
    ts->fast.lent_loc = cloc;
}

/* Probe.arraySites0(site, dims): how many array sites were handed out
 * so far; the sites asked for must be among them. */
jint JNICALL probe_array_sites(JNIEnv *jni, jclass cls, jint site, jint dims)
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

/* Probe.made0(array, site), after an array's clone() or Array.newArray
 * on a counting thread, for an array of another class than the one the
 * probe counts at that site itself, or after Array.multiNewArray: charge
 * each array to its runtime class's key and its elements to the call (the
 * call's key when the counts are collected), as the step engine charges
 * what the native allocated. */
void JNICALL probe_made(JNIEnv *jni, jclass cls, jobject array, jint site)
{
    agent *a = &g_agent;
    (void)cls;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || !ts->measuring || array == NULL)
        return;
    jclass k = (*jni)->GetObjectClass(jni, array);
    uint32_t key = k != NULL ? counting_array_key(a, k) : 0;
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
        fast_native_charge(a, ts, st.method, st.pc, 0, key, 1, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
        return;
    }
    /* Array.multiNewArray: each level's arrays, all as long as the level's
     * first, down to a level of length 0 or one whose elements are no
     * arrays (null: levels it did not make) */
    jobject cur = array;
    uint64_t count = 1;
    while (key != 0) {
        uint64_t len = (uint64_t)(*jni)->GetArrayLength(jni, (jarray)cur);
        fast_native_charge(a, ts, st.method, st.pc, 0, key, count, count * len);
        jobject next = len > 0 && (*jni)->IsInstanceOf(jni, cur, a->fast.object_array)
                           ? (*jni)->GetObjectArrayElement(jni, (jobjectArray)cur, 0)
                           : NULL;
        jclass nk = next != NULL ? (*jni)->GetObjectClass(jni, next) : NULL;
        key = nk != NULL ? counting_array_key(a, nk) : 0;
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

/* engine=fast: the method's entry probe on a thread that is not counting
 * (probe_begin): open an extent there. Block 0's probe, which
 * runs next, counts the first block. The thread's stack depth at the
 * method's frame (below begin0 and Probe.enter) tells later whether an
 * exception leaves the extent. */
static void fast_begin(agent *a, JNIEnv *jni, jthread thread)
{
    if (!extent_begin(a, jni, thread))
        return;
    thread_state *ts = agent_tls;
    jint frames = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") == 0)
        ts->fast.base = frames - 2;
    fast_set_depth(a, ts, 1);
}

/* engine=fast: the exit probe before the return of the extent's outermost
 * frame (probe_end): the extent ends, by return. */
static void fast_end(agent *a, JNIEnv *jni, jthread thread)
{
    thread_state *ts = agent_tls;
    if (ts != NULL && ts->measuring && ts->pre_method == NULL) {
        fast_limit_exit(a, jni, thread, ts); /* a stop the limit armed: its place, before the extent ends */
        extent_end(a, jni, thread, ts, 0);
    }
}

/* engine=fast: a block of n bytecodes began on a thread that is not
 * counted while something is (probe_bystander): a bystander,
 * or a thread the method started (the fast engine tags none, and refuses
 * them). The program's code there under an initializer of the JDK's (a
 * block of it, or of the JDK's code it called) is refused as hidden_work,
 * as the step engine refuses it (bystanders_hidden_init); other code of the program's, or past the
 * bystanders' allowance, counted by whole blocks, the step engine decides
 * (it counts the method's threads and watches the others bytecode by
 * bytecode). Past the allowance the probes go on reporting, so that the
 * program's code that an initializer runs later is still refused here;
 * once the program's code was seen they stop. */
static void fast_bystander(agent *a, JNIEnv *jni, jthread thread, uint32_t n, int program)
{
    thread_state *ts = agent_tls;
    if (a->dead || (ts == NULL && (ts = ts_get(a, thread)) == NULL) || ts->measuring)
        return;
    int by = bystanders_fast_block(a, jni, thread, ts, n, program);
    char msg[1024];
    if (by == BYSTANDER_PROGRAM ||
        (by != 0 && bystanders_look(a, ts) && outermost_program_frame(a, jni) >= 0)) {
        /* (the JDK's code with the program's below, as well: the latch a
         * program's constructor waited on in a JDK initializer returns) */
        if (bystanders_hidden_init(a, jni, ts->thread_name, msg, sizeof msg)) {
            fast_hidden_work(a, "%s", msg);
            fast_unwatch(a, jni);
            return;
        }
        fast_problem(a, "thread '%s', which this engine does not count, ran the program's code (or the JDK's, "
                        "called by it) while the method ran: the step engine counts it",
                     ts->thread_name != NULL ? ts->thread_name : "?");
        fast_unwatch(a, jni);
        return;
    }
    if (by == BYSTANDER_OVER)
        fast_bystanders_over(a, jni);
}

/* Bystanders passed their allowance (engine->bystanders_over, and a block
 * or copy here): the step engine, which charges them bytecode by bytecode,
 * decides. */
void fast_bystanders_over(agent *a, JNIEnv *jni)
{
    (void)jni;
    fast_problem(a, "threads it does not count ran more than %llu bytecodes and native elements while the method "
                    "ran (bytecodes counted by whole blocks): the step engine decides whether the method started "
                    "them (it counts them) or not (hidden work)",
                 (unsigned long long)bystanders_allowance());
}

/* Probe.begin0(), from Probe.enter in the measured method's first
 * instruction on a thread that is not counting: open an extent when the
 * caller (two frames down: begin0, Probe.enter, the method) is the method
 * (a class of the same name from another loader is not). */
void JNICALL probe_begin(JNIEnv *jni, jclass cls)
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
    /* while another thread's extent runs this one is a bystander running
     * the program's code: the step engine counts it for that invocation
     * (borrow_begin, unscheduled), not as an extent of its own */
    fast_bystander(a, jni, thread, 0, 1);
    fast_begin(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Probe.end0(), from Probe.exit before the return of the extent's
 * outermost frame: close the extent. */
void JNICALL probe_end(JNIEnv *jni, jclass cls)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = current_thread(a);
    if (thread == NULL)
        return;
    fast_end(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Probe.bystander0(n, program), from a block probe on a thread that
 * is not counting while another is: a block of n bytecodes began there,
 * or (program false) a copy of n elements (bystanders.c charges it to the
 * bystanders' allowance). */
void JNICALL probe_bystander(JNIEnv *jni, jclass cls, jint n, jboolean program)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = current_thread(a);
    if (thread == NULL)
        return;
    fast_bystander(a, jni, thread, (uint32_t)(n < 0 ? 0 : n), program != JNI_FALSE);
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
    JNIEnv *jni = fast_env(a);
    if (jni == NULL || ts->fast.probe == NULL)
        return 0;
    return (int)(*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_depth);
}

/* Set that depth (1 when an extent opens, 0 when an exception ends it). */
void fast_set_depth(agent *a, thread_state *ts, int depth)
{
    JNIEnv *jni = fast_env(a);
    if (jni != NULL && ts->fast.probe != NULL)
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_depth, (jint)depth);
}

/*
 * Probe.deep0(id, frames, use), from Probe.push: a frame of the method
 * whose block 0 is id, the thread's frames-th counted one, would take its
 * modelled stack use to `use` words, past the budget (core/stackmodel.h):
 * the run stops there as stack_overflow, as the step engine stops it at
 * that frame's first step (contexts.c). Except while the bytecode limit's
 * stop waits on this thread for its place (limit.c): the step engine
 * stopped at the limit's bytecode before this frame, and this engine
 * cannot say with which counts, so its run decides; and except in a run
 * that falls back already, which the step engine's run decides too.
 */
void JNICALL probe_deep(JNIEnv *jni, jclass cls, jint id, jint frames, jint use)
{
    agent *a = &g_agent;
    (void)cls;
    thread_state *ts = agent_self();
    jthread thread = current_thread(a);
    if (thread == NULL || ts == NULL || !ts->measuring) {
        if (thread != NULL)
            (*jni)->DeleteLocalRef(jni, thread);
        return;
    }
    if (a->fast.problem[0] != '\0') {
        /* the run falls back already (this engine's contexts may not be the
         * step engine's): not stopped here, the step engine's run decides */
        (*jni)->DeleteLocalRef(jni, thread);
        return;
    }
    if (fast_limit_armed(a, ts)) {
        bytecode_limit_stop(a, jni, thread); /* fast_on_limit: the stop has no place, the step engine's run finds it */
        (*jni)->DeleteLocalRef(jni, thread);
        return;
    }
    lock_enter(a);
    fast_method *fm = id >= 0 ? fast_method_of(a, (uint32_t)id) : NULL;
    char *name = fm != NULL && fm->first_id == (uint32_t)id && fm->name != NULL ? strdup(fm->name) : NULL;
    lock_exit(a);
    stack_model_stop(a, jni, thread, ts, name, frames > 0 ? (uint32_t)frames : 0, use > 0 ? (uint64_t)use : 0);
    free(name);
    (*jni)->DeleteLocalRef(jni, thread);
}
