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
 * its key) comes off as an exception's fix would take it.
 *
 * When an instruction before it may throw (an array access, a field of a
 * null reference) or make the JVM run code, the stop is armed instead:
 * the run goes on to the thread's next probe, the predictors and the state
 * no probe may change taken. If the JVM entered a frame or threw at an
 * instruction before the limit's, the stop is off (the position, corrected
 * there, finds the limit again later); at or after it, the run stops there.
 * If the next probe is in the same frame with no call, entry or root frame
 * in between (the next block's probe, the call probe of the invoke that
 * ends the segment, the probe after a new or before an array
 * instruction's arrays count, the measured method's exit, the exit probe
 * of a root frame whose last block holds the limit's bytecode, which puts
 * back what it changed as arm() took it), or the return
 * probe in the caller after the frame returned, the segment ran straight
 * through the limit's bytecode: that probe's counts come off again, the
 * predictors are put back (a branch probe may have fed them the outcome
 * of a branch at or after the limit's bytecode, which the step engine
 * never sees), and the run stops there with the counts at the limit's
 * bytecode, as above. Anything else (another root frame's exit, a
 * frame that began, a call that returned) makes the run fall back, and
 * the step engine's run finds the stop.
 *
 * A goto to itself (an endless loop) stops the step engine's run at its
 * first execution, under any limit (core/limits.c endless_loop_stop). Its
 * block is that goto alone, marked LEN_ENDLESS in the probes' table, and
 * its probe asks here (LIMIT_ENDLESS) after counting it: the stop is
 * placed at the goto as a block probe's would be, with the step engine's
 * message.
 */
#include "extent.h"
#include "fast.h"
#include "jvmti_util.h"

/* Probe.LIMIT_*: the probe that found the position past the bound */
enum {
    LIMIT_BLOCK = 0, LIMIT_CALL = 1, LIMIT_ARRAY = 2, LIMIT_ROOT_EXIT = 3, LIMIT_INVOKE = 4, LIMIT_ARRAY_BEFORE = 5,
    LIMIT_ENDLESS = 6
};

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
        if (f[i].location >= 0 && (*fm = fast_method_named(a, f[i].method)) != NULL)
            return i;
    return -1;
}


/* A stop armed on a thread (a->fast.armed), from the probe that found the
 * limit's bytecode in its segment to the thread's next probe. */
struct fast_armed {
    thread_state *ts;           /* the thread; NULL when none is armed */
    jmethodID method;           /* the frame of the limit's bytecode: its method, */
    jint depth;                 /* its depth from the stack's bottom */
    uint32_t pc;                /* the limit's instruction in it (original offset) */
    const char *spoiled;        /* something ran that the stop cannot be placed after: why */
    jint history[BUCKETS], ctx_top, run_count, ctx_cur, nsaved, sp, depth_m, pending;
    jlong br[BUCKETS][BR_KINDS], entries[BUCKETS], call_mark;
    jlong seg_fence;            /* the fence of the segment that holds the limit's bytecode, and its bucket */
    jint seg_fence_b;
    jint mode;                  /* what a root frame's exit probe changes besides: the mode, the position, */
    jlong pos, pending_at, fence_alloc[BUCKETS]; /* the pending call's total, the allocation fences */
    jint *runs, nruns, runs_cap; /* the calling contexts' run counts up to ctx_top (rootExit's restore) */
    jbyte counters[BUCKETS][1 << BP_BITS]; /* the predictors' counters */
};

/* What the stop found: placed (the counts are the step engine's), armed,
 * or neither (why in *why). */
enum { PLACE_STOP, PLACE_ARM, PLACE_NOT };

/* The frame of the probe that called limit0, end0: its depth from the top in *skip, its method, the
 * stack's depth; -1 (why) when none. */
static const char *probe_frame(agent *a, jthread thread, jvmtiFrameInfo *f, jint *n, jint *frames, jint *skip,
                               fast_method **fm)
{
    if (jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, 0, 16, f, n), "GetStackTrace") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, frames), "GetFrameCount") != 0)
        return "its frames could not be read";
    *skip = probe_caller(a, f, *n, fm);
    return *skip < 0 ? "no instrumented frame called the probe" : NULL;
}

