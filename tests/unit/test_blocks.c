/*
 * test_blocks.c - unit tests for agent/classfile/blocks.c: basic blocks and their
 * histograms, from bytecode written out by hand (offsets and opcodes from
 * JVMS chapter 6; the counted loop is javac's Loops.sum of
 * tests/fixtures/agent, whose counts tests/integration/agent_counts.sh
 * derives by hand: 9n + 9 bytecodes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "blocks.h"
#include "bytecode.h"

/* Loops.sum(int n): s = 0; for (i = 0; i < n; i++) s += i; return s; */
static const uint8_t loop_code[] = {
    0x03,             /*  0 iconst_0 */
    0x3c,             /*  1 istore_1 */
    0x03,             /*  2 iconst_0 */
    0x3d,             /*  3 istore_2 */
    0x1c,             /*  4 iload_2 */
    0x1a,             /*  5 iload_0 */
    0xa2, 0x00, 0x0d, /*  6 if_icmpge 19 */
    0x1b,             /*  9 iload_1 */
    0x1c,             /* 10 iload_2 */
    0x60,             /* 11 iadd */
    0x3c,             /* 12 istore_1 */
    0x84, 0x02, 0x01, /* 13 iinc 2, 1 */
    0xa7, 0xff, 0xf4, /* 16 goto 4 */
    0x1b,             /* 19 iload_1 */
    0xac              /* 20 ireturn */
};

static uint32_t hist_of(const blk_table *t, uint32_t b, uint8_t op)
{
    const blk_block *bl = &t->blocks[b];
    for (uint32_t k = 0; k < bl->hist_count; k++)
        if (t->hist[bl->hist_first + k].op == op)
            return t->hist[bl->hist_first + k].count;
    return 0;
}

static void blk_analyze__counted_loop__four_blocks_give_9n_plus_9(void **state)
{
    (void)state;
    blk_table t;
    char err[160];
    assert_int_equal(blk_analyze(loop_code, sizeof loop_code, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 4);
    static const uint32_t start[] = {0, 4, 9, 19}, end[] = {4, 9, 19, 21}, ninsns[] = {4, 3, 6, 2};
    static const uint8_t kind[] = {BLK_END_FALL, BLK_END_COND, BLK_END_GOTO, BLK_END_RETURN};
    for (uint32_t b = 0; b < 4; b++) {
        assert_int_equal(t.blocks[b].start, start[b]);
        assert_int_equal(t.blocks[b].end, end[b]);
        assert_int_equal(t.blocks[b].ninsns, ninsns[b]);
        assert_int_equal(t.blocks[b].end_kind, kind[b]);
    }
    /* block hits for n: 1, n + 1, n, 1 */
    uint64_t n = 1000, hits[] = {1, n + 1, n, 1}, total = 0;
    for (uint32_t b = 0; b < 4; b++)
        total += hits[b] * t.blocks[b].ninsns;
    assert_int_equal(total, 9 * n + 9);
    /* block 0: iconst_0 twice; block 2: one each of six opcodes */
    assert_int_equal(hist_of(&t, 0, 0x03), 2);
    assert_int_equal(t.blocks[0].hist_count, 3);
    assert_int_equal(t.blocks[2].hist_count, 6);
    assert_int_equal(hist_of(&t, 2, 0x84), 1);
    assert_int_equal(hist_of(&t, 1, 0xa2), 1);
    assert_int_equal(t.blocks[1].last, 6);
    /* histograms are sorted by opcode and add up to the block's length */
    for (uint32_t b = 0; b < t.nblocks; b++) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < t.blocks[b].hist_count; k++) {
            sum += t.hist[t.blocks[b].hist_first + k].count;
            if (k > 0)
                assert_true(t.hist[t.blocks[b].hist_first + k - 1].op < t.hist[t.blocks[b].hist_first + k].op);
        }
        assert_int_equal(sum, t.blocks[b].ninsns);
    }
    assert_true(t.mark[4] & BLK_MARK_TARGET);
    assert_false(t.mark[9] & BLK_MARK_TARGET);   /* a fall-through leader, not a target */
    assert_true(t.mark[9] & BLK_MARK_LEADER);
    assert_false(t.mark[7] & BLK_MARK_INSN);
    assert_int_equal(blk_find(&t, 0), 0);
    assert_int_equal(blk_find(&t, 8), 1);
    assert_int_equal(blk_find(&t, 18), 2);
    assert_int_equal(blk_find(&t, 20), 3);
    assert_int_equal(blk_find(&t, 21), -1);
    blk_free(&t);
}

