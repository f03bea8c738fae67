/*
 * exceptions.c - an exception on a counting thread (fast_exception_fix):
 * the probes of the frames it unwinds never run their return probes, so
 * the thread's call stack, calling-context position, segment and closeness
 * state are set here to what they are in the frame that catches it.
 */

#include "fast.h"
#include "jvmti_util.h"

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
    int below_root;             /* live: the next frame entered a root the JVM entered (below_pos, below_j) */
    jlong below_pos;
    jint below_j;
    int entered_at_call;        /* the throwing invoke: frames the JVM entered there kept a position */
    jint entered_node;          /* the node of the first of them pushed as if the invoke called it, else -1 */
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
    w->top = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_ctx_top);
    w->nsaved = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_nsaved);
    jintArray na = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_run_node);
    jintArray ca = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_run_count);
    jlongArray sa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_saved);
    jlongArray ra = sp > 0 ? (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_ctx) : NULL;
    jintArray rs = sp > 0 ? (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_saved) : NULL;
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
#define CTX_ENTERED 0x40000000LL /* Probe.ENTERED */

/* The next frame's position: the throwing frame's (first), or the call its
 * frame waits at. At the bytecode limit (live) every frame is still there:
 * the first frame's is the current one, and a frame the JVM entered (an
 * exception's constructor) left its caller's position saved. at_call: the
 * first frame throws at an invoke (a null receiver, a failed resolution),
 * whose call probe saved the frame's position and whose callee never ran. */
static void ctx_walk_frame(ctx_walk *w, int first, int live, int at_call)
{
    if (!w->ok)
        return;
    if (live) {
        if (first) {
            w->pos = (jlong)w->top << 32 | w->count[w->top];
        } else if (w->below_root) { /* its position, saved at the root's entry */
            w->below_root = 0;
            w->pos = w->below_pos;
            w->j = w->below_j;
        } else {
            while (w->j > 0 && (w->saved[w->j - 1] & (CTX_JVM | CTX_ENTERED)) == CTX_JVM)
                w->j--;
            w->pos = w->j > 0 ? w->saved[--w->j] : -1;
        }
        w->pos_saved = w->j;
        return;
    }
    if (first && at_call) {
        /* The invoke's own call is over. Frames the JVM entered at it (the
         * exception's constructor) are gone: one with a saved position, or
         * one its entry probe took for the invoke's callee (nothing was
         * counted since the call probe), pushed above the position that
         * call probe saved, which is the frame's. */
        jlong cur = (jlong)w->top << 32 | (w->count[w->top] & 0x3fffffff);
        w->entered_node = -1;
        while (w->j > 0 && (w->saved[w->j - 1] & CTX_JVM)) {
            w->entered_at_call = 1;
            w->j--;
        }
        if (w->j > 0) {
            w->pos = w->saved[--w->j];
            jint at = (jint)(w->pos >> 32);
            if (cur != (w->pos & ~(CTX_JVM | CTX_ENTERED))) {
                w->entered_at_call = 1;
                if (at >= 0 && at < w->top && w->node[at + 1] >= 0)
                    w->entered_node = w->node[at + 1];
            }
        } else {
            w->pos = -1;
        }
    } else if (first) {
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
    jlongArray ca = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_count);
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
    jintArray ca = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_run_count);
    if (ca == NULL)
        return;
    (*jni)->SetIntArrayRegion(jni, ca, top, 1, &count);
    (*jni)->DeleteLocalRef(jni, ca);
    jint r = w->node[top];
    (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_top, top);
    (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_cur, r < 0 ? 4 * (r & 0x7fffffff) + 2 : 4 * r);
    jint nsaved = w->pos_saved;
    if (w->jvm >= 0) {
        jlongArray sa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_saved);
        jlong q = w->jvm | CTX_JVM;
        if (sa != NULL && nsaved < (*jni)->GetArrayLength(jni, sa)) {
            (*jni)->SetLongArrayRegion(jni, sa, nsaved++, 1, &q);
            (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_ctx_last, w->last);
        }
        if (sa != NULL)
            (*jni)->DeleteLocalRef(jni, sa);
    }
    (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_nsaved, nsaved);
}

