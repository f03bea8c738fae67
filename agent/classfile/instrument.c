/*
 * instrument.c - a class-file rewriter that puts a block probe at the start
 * of every basic block of every method.
 *
 * The input is parsed with cf_parse (classfile.h), which checks the whole
 * structure and records where each Code attribute lies; each method's code
 * is split with blk_analyze (blocks.h), which checks every instruction and
 * every target. Then, per method:
 *
 *  1. Layout. Offsets are assigned with a probe before each block leader;
 *     a 16-bit branch whose new distance no longer fits is widened (goto and
 *     jsr to goto_w and jsr_w, if<cond> L to if<!cond> +8; goto_w L) and the
 *     layout is redone until nothing more widens (widening only grows code,
 *     so this ends). Switch padding follows the new offsets.
 *  2. Checks that may refuse the method (it is then copied unchanged and
 *     reported): code past 65535 bytes, max_stack already 65535, a Code
 *     attribute that holds offsets the rewriter does not know, a widened
 *     conditional branch whose fall-through has no stack map frame (the new
 *     goto_w would need a frame the rewriter cannot compute).
 *  3. Emission, with every code offset mapped: an offset that starts a block
 *     maps to its probe (a branch to a block runs the probe; an exception
 *     range and a line number take the probe in; a stack map frame holds
 *     before the probe, which changes no local and leaves the stack as it
 *     found it), any other instruction offset to the instruction's new place.
 *     Uninitialized(offset) in a frame names a `new` instruction itself.
 *
 * With an entry probe, offset 0 first runs the entry probe, then block 0's
 * probe; every jump to offset 0 (a loop at the top of the method) lands on
 * the block probe, so the entry probe counts calls only.
 *
 * max_stack grows by one (the probe pushes its id on whatever the stack
 * holds at the block start), by two with the probes' constants
 * (options.consts), by four with branch probes. The constant pool
 * grows at its end: the probe's Methodref (six entries), the entry probe's
 * (three more), the branch probes' four (thirteen more) and the array
 * probe's (four more) when asked for, and an Integer for each id or array
 * site above 32767 (one per probe that pushes it).
 *
 * With array probes, each newarray, anewarray and multianewarray is followed
 * by a probe that passes the new array, the levels the instruction makes and
 * its first site (emit_array_probe): it runs only when the instruction
 * allocated. A jump to the next instruction lands past it, and an exception
 * in it maps back to the array instruction as "in a probe". With copy
 * probes, each invokestatic System.arraycopy is preceded by one that sees
 * the length and followed by one that runs only when the copy returned
 * (their Methodrefs are added at the class's first arraycopy). With made
 * probes, each call of an array's clone() or Array.newArray is followed by
 * one that passes the array it returned and a site of its own. With call
 * probes, each invoke (invokedynamic too) is preceded by a call probe and
 * followed by a return probe, both passing its call site (their Methodrefs
 * added at the class's first invoke; past 32767 both push the same
 * Integer). With options.consts the block, entry-block, return and new
 * probes push a constant after their id (instrument.h), and with
 * options.fold_method a conditional branch whose successors have no other
 * way in has no branch probe: its outcome goes to the successors' probes
 * (ins_fold_branches).
 *
 * Choices:
 *  - Malformed input fails the whole class (-1): the JVM would reject it too.
 *    A well-formed method the rewriter does not handle is left as it is and
 *    reported, so the caller can fall back to the step engine.
 *  - The Code attribute's own tables keep their meaning at the new offsets
 *    (instrument_tables.c).
 *
 * The files: this one lays each method out (ins_layout_pass), folds branch
 * probes (ins_fold_branches), refuses a method (ins_refuse) and maps rewritten
 * offsets back (ins_original_offset); instrument_rewrite.c decides each
 * method's probes (build_insns), checks and numbers them (rewrite_method)
 * and rewrites the class (ins_rewrite, ins_rewrite_parsed);
 * instrument_pool.c adds the probes' constant-pool entries;
 * instrument_emit.c emits the new code; instrument_tables.c checks and
 * relocates the Code attribute's tables; instrument_impl.h is what they
 * share and no one else reads. The calls go one way: instrument_rewrite.c
 * calls the other four, instrument_emit.c calls instrument_pool.c and
 * instrument_tables.c, and all of them call this file.
 */