/* The frames from depth skip down to the extent's outermost one. */
static jint extent_frames(const thread_state *ts, jint frames, jint skip)
{
    return (ts->helper ? frames : frames - ts->fast.base + 1) - skip;
}

/* Take the thread's predictors, branch counts and the state no probe
 * between here and the stop may change. */
static void arm(agent *a, JNIEnv *jni, thread_state *ts, struct fast_armed *w)
{
    jobject p = ts->fast.probe;
    jfieldID ctr[BUCKETS] = {a->fast.f_counters, a->fast.f_ocounters};
    jfieldID hist[BUCKETS] = {a->fast.f_history, a->fast.f_ohistory};
    jfieldID ent[BUCKETS] = {a->fast.f_entries, a->fast.f_oentries};
    for (int b = 0; b < BUCKETS; b++) {
        jbyteArray c = (*jni)->GetObjectField(jni, p, ctr[b]);
        if (c == NULL || (*jni)->GetArrayLength(jni, c) != 1 << BP_BITS) {
            w->spoiled = "its branch predictor could not be read";
        } else {
            (*jni)->GetByteArrayRegion(jni, c, 0, 1 << BP_BITS, w->counters[b]);
        }
        if (c != NULL)
            (*jni)->DeleteLocalRef(jni, c);
        w->history[b] = (*jni)->GetIntField(jni, p, hist[b]);
        w->entries[b] = (*jni)->GetLongField(jni, p, ent[b]);
        for (int k = 0; k < BR_KINDS; k++)
            w->br[b][k] = (*jni)->GetLongField(jni, p, b == BUCKET_WORK ? a->fast.f_br[k] : a->fast.f_obr[k]);
    }
    w->ctx_top = (*jni)->GetIntField(jni, p, a->fast.f_ctx_top);
    w->ctx_cur = (*jni)->GetIntField(jni, p, a->fast.f_ctx_cur);
    jintArray rc = (*jni)->GetObjectField(jni, p, a->fast.f_run_count);
    if (rc != NULL) {
        (*jni)->GetIntArrayRegion(jni, rc, w->ctx_top, 1, &w->run_count);
        (*jni)->DeleteLocalRef(jni, rc);
    }
    w->nsaved = (*jni)->GetIntField(jni, p, a->fast.f_nsaved);
    w->sp = (*jni)->GetIntField(jni, p, a->fast.f_sp);
    w->depth_m = (*jni)->GetIntField(jni, p, a->fast.f_depth);
    w->pending = (*jni)->GetIntField(jni, p, a->fast.f_pending);
    w->call_mark = (*jni)->GetLongField(jni, p, a->fast.f_call_mark);
    w->seg_fence = (*jni)->GetLongField(jni, p, a->fast.f_seg_fence);
    w->seg_fence_b = (*jni)->GetIntField(jni, p, a->fast.f_seg_fence_b);
    w->mode = (*jni)->GetIntField(jni, p, a->fast.f_mode);
    w->pos = (*jni)->GetLongField(jni, p, a->fast.f_pos);
    w->pending_at = (*jni)->GetLongField(jni, p, a->fast.f_pending_at);
    for (int b = 0; b < BUCKETS; b++)
        w->fence_alloc[b] = (*jni)->GetLongField(jni, p, a->fast.f_fence_alloc[b]);
    w->nruns = 0;
    jintArray runs = (*jni)->GetObjectField(jni, p, a->fast.f_run_count);
    if (runs != NULL && w->ctx_top >= 0 && w->ctx_top < (*jni)->GetArrayLength(jni, runs)) {
        if (w->ctx_top + 1 > w->runs_cap) {
            jint *v = realloc(w->runs, (size_t)(w->ctx_top + 1) * sizeof *v);
            if (v != NULL) {
                w->runs = v;
                w->runs_cap = w->ctx_top + 1;
            }
        }
        if (w->ctx_top + 1 <= w->runs_cap) {
            (*jni)->GetIntArrayRegion(jni, runs, 0, w->ctx_top + 1, w->runs);
            w->nruns = w->ctx_top + 1;
        }
    }
    if (runs != NULL)
        (*jni)->DeleteLocalRef(jni, runs);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        w->spoiled = "its counters could not be read";
    }
}

