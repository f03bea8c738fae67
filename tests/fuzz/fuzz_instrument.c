/*
 * fuzz_instrument.c - libFuzzer target for the block-probe rewriter
 * (agent/classfile/instrument.c, agent/classfile/blocks.c) on class files.
 *
 * The input is a whole .class file. When ins_rewrite accepts it, the output
 * must parse again with cf_parse, keep the method count and every entry of
 * the pool (with the probe's Class, NameAndType and Methodref added when a
 * method was instrumented), and every method it
 * instrumented must decode with blk_analyze into as many blocks as the
 * original had or more (a widened conditional branch adds one), start with
 * a probe, have max_stack one higher (two with the constants of the fast
 * engine's probes, which first bytes of 128 and above ask for, with folded
 * branches; four with branch probes, which odd first bytes ask for) and
 * the code length the result names, and report
 * one call site per invoke (invokedynamic too) and per new with call and
 * new probes.
 * ins_original_offset must map every new offset back to an original
 * instruction start. Type annotations on an instrumented method's code
 * keep their size and their bytes but the offsets: each instruction
 * offset names the same instruction past its probes, each local variable
 * range starts and ends where the code for its original ends starts (the
 * code's end for the code's end). A method left unchanged must be byte-identical. Anything else calls
 * abort().
 * Seeds: tests/fuzz/corpus/instrument/ (javac output of the test fixtures).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "bytes.h"
#include "classfile.h"
#include "instrument.h"
#include "tann_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int is_tann(const cpool *cp, const uint8_t *attr)
{
    cp_str s;
    if (cp_utf8(cp, be_u16(attr), &s) != 0)
        abort();
    return (s.len == 29 && memcmp(s.ptr, "RuntimeVisibleTypeAnnotations", 29) == 0) ||
           (s.len == 31 && memcmp(s.ptr, "RuntimeInvisibleTypeAnnotations", 31) == 0);
}

/* cst: the bytes of a constant before the first probe's invokestatic (a
 * block probe's; an entry probe has none) */
static void check(const uint8_t *data, size_t size, const ins_result *r, unsigned growth, int calls, unsigned cst)
{
    classfile in, out;
    if (cf_parse(&in, data, size, NULL, 0) != 0)
        abort();    /* ins_rewrite accepted what cf_parse refuses */
    if (cf_parse(&out, r->bytes, r->len, NULL, 0) != 0 || out.method_count != in.method_count ||
        r->nmethods != in.method_count || out.cp.count < in.cp.count)
        abort();    /* the pool only grows */
    /* with a method instrumented: the probe class's Class entry, a
     * NameAndType and a Methodref at least (its Utf8s may be the input's) */
    for (uint32_t k = 0; k < r->nmethods; k++)
        if (r->methods[k].status == INS_METHOD_DONE && out.cp.count < in.cp.count + 3)
            abort();
    for (uint32_t k = 0; k < out.method_count; k++) {
        const cf_method *m = &out.methods[k], *o = &in.methods[k];
        const ins_method *im = &r->methods[k];
        if ((m->code == NULL) != (o->code == NULL))
            abort();
        if (im->status != INS_METHOD_DONE) {
            if (o->code != NULL && (m->code_len != o->code_len || memcmp(m->code, o->code, o->code_len) != 0))
                abort();
            continue;
        }
        blk_table t;
        if (blk_analyze(m->code, m->code_len, m->exc, m->exc_count, &t, NULL, 0) != 0)
            abort();
        if (t.nblocks < im->blocks.nblocks || m->code_len != im->new_len || m->max_stack != o->max_stack + growth ||
            m->code_len < 6 + cst || m->code[3 + cst] != 0xb8)
            abort();
        blk_free(&t);
        /* with call and new probes, one call site per invoke (invokedynamic too) and per new */
        uint32_t invokes = 0;
        for (uint32_t pc = 0; pc < o->code_len; pc++)
            invokes += (im->blocks.mark[pc] & BLK_MARK_INSN) &&
                       ((o->code[pc] >= 0xb6 && o->code[pc] <= 0xba) || o->code[pc] == 0xbb);
        if (im->ncalls != (calls ? invokes : 0))
            abort();
        /* every new offset maps back to an original instruction start */
        for (uint32_t pc = 0; pc < m->code_len; pc++) {
            int64_t back = ins_original_offset(im, pc, NULL);
            if (back < 0 || back >= o->code_len || !(im->blocks.mark[back] & BLK_MARK_INSN))
                abort();
        }
        if (ins_original_offset(im, m->code_len, NULL) != -1)
            abort();
        /* type annotations on code: relocated, the rest of their bytes kept */
        if (m->code_attr_count != o->code_attr_count)
            abort();
        const uint8_t *oa = o->code_attrs, *na = m->code_attrs;
        for (uint32_t a = 0; a < o->code_attr_count; a++) {
            if (is_tann(&in.cp, oa)) {
                if (be_u16(na) != be_u16(oa) || be_u32(na + 2) != be_u32(oa + 2))
                    abort();
                if (tann_check(oa + 6, na + 6, be_u32(oa + 2), im, o, m, NULL))
                    abort();
            }
            oa += 6 + be_u32(oa + 2);
            na += 6 + be_u32(na + 2);
        }
    }
    cf_free(&in);
    cf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the first byte picks the first id and site and whether branch, entry, exit, array, copy, made and
     * call probes go in, and the constants with folded branches, if_icmp<cond> and ifnull probes
     * through the if<cond> probe and the call sites' bitwise not (the fast engine's options) */
    unsigned b = size > 0 ? data[0] : 0;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = b * 200u,
                       .branch_method = b & 1 ? "branch" : NULL, .entry_method = b & 2 ? "entry" : NULL,
                       .exit_method = b & 4 ? "exit" : NULL, .array_method = b & 8 ? "array" : NULL,
                       .first_site = b * 300u, .copy_method = b & 16 ? "copy" : NULL,
                       .made_method = b & 32 ? "made" : NULL, .call_method = b & 64 ? "call" : NULL,
                       .return_method = b & 64 ? "returned" : NULL, .first_call = b * 250u,
                       .new_method = b & 64 ? "allocated" : NULL, .consts = (b & 128) != 0,
                       .fold_method = b & 128 ? "branched" : NULL, .icmp_as_if = (b & 128) != 0,
                       .null_as_int = (b & 128) != 0, .calls_not = (b & 128) != 0};
    ins_result r;
    if (ins_rewrite(data, size, &opt, &r, NULL, 0) == 0) {
        check(data, size, &r,
              opt.branch_method != NULL && opt.icmp_as_if ? 5
              : opt.branch_method != NULL || opt.array_method != NULL || opt.copy_method != NULL ||
                      opt.made_method != NULL
                  ? 4
                  : opt.consts ? 2 : 1,
              opt.call_method != NULL, opt.consts && opt.entry_method == NULL ? INS_CONST_LEN : 0);
        ins_free(&r);
    }
    return 0;
}