#include "instrument_impl.h"
#include "branchpred.h"

#include <stdlib.h>
#include <string.h>

static uint32_t switch_len(const insn *i, uint32_t at)
{
    uint32_t old_ops = (i->old + 4) & ~3u;
    uint32_t body = i->len - (old_ops - i->old);
    uint32_t new_ops = (at + 4) & ~3u;
    return new_ops - at + body;
}

/* Lay the code out with the current widening; returns 1 when some 16-bit
 * branch does not reach and got widened (lay out again). */
int ins_layout_pass(method_ctx *c)
{
    const uint8_t *code = c->m->code;
    uint32_t pos = 0;
    for (uint32_t k = 0; k < c->n; k++) {
        insn *i = &c->in[k];
        i->start = pos;
        if (k == 0 && c->entry)     /* the entry probe: run on entry, jumped over */
            pos += INS_PROBE_LEN + (c->merged ? c->cst : 0) + c->root_cst;
        i->target = pos;
        if (i->leader && !(k == 0 && c->merged))
            pos += INS_PROBE_LEN + (c->cst || i->fold ? INS_CONST_LEN : 0) + (i->fold ? INS_CONST_LEN : 0);
        if (i->branch_probe)
            pos += INS_BRANCH_PROBE_LEN + (ins_icmp_as_if(c->w, code[i->old]) ? INS_ICMP_EXTRA_LEN
                                           : ins_null_as_int(c->w, code[i->old]) ? INS_NULL_EXTRA_LEN : 0);
        if (i->exit_probe)
            pos += INS_PROBE_LEN + c->root_cst;
        if (i->copy_probe)
            pos += INS_COPY_PROBE_LEN;
        if (i->call_probe)
            pos += INS_CALL_PROBE_LEN + c->cst;
        i->nw = pos;
        switch (i->kind) {
        case K_BR16:
            pos += !i->wide ? 3 : is_cond(code[i->old]) ? 8 : 5;
            break;
        case K_SWITCH:
            pos += switch_len(i, pos);
            break;
        default:
            pos += i->len;
        }
        if (i->array_probe)
            pos += INS_ARRAY_PROBE_LEN;
        if (i->call_probe)
            pos += INS_RETURN_PROBE_LEN + c->cst;
        if (i->new_probe)
            pos += INS_NEW_PROBE_LEN + c->cst;
        if (i->copy_probe)
            pos += INS_COPIED_PROBE_LEN;
        if (i->made_probe)
            pos += i->made_probe == INS_MAKES_LEVELS ? INS_MADE_LEVELS_PROBE_LEN : INS_MADE_PROBE_LEN;
    }
    c->new_len = pos;
    int widened = 0;
    for (uint32_t k = 0; k < c->n; k++) {
        insn *i = &c->in[k];
        if (i->kind != K_BR16 || i->wide)
            continue;
        int64_t target = (int64_t)i->old + be_s16(code + i->old + 1);
        int64_t d = (int64_t)map_target(c, (uint32_t)target) - i->nw;
        if (d < INT16_MIN || d > INT16_MAX) {
            i->wide = 1;
            widened = 1;
        }
    }
    return widened;
}

/* Refuse the method: it stays as it is. */
int ins_refuse(method_ctx *c, int status, const char *fmt, ...)
{
    c->im->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->im->why, sizeof c->im->why, fmt, ap);
    va_end(ap);
    return 1;
}

/*
 * Folded branches (options.fold_method): each conditional branch whose
 * target and fall-through are two blocks with no other way in loses its
 * branch probe, and both successors' probes become fold probes with the
 * outcome that leads to them. -1 when out of memory.
 */