/* 1 when nothing but straight code and branch probes ran since arm() (exited: and the measured
 * method's exit probe, which takes its frame off the depth). */
static int unchanged(agent *a, JNIEnv *jni, thread_state *ts, const struct fast_armed *w, int exited)
{
    jobject p = ts->fast.probe;
    return (*jni)->GetIntField(jni, p, a->fast.f_ctx_top) == w->ctx_top &&
           (*jni)->GetIntField(jni, p, a->fast.f_nsaved) == w->nsaved &&
           (*jni)->GetIntField(jni, p, a->fast.f_sp) == w->sp &&
           (*jni)->GetIntField(jni, p, a->fast.f_depth) + exited == w->depth_m &&
           (*jni)->GetIntField(jni, p, a->fast.f_pending) == w->pending &&
           (*jni)->GetLongField(jni, p, a->fast.f_call_mark) == w->call_mark &&
           (*jni)->GetLongField(jni, p, a->fast.f_entries) == w->entries[BUCKET_WORK] &&
           (*jni)->GetLongField(jni, p, a->fast.f_oentries) == w->entries[BUCKET_OVERHEAD];
}

/*
 * Put back the calling context, the saved positions and the pending call
 * as arm() took them: what both a return probe and a root frame's exit
 * probe change. Each caller puts back the rest of what its probe changes
 * (the return probe: the measured method's depth and the run count of the
 * context it popped; the exit probe: the run counts up to ctx_top, the
 * root stack, the mode, the pending call's total, the position and the
 * allocation fences).
 */
static void context_back(agent *a, JNIEnv *jni, jobject p, const struct fast_armed *w)
{
    (*jni)->SetIntField(jni, p, a->fast.f_ctx_top, w->ctx_top);
    (*jni)->SetIntField(jni, p, a->fast.f_ctx_cur, w->ctx_cur);
    (*jni)->SetIntField(jni, p, a->fast.f_nsaved, w->nsaved);
    (*jni)->SetIntField(jni, p, a->fast.f_pending, w->pending);
    (*jni)->SetLongField(jni, p, a->fast.f_call_mark, w->call_mark);
}

/*
 * The exit probe of the root frame that holds the limit's bytecode (its
 * last block, a return at its end, ran straight from the armed probe on):
 * what it did comes off, as arm() took the state (the root stack and the
 * mode, the calling context it restored, the saved positions, the pending
 * call, the position the root lent back, its caller's segment fence and
 * the allocation fence it moved). 0, or -1 when the run counts cannot be
 * put back.
 */
static int root_exit_back(agent *a, JNIEnv *jni, thread_state *ts, const struct fast_armed *w)
{
    jobject p = ts->fast.probe;
    if (w->nruns != w->ctx_top + 1)
        return -1;
    jintArray runs = (*jni)->GetObjectField(jni, p, a->fast.f_run_count);
    if (runs == NULL)
        return -1;
    (*jni)->SetIntArrayRegion(jni, runs, 0, w->nruns, w->runs);
    (*jni)->DeleteLocalRef(jni, runs);
    (*jni)->SetIntField(jni, p, a->fast.f_sp, w->sp);
    (*jni)->SetIntField(jni, p, a->fast.f_mode, w->mode);
    context_back(a, jni, p, w);
    (*jni)->SetLongField(jni, p, a->fast.f_pending_at, w->pending_at);
    (*jni)->SetLongField(jni, p, a->fast.f_pos, w->pos);
    for (int b = 0; b < BUCKETS; b++)
        (*jni)->SetLongField(jni, p, a->fast.f_fence_alloc[b], w->fence_alloc[b]);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    return 0;
}