static void blk_analyze__switches__every_target_and_the_next_insn_lead(void **state)
{
    (void)state;
    /* 0 iload_0; 1 tableswitch (pad 2) default 36, low 0, high 1: 28, 32;
     * 24 lookupswitch at... built below with exact offsets */
    uint8_t code[64];
    memset(code, 0, sizeof code);
    size_t p = 0;
    code[p++] = 0x1a;                       /* 0 iload_0 */
    code[p++] = 0xaa;                       /* 1 tableswitch */
    p = 4;                                  /* pad to 4 */
    uint8_t ts[] = {0, 0, 0, 27,  0, 0, 0, 0,  0, 0, 0, 1,  0, 0, 0, 23,  0, 0, 0, 25};
    memcpy(code + p, ts, sizeof ts);        /* default 1+27=28, 0 -> 24, 1 -> 26 */
    p += sizeof ts;                         /* 24 */
    code[p++] = 0x1a;                       /* 24 iload_0 */
    code[p++] = 0xac;                       /* 25 ireturn */
    code[p++] = 0x04;                       /* 26 iconst_1 */
    code[p++] = 0xac;                       /* 27 ireturn */
    code[p++] = 0x1a;                       /* 28 iload_0 */
    code[p++] = 0xab;                       /* 29 lookupswitch, pad 2 */
    p = 32;
    uint8_t ls[] = {0xff, 0xff, 0xff, 0xfc,  0, 0, 0, 1,  0, 0, 0, 7,  0xff, 0xff, 0xff, 0xfb};
    memcpy(code + p, ls, sizeof ls);        /* default 29-4=25, key 7 -> 29-5=24 */
    p += sizeof ls;                         /* 48 */
    blk_table t;
    char err[160];
    assert_int_equal(blk_analyze(code, (uint32_t)p, NULL, 0, &t, err, sizeof err), 0);
    static const uint32_t leaders[] = {0, 24, 25, 26, 28};
    assert_int_equal(t.nblocks, 5);
    for (uint32_t b = 0; b < 5; b++)
        assert_int_equal(t.blocks[b].start, leaders[b]);
    assert_int_equal(t.blocks[0].end_kind, BLK_END_SWITCH);
    assert_int_equal(t.blocks[0].ninsns, 2);
    assert_int_equal(t.blocks[4].end_kind, BLK_END_SWITCH);
    assert_int_equal(t.blocks[4].end, 48);
    blk_free(&t);

    /* a table entry into the middle of the switch itself */
    code[4 + 15] = 3;                       /* 0 -> 1 + 3 = 4, inside the tableswitch */
    assert_int_equal(blk_analyze(code, (uint32_t)p, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "tableswitch at offset 1 jumps to offset 4, inside an instruction"));
    assert_null(t.blocks);
}