int ins_fold_branches(method_ctx *c)
{
    const ins_options *o = c->w->opt;
    const blk_table *t = &c->im->blocks;
    if (o->fold_method == NULL || o->branch_method == NULL || t->nblocks < 2)
        return 0;
    uint32_t *ways = malloc((size_t)t->nblocks * sizeof *ways);
    if (ways == NULL) {
        errmsg_set(c->w->err, c->w->errlen, "out of memory for %u blocks", t->nblocks);
        return -1;
    }
    blk_ways_in(t, c->m->code, c->m->exc, c->m->exc_count, ways);
    uint32_t seed = 0;
    int seeded = 0;     /* the seed is asked for at the first branch that folds */
    for (uint32_t b = 0; b + 1 < t->nblocks; b++) {
        const blk_block *bb = &t->blocks[b];
        if (bb->end_kind != BLK_END_COND)
            continue;
        int32_t taken = blk_find(t, (uint32_t)((int64_t)bb->last + be_s16(c->m->code + bb->last + 1)));
        uint32_t fall = b + 1;
        if (taken < 0 || (uint32_t)taken == fall || ways[taken] != 1 || ways[fall] != 1)
            continue;
        if (!seeded && o->branch_seed != NULL)
            seed = o->branch_seed(o->seed_ctx, c->m->name, c->m->desc);
        seeded = 1;
        uint32_t site = bp_site(seed, bb->last);
        insn *ti = &c->in[c->at[t->blocks[taken].start]], *fi = &c->in[c->at[t->blocks[fall].start]];
        ti->fold = fi->fold = 1;
        ti->fold_arg = (uint16_t)INS_FOLD_PACK(site, 1);
        fi->fold_arg = (uint16_t)INS_FOLD_PACK(site, 0);
        c->in[c->at[bb->last]].branch_probe = 0;
    }
    free(ways);
    return 0;
}

int64_t ins_original_offset(const ins_method *m, uint32_t pc, int *in_probe)
{
    if (in_probe)
        *in_probe = 0;
    if (m == NULL || m->status != INS_METHOD_DONE || m->npcs == 0 || pc >= m->new_len)
        return -1;
    uint32_t lo = 0, hi = m->npcs;  /* pcs[lo].start <= pc < pcs[hi].start */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->pcs[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    if (in_probe)
        *in_probe = pc < m->pcs[lo].at || pc >= m->pcs[lo].after;
    return m->pcs[lo].old;
}

void ins_fast_options(ins_options *o, const char *probe_class, int program, int boot)
{
    /* the probes most classes call share two names, Code and SourceFile,
     * which the pool of nearly every class holds already (its attributes'
     * names): a class's pool gains a Methodref per descriptor; if_icmp<cond>
     * calls the if<cond> probe (icmp_as_if), one descriptor less, and so do
     * ifnull and ifnonnull in the boot loader's classes (null_as_int: its
     * instanceof Object resolves without asking a loader written in Java);
     * the root probes call the entry-block probe Code(II)V with a constant
     * of their own, the exit with ~id (root_via_entry_block, root_exit_not),
     * and so do the call, return and new probes with ~site (calls_not): no
     * Methodref for them */
    *o = (ins_options){.probe_class = probe_class, .probe_method = "Code", .branch_method = "Code",
                       .array_method = "SourceFile", .copy_method = program ? "programCopy" : "copy",
                       .made_method = "made", .root_entry_method = "Code", .root_exit_method = "Code",
                       .root_exit_not = 1, .root_via_entry_block = 1, .call_method = "Code",
                       .return_method = "Code", .other_entry_method = "SourceFile",
                       .other_entry_block_method = "Code", .new_method = "Code", .consts = 1, .calls_not = 1,
                       .program = program, .fold_method = "Code", .icmp_as_if = 1, .null_as_int = boot};
}

void ins_free(ins_result *r)
{
    if (r == NULL)
        return;
    free(r->bytes);
    for (uint32_t k = 0; k < r->nmethods; k++) {
        blk_free(&r->methods[k].blocks);
        free(r->methods[k].pcs);
    }
    free(r->methods);
    memset(r, 0, sizeof *r);
}