/* Put the fence of the limit's segment (and its bucket), the predictors
 * and the branch counts back as arm() took them: the last step of every
 * placed stop, before fast_limit_fix. */
static void armed_back(agent *a, JNIEnv *jni, thread_state *ts, const struct fast_armed *w)
{
    jobject p = ts->fast.probe;
    (*jni)->SetLongField(jni, p, a->fast.f_seg_fence, w->seg_fence);
    (*jni)->SetIntField(jni, p, a->fast.f_seg_fence_b, w->seg_fence_b);
    jfieldID ctr[BUCKETS] = {a->fast.f_counters, a->fast.f_ocounters};
    jfieldID hist[BUCKETS] = {a->fast.f_history, a->fast.f_ohistory};
    for (int b = 0; b < BUCKETS; b++) {
        jbyteArray c = (*jni)->GetObjectField(jni, p, ctr[b]);
        if (c != NULL) {
            (*jni)->SetByteArrayRegion(jni, c, 0, 1 << BP_BITS, w->counters[b]);
            (*jni)->DeleteLocalRef(jni, c);
        }
        (*jni)->SetIntField(jni, p, hist[b], w->history[b]);
        for (int k = 0; k < BR_KINDS; k++)
            (*jni)->SetLongField(jni, p, b == BUCKET_WORK ? a->fast.f_br[k] : a->fast.f_obr[k], w->br[b][k]);
    }
    (*jni)->ExceptionClear(jni);
}

/* The allocation fence the segment that began last added (Probe.segFence in bucket segFenceB) comes off. */
static void seg_fence_back(agent *a, JNIEnv *jni, thread_state *ts)
{
    jobject p = ts->fast.probe;
    jint fb = (*jni)->GetIntField(jni, p, a->fast.f_seg_fence_b);
    if (fb >= 0 && fb < BUCKETS)
        fast_add_long(a, jni, ts, a->fast.f_fence_alloc[fb], -(*jni)->GetLongField(jni, p, a->fast.f_seg_fence));
}

/* Take back block id of fm, which its probe counted whole just now (its first segment's fence too). */
static void block_back(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, jint id)
{
    jobject p = ts->fast.probe;
    lock_enter(a);
    uint32_t v = (uint32_t)id < a->fast.next_id ? a->fast.len[id] : 0;
    lock_exit(a);
    jint mode = (*jni)->GetIntField(jni, p, a->fast.f_mode);
    int b = mode == MODE_WORK || fm->program ? BUCKET_WORK : BUCKET_OVERHEAD;
    jlong len = (jlong)(v & SEG_LEN);
    jlongArray h = (*jni)->GetObjectField(jni, p, b == BUCKET_WORK ? a->fast.f_hits : a->fast.f_ohits);
    if (h != NULL) {
        jlong x = 0;
        (*jni)->GetLongArrayRegion(jni, h, id, 1, &x);
        x--;
        (*jni)->SetLongArrayRegion(jni, h, id, 1, &x);
        (*jni)->DeleteLocalRef(jni, h);
    }
    fast_add_long(a, jni, ts, b == BUCKET_WORK ? a->fast.f_n : a->fast.f_on, -len);
    jlongArray cc = (*jni)->GetObjectField(jni, p, a->fast.f_ctx_count);
    if (cc != NULL) {
        jint slot = (*jni)->GetIntField(jni, p, a->fast.f_ctx_cur) + b;
        jlong x = 0;
        (*jni)->GetLongArrayRegion(jni, cc, slot, 1, &x);
        x -= len;
        (*jni)->SetLongArrayRegion(jni, cc, slot, 1, &x);
        (*jni)->DeleteLocalRef(jni, cc);
    }
    if (v & (1u << 30)) /* its first segment ends at an allocation: its fence counted at the probe */
        seg_fence_back(a, jni, ts);
    (*jni)->ExceptionClear(jni);
}

