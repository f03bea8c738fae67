/*
 * blocks.c - a method's bytecode split into basic blocks, with the opcode
 * histogram of each block.
 *
 * Two passes over the code. The first decodes every instruction with
 * bc_insn_length (which never reads past code_len), marks instruction
 * starts, and marks as leaders offset 0, the instruction after every
 * control transfer, and every exception handler. The second checks every
 * branch and switch target against the instruction marks (so a target in
 * the middle of an instruction is an error, not a block boundary) and marks
 * the targets as leaders. Blocks and their histograms are then cut at the
 * leaders.
 *
 * Choices:
 *  - Blocks end only where control can leave them by a transfer in the
 *    bytecode; an invoke or any instruction that may throw does not end a
 *    block (the fast engine corrects a block left early by an exception, see
 *    docs/fast-engine.md), and neither does the start or end of a try range.
 *  - The instruction after a final return/goto/athrow is a leader even when
 *    nothing jumps to it (unreachable code gets a block of its own).
 *  - Switch offsets are relative to the switch's own offset and 32 bits wide;
 *    the sum is computed in 64 bits.
 */
#include "blocks.h"
#include "bytecode.h"
#include "bytes.h"
#include "errmsg.h"

#include <stdlib.h>
#include <string.h>

/* BLK_END_* + 1 of each opcode that ends a block, 0 for the others (wide
 * ends one when it widens a ret). */
static const uint8_t ends_block[256] = {
    [0x99] = BLK_END_COND + 1, [0x9a] = BLK_END_COND + 1, [0x9b] = BLK_END_COND + 1,
    [0x9c] = BLK_END_COND + 1, [0x9d] = BLK_END_COND + 1, [0x9e] = BLK_END_COND + 1,
    [0x9f] = BLK_END_COND + 1, [0xa0] = BLK_END_COND + 1, [0xa1] = BLK_END_COND + 1,
    [0xa2] = BLK_END_COND + 1, [0xa3] = BLK_END_COND + 1, [0xa4] = BLK_END_COND + 1,
    [0xa5] = BLK_END_COND + 1, [0xa6] = BLK_END_COND + 1, [0xc6] = BLK_END_COND + 1,
    [0xc7] = BLK_END_COND + 1,
    [0xa7] = BLK_END_GOTO + 1, [0xc8] = BLK_END_GOTO + 1,
    [0xa8] = BLK_END_JSR + 1, [0xc9] = BLK_END_JSR + 1,
    [0xa9] = BLK_END_RET + 1,
    [0xaa] = BLK_END_SWITCH + 1, [0xab] = BLK_END_SWITCH + 1,
    [0xac] = BLK_END_RETURN + 1, [0xad] = BLK_END_RETURN + 1, [0xae] = BLK_END_RETURN + 1,
    [0xaf] = BLK_END_RETURN + 1, [0xb0] = BLK_END_RETURN + 1, [0xb1] = BLK_END_RETURN + 1,
    [0xbf] = BLK_END_THROW + 1,
};

/* BLK_END_* of the instruction at code[pc], or -1 when it does not end a
 * block. The caller has decoded the instruction (a wide has its second byte). */
static inline int end_kind(const uint8_t *code, uint32_t pc)
{
    uint8_t op = code[pc];
    if (op == 0xc4)
        return code[pc + 1] == 0xa9 ? BLK_END_RET : -1;
    return (int)ends_block[op] - 1;
}

/* Mark target pc + delta (64-bit) of the instruction at pc as a leader;
 * -1 with a message when it is not an instruction start. */
