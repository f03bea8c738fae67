/*
 * limit.c - the bytecode limit under engine=fast: the run stops at the
 * bytecode the step engine stops at, with its partial profile.
 *
 * The step engine counts the bytecode after the limit (the limit's
 * max_bytecodes + 1st) and stops before it runs: its histogram, offset
 * and calling context hold it, its dependency key does not, nothing after
 * it runs. The probes' position (Probe.pos) is exact at every segment's
 * end (fast.h), so the first probe that moves it past the thread's bound
 * begins the segment that holds that bytecode, and how far past tells
 * which instruction of the segment it is. Everything up to it runs straight
 * (a segment holds no invoke but its last instruction), unless an
 * instruction before it throws or makes the JVM run code (an initializer,
 * an exception's constructor): when every instruction before it is one
 * that can do neither, the run stops right in the probe, and what the
 * probes counted past that instruction (the rest of its block, the rest
 * of the blocks its callers wait in, their segments' allocation fences,
 * its key) comes off as an exception's fix would take it. Otherwise the
 * run falls back and the step engine finds the stop.
 */
#include "fast.h"
#include "extent.h"

/* Probe.LIMIT_BLOCK, LIMIT_CALL, LIMIT_ARRAY: what moved the position */
enum { LIMIT_BLOCK = 0, LIMIT_CALL = 1, LIMIT_ARRAY = 2, LIMIT_ROOT_EXIT = 3 };

/* 1 when instruction op cannot throw nor make the JVM run Java code (an
 * initializer, a class loader, an exception's constructor): constants,
 * locals, stack operations, arithmetic but the integer divisions,
 * conversions and compares. */
static int runs_straight(uint8_t op)
{
    if (op <= 0x11 || (op >= 0x15 && op <= 0x2d) || (op >= 0x36 && op <= 0x4e) || (op >= 0x57 && op <= 0x98))
        return op != 0x6c && op != 0x6d && op != 0x70 && op != 0x71; /* idiv, ldiv, irem, lrem */
    return op == BC_WIDE; /* wide iload .. iinc (wide ret ends its block) */
}

/* The frame of the instrumented method whose probe called limit0: its depth in f (the probe's frames are above it). */
static jint probe_caller(agent *a, const jvmtiFrameInfo *f, jint n, fast_method **fm)
{
    for (jint i = 0; i < n; i++)
        if (f[i].location >= 0 && (*fm = method_named(a, f[i].method)) != NULL)
            return i;
    return -1;
}

/*
 * Place the stop: the instruction of the segment the probe began that is
 * the limit's, and the fixes. NULL when the stop is placed (the counts
 * are the step engine's at its stop), else why not.
 */
static const char *limit_place(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint kind, jint id,
                               jlong bound)
{
    if (ts == NULL || ts->probe == NULL || !ts->measuring || ts->pre_method != NULL)
        return "the thread is not in the method's extent";
    jvmtiFrameInfo f[16];
    jint n = 0, frames = 0;
    if (jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, 16, f, &n), "GetStackTrace") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") != 0)
        return "its frames could not be read";
    fast_method *fm = NULL;
    jint skip = probe_caller(a, f, n, &fm);
    if (skip < 0)
        return "no instrumented frame called the probe";
    if (kind == LIMIT_ROOT_EXIT) {
        /* a root frame's exit probe (its last instruction, a return, ran
         * before the limit): the segment is its caller's, after the
         * instruction at which the JVM entered the root */
        if (++skip >= n || f[skip].location < 0 || (fm = method_named(a, f[skip].method)) == NULL)
            return "the root frame's caller has no probes";
    }
    /* where the probe sits: before an instruction (a block's), or after one (a call's, a new's, an array's) */
    uint32_t pc = (uint32_t)f[skip].location, lo = 0, hi = fm->npcs;
    if (fm->npcs == 0 || pc >= fm->new_len)
        return "the probe's location is outside its method";
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fm->pcs[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    const ins_pc *at = &fm->pcs[lo];
    int32_t b = blk_find(&fm->blocks, at->old);
    if (b < 0)
        return "the probe's instruction is in no block";
    const blk_block *blk = &fm->blocks.blocks[b];
    uint32_t from;
    if (kind == LIMIT_BLOCK) {
        if (pc >= at->at || blk->start != at->old || fm->first_id + (uint32_t)b != (uint32_t)id)
            return "the block probe is not at its block's start";
        from = at->old;
    } else if (kind == LIMIT_ROOT_EXIT) {
        if (pc < at->at || pc >= at->after)
            return "the root's caller is in a probe";
        from = at->old + bc_insn_length(fm->code, fm->code_len, at->old);
    } else {
        if (pc < at->after)
            return "the probe is not after its instruction";
        from = at->old + bc_insn_length(fm->code, fm->code_len, at->old);
    }
    int alloc = 0;
    uint32_t seg = from < blk->end ? blk_segment(&fm->blocks, fm->code, (uint32_t)b, from, &alloc) : 0;
    jlong pos = (*jni)->GetLongField(jni, ts->probe, a->fast.f_pos);
    if (pos <= bound || (uint64_t)(pos - bound - 1) >= seg)
        return "the bytecode after the limit is not in the segment the probe began";
    /* the instruction of the segment that is the bytecode after the limit, and those before it */
    uint32_t before = seg - 1 - (uint32_t)(pos - bound - 1), stop = from;
    for (uint32_t k = 0; stop < blk->end; stop++) {
        if (!(fm->blocks.mark[stop] & BLK_MARK_INSN))
            continue;
        if (k++ == before)
            break;
        if (!runs_straight(fm->code[stop]))
            return "an instruction before it in its straight-line run may throw or make the JVM run code";
    }
    if (stop >= blk->end)
        return "the segment is shorter than its table says";
    if (fm->code[stop] == BC_GOTO && stop + 3 <= fm->code_len && fm->code[stop + 1] == 0 && fm->code[stop + 2] == 0)
        return "it is a goto to itself, which the step engine stops at first"; /* limits.c endless_loop_stop */
    jint inside = (ts->helper ? frames : frames - ts->fast_base + 1) - skip; /* down to the extent's outermost frame */
    if (inside <= 0)
        return "the frame is below the extent";
    if (fast_limit_fix(a, jni, thread, ts, skip, inside, stop) != 0)
        return "the limit fell inside a frame the JVM entered at an instruction";
    return NULL;
}

/*
 * Probe.limit0(kind, id, bound): a probe moved its thread's position past
 * its bound (kind: Probe.LIMIT_*, id: the block's id or the site). The
 * run stops, here, at the step engine's bytecode when limit_place finds
 * it, else as fallback (fast_on_limit). Returns only when the run is
 * already ending on another thread: no bound then.
 */
jlong JNICALL probe_limit(JNIEnv *jni, jclass cls, jint kind, jint id, jlong bound)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = NULL;
    if (a->dead || jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return INT64_MAX;
    thread_state *ts = agent_self();
    const char *why = limit_place(a, jni, thread, ts, kind, id, bound);
    lock_enter(a);
    if (a->fast.limit_inexact[0] == '\0' && !a->fast.limit_exact) {
        if (why == NULL)
            a->fast.limit_exact = 1;
        else
            snprintf(a->fast.limit_inexact, sizeof a->fast.limit_inexact, "%s", why);
    }
    lock_exit(a);
    bytecode_limit_stop(a, jni, thread);
    (*jni)->DeleteLocalRef(jni, thread);
    return INT64_MAX;
}