/* The instruction whose probes hold rewritten offset pc of fm, NULL when none. */
static const ins_pc *probe_insn(const fast_method *fm, uint32_t pc)
{
    uint32_t lo = 0, hi = fm->npcs;
    if (fm->npcs == 0 || pc >= fm->new_len)
        return NULL;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fm->pcs[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    return &fm->pcs[lo];
}

/* A segment after instruction `old` of fm began since the stop was armed:
 * its allocation fence, if one ends it, comes off. */
static void fence_back(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, uint32_t old)
{
    if (seg_after(fm, old) & SEG_ALLOC)
        seg_fence_back(a, jni, ts);
}

/*
 * Place the stop: the instruction of the segment the probe began that is
 * the limit's, and the fixes (PLACE_STOP), or arm it (PLACE_ARM), or why
 * not (PLACE_NOT, *why).
 */
static int limit_place(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint kind, jint id, jlong bound,
                       const char **why, const char **endless, uint32_t *endless_pc)
{
    if (ts == NULL || ts->fast.probe == NULL || !ts->measuring || ts->pre_method != NULL) {
        *why = "the thread is not in the method's extent";
        return PLACE_NOT;
    }
    jvmtiFrameInfo f[16];
    jint n = 0, frames = 0, skip = -1;
    fast_method *fm = NULL;
    if ((*why = probe_frame(a, thread, f, &n, &frames, &skip, &fm)) != NULL)
        return PLACE_NOT;
    if (kind == LIMIT_ROOT_EXIT) {
        /* a root frame's exit probe (its last instruction, a return, ran
         * before the limit): the segment is its caller's, after the
         * instruction at which the JVM entered the root */
        if (++skip >= n || f[skip].location < 0 || (fm = fast_method_named(a, f[skip].method)) == NULL) {
            *why = "the root frame's caller has no probes";
            return PLACE_NOT;
        }
    }
    /* where the probe sits: before an instruction (a block's), or after one (a call's, a new's, an array's) */
    uint32_t pc = (uint32_t)f[skip].location;
    const ins_pc *at = probe_insn(fm, pc);
    *why = "the probe's location is outside its method";
    if (at == NULL)
        return PLACE_NOT;
    int32_t b = blk_find(&fm->blocks, at->old);
    *why = "the probe's instruction is in no block";
    if (b < 0)
        return PLACE_NOT;
    const blk_block *blk = &fm->blocks.blocks[b];
    uint32_t from;
    if (kind == LIMIT_BLOCK) {
        *why = "the block probe is not at its block's start";
        if (pc >= at->at || blk->start != at->old || fm->first_id + (uint32_t)b != (uint32_t)id)
            return PLACE_NOT;
        from = at->old;
    } else {
        *why = kind == LIMIT_ROOT_EXIT ? "the root's caller is in a probe" : "the probe is not after its instruction";
        if (kind == LIMIT_ROOT_EXIT ? pc < at->at || pc >= at->after : pc < at->after)
            return PLACE_NOT;
        from = at->old + bc_insn_length(fm->code, fm->code_len, at->old);
    }
    int alloc = 0;
    uint32_t seg = from < blk->end ? blk_segment(&fm->blocks, fm->code, (uint32_t)b, from, &alloc) : 0;
    jlong pos = (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_pos);
    *why = "the bytecode after the limit is not in the segment the probe began";
    if (pos <= bound || (uint64_t)(pos - bound - 1) >= seg)
        return PLACE_NOT;
    /* the instruction of the segment that is the bytecode after the limit, and those before it */
    uint32_t before = seg - 1 - (uint32_t)(pos - bound - 1), stop = from;
    int straight = 1;
    for (uint32_t k = 0; stop < blk->end; stop++) {
        if (!(fm->blocks.mark[stop] & BLK_MARK_INSN))
            continue;
        if (k++ == before)
            break;
        straight &= runs_straight(fm->code[stop]);
    }
    *why = "the segment is shorter than its table says";
    if (stop >= blk->end)
        return PLACE_NOT;
    if (endless != NULL) { /* the probe of a goto to itself: the run stops at it */
        *why = "the endless loop's probe is not at its goto";
        if (!bc_goto_self(fm->code, fm->code_len, stop) || !straight)
            return PLACE_NOT;
        *endless = fm->name;
        *endless_pc = stop;
    }
    jint inside = extent_frames(ts, frames, skip);
    *why = "the frame is below the extent";
    if (inside <= 0)
        return PLACE_NOT;
    if (!straight) {
        struct fast_armed *w = a->fast.armed;
        if (w == NULL && (w = a->fast.armed = calloc(1, sizeof *w)) == NULL) {
            *why = "out of memory";
            return PLACE_NOT;
        }
        jint *runs = w->runs, runs_cap = w->runs_cap; /* kept from an earlier stop armed and called off */
        memset(w, 0, sizeof *w);
        w->runs = runs;
        w->runs_cap = runs_cap;
        w->ts = ts;
        w->method = f[skip].method;
        w->depth = frames - skip;
        w->pc = stop;
        arm(a, jni, ts, w);
        agent_log(a, "fast engine: the bytecode limit's stop at offset %u of %s waits for the next probe", stop,
                  fm->name);
        return PLACE_ARM;
    }
    *why = "the frames it stops could not be read";
    if (fast_limit_fix(a, jni, thread, ts, skip, inside, stop, NULL, -1) != 0)
        return PLACE_NOT;
    *why = NULL;
    return PLACE_STOP;
}

/*
 * The next probe after the stop was armed is the return probe after the
 * invoke (at rewritten offset loc of fm, the frame at depth skip) that
 * called the frame of the limit's bytecode, whose block ended in a return:
 * the return probe's work comes off (the pending call, the position's
 * segment and its fence, the calling context popped, the measured
 * method's depth), and the stop is placed in the frame that returned.
 */
static const char *returned_place(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, struct fast_armed *w,
                                  jlocation loc, const fast_method *fm, jint frames, jint skip)
{
    fast_method *gone = fast_method_named(a, w->method);
    const ins_pc *at = probe_insn(fm, (uint32_t)loc);
    int32_t b = gone != NULL ? blk_find(&gone->blocks, w->pc) : -1;
    if (at == NULL || (uint32_t)loc < at->after || !(bc_flags(fm->code[at->old]) & BCF_INVOKE) || b < 0 ||
        gone->blocks.blocks[b].end_kind != BLK_END_RETURN)
        return "a frame began or ended between its probe and the limit's bytecode";
    jobject p = ts->fast.probe;
    fence_back(a, jni, ts, fm, at->old);
    context_back(a, jni, p, w);
    (*jni)->SetIntField(jni, p, a->fast.f_depth, w->depth_m);
    jintArray rc = (*jni)->GetObjectField(jni, p, a->fast.f_run_count);
    if (rc != NULL) {
        (*jni)->SetIntArrayRegion(jni, rc, w->ctx_top, 1, &w->run_count);
        (*jni)->DeleteLocalRef(jni, rc);
    }
    (*jni)->ExceptionClear(jni);
    if (!unchanged(a, jni, ts, w, 0))
        return "a frame began or ended between its probe and the limit's bytecode";
    armed_back(a, jni, ts, w);
    if (fast_limit_fix(a, jni, thread, ts, skip, extent_frames(ts, frames, skip), w->pc, w->method, at->old) != 0)
        return "the frames it stops could not be read";
    return NULL;
}

/*
 * The thread's next probe after the stop was armed: the block probe of
 * block id (LIMIT_BLOCK), or another (kind -1: the measured method's exit
 * probe; any other kind: a segment after a call or an allocation). NULL
 * when the stop is placed, else why not.
 */
static const char *armed_place(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint kind, jint id)
{
    struct fast_armed *w = a->fast.armed;
    w->ts = NULL;
    if (w->spoiled != NULL)
        return w->spoiled;
    jvmtiFrameInfo f[16];
    jint n = 0, frames = 0, skip = -1;
    fast_method *fm = NULL;
    const char *why = probe_frame(a, thread, f, &n, &frames, &skip, &fm);
    if (why != NULL)
        return why;
    if (kind == LIMIT_CALL && frames - skip == w->depth - 1)
        return returned_place(a, jni, thread, ts, w, f[skip].location, fm, frames, skip);
    int root_exit = kind == LIMIT_ROOT_EXIT && f[skip].method == w->method && frames - skip == w->depth;
    if (root_exit && root_exit_back(a, jni, ts, w) != 0)
        return "the calling contexts could not be put back before a root frame's exit";
    if (f[skip].method != w->method || frames - skip != w->depth || !unchanged(a, jni, ts, w, kind == -1))
        return "a frame began or ended between its probe and the limit's bytecode";
    /* the probes that may come next in the same frame: a block's, the
     * call probe of the invoke that ends the segment, the probe after the
     * new or the array instruction that ends it (before it counts arrays),
     * the measured method's exit */
    const ins_pc *at = probe_insn(fm, (uint32_t)f[skip].location);
    if (kind == LIMIT_BLOCK) {
        block_back(a, jni, ts, fm, id);
    } else if (kind == LIMIT_CALL || kind == LIMIT_ARRAY_BEFORE) {
        if (at == NULL || (uint32_t)f[skip].location < at->after ||
            (kind == LIMIT_CALL && fm->code[at->old] != BC_NEW))
            return "a call returned between its probe and the limit's bytecode";
        fence_back(a, jni, ts, fm, at->old);
    } else if (kind == LIMIT_ROOT_EXIT && !root_exit) {
        return "a root frame ended between its probe and the limit's bytecode";
    } else if (kind != LIMIT_INVOKE && kind != -1 && !root_exit) {
        return "an allocation ran between its probe and the limit's bytecode";
    }
    armed_back(a, jni, ts, w);
    if (fast_limit_fix(a, jni, thread, ts, skip, extent_frames(ts, frames, skip), w->pc, NULL, -1) != 0)
        return "the frames it stops could not be read";
    return NULL;
}

/* Record how the limit's stop ended (why: NULL placed), once, and stop the run. */
static void limit_end(agent *a, JNIEnv *jni, jthread thread, const char *why)
{
    lock_enter(a);
    if (a->fast.limit_inexact[0] == '\0' && !a->fast.limit_exact) {
        if (why == NULL)
            a->fast.limit_exact = 1;
        else
            snprintf(a->fast.limit_inexact, sizeof a->fast.limit_inexact, "%s", why);
    }
    lock_exit(a);
    bytecode_limit_stop(a, jni, thread);
}

/*
 * A goto to itself ran, counted whole by its block's probe (block id),
 * within the limit: the step engine stops the run at its first execution,
 * which this is (limits.c endless_loop_stop), having counted it. The
 * block is that goto alone; what the probes counted past it in the
 * blocks its callers wait in comes off (limit_place with the position's
 * bound right before the goto), and the run stops with the step engine's
 * status and message. Returns only when the run already ends elsewhere.
 */
static void endless_stop(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint id)
{
    if (a->fast.armed != NULL && a->fast.armed->ts != NULL) {
        limit_end(a, jni, thread, a->fast.armed->ts == ts ? "a goto to itself ran while the stop waited for its place"
                                                           : "another thread passed it too");
        return;
    }
    const char *why = "the thread is not in the method's extent", *name = NULL;
    uint32_t pc = 0;
    if (ts != NULL && ts->fast.probe != NULL) {
        jlong pos = (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_pos);
        if (limit_place(a, jni, thread, ts, LIMIT_BLOCK, id, pos - 1, &why, &name, &pc) == PLACE_STOP) {
            lock_enter(a);
            int first = a->fast.limit_inexact[0] == '\0' && !a->fast.limit_exact;
            if (first)
                a->fast.limit_exact = 1;
            lock_exit(a);
            if (first) {
                endless_loop_stop(a, jni, thread, name, pc);
                return;
            }
            why = "another thread passed it too";
        }
    }
    limit_end(a, jni, thread, why);
}

/*
 * Probe.limit0(kind, id, bound): a probe moved its thread's position past
 * its bound (kind: Probe.LIMIT_*, id: the block's id or the site). The
 * run stops here, at the step engine's bytecode when limit_place finds
 * it, else as fallback (fast_on_limit); or the stop is armed, and the
 * bound stays, so that the thread's next segment asks again. Returns
 * only then, or when the run is already ending on another thread.
 */
jlong JNICALL probe_limit(JNIEnv *jni, jclass cls, jint kind, jint id, jlong bound)
{
    agent *a = &g_agent;
    (void)cls;
    jthread thread = NULL;
    if (a->dead || jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return INT64_MAX;
    thread_state *ts = agent_self();
    if (kind == LIMIT_ENDLESS) {
        if (a->opts.max_bytecodes != 0)
            endless_stop(a, jni, thread, ts, id);
        (*jni)->DeleteLocalRef(jni, thread);
        return bound; /* no limit: the loop spins until the clock's */
    }
    if (kind == LIMIT_INVOKE || kind == LIMIT_ARRAY_BEFORE) {
        /* asked only while a stop is armed (else the bound was passed at the segment's start) */
        if (a->fast.armed == NULL || a->fast.armed->ts != ts) {
            (*jni)->DeleteLocalRef(jni, thread);
            return bound;
        }
    }
    if (a->fast.armed != NULL && a->fast.armed->ts != NULL) {
        limit_end(a, jni, thread, a->fast.armed->ts == ts ? armed_place(a, jni, thread, ts, kind, id)
                                                          : "another thread passed it too");
    } else {
        const char *why = NULL;
        if (limit_place(a, jni, thread, ts, kind, id, bound, &why, NULL, NULL) == PLACE_ARM) {
            (*jni)->DeleteLocalRef(jni, thread);
            return bound;
        }
        limit_end(a, jni, thread, why);
    }
    (*jni)->DeleteLocalRef(jni, thread);
    return INT64_MAX;
}

/* 1 while the bytecode limit's stop waits on ts for its place (probes.c:
 * the modelled stack's stop, probe_deep, gives way to it). */
int fast_limit_armed(const agent *a, const thread_state *ts)
{
    return a->fast.armed != NULL && a->fast.armed->ts == ts && ts != NULL;
}

void fast_limit_exit(agent *a, JNIEnv *jni, jthread thread, thread_state *ts)
{
    if (a->fast.armed != NULL && a->fast.armed->ts == ts && ts != NULL)
        limit_end(a, jni, thread, armed_place(a, jni, thread, ts, -1, 0));
}

void fast_limit_interrupt(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jint from_top,
                          jlocation loc)
{
    struct fast_armed *w = a->fast.armed;
    if (w == NULL || w->ts != ts || ts == NULL || w->spoiled != NULL)
        return;
    jint frames = 0;
    int64_t old = -1;
    int in_probe = 1;
    fast_method *fm = loc >= 0 && method == w->method ? fast_method_named(a, method) : NULL;
    if (fm != NULL) {
        ins_method view = {.status = INS_METHOD_DONE, .pcs = fm->pcs, .npcs = fm->npcs, .new_len = fm->new_len};
        old = ins_original_offset(&view, (uint32_t)loc, &in_probe);
    }
    if (fm == NULL || in_probe || old < 0 ||
        jvmti_check(a, (*a->jvmti)->GetFrameCount(a->jvmti, thread, &frames), "GetFrameCount") != 0 ||
        frames - from_top != w->depth) {
        w->spoiled = "an exception or a frame the JVM entered interrupted the run elsewhere";
        return;
    }
    if ((uint64_t)old < w->pc) {
        w->ts = NULL; /* before the limit's bytecode: the position, corrected, finds it again */
        return;
    }
    /* at or after it (the segment ran straight to there): the stop, before the JVM runs anything */
    w->ts = NULL;
    const char *why = "a frame began or ended between its probe and the limit's bytecode";
    if (unchanged(a, jni, ts, w, 0)) {
        armed_back(a, jni, ts, w);
        why = fast_limit_fix(a, jni, thread, ts, from_top, extent_frames(ts, frames, from_top), w->pc, NULL, -1) != 0
                  ? "the frames it stops could not be read"
                  : NULL;
    }
    limit_end(a, jni, thread, why);
}