/*
 * Whether a call at fm's invoke at offset pc entered its callee or returned
 * from it before on this thread (a calling context with that call site, but
 * `skip`, or the site flagged native): then HotSpot has resolved the invoke.
 */
static int call_completed(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, uint32_t pc, jint skip)
{
    jint nn = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_ctx_nodes);
    jintArray sa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_site);
    jint known = -1; /* the call site of skip, the constructor's context (its entry took it for the callee) */
    if (sa != NULL && skip > 0 && skip < nn && nn <= (*jni)->GetArrayLength(jni, sa))
        (*jni)->GetIntArrayRegion(jni, sa, skip, 1, &known);
    (*jni)->ExceptionClear(jni);
    lock_enter(a);
    uint32_t index = (uint32_t)(fm - a->fast.methods), site = UINT32_MAX;
    if (known >= 0 && (uint32_t)known < a->fast.next_call && a->fast.calls[known].method == index &&
        a->fast.calls[known].pc == pc)
        site = (uint32_t)known;
    for (uint32_t c = 0; c < a->fast.next_call && site == UINT32_MAX; c++) /* (rare: a frame saved its position) */
        if (a->fast.calls[c].method == index && a->fast.calls[c].pc == pc)
            site = c;
    lock_exit(a);
    if (site == UINT32_MAX || site > INT32_MAX) {
        if (sa != NULL)
            (*jni)->DeleteLocalRef(jni, sa);
        return 0;
    }
    int done = 0;
    jbyteArray na = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_natives);
    if (na != NULL) {
        jbyte flag = 0;
        if ((jsize)site < (*jni)->GetArrayLength(jni, na))
            (*jni)->GetByteArrayRegion(jni, na, (jsize)site, 1, &flag);
        done = flag != 0;
        (*jni)->DeleteLocalRef(jni, na);
    }
    if (!done && sa != NULL && nn > 0 && nn <= (*jni)->GetArrayLength(jni, sa)) {
        jint *sites = (*jni)->GetIntArrayElements(jni, sa, NULL);
        if (sites != NULL) {
            for (jint i = 1; i < nn && !done; i++)
                done = i != skip && sites[i] == (jint)site;
            (*jni)->ReleaseIntArrayElements(jni, sa, sites, JNI_ABORT);
        }
    }
    if (sa != NULL)
        (*jni)->DeleteLocalRef(jni, sa);
    (*jni)->ExceptionClear(jni);
    return done;
}

/*
 * The walk behind fast_exception_fix and fast_limit_fix: the frames from
 * depth `skip` down, at most `frames` of them. limit_pc < 0: an exception
 * unwinds them (down to catch_method's frame). limit_pc >= 0: the bytecode
 * limit stops the run at the original offset limit_pc of the first frame
 * (whose location is a probe's): that instruction counts, its key does
 * not, and nothing after it in its block nor in the blocks every frame
 * below waits in runs.
 */
