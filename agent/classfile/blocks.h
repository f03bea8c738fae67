/*
 * blocks.h - a method's bytecode split into basic blocks, with the opcode
 * histogram of each block.
 *
 * Pure C, no JVM. The fast counting engine puts one probe at the start of
 * every block (instrument.h); a block's probe count times the block's
 * histogram then gives exactly the opcodes the step engine counts one by one,
 * as long as control enters the block at its start and leaves it at its end.
 * The analysis is also the validation of the method's code for the rewriter:
 * every instruction must decode, every branch, switch and exception-table
 * offset must name an instruction start.
 */
#ifndef PSF_BLOCKS_H
#define PSF_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/* How a block ends: what its last instruction is. */
enum {
    BLK_END_FALL = 0,   /* falls into the next block (the next one is a branch target or handler) */
    BLK_END_COND,       /* if<cond>, if_icmp<cond>, if_acmp<cond>, ifnull, ifnonnull */
    BLK_END_GOTO,       /* goto, goto_w */
    BLK_END_SWITCH,     /* tableswitch, lookupswitch */
    BLK_END_RETURN,     /* ireturn .. return */
    BLK_END_THROW,      /* athrow */
    BLK_END_JSR,        /* jsr, jsr_w (class files before version 50) */
    BLK_END_RET         /* ret, wide ret */
};

/* Per-offset marks in blk_table.mark. */
enum {
    BLK_MARK_INSN   = 1u << 0,  /* an instruction starts here */
    BLK_MARK_LEADER = 1u << 1,  /* ... and a block starts with it */
    BLK_MARK_TARGET = 1u << 2   /* ... and a branch, switch or jsr jumps here */
};

/* One opcode's count within a block. */
typedef struct blk_opcount {
    uint8_t op;                 /* the opcode byte (wide counts as 0xc4, as the step engine counts it) */
    uint32_t count;             /* times it occurs in the block */
} blk_opcount;

typedef struct blk_block {
    uint32_t start, end;        /* the block's bytes in the original code: [start, end) */
    uint32_t ninsns;            /* bytecodes in the block */
    uint32_t last;              /* offset of its last instruction */
    uint32_t hist_first;        /* its histogram: hist[hist_first .. hist_first + hist_count) */
    uint32_t hist_count;        /* distinct opcodes, sorted by opcode */
    uint8_t end_kind;           /* BLK_END_* */
} blk_block;

typedef struct blk_table {
    uint32_t code_len;
    uint8_t *mark;              /* owned: code_len BLK_MARK_* bytes */
    blk_block *blocks;          /* owned: in code order; blocks[0].start is 0 */
    uint32_t nblocks;
    blk_opcount *hist;          /* owned: the blocks' histograms, one after another */
    uint32_t nhist;
} blk_table;

/*
 * Split code[0..code_len) into basic blocks. exc points at exc_count
 * exception_table entries (8 bytes each, JVMS 4.7.3) or is NULL when
 * exc_count is 0. A block starts at offset 0, at every branch, switch and
 * jsr target, at every exception handler, and after every conditional or
 * unconditional branch, switch, return, athrow, jsr and ret.
 *
 * Returns 0 and fills *t (free with blk_free), or -1 with a message in err
 * when the code is malformed: an undecodable or truncated instruction, a
 * target outside the code or inside an instruction, an exception range that
 * is empty or does not start and end on instruction boundaries, a handler
 * that is not an instruction start. *t is then empty and safe to blk_free.
 */
int blk_analyze(const uint8_t *code, uint32_t code_len, const uint8_t *exc, uint16_t exc_count,
                blk_table *t, char *err, size_t errlen);
void blk_free(blk_table *t);

/* Index of the block containing offset pc, or -1 when pc is outside the code. */
int32_t blk_find(const blk_table *t, uint32_t pc);

/*
 * The ways into each block of an analyzed method (code and exception table
 * as given to blk_analyze): ways[b] for every block b, counting the
 * method's entry (block 0), each branch, switch entry and jsr that jumps to
 * the block, and the fall-through from the block before it; an exception
 * handler and the instruction after a jsr (where a ret returns) count two,
 * as neither is one edge of the code. A block with one way in is entered
 * only along that edge: the fast engine moves the outcome of a conditional
 * branch into the probe of such a successor (instrument.h, fold_method).
 */
void blk_ways_in(const blk_table *t, const uint8_t *code, const uint8_t *exc, uint16_t exc_count, uint32_t *ways);

/*
 * Segments: a block's instructions split after every invoke (invokedynamic
 * too) and every allocation (new, newarray, anewarray,
 * multianewarray), the instructions blk_seg_ends says end one. A frame
 * waits only at an invoke, where a segment ends, so counting bytecodes by
 * segments gives the exact position wherever a frame waits (the fast
 * engine's closeness, docs/fast-engine.md).
 */
int blk_seg_ends(uint8_t op);

/* The segment that starts at offset `from` of block b (an instruction start
 * in it, or its end): its bytecodes up to and including the first that
 * ends a segment, else to the block's end; *alloc is set to 1 when an
 * allocation ends it, else 0. */
uint32_t blk_segment(const blk_table *t, const uint8_t *code, uint32_t b, uint32_t from, int *alloc);

#endif