static int mark_target(blk_table *t, const uint8_t *code, uint32_t pc, int64_t delta, uint32_t *leaders,
                       char *err, size_t errlen)
{
    int64_t to = (int64_t)pc + delta;
    if (to < 0 || to >= (int64_t)t->code_len || !(t->mark[to] & BLK_MARK_INSN)) {
        errmsg_set(err, errlen, "the %s at offset %u jumps to offset %lld, %s",
                   bc_mnemonic(code[pc]), pc, (long long)to,
                   to < 0 || to >= (int64_t)t->code_len ? "outside the code" : "inside an instruction");
        return -1;
    }
    *leaders += !(t->mark[to] & BLK_MARK_LEADER);
    t->mark[to] |= BLK_MARK_LEADER | BLK_MARK_TARGET;
    return 0;
}

/* Mark every target of the (decoded) instruction at pc, if it jumps. */
static int mark_targets(blk_table *t, const uint8_t *code, uint32_t pc, uint32_t *leaders, char *err, size_t errlen)
{
    uint8_t op = code[pc];
    if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7)
        return mark_target(t, code, pc, be_s16(code + pc + 1), leaders, err, errlen);
    if (op == 0xc8 || op == 0xc9)
        return mark_target(t, code, pc, be_s32(code + pc + 1), leaders, err, errlen);
    if (op == 0xaa || op == 0xab) {
        /* bc_insn_length has checked that the whole switch lies in the code */
        uint32_t ops = (pc + 4) & ~3u;
        if (mark_target(t, code, pc, be_s32(code + ops), leaders, err, errlen))
            return -1;
        if (op == 0xaa) {
            int64_t n = (int64_t)be_s32(code + ops + 8) - be_s32(code + ops + 4) + 1;
            for (int64_t i = 0; i < n; i++)
                if (mark_target(t, code, pc, be_s32(code + ops + 12 + 4 * i), leaders, err, errlen))
                    return -1;
        } else {
            int64_t n = be_s32(code + ops + 4);
            for (int64_t i = 0; i < n; i++)
                if (mark_target(t, code, pc, be_s32(code + ops + 8 + 8 * i + 4), leaders, err, errlen))
                    return -1;
        }
    }
    return 0;
}

void blk_free(blk_table *t)
{
    if (t == NULL)
        return;
    free(t->mark);
    free(t->blocks);
    free(t->hist);
    memset(t, 0, sizeof *t);
}