static jint unwind_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method, jint skip,
                       jint frames, int64_t limit_pc, jmethodID gone, int64_t call_pc)
{
    if (frames <= 0 || ts->fast.probe == NULL)
        return -1;
    /* the root frames open on the thread (the root entry probe,
     * Probe.root), innermost last, and the mode each runs in: a frame's
     * blocks were counted in the mode of the innermost root frame at or
     * below it */
    jint sp = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_sp);
    jint mode = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode);
    jint *ids = NULL, *modes = NULL, *lends = NULL, *fence_b = NULL;
    jlong *fences = NULL;
    if (sp > 0) {
        jintArray ia = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_ids);
        jintArray ma = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_modes);
        jintArray la = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_lend);
        jlongArray fa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_seg_fence);
        jintArray ba = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_root_seg_fence_b);
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
    jint g = gone != NULL; /* a frame that returned, above the stack read */
    jvmtiFrameInfo *f = malloc(((size_t)frames + 1) * sizeof *f);
    jint n = 0;
    if (f == NULL || jvmti_check(a, (*a->jvmti)->GetStackTrace(a->jvmti, thread, skip, frames, f + g, &n), "GetStackTrace") != 0) {
        free(f);
        free(ids);
        free(modes);
        free(lends);
        free(fence_b);
        free(fences);
        fast_problem(a, "cannot read the frames an exception unwinds");
        return -1;
    }
    if (g) {
        f[0] = (jvmtiFrameInfo){.method = gone, .location = 0};
        n++;
    }
    ctx_walk cw;
    ctx_walk_read(a, jni, ts, sp, &cw);
    uint64_t less[BUCKETS] = {0};
    jint k = sp, popped = 0, m = mode, stop = -1;
    int top = 1; /* the first frame with bytecode: the throwing one, or the caller of a native that threw */
    for (jint i = 0; i < n; i++) {
        int last = catch_method != NULL && f[i].method == catch_method;
        if (f[i].location >= 0) {
            fast_method *fm = fast_method_named(a, f[i].method);
            int in_probe = 0;
            ins_method view = {.status = INS_METHOD_DONE, .pcs = fm ? fm->pcs : NULL, .npcs = fm ? fm->npcs : 0,
                               .new_len = fm ? fm->new_len : 0};
            int64_t old = fm != NULL ? ins_original_offset(&view, (uint32_t)f[i].location, &in_probe) : -1;
            int stop_here = i == 0 && limit_pc >= 0 && old >= 0; /* the limit's instruction, not the probe's */
            if (stop_here) {
                old = limit_pc;
                in_probe = 0;
            } else if (g && i == 1 && limit_pc >= 0 && old >= 0) { /* it waits at the invoke that called it */
                old = call_pc;
                in_probe = 0;
            }
            if (m != MODE_HIDDEN && (old < 0 || in_probe)) { /* hidden frames counted nothing */
                fast_problem(a, "an exception was thrown %s", old < 0 ? "through a method that has no probes"
                                                                      : "inside a probe (a StackOverflowError?)");
                break;
            }
            if (top && limit_pc < 0 && m != MODE_HIDDEN && fast_charged_native_call(a, fm, (uint32_t)old))
                fast_problem(a, "%s threw at offset %" PRId64 " in a call of a native whose arrays were charged "
                             "as they were made (the step engine charges none when the call throws)", fm->name, old);
            if (top && m != MODE_HIDDEN) {
                /* the throwing frame's segment stops here: its rest off the
                 * position, unless the exception's constructor, entered by
                 * the JVM, took it off already (probe_jvm_entered) */
                if (limit_pc >= 0)
                    seg_abort(a, jni, ts, fm, (uint32_t)old); /* an allocation after it ending its segment: no fence */
                else if (ts->fast.lent_method == f[i].method && ts->fast.lent_loc == f[i].location)
                    ts->fast.lent_method = NULL;
                else
                    seg_abort(a, jni, ts, fm, (uint32_t)old);
            }
            /* the throwing instruction is an invoke, whose call probe ran */
            int at_call = i == 0 && limit_pc < 0 && (bc_flags(fm->code[old]) & BCF_INVOKE);
            if (m != MODE_HIDDEN) /* hidden frames have no contexts */
                ctx_walk_frame(&cw, i == 0, limit_pc >= 0, at_call);
            if (at_call && m != MODE_HIDDEN && cw.ok && cw.entered_at_call &&
                !call_completed(a, jni, ts, fm, (uint32_t)old, cw.entered_node))
                /* HotSpot throws at an invoke it is resolving (a null
                 * receiver, a missing method) with single-stepping hidden:
                 * the step engine counts nothing of the exception's
                 * constructor there, and everything once it resolved it */
                fast_problem(a, "the JVM ran an exception's constructor at the %s at offset %" PRId64 " of %s, "
                             "which had not yet called: whether HotSpot was resolving it (where the step engine "
                             "counts nothing of that constructor) is not known",
                             bc_mnemonic(fm->code[old]), old, fm->name);
            top = 0;
            int32_t b = m != MODE_HIDDEN ? blk_find(&fm->blocks, (uint32_t)old) : -1;
            if (m != MODE_HIDDEN && b < 0)
                break;
            if (b >= 0) {
                if (ts->fast.nfixes == ts->fast.fixes_cap) {
                    struct fast_fix *v = grow_cap(ts->fast.fixes, &ts->fast.fixes_cap, 64, sizeof *v);
                    if (v == NULL) {
                        agent_fail(a, "out of memory for the fast engine's exception fixes");
                        break;
                    }
                    ts->fast.fixes = v;
                }
                /* the program's code is work in an overhead frame too */
                int bucket = m == MODE_OVERHEAD && !fm->program ? BUCKET_OVERHEAD : BUCKET_WORK;
                ts->fast.fixes[ts->fast.nfixes++] =
                    (struct fast_fix){fm->first_id + (uint32_t)b, (uint32_t)old, bucket | (stop_here ? FIX_KEY : 0)};
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
                if ((modes[k] & VM_ENTERED) && limit_pc >= 0) {
                    /* the frame below waits in the middle of its segment,
                     * whose rest the root lent: its position was saved at
                     * the root's entry, and an allocation ending that
                     * segment, whose fence counted, never runs */
                    if (cw.ok) {
                        cw.below_root = 1;
                        cw.below_pos = cw.root_ctx[k];
                        cw.below_j = cw.root_saved[k];
                    }
                    if ((modes[k] & SEG_AFTER) && fence_b[k] >= 0 && fence_b[k] < BUCKETS)
                        fast_add_long(a, jni, ts, a->fast.f_fence_alloc[fence_b[k]], -fences[k]);
                    continue;
                }
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
    if (limit_pc < 0) /* the run stops at the limit: the frames stay as they are */
        ctx_walk_set(a, jni, ts, &cw);
    ctx_walk_free(&cw);
    if (popped > 0) { /* the root frames the exception unwinds end here, as their exit probes would */
        jint left = sp - popped;
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_sp, left);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_mode, left > 0 ? modes[left - 1] & MODE_MASK : MODE_WORK);
        /* what they lent back to the position, and their callers' fences
         * (the segments they interrupted now stop at the instruction the
         * JVM throws from, where the next Exception event takes them off) */
        jlong lent = 0;
        for (jint j = left; j < sp; j++)
            lent += lends[j];
        if (lent != 0)
            fast_add_long(a, jni, ts, a->fast.f_pos, lent);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_seg_fence, fences[left]);
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_seg_fence_b, fence_b[left]);
    }
    free(ids);
    free(modes);
    free(lends);
    free(fence_b);
    free(fences);
    if (less[BUCKETS - 1] > 0 || less[BUCKET_WORK] > 0) {
        jlong w = (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_n), o = (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_on);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_n, w - (jlong)less[BUCKET_WORK]);
        (*jni)->SetLongField(jni, ts->fast.probe, a->fast.f_on, o - (jlong)less[BUCKET_OVERHEAD]);
    }
    return stop;
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
jint fast_exception_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID catch_method, jint frames)
{
    return unwind_fix(a, jni, thread, ts, catch_method, 0, frames, -1, NULL, -1);
}

int fast_limit_fix(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jint skip, jint frames, uint32_t pc,
                   jmethodID gone, int64_t call_pc)
{
    unwind_fix(a, jni, thread, ts, NULL, skip, frames, pc, gone, call_pc);
    return a->fast.problem[0] != '\0' || a->error[0] != '\0' ? -1 : 0;
}
