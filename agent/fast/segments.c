/*
 * segments.c - a thread's exact position inside a block (docs/fast-engine.md,
 * "Method entries, closeness, fences"): the segment a probe adds after an
 * instruction (seg_from, seg_after), the rest of one an instruction left
 * unfinished, and that rest taken off the thread's position when an
 * exception or the JVM cuts it short (seg_abort). The probes' natives
 * (probes.c), the exception fixes (exceptions.c), the bytecode limit's stop
 * (limit.c) and the registry (registry.c, the tables the probes read) all
 * work on segments; here they share one definition of them.
 */

#include "fast.h"

/* The segment of fm that starts at original offset `from` in block bb
 * (blocks.h): its length, with SEG_ALLOC when an allocation ends it. */
uint32_t seg_from(const fast_method *fm, const blk_block *bb, uint32_t from)
{
    int alloc;
    uint32_t n = blk_segment(&fm->blocks, fm->code, (uint32_t)(bb - fm->blocks.blocks), from, &alloc);
    return n | (alloc ? SEG_ALLOC : 0);
}

/* The segment after fm's instruction at original offset pc (what a probe
 * after it adds), 0 when pc is no instruction of a block. */
uint32_t seg_after(const fast_method *fm, uint32_t pc)
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
uint32_t seg_rest(const fast_method *fm, uint32_t pc, int *alloc)
{
    *alloc = 0;
    if (pc >= fm->code_len || blk_seg_ends(fm->code[pc]))
        return 0;
    uint32_t s = seg_after(fm, pc);
    *alloc = (s & SEG_ALLOC) != 0;
    return s & SEG_LEN;
}

/* Read-modify a long field of ts's counters. */
void fast_add_long(agent *a, JNIEnv *jni, thread_state *ts, jfieldID f, jlong d)
{
    (void)a;
    (*jni)->SetLongField(jni, ts->fast.probe, f, (*jni)->GetLongField(jni, ts->fast.probe, f) + d);
}

/* Take off the thread's position the rest of the segment that fm's
 * instruction at pc left unfinished (an exception there), and the
 * allocation fence counted when that segment started if an allocation
 * after pc ends it. */
void seg_abort(agent *a, JNIEnv *jni, thread_state *ts, const fast_method *fm, uint32_t pc)
{
    int alloc;
    uint32_t rest = seg_rest(fm, pc, &alloc);
    if (rest != 0)
        fast_add_long(a, jni, ts, a->fast.f_pos, -(jlong)rest);
    jint b = alloc ? (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_seg_fence_b) : -1;
    if (b >= 0 && b < BUCKETS) {
        fast_add_long(a, jni, ts, a->fast.f_fence_alloc[b], -(*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_seg_fence));
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_seg_fence_b, -1);
    }
}