int32_t blk_find(const blk_table *t, uint32_t pc)
{
    if (t == NULL || t->nblocks == 0 || pc >= t->code_len)
        return -1;
    uint32_t lo = 0, hi = t->nblocks;   /* blocks[lo].start <= pc < blocks[hi].start */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->blocks[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    return (int32_t)lo;
}

/* One more way into the block that starts at pc + delta (a checked target). */
static void way_to(const blk_table *t, uint32_t pc, int64_t delta, uint32_t n, uint32_t *ways)
{
    int32_t b = blk_find(t, (uint32_t)((int64_t)pc + delta));
    if (b >= 0)
        ways[b] += n;
}

void blk_ways_in(const blk_table *t, const uint8_t *code, const uint8_t *exc, uint16_t exc_count, uint32_t *ways)
{
    memset(ways, 0, (size_t)t->nblocks * sizeof *ways);
    if (t->nblocks == 0)
        return;
    ways[0] = 1;
    for (uint32_t i = 0; i < exc_count; i++)
        way_to(t, 0, be_u16(exc + 8 * i + 4), 2, ways);
    for (uint32_t b = 0; b < t->nblocks; b++) {
        const blk_block *bb = &t->blocks[b];
        uint32_t pc = bb->last;
        uint8_t op = code[pc];
        switch (bb->end_kind) {
        case BLK_END_FALL:
            if (b + 1 < t->nblocks)
                ways[b + 1]++;
            break;
        case BLK_END_COND:
            way_to(t, pc, be_s16(code + pc + 1), 1, ways);
            if (b + 1 < t->nblocks)
                ways[b + 1]++;
            break;
        case BLK_END_GOTO:
            way_to(t, pc, op == 0xc8 ? be_s32(code + pc + 1) : be_s16(code + pc + 1), 1, ways);
            break;
        case BLK_END_JSR:
            way_to(t, pc, op == 0xc9 ? be_s32(code + pc + 1) : be_s16(code + pc + 1), 1, ways);
            if (b + 1 < t->nblocks)
                ways[b + 1] += 2;
            break;
        case BLK_END_SWITCH: {
            uint32_t ops = (pc + 4) & ~3u;
            way_to(t, pc, be_s32(code + ops), 1, ways);
            if (op == 0xaa) {
                int64_t n = (int64_t)be_s32(code + ops + 8) - be_s32(code + ops + 4) + 1;
                for (int64_t i = 0; i < n; i++)
                    way_to(t, pc, be_s32(code + ops + 12 + 4 * i), 1, ways);
            } else {
                int64_t n = be_s32(code + ops + 4);
                for (int64_t i = 0; i < n; i++)
                    way_to(t, pc, be_s32(code + ops + 8 + 8 * i + 4), 1, ways);
            }
            break;
        }
        default:        /* return, athrow, ret: no edge of the code */
            break;
        }
    }
}

/* blk_seg_ends, inlined where blk_segment walks each instruction: the
 * invokes (0xb6-0xba), new (0xbb), newarray and anewarray (0xbc, 0xbd)
 * and multianewarray, the opcodes bc_flags gives BCF_NEWARRAY. */
static inline int seg_ends(uint8_t op)
{
    return (op >= BC_INVOKEVIRTUAL && op <= BC_ANEWARRAY) || op == BC_MULTIANEWARRAY;
}

int blk_seg_ends(uint8_t op)
{
    return seg_ends(op);
}

uint32_t blk_segment(const blk_table *t, const uint8_t *code, uint32_t b, uint32_t from, int *alloc)
{
    uint32_t n = 0;
    *alloc = 0;
    for (uint32_t pc = from; pc < t->blocks[b].end; pc++) {
        if (!(t->mark[pc] & BLK_MARK_INSN))
            continue;
        n++;
        if (seg_ends(code[pc])) {
            *alloc = code[pc] < BC_INVOKEVIRTUAL || code[pc] > BC_INVOKEDYNAMIC;
            break;
        }
    }
    return n;
}

/* Cut the blocks at the leaders and count each block's opcodes (the
 * code's nblocks leaders and ninsns instructions, counted as they were
 * marked). */
static int cut_blocks(blk_table *t, const uint8_t *code, uint32_t nblocks, uint32_t ninsns, char *err, size_t errlen)
{
    t->blocks = calloc(nblocks, sizeof *t->blocks);
    t->hist = calloc(ninsns, sizeof *t->hist);  /* at most one entry per instruction */
    if (t->blocks == NULL || t->hist == NULL) {
        errmsg_set(err, errlen, "out of memory for %u blocks", nblocks);
        return -1;
    }
    /* counts[] by opcode, and the block's distinct opcodes in ops[]: closing
     * a block sorts and clears only those, not all 256 counters (every
     * class the fast engine loads, JDK's included, passes through here, and
     * most blocks hold a handful of opcodes) */
    uint32_t counts[256] = {0};
    uint8_t ops[256];
    uint32_t nops = 0;
    blk_block *b = NULL;
    for (uint32_t pc = 0; pc <= t->code_len; pc++) {
        int at_end = pc == t->code_len;
        if (b != NULL && (at_end || (t->mark[pc] & BLK_MARK_LEADER))) {
            /* close block b: its histogram, sorted by opcode */
            b->end = pc;
            b->hist_first = t->nhist;
            for (uint32_t i = 1; i < nops; i++) { /* insertion sort: a few distinct opcodes */
                uint8_t op = ops[i];
                uint32_t j = i;
                for (; j > 0 && ops[j - 1] > op; j--)
                    ops[j] = ops[j - 1];
                ops[j] = op;
            }
            for (uint32_t i = 0; i < nops; i++) {
                t->hist[t->nhist++] = (blk_opcount){ops[i], counts[ops[i]]};
                counts[ops[i]] = 0;
            }
            nops = 0;
            b->hist_count = t->nhist - b->hist_first;
            int k = end_kind(code, b->last);
            b->end_kind = (uint8_t)(k < 0 ? BLK_END_FALL : k);
            b = NULL;
        }
        if (at_end)
            break;
        if (t->mark[pc] & BLK_MARK_LEADER) {
            b = &t->blocks[t->nblocks++];
            b->start = pc;
        }
        if (t->mark[pc] & BLK_MARK_INSN) {
            if (counts[code[pc]]++ == 0)
                ops[nops++] = code[pc];
            b->ninsns++;
            b->last = pc;
        }
    }
    return 0;
}

/* Check the exception table and mark its handlers as leaders. */
static int check_handlers(blk_table *t, const uint8_t *exc, uint16_t exc_count, uint32_t *leaders, char *err,
                          size_t errlen)
{
    for (uint32_t i = 0; i < exc_count; i++) {
        const uint8_t *e = exc + 8 * i;
        uint32_t start = be_u16(e), end = be_u16(e + 2), handler = be_u16(e + 4);
        if (start >= end || end > t->code_len || !(t->mark[start] & BLK_MARK_INSN) ||
            (end < t->code_len && !(t->mark[end] & BLK_MARK_INSN))) {
            errmsg_set(err, errlen, "exception table entry %u: range %u..%u is empty or not on "
                       "instruction boundaries of the %u bytes of code", i, start, end, t->code_len);
            return -1;
        }
        if (handler >= t->code_len || !(t->mark[handler] & BLK_MARK_INSN)) {
            errmsg_set(err, errlen, "exception table entry %u: handler %u is not an instruction start",
                       i, handler);
            return -1;
        }
        *leaders += !(t->mark[handler] & BLK_MARK_LEADER);
        t->mark[handler] |= BLK_MARK_LEADER;
    }
    return 0;
}

int blk_analyze(const uint8_t *code, uint32_t code_len, const uint8_t *exc, uint16_t exc_count,
                blk_table *t, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (t == NULL)
        return -1;
    memset(t, 0, sizeof *t);
    if (code == NULL || code_len == 0 || (exc == NULL && exc_count != 0)) {
        errmsg_set(err, errlen, "no code to split into blocks");
        return -1;
    }
    t->code_len = code_len;
    t->mark = calloc(code_len, 1);
    if (t->mark == NULL) {
        errmsg_set(err, errlen, "out of memory for %u bytes of code", code_len);
        return -1;
    }
    t->mark[0] = BLK_MARK_LEADER;
    uint32_t leaders = 1, ninsns = 0;
    for (uint32_t pc = 0; pc < code_len;) {
        uint32_t len = bc_insn_length(code, code_len, pc);
        if (len == 0) {
            errmsg_set(err, errlen, "offset %u: opcode 0x%02x is invalid or runs past the end "
                       "of the %u bytes of code", pc, code[pc], code_len);
            goto fail;
        }
        t->mark[pc] |= BLK_MARK_INSN;
        ninsns++;
        if (end_kind(code, pc) >= 0 && pc + len < code_len) {
            leaders += !(t->mark[pc + len] & BLK_MARK_LEADER);
            t->mark[pc + len] |= BLK_MARK_LEADER;
        }
        pc += len;
    }
    for (uint32_t pc = 0; pc < code_len; pc++)
        if ((t->mark[pc] & BLK_MARK_INSN) && mark_targets(t, code, pc, &leaders, err, errlen))
            goto fail;
    if (check_handlers(t, exc, exc_count, &leaders, err, errlen) || cut_blocks(t, code, leaders, ninsns, err, errlen))
        goto fail;
    return 0;

fail:
    blk_free(t);
    return -1;
}
