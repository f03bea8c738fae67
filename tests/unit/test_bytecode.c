/*
 * test_bytecode.c - unit tests for common/bytecode.c: the opcode table,
 * flags and instruction lengths. Decoding of real javac output (every
 * method of the fixtures, compared with javap) is in test_classfile.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bytecode.h"

/* Copy bytes into an exactly sized heap block, so that ASan catches any
 * read past code_len. The caller frees. */
static uint8_t *heap_copy(const uint8_t *src, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    if (n)
        memcpy(p, src, n);
    return p;
}

static uint32_t len_of(const uint8_t *code, uint32_t n, uint32_t pc)
{
    uint8_t *copy = heap_copy(code, n);
    uint32_t len = bc_insn_length(copy, n, pc);
    free(copy);
    return len;
}

static void put_s4(uint8_t *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    p[0] = (uint8_t)(u >> 24);
    p[1] = (uint8_t)(u >> 16);
    p[2] = (uint8_t)(u >> 8);
    p[3] = (uint8_t)u;
}

/* ---- mnemonics --------------------------------------------------------- */

static void bc_mnemonic__selected_opcodes__match_jvms_spelling(void **state)
{
    (void)state;
    static const struct { uint8_t op; const char *name; } cases[] = {
        {0x00, "nop"}, {0x01, "aconst_null"}, {0x02, "iconst_m1"}, {0x08, "iconst_5"},
        {0x0f, "dconst_1"}, {0x10, "bipush"}, {0x11, "sipush"}, {0x12, "ldc"},
        {0x13, "ldc_w"}, {0x14, "ldc2_w"}, {0x2d, "aload_3"}, {0x35, "saload"},
        {0x4e, "astore_3"}, {0x56, "sastore"}, {0x5f, "swap"}, {0x84, "iinc"},
        {0x93, "i2s"}, {0x98, "dcmpg"}, {0x99, "ifeq"}, {0xa2, "if_icmpge"},
        {0xa6, "if_acmpne"}, {0xa7, "goto"}, {0xa8, "jsr"}, {0xa9, "ret"},
        {0xaa, "tableswitch"}, {0xab, "lookupswitch"}, {0xb1, "return"},
        {0xb2, "getstatic"}, {0xb5, "putfield"}, {0xb9, "invokeinterface"},
        {0xba, "invokedynamic"}, {0xbb, "new"}, {0xbc, "newarray"}, {0xbf, "athrow"},
        {0xc1, "instanceof"}, {0xc3, "monitorexit"}, {0xc4, "wide"},
        {0xc5, "multianewarray"}, {0xc6, "ifnull"}, {0xc7, "ifnonnull"},
        {0xc8, "goto_w"}, {0xc9, "jsr_w"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_non_null(bc_mnemonic(cases[i].op));
        assert_string_equal(bc_mnemonic(cases[i].op), cases[i].name);
        assert_int_equal(bc_opcode(cases[i].name), cases[i].op);
    }
}

static void bc_mnemonic__every_valid_opcode__round_trips_and_is_unique(void **state)
{
    (void)state;
    for (int op = 0; op <= 0xc9; op++) {
        const char *name = bc_mnemonic((uint8_t)op);
        assert_non_null(name);
        assert_true(strlen(name) > 0);
        /* bc_opcode returns the first match, so a duplicate name fails here. */
        assert_int_equal(bc_opcode(name), op);
        for (const char *c = name; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
    }
}

/* The JVMS groups opcodes in runs; check whole runs by construction. */
static void bc_mnemonic__typed_runs__follow_jvms_order(void **state)
{
    (void)state;
    static const char types[] = "ilfda";
    char buf[32];
    for (int t = 0; t < 5; t++) {
        for (int k = 0; k < 4; k++) {
            snprintf(buf, sizeof buf, "%cload_%d", types[t], k);
            assert_int_equal(bc_opcode(buf), 0x1a + 4 * t + k);
            snprintf(buf, sizeof buf, "%cstore_%d", types[t], k);
            assert_int_equal(bc_opcode(buf), 0x3b + 4 * t + k);
        }
        snprintf(buf, sizeof buf, "%cload", types[t]);
        assert_int_equal(bc_opcode(buf), 0x15 + t);
        snprintf(buf, sizeof buf, "%cstore", types[t]);
        assert_int_equal(bc_opcode(buf), 0x36 + t);
        snprintf(buf, sizeof buf, "%creturn", types[t]);
        assert_int_equal(bc_opcode(buf), 0xac + t);
    }
    static const char arith[][4] = {"add", "sub", "mul", "div", "rem", "neg"};
    for (int a = 0; a < 6; a++)
        for (int t = 0; t < 4; t++) {
            snprintf(buf, sizeof buf, "%c%s", types[t], arith[a]);
            assert_int_equal(bc_opcode(buf), 0x60 + 4 * a + t);
        }
    static const char arrays[] = "ilfdabcs";
    for (int t = 0; t < 8; t++) {
        snprintf(buf, sizeof buf, "%caload", arrays[t]);
        assert_int_equal(bc_opcode(buf), 0x2e + t);
        snprintf(buf, sizeof buf, "%castore", arrays[t]);
        assert_int_equal(bc_opcode(buf), 0x4f + t);
    }
}

static void bc_mnemonic__reserved_and_unassigned__return_null(void **state)
{
    (void)state;
    for (int op = 0xca; op <= 0xff; op++) {
        assert_null(bc_mnemonic((uint8_t)op));
        assert_int_equal(bc_flags((uint8_t)op), 0);
    }
}

static void bc_opcode__unknown_names__return_minus_one(void **state)
{
    (void)state;
    assert_int_equal(bc_opcode(NULL), -1);
    assert_int_equal(bc_opcode(""), -1);
    assert_int_equal(bc_opcode("breakpoint"), -1);
    assert_int_equal(bc_opcode("impdep1"), -1);
    assert_int_equal(bc_opcode("IADD"), -1);
    assert_int_equal(bc_opcode("iadd "), -1);
    assert_int_equal(bc_opcode("iinc_w"), -1);
}

/* ---- flags ------------------------------------------------------------- */

static unsigned count_flag(unsigned flag)
{
    unsigned n = 0;
    for (int op = 0; op <= 0xff; op++)
        if (bc_flags((uint8_t)op) & flag)
            n++;
    return n;
}

static void bc_flags__each_category__has_the_jvms_members(void **state)
{
    (void)state;
    assert_int_equal(count_flag(BCF_VALID), 202);
    assert_int_equal(count_flag(BCF_INVOKE), 5);
    assert_int_equal(count_flag(BCF_RETURN), 6);
    assert_int_equal(count_flag(BCF_NEWARRAY), 3);
    /* ifeq..jsr (16), ret, tableswitch, lookupswitch, ifnull, ifnonnull,
     * goto_w, jsr_w */
    assert_int_equal(count_flag(BCF_BRANCH), 23);
    /* ldc, ldc_w, ldc2_w, 4 field ops, 5 invokes, new, anewarray, checkcast,
     * instanceof, multianewarray */
    assert_int_equal(count_flag(BCF_CPREF), 17);

    for (int op = BC_INVOKEVIRTUAL; op <= BC_INVOKEDYNAMIC; op++)
        assert_int_equal(bc_flags((uint8_t)op), BCF_VALID | BCF_INVOKE | BCF_CPREF);
    assert_int_equal(bc_flags(BC_NEWARRAY), BCF_VALID | BCF_NEWARRAY);
    assert_int_equal(bc_flags(BC_ANEWARRAY), BCF_VALID | BCF_NEWARRAY | BCF_CPREF);
    assert_int_equal(bc_flags(BC_MULTIANEWARRAY), BCF_VALID | BCF_NEWARRAY | BCF_CPREF);
    assert_int_equal(bc_flags(BC_TABLESWITCH), BCF_VALID | BCF_BRANCH);
    assert_int_equal(bc_flags(0xc8), BCF_VALID | BCF_BRANCH);          /* goto_w */
    assert_int_equal(bc_flags(0xc6), BCF_VALID | BCF_BRANCH);          /* ifnull */
    assert_int_equal(bc_flags(0xb1), BCF_VALID | BCF_RETURN);          /* return */
    assert_int_equal(bc_flags(0x12), BCF_VALID | BCF_CPREF);           /* ldc */
    assert_int_equal(bc_flags(BC_NEW), BCF_VALID | BCF_CPREF);
    assert_int_equal(bc_flags(BC_GETSTATIC), BCF_VALID | BCF_CPREF);
    assert_int_equal(bc_flags(BC_ATHROW), BCF_VALID);
    assert_int_equal(bc_flags(BC_WIDE), BCF_VALID);
    assert_int_equal(bc_flags(0x60), BCF_VALID);                       /* iadd */
}

static void bc_opcode__header_constants__match_the_table(void **state)
{
    (void)state;
    assert_int_equal(bc_opcode("tableswitch"), BC_TABLESWITCH);
    assert_int_equal(bc_opcode("lookupswitch"), BC_LOOKUPSWITCH);
    assert_int_equal(bc_opcode("getstatic"), BC_GETSTATIC);
    assert_int_equal(bc_opcode("invokevirtual"), BC_INVOKEVIRTUAL);
    assert_int_equal(bc_opcode("invokespecial"), BC_INVOKESPECIAL);
    assert_int_equal(bc_opcode("invokestatic"), BC_INVOKESTATIC);
    assert_int_equal(bc_opcode("invokeinterface"), BC_INVOKEINTERFACE);
    assert_int_equal(bc_opcode("invokedynamic"), BC_INVOKEDYNAMIC);
    assert_int_equal(bc_opcode("new"), BC_NEW);
    assert_int_equal(bc_opcode("newarray"), BC_NEWARRAY);
    assert_int_equal(bc_opcode("anewarray"), BC_ANEWARRAY);
    assert_int_equal(bc_opcode("athrow"), BC_ATHROW);
    assert_int_equal(bc_opcode("wide"), BC_WIDE);
    assert_int_equal(bc_opcode("multianewarray"), BC_MULTIANEWARRAY);
}

/* ---- lengths ----------------------------------------------------------- */

static uint32_t expected_fixed_length(uint8_t op)
{
    switch (op) {
    case 0x10: case 0x12: case 0xa9: case 0xbc:     /* bipush ldc ret newarray */
        return 2;
    case 0x11: case 0x13: case 0x14: case 0x84:     /* sipush ldc_w ldc2_w iinc */
    case 0xbb: case 0xbd: case 0xc0: case 0xc1:     /* new anewarray checkcast instanceof */
    case 0xc6: case 0xc7:                           /* ifnull ifnonnull */
    case 0xb2: case 0xb3: case 0xb4: case 0xb5:     /* field ops */
    case 0xb6: case 0xb7: case 0xb8:                /* invokevirtual/special/static */
        return 3;
    case 0xc5:                                      /* multianewarray */
        return 4;
    case 0xb9: case 0xba: case 0xc8: case 0xc9:     /* invokeinterface/dynamic goto_w jsr_w */
        return 5;
    default:
        if (op >= 0x15 && op <= 0x19)               /* iload..aload */
            return 2;
        if (op >= 0x36 && op <= 0x3a)               /* istore..astore */
            return 2;
        if (op >= 0x99 && op <= 0xa8)               /* if*, goto, jsr */
            return 3;
        return 1;
    }
}

static void bc_insn_length__fixed_forms__match_jvms_and_reject_truncation(void **state)
{
    (void)state;
    uint8_t code[8] = {0};
    for (int op = 0; op <= 0xc9; op++) {
        if (op == BC_TABLESWITCH || op == BC_LOOKUPSWITCH || op == BC_WIDE)
            continue;
        uint32_t want = expected_fixed_length((uint8_t)op);
        code[0] = (uint8_t)op;
        assert_int_equal(len_of(code, want, 0), want);
        assert_int_equal(len_of(code, sizeof code, 0), want);
        /* One byte short: must refuse without reading past the end. */
        assert_int_equal(len_of(code, want - 1, 0), 0);
    }
}

static void bc_insn_length__out_of_range_pc_or_null__returns_zero(void **state)
{
    (void)state;
    uint8_t code[2] = {0x00, 0x00};
    assert_int_equal(bc_insn_length(NULL, 2, 0), 0);
    assert_int_equal(len_of(code, 2, 2), 0);
    assert_int_equal(len_of(code, 2, 100), 0);
    assert_int_equal(len_of(code, 0, 0), 0);
    for (int op = 0xca; op <= 0xff; op++) {
        code[0] = (uint8_t)op;
        assert_int_equal(len_of(code, 2, 0), 0);
    }
}

static void bc_insn_length__wide_forms__are_4_or_6_bytes(void **state)
{
    (void)state;
    uint8_t code[6] = {BC_WIDE, 0, 1, 0x2c, 0x03, 0xe8};
    static const uint8_t four[] = {0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9};
    for (size_t i = 0; i < sizeof four; i++) {
        code[1] = four[i];
        assert_int_equal(len_of(code, 6, 0), 4);
        assert_int_equal(len_of(code, 4, 0), 4);
        assert_int_equal(len_of(code, 3, 0), 0);
    }
    code[1] = 0x84;     /* wide iinc 300, 1000 */
    assert_int_equal(len_of(code, 6, 0), 6);
    assert_int_equal(len_of(code, 5, 0), 0);
    assert_int_equal(len_of(code, 1, 0), 0);    /* wide with no opcode */
    /* Everything else after wide is invalid, including wide itself. */
    static const uint8_t bad[] = {0x00, 0x1a, 0x60, 0xa7, 0xb6, BC_WIDE, 0xca, 0xff};
    for (size_t i = 0; i < sizeof bad; i++) {
        code[1] = bad[i];
        assert_int_equal(len_of(code, 6, 0), 0);
    }
}

/* tableswitch at pc: pad to a multiple of 4, then default, low, high and
 * (high - low + 1) offsets. */
static void bc_insn_length__tableswitch__pads_relative_to_code_start(void **state)
{
    (void)state;
    for (uint32_t pc = 0; pc < 8; pc++) {
        uint8_t code[64] = {0};
        uint32_t ops = (pc + 4) & ~3u;
        code[pc] = BC_TABLESWITCH;
        put_s4(code + ops + 4, 1);          /* low */
        put_s4(code + ops + 8, 3);          /* high: 3 entries */
        uint32_t want = ops - pc + 12 + 3 * 4;
        assert_int_equal(want, 1 + (3 - pc % 4) + 24);
        assert_int_equal(len_of(code, pc + want, pc), want);
        assert_int_equal(len_of(code, sizeof code, pc), want);
        assert_int_equal(len_of(code, pc + want - 1, pc), 0);
        /* Cut inside the fixed operands. */
        assert_int_equal(len_of(code, ops + 11, pc), 0);
        assert_int_equal(len_of(code, pc + 1, pc), 0);
    }
}

static void bc_insn_length__tableswitch_single_and_negative_ranges__are_counted(void **state)
{
    (void)state;
    uint8_t code[32] = {0};
    code[0] = BC_TABLESWITCH;
    put_s4(code + 8, -2);
    put_s4(code + 12, -2);      /* one entry */
    assert_int_equal(len_of(code, sizeof code, 0), 4 + 12 + 4);
    put_s4(code + 8, -3);
    put_s4(code + 12, 0);       /* four entries */
    assert_int_equal(len_of(code, sizeof code, 0), 4 + 12 + 16);
}

static void bc_insn_length__absurd_switch_ranges__return_zero(void **state)
{
    (void)state;
    uint8_t code[64] = {0};
    code[0] = BC_TABLESWITCH;
    put_s4(code + 8, INT32_MIN);
    put_s4(code + 12, INT32_MAX);   /* 2^32 entries: far past the end */
    assert_int_equal(len_of(code, sizeof code, 0), 0);
    put_s4(code + 8, 5);
    put_s4(code + 12, 4);           /* high < low */
    assert_int_equal(len_of(code, sizeof code, 0), 0);
    put_s4(code + 8, INT32_MAX);
    put_s4(code + 12, INT32_MIN);
    assert_int_equal(len_of(code, sizeof code, 0), 0);

    code[0] = BC_LOOKUPSWITCH;
    put_s4(code + 8, -1);           /* negative npairs */
    assert_int_equal(len_of(code, sizeof code, 0), 0);
    put_s4(code + 8, INT32_MAX);
    assert_int_equal(len_of(code, sizeof code, 0), 0);
    put_s4(code + 8, INT32_MIN);
    assert_int_equal(len_of(code, sizeof code, 0), 0);
    /* A huge code_len must not help: sizes are checked in 64 bits. A
     * claimed length beyond the buffer would be a caller bug, so only the
     * arithmetic is exercised here with a real buffer. */
    put_s4(code + 8, 0x20000000);   /* npairs * 8 = 2^32 */
    assert_int_equal(len_of(code, sizeof code, 0), 0);
}

static void bc_insn_length__lookupswitch__pads_and_counts_pairs(void **state)
{
    (void)state;
    for (uint32_t pc = 0; pc < 8; pc++) {
        uint8_t code[64] = {0};
        uint32_t ops = (pc + 4) & ~3u;
        code[pc] = BC_LOOKUPSWITCH;
        put_s4(code + ops + 4, 2);          /* npairs */
        uint32_t want = ops - pc + 8 + 2 * 8;
        assert_int_equal(len_of(code, pc + want, pc), want);
        assert_int_equal(len_of(code, pc + want - 1, pc), 0);
        put_s4(code + ops + 4, 0);          /* default only */
        assert_int_equal(len_of(code, pc + ops - pc + 8, pc), ops - pc + 8);
    }
}

/* Every instruction and every code length up to a small bound: never a
 * crash, never a length that ends past code_len. ASan watches the reads. */
static void bc_insn_length__all_opcodes_all_short_lengths__stay_in_bounds(void **state)
{
    (void)state;
    uint8_t code[24];
    for (int op = 0; op <= 0xff; op++) {
        for (int fill = 0; fill < 3; fill++) {
            memset(code, fill == 0 ? 0x00 : fill == 1 ? 0xff : 0x01, sizeof code);
            code[0] = (uint8_t)op;
            if (op == BC_WIDE)
                code[1] = 0x84;
            for (uint32_t n = 0; n <= sizeof code; n++) {
                uint32_t len = len_of(code, n, 0);
                assert_true(len <= n);
            }
        }
    }
}

/* A hand-assembled method: each instruction's length moves pc onto the next
 * one and the walk ends exactly at code_len. */
static void bc_insn_length__hand_assembled_method__walk_lands_on_code_len(void **state)
{
    (void)state;
    static const uint8_t code[] = {
        0x1a,                                   /*  0 iload_0 */
        0xaa, 0, 0,                             /*  1 tableswitch, pad to 4 */
        0, 0, 0, 28, 0, 0, 0, 0, 0, 0, 0, 1,    /*  4 default, low 0, high 1 */
        0, 0, 0, 28, 0, 0, 0, 28,               /* 16 two offsets */
        0xc4, 0x84, 0x01, 0x2c, 0x03, 0xe8,     /* 24 wide iinc 300, 1000 */
        0xc5, 0x00, 0x02, 0x02,                 /* 30 multianewarray #2, 2 */
        0xb9, 0x00, 0x03, 0x01, 0x00,           /* 34 invokeinterface #3, 1 */
        0xc8, 0x00, 0x00, 0x00, 0x00,           /* 39 goto_w */
        0xab, 0, 0, 0,                          /* 44 lookupswitch, pad */
        0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0,  /* 48 default, npairs 1, pair */
        0xb1,                                   /* 64 return */
    };
    static const uint32_t starts[] = {0, 1, 24, 30, 34, 39, 44, 64};
    uint8_t *copy = heap_copy(code, sizeof code);
    uint32_t pc = 0;
    size_t k = 0;
    while (pc < sizeof code) {
        assert_true(k < sizeof starts / sizeof starts[0]);
        assert_int_equal(pc, starts[k++]);
        uint32_t len = bc_insn_length(copy, sizeof code, pc);
        assert_true(len > 0);
        pc += len;
    }
    assert_int_equal(pc, sizeof code);
    assert_int_equal(k, sizeof starts / sizeof starts[0]);
    free(copy);
}

/* ---- newarray ---------------------------------------------------------- */

static void bc_newarray_type__atypes_4_to_11__name_primitives(void **state)
{
    (void)state;
    static const char *const want[] = {"boolean", "char", "float", "double",
                                       "byte", "short", "int", "long"};
    for (int t = 4; t <= 11; t++)
        assert_string_equal(bc_newarray_type((uint8_t)t), want[t - 4]);
    for (int t = 0; t < 4; t++)
        assert_null(bc_newarray_type((uint8_t)t));
    for (int t = 12; t <= 0xff; t++)
        assert_null(bc_newarray_type((uint8_t)t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc_mnemonic__selected_opcodes__match_jvms_spelling),
        cmocka_unit_test(bc_mnemonic__every_valid_opcode__round_trips_and_is_unique),
        cmocka_unit_test(bc_mnemonic__typed_runs__follow_jvms_order),
        cmocka_unit_test(bc_mnemonic__reserved_and_unassigned__return_null),
        cmocka_unit_test(bc_opcode__unknown_names__return_minus_one),
        cmocka_unit_test(bc_opcode__header_constants__match_the_table),
        cmocka_unit_test(bc_flags__each_category__has_the_jvms_members),
        cmocka_unit_test(bc_insn_length__fixed_forms__match_jvms_and_reject_truncation),
        cmocka_unit_test(bc_insn_length__out_of_range_pc_or_null__returns_zero),
        cmocka_unit_test(bc_insn_length__wide_forms__are_4_or_6_bytes),
        cmocka_unit_test(bc_insn_length__tableswitch__pads_relative_to_code_start),
        cmocka_unit_test(bc_insn_length__tableswitch_single_and_negative_ranges__are_counted),
        cmocka_unit_test(bc_insn_length__absurd_switch_ranges__return_zero),
        cmocka_unit_test(bc_insn_length__lookupswitch__pads_and_counts_pairs),
        cmocka_unit_test(bc_insn_length__all_opcodes_all_short_lengths__stay_in_bounds),
        cmocka_unit_test(bc_insn_length__hand_assembled_method__walk_lands_on_code_len),
        cmocka_unit_test(bc_newarray_type__atypes_4_to_11__name_primitives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
