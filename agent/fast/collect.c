/*
 * collect.c - the counts read back when a run ends (fast_collect): each
 * thread's block hits turned into the step engine's per-method opcode
 * counts and lines, its dependency keys, branches, calling contexts and
 * the natives it called, so that the profile writer (profile/) reads the
 * same fields whichever engine counted.
 */

#include "contexts.h"
#include "fast.h"
#include "fast_api.h"
#include "jvmti_util.h"
#include "methods.h"

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
    if (fast_pool_of(a, fm) == NULL) {
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
        if (cp == NULL && (cp = fast_pool_of(a, fm)) == NULL)
            return -1;
        uint32_t k = methods_key_of(a, cp, fm->code, pc);
        if (k == 0)
            continue;
        if (ts_keys_grow(ts, a->keys.count) != 0) {
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
    jlongArray arr = (*jni)->GetObjectField(jni, ts->fast.probe, f);
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
        fast_method *fm = fast_method_of(a, (uint32_t)id);
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
        uint64_t *h = ts_hist(ts, fm->mi);
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
method_info *fast_mi(agent *a, fast_method *fm)
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
    jint nn = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_ctx_nodes);
    if (nn < 1 || nn > CTX_NODES) {
        fast_problem(a, "a thread's calling contexts hold %d nodes", (int)nn);
        return 0;
    }
    jintArray pa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_parent);
    jintArray ma = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_method);
    jintArray sa = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_site);
    jlongArray ca = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_ctx_count);
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
            fast_method *fm = fast_method_of(a, (uint32_t)method[i]);
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
        if (count[4 * i] < 0 || count[4 * i + 1] < 0 || count[4 * i + 2] < 0 || count[4 * i + 3] < 0) {
            /* a fix (an exception's, a limit's) took off more than the context counted */
            fast_problem(a, "a calling context (%s) holds a negative count",
                         i > 0 ? fast_method_of(a, (uint32_t)method[i])->name : "the thread's root");
            break;
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
    jint hidden = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_hidden);
    if (hidden > 0) {
        jint by = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_hidden_root);
        fast_method *fm = fast_method_of(a, (uint32_t)hidden - 1);
        fast_method *rm = by > 0 ? fast_method_of(a, (uint32_t)by - 1) : NULL;
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
    ts->calls[BUCKET_WORK][CALL_ENTRIES] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_entries);
    ts->calls[BUCKET_OVERHEAD][CALL_ENTRIES] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_oentries);
    for (int b = 0; b < BUCKETS; b++) {
        ts->calls[b][CALL_CLOSE] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_close[b]);
        ts->calls[b][CALL_FENCE_NATIVE] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_fence_native[b]);
        ts->calls[b][CALL_FENCE_ALLOC] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_fence_alloc[b]);
    }
    /* the thread's branch counts, per bucket; a branch probe runs right
     * before its branch, so an exception never leaves one to correct */
    for (int k = 0; k < BR_KINDS; k++) {
        ts->br[BUCKET_WORK][k] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_br[k]);
        ts->br[BUCKET_OVERHEAD][k] = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_obr[k]);
    }
    /* what exceptions kept from running: the rest of a block counted whole */
    for (uint32_t k = 0; k < ts->fast.nfixes; k++) {
        fast_method *fm = fast_method_of(a, ts->fast.fixes[k].id);
        uint64_t *h = fm != NULL && fm->mi != NULL ? ts_hist(ts, fm->mi) : NULL;
        if (h == NULL) {
            fast_problem(a, "a block an exception left early was never counted");
            continue;
        }
        int bucket = ts->fast.fixes[k].bucket & ~FIX_KEY;
        const blk_block *b = &fm->blocks.blocks[ts->fast.fixes[k].id - fm->first_id];
        /* the limit's instruction counts, but not its key (FIX_KEY) */
        uint32_t keys_from = ts->fast.fixes[k].after + ((ts->fast.fixes[k].bucket & FIX_KEY) ? 0 : 1);
        if (count_keys(a, ts, bucket, fm, keys_from, b->end, -1) != 0)
            break;
        for (uint32_t pc = ts->fast.fixes[k].after + 1; pc < b->end; pc++) {
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

/* The call sites where a thread's return probes saw a native call
 * (Probe.natives): the invoke's key is native="true", as the step engine
 * marks it (ts->native, which profile.c ORs over the threads); lock held.
 * 0, or -1 (reported). */
static int collect_natives(agent *a, JNIEnv *jni, thread_state *ts)
{
    jbyteArray arr = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_natives);
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
        const cpool *cp = fast_pool_of(a, fm);
        if (cp == NULL) {
            bad = 1;
            break;
        }
        uint32_t k = methods_key_of(a, cp, fm->code, c->pc);
        if (k == 0)
            continue; /* no key: nothing to mark, as in the step engine */
        if (ts_keys_grow(ts, a->keys.count) != 0) {
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
        if (ts->fast.probe != NULL && (collect_thread(a, jni, ts) != 0 || fast_collect_arrays(a, jni, ts) != 0 ||
                                  collect_natives(a, jni, ts) != 0 || collect_contexts(a, jni, ts) != 0)) {
            agent_fail(a, "the fast engine cannot read or add up a thread's probe counts");
            break;
        }
    lock_exit(a);
    /* a problem makes the run's status fallback (vmentry.c, status_of) */
}