static void blk_analyze__exception_handlers__lead_blocks_and_ranges_are_checked(void **state)
{
    (void)state;
    /* 0 aconst_null 1 invokestatic #2 4 pop 5 return 6 astore_0 7 return */
    static const uint8_t code[] = {0x01, 0xb8, 0x00, 0x02, 0x57, 0xb1, 0x4b, 0xb1};
    uint8_t exc[8] = {0, 0, 0, 5, 0, 6, 0, 0};  /* [0, 5) -> 6, any */
    blk_table t;
    char err[160];
    assert_int_equal(blk_analyze(code, sizeof code, exc, 1, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 2);             /* the invoke ends no block, nor does the range */
    assert_int_equal(t.blocks[0].ninsns, 4);
    assert_int_equal(t.blocks[1].start, 6);
    assert_false(t.mark[6] & BLK_MARK_TARGET);
    blk_free(&t);

    struct { uint8_t e[8]; const char *msg; } bad[] = {
        {{0, 2, 0, 5, 0, 6, 0, 0}, "not on instruction boundaries"},   /* starts inside invokestatic */
        {{0, 5, 0, 5, 0, 6, 0, 0}, "is empty"},
        {{0, 0, 0, 9, 0, 6, 0, 0}, "of the 8 bytes"},                  /* ends past the code */
        {{0, 0, 0, 5, 0, 3, 0, 0}, "handler 3 is not an instruction start"},
        {{0, 0, 0, 5, 0, 8, 0, 0}, "handler 8 is not an instruction start"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(blk_analyze(code, sizeof code, bad[k].e, 1, &t, err, sizeof err), -1);
        assert_non_null(strstr(err, "exception table entry 0"));
        assert_true(strstr(err, bad[k].msg) != NULL || strstr(err, "empty or not on") != NULL);
        blk_free(&t);
    }
    /* end == code_len is allowed */
    uint8_t all[8] = {0, 0, 0, 8, 0, 6, 0, 0};
    assert_int_equal(blk_analyze(code, sizeof code, all, 1, &t, err, sizeof err), 0);
    blk_free(&t);
}

static void blk_analyze__jsr_ret_and_wide__end_blocks_of_their_kind(void **state)
{
    (void)state;
    /* 0 jsr 6; 3 goto 13 (goto_w); 8? built exactly: */
    static const uint8_t code[] = {
        0xa8, 0x00, 0x08,             /* 0 jsr 8 */
        0xc8, 0x00, 0x00, 0x00, 0x0a, /* 3 goto_w 13 */
        0x4c,                         /* 8 astore_1 */
        0xc4, 0xa9, 0x00, 0x01,       /* 9 wide ret 1 */
        0xc4, 0x84, 0x00, 0x01, 0x00, 0x02, /* 13 wide iinc 1, 2 */
        0xb1                          /* 19 return */
    };
    blk_table t;
    char err[160];
    assert_int_equal(blk_analyze(code, sizeof code, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 4);
    assert_int_equal(t.blocks[0].end_kind, BLK_END_JSR);
    assert_int_equal(t.blocks[1].end_kind, BLK_END_GOTO);
    assert_int_equal(t.blocks[2].start, 8);
    assert_int_equal(t.blocks[2].end_kind, BLK_END_RET);
    assert_int_equal(t.blocks[3].start, 13);
    assert_int_equal(t.blocks[3].ninsns, 2);    /* a wide iinc is one bytecode, counted as wide */
    assert_int_equal(hist_of(&t, 3, BC_WIDE), 1);
    assert_int_equal(hist_of(&t, 3, 0x84), 0);
    blk_free(&t);
    /* jsr_w and a ret that is not wide */
    static const uint8_t code2[] = {
        0xc9, 0x00, 0x00, 0x00, 0x06, /* 0 jsr_w 6 */
        0xb1,                         /* 5 return */
        0x4c,                         /* 6 astore_1 */
        0xa9, 0x01                    /* 7 ret 1 */
    };
    assert_int_equal(blk_analyze(code2, sizeof code2, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 3);
    assert_int_equal(t.blocks[0].end_kind, BLK_END_JSR);
    assert_int_equal(t.blocks[1].end_kind, BLK_END_RETURN);
    assert_int_equal(t.blocks[2].start, 6);
    assert_int_equal(t.blocks[2].end_kind, BLK_END_RET);
    blk_free(&t);
}

static void blk_analyze__malformed_code__rejected_with_the_offset(void **state)
{
    (void)state;
    blk_table t;
    char err[160];
    static const uint8_t trunc[] = {0x03, 0x11, 0x00};          /* sipush needs 2 bytes */
    assert_int_equal(blk_analyze(trunc, sizeof trunc, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 1: opcode 0x11"));
    static const uint8_t invalid[] = {0x00, 0xca};              /* breakpoint */
    assert_int_equal(blk_analyze(invalid, sizeof invalid, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset 1: opcode 0xca"));
    static const uint8_t out[] = {0xa7, 0x00, 0x04, 0xb1};      /* goto 4 = code_len */
    assert_int_equal(blk_analyze(out, sizeof out, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "goto at offset 0 jumps to offset 4, outside the code"));
    static const uint8_t back[] = {0x00, 0xa7, 0xff, 0xfe};     /* goto -1 */
    assert_int_equal(blk_analyze(back, sizeof back, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "offset -1"));
    static const uint8_t mid[] = {0xa7, 0x00, 0x01, 0xb1};      /* goto into its own operand */
    assert_int_equal(blk_analyze(mid, sizeof mid, NULL, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "inside an instruction"));
    assert_int_equal(blk_analyze(NULL, 0, NULL, 0, &t, err, sizeof err), -1);
    assert_int_equal(blk_analyze(loop_code, sizeof loop_code, NULL, 1, &t, err, sizeof err), -1);
    assert_int_equal(blk_analyze(loop_code, sizeof loop_code, NULL, 0, NULL, err, sizeof err), -1);
    blk_free(&t);
    blk_free(NULL);
}

static void blk_ways_in__branches_jsr_and_handlers__edges_counted_per_block(void **state)
{
    (void)state;
    blk_table t;
    char err[160];
    uint32_t ways[8];
    /* the counted loop: entry; the test (fall-through and the back edge);
     * the body (the test's fall-through); the exit (the test's target) */
    assert_int_equal(blk_analyze(loop_code, sizeof loop_code, NULL, 0, &t, err, sizeof err), 0);
    blk_ways_in(&t, loop_code, NULL, 0, ways);
    static const uint32_t loop_ways[] = {1, 2, 1, 1};
    for (uint32_t b = 0; b < 4; b++)
        assert_int_equal(ways[b], loop_ways[b]);
    blk_free(&t);

    /* 0 iload_0; 1 ifeq 7; 4 iconst_0; 5 istore_0; 6 nop; 7 jsr 12;
     * 10 return; 11 nop (the handler of [0, 7)); 12 astore_1; 13 ret 1 */
    static const uint8_t code[] = {0x1a, 0x99, 0x00, 0x06, 0x03, 0x3b, 0x00, 0xa8, 0x00, 0x05, 0xb1,
                                   0x00, 0x4c, 0xa9, 0x01};
    static const uint8_t exc[] = {0, 0, 0, 7, 0, 11, 0, 0};
    assert_int_equal(blk_analyze(code, sizeof code, exc, 1, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 6);
    blk_ways_in(&t, code, exc, 1, ways);
    /* 0: the entry; 4: the ifeq's fall-through; 7: its target and the
     * fall-through from 4; 10: the jsr's return point (two); 11: the
     * handler (two); 12: the jsr and the fall-through from 11 */
    static const uint32_t want[] = {1, 1, 2, 2, 2, 2};
    for (uint32_t b = 0; b < 6; b++)
        if (ways[b] != want[b])
            fail_msg("block %u (offset %u): %u ways in, want %u", b, t.blocks[b].start, ways[b], want[b]);
    blk_free(&t);

    /* 0 iload_0; 1 tableswitch (pad to 4) default 24, 0 -> 24, 1 -> 26;
     * 24 iconst_0; 25 ireturn; 26 iconst_1; 27 goto_w 24: the default, a
     * case and the goto_w land on 24, the other case on 26 */
    static const uint8_t sw_all[] = {0x1a, 0xaa, 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 23,
                                     0, 0, 0, 25, 0x03, 0xac, 0x04, 0xc8, 0xff, 0xff, 0xff, 0xfd};
    assert_int_equal(blk_analyze(sw_all, sizeof sw_all, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 3);
    blk_ways_in(&t, sw_all, NULL, 0, ways);
    assert_int_equal(ways[0], 1);
    assert_int_equal(ways[1], 3);       /* default, case 0, the goto_w */
    assert_int_equal(ways[2], 1);       /* case 1 */
    blk_free(&t);
}

static void blk_segment__invokes_and_allocations__end_segments(void **state)
{
    (void)state;
    /* 0 aload_0; 1 invokevirtual #2; 4 new #3; 7 dup; 8 invokedynamic #4;
     * 13 iconst_2; 14 newarray int; 16 pop; 17 invokespecial #5; 20 return */
    static const uint8_t code[] = {0x2a, 0xb6, 0x00, 0x02, 0xbb, 0x00, 0x03, 0x59, 0xba, 0x00, 0x04, 0x00, 0x00,
                                   0x05, 0xbc, 0x0a, 0x57, 0xb7, 0x00, 0x05, 0xb1};
    blk_table t;
    char err[160];
    assert_int_equal(blk_analyze(code, sizeof code, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, 1);
    /* from, bytecodes, an allocation ends it */
    static const uint32_t cases[][3] = {{0, 2, 0}, {4, 1, 1}, {7, 2, 0}, {13, 2, 1}, {16, 2, 0}, {20, 1, 0}, {21, 0, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int alloc = -1;
        uint32_t n = blk_segment(&t, code, 0, cases[k][0], &alloc);
        if (n != cases[k][1] || alloc != (int)cases[k][2])
            fail_msg("segment from %u: %u bytecodes (alloc %d), want %u (alloc %u)", cases[k][0], n, alloc,
                     cases[k][1], cases[k][2]);
    }
    blk_free(&t);
    /* the instructions that end one: invokes (invokedynamic too), new, the array instructions */
    static const uint8_t ends[] = {0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xc5};
    for (size_t k = 0; k < sizeof ends; k++)
        assert_true(blk_seg_ends(ends[k]));
    static const uint8_t not_ends[] = {0xb4, 0xb5, 0xb2, 0xb3, 0xbe, 0xbf, 0xc0, 0x00};
    for (size_t k = 0; k < sizeof not_ends; k++)
        assert_false(blk_seg_ends(not_ends[k]));
    /* every opcode: the invokes, new, and what bc_flags calls an array instruction */
    for (unsigned op = 0; op < 256; op++) {
        int want = (op >= BC_INVOKEVIRTUAL && op <= BC_INVOKEDYNAMIC) || op == BC_NEW ||
                   (bc_flags((uint8_t)op) & BCF_NEWARRAY);
        if (blk_seg_ends((uint8_t)op) != want)
            fail_msg("blk_seg_ends(0x%02x) is %d, want %d", op, blk_seg_ends((uint8_t)op), want);
    }
}

/* Every 3-byte code: analysis never reads out of bounds (ASan) and, when it
 * succeeds, the blocks tile the code and their lengths add up. */
static void blk_analyze__every_three_byte_code__blocks_tile_the_code(void **state)
{
    (void)state;
    uint8_t code[3];
    uint32_t ok = 0;
    for (uint32_t v = 0; v < (1u << 24); v += 13) {
        code[0] = (uint8_t)(v >> 16);
        code[1] = (uint8_t)(v >> 8);
        code[2] = (uint8_t)v;
        uint8_t *heap = malloc(3);  /* exact size: ASan sees any overread */
        assert_non_null(heap);
        memcpy(heap, code, 3);
        blk_table t;
        if (blk_analyze(heap, 3, NULL, 0, &t, NULL, 0) == 0) {
            ok++;
            uint32_t pos = 0, insns = 0;
            for (uint32_t b = 0; b < t.nblocks; b++) {
                assert_int_equal(t.blocks[b].start, pos);
                assert_true(t.blocks[b].end > pos);
                pos = t.blocks[b].end;
                insns += t.blocks[b].ninsns;
            }
            assert_int_equal(pos, 3);
            uint32_t marked = 0;
            for (uint32_t i = 0; i < 3; i++)
                marked += (t.mark[i] & BLK_MARK_INSN) != 0;
            assert_int_equal(insns, marked);
        }
        blk_free(&t);
        free(heap);
    }
    assert_true(ok > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blk_analyze__counted_loop__four_blocks_give_9n_plus_9),
        cmocka_unit_test(blk_analyze__switches__every_target_and_the_next_insn_lead),
        cmocka_unit_test(blk_analyze__exception_handlers__lead_blocks_and_ranges_are_checked),
        cmocka_unit_test(blk_analyze__jsr_ret_and_wide__end_blocks_of_their_kind),
        cmocka_unit_test(blk_analyze__malformed_code__rejected_with_the_offset),
        cmocka_unit_test(blk_analyze__every_three_byte_code__blocks_tile_the_code),
        cmocka_unit_test(blk_ways_in__branches_jsr_and_handlers__edges_counted_per_block),
        cmocka_unit_test(blk_segment__invokes_and_allocations__end_segments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
