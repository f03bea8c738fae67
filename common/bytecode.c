/*
 * bytecode.c - the JVMS opcode table and instruction decoding.
 *
 * One table, indexed by opcode, holds each opcode's mnemonic (spelled as in
 * JVMS chapter 6), its BCF_* flags and its fixed length. The three
 * variable-length instructions (tableswitch, lookupswitch, wide) have length
 * 0 in the table and are decoded by bc_insn_length().
 *
 * Choices:
 *  - Only 0x00-0xc9 are valid. 0xca (breakpoint) and 0xfe/0xff (impdep1/2)
 *    are reserved opcodes that never appear in a class file, so they get no
 *    mnemonic, no flags and no length, like the unassigned bytes.
 *  - Switch padding is not required to be zero (JVMS 7+ dropped that rule).
 *  - Switch sizes are computed in 64 bits, so low=INT32_MIN/high=INT32_MAX
 *    or a huge npairs is simply "runs past code_len", never an overflow.
 *  - The caller guarantees that code[0..code_len) is readable; nothing at or
 *    beyond code_len is ever read.
 */
#include "bytecode.h"
#include "bytes.h"

#include <stddef.h>
#include <string.h>

typedef struct bc_info {
    const char *name;   /* JVMS mnemonic */
    uint8_t len;        /* fixed length in bytes; 0 = variable (switches, wide) */
    uint8_t flags;      /* BCF_* without BCF_VALID (added by bc_flags) */
} bc_info;

#define BR  BCF_BRANCH
#define INV (BCF_INVOKE | BCF_CPREF)
#define RET BCF_RETURN
#define CP  BCF_CPREF
#define NA  BCF_NEWARRAY

/* Indexed by opcode 0x00..0xc9; the designated initializers make the table
 * checkable line by line against JVMS chapter 7 ("Opcode Mnemonics by
 * Opcode"). */
static const bc_info table[0xca] = {
    [0x00] = {"nop", 1, 0},
    [0x01] = {"aconst_null", 1, 0},
    [0x02] = {"iconst_m1", 1, 0},
    [0x03] = {"iconst_0", 1, 0},
    [0x04] = {"iconst_1", 1, 0},
    [0x05] = {"iconst_2", 1, 0},
    [0x06] = {"iconst_3", 1, 0},
    [0x07] = {"iconst_4", 1, 0},
    [0x08] = {"iconst_5", 1, 0},
    [0x09] = {"lconst_0", 1, 0},
    [0x0a] = {"lconst_1", 1, 0},
    [0x0b] = {"fconst_0", 1, 0},
    [0x0c] = {"fconst_1", 1, 0},
    [0x0d] = {"fconst_2", 1, 0},
    [0x0e] = {"dconst_0", 1, 0},
    [0x0f] = {"dconst_1", 1, 0},
    [0x10] = {"bipush", 2, 0},
    [0x11] = {"sipush", 3, 0},
    [0x12] = {"ldc", 2, CP},
    [0x13] = {"ldc_w", 3, CP},
    [0x14] = {"ldc2_w", 3, CP},
    [0x15] = {"iload", 2, 0},
    [0x16] = {"lload", 2, 0},
    [0x17] = {"fload", 2, 0},
    [0x18] = {"dload", 2, 0},
    [0x19] = {"aload", 2, 0},
    [0x1a] = {"iload_0", 1, 0},
    [0x1b] = {"iload_1", 1, 0},
    [0x1c] = {"iload_2", 1, 0},
    [0x1d] = {"iload_3", 1, 0},
    [0x1e] = {"lload_0", 1, 0},
    [0x1f] = {"lload_1", 1, 0},
    [0x20] = {"lload_2", 1, 0},
    [0x21] = {"lload_3", 1, 0},
    [0x22] = {"fload_0", 1, 0},
    [0x23] = {"fload_1", 1, 0},
    [0x24] = {"fload_2", 1, 0},
    [0x25] = {"fload_3", 1, 0},
    [0x26] = {"dload_0", 1, 0},
    [0x27] = {"dload_1", 1, 0},
    [0x28] = {"dload_2", 1, 0},
    [0x29] = {"dload_3", 1, 0},
    [0x2a] = {"aload_0", 1, 0},
    [0x2b] = {"aload_1", 1, 0},
    [0x2c] = {"aload_2", 1, 0},
    [0x2d] = {"aload_3", 1, 0},
    [0x2e] = {"iaload", 1, 0},
    [0x2f] = {"laload", 1, 0},
    [0x30] = {"faload", 1, 0},
    [0x31] = {"daload", 1, 0},
    [0x32] = {"aaload", 1, 0},
    [0x33] = {"baload", 1, 0},
    [0x34] = {"caload", 1, 0},
    [0x35] = {"saload", 1, 0},
    [0x36] = {"istore", 2, 0},
    [0x37] = {"lstore", 2, 0},
    [0x38] = {"fstore", 2, 0},
    [0x39] = {"dstore", 2, 0},
    [0x3a] = {"astore", 2, 0},
    [0x3b] = {"istore_0", 1, 0},
    [0x3c] = {"istore_1", 1, 0},
    [0x3d] = {"istore_2", 1, 0},
    [0x3e] = {"istore_3", 1, 0},
    [0x3f] = {"lstore_0", 1, 0},
    [0x40] = {"lstore_1", 1, 0},
    [0x41] = {"lstore_2", 1, 0},
    [0x42] = {"lstore_3", 1, 0},
    [0x43] = {"fstore_0", 1, 0},
    [0x44] = {"fstore_1", 1, 0},
    [0x45] = {"fstore_2", 1, 0},
    [0x46] = {"fstore_3", 1, 0},
    [0x47] = {"dstore_0", 1, 0},
    [0x48] = {"dstore_1", 1, 0},
    [0x49] = {"dstore_2", 1, 0},
    [0x4a] = {"dstore_3", 1, 0},
    [0x4b] = {"astore_0", 1, 0},
    [0x4c] = {"astore_1", 1, 0},
    [0x4d] = {"astore_2", 1, 0},
    [0x4e] = {"astore_3", 1, 0},
    [0x4f] = {"iastore", 1, 0},
    [0x50] = {"lastore", 1, 0},
    [0x51] = {"fastore", 1, 0},
    [0x52] = {"dastore", 1, 0},
    [0x53] = {"aastore", 1, 0},
    [0x54] = {"bastore", 1, 0},
    [0x55] = {"castore", 1, 0},
    [0x56] = {"sastore", 1, 0},
    [0x57] = {"pop", 1, 0},
    [0x58] = {"pop2", 1, 0},
    [0x59] = {"dup", 1, 0},
    [0x5a] = {"dup_x1", 1, 0},
    [0x5b] = {"dup_x2", 1, 0},
    [0x5c] = {"dup2", 1, 0},
    [0x5d] = {"dup2_x1", 1, 0},
    [0x5e] = {"dup2_x2", 1, 0},
    [0x5f] = {"swap", 1, 0},
    [0x60] = {"iadd", 1, 0},
    [0x61] = {"ladd", 1, 0},
    [0x62] = {"fadd", 1, 0},
    [0x63] = {"dadd", 1, 0},
    [0x64] = {"isub", 1, 0},
    [0x65] = {"lsub", 1, 0},
    [0x66] = {"fsub", 1, 0},
    [0x67] = {"dsub", 1, 0},
    [0x68] = {"imul", 1, 0},
    [0x69] = {"lmul", 1, 0},
    [0x6a] = {"fmul", 1, 0},
    [0x6b] = {"dmul", 1, 0},
    [0x6c] = {"idiv", 1, 0},
    [0x6d] = {"ldiv", 1, 0},
    [0x6e] = {"fdiv", 1, 0},
    [0x6f] = {"ddiv", 1, 0},
    [0x70] = {"irem", 1, 0},
    [0x71] = {"lrem", 1, 0},
    [0x72] = {"frem", 1, 0},
    [0x73] = {"drem", 1, 0},
    [0x74] = {"ineg", 1, 0},
    [0x75] = {"lneg", 1, 0},
    [0x76] = {"fneg", 1, 0},
    [0x77] = {"dneg", 1, 0},
    [0x78] = {"ishl", 1, 0},
    [0x79] = {"lshl", 1, 0},
    [0x7a] = {"ishr", 1, 0},
    [0x7b] = {"lshr", 1, 0},
    [0x7c] = {"iushr", 1, 0},
    [0x7d] = {"lushr", 1, 0},
    [0x7e] = {"iand", 1, 0},
    [0x7f] = {"land", 1, 0},
    [0x80] = {"ior", 1, 0},
    [0x81] = {"lor", 1, 0},
    [0x82] = {"ixor", 1, 0},
    [0x83] = {"lxor", 1, 0},
    [0x84] = {"iinc", 3, 0},
    [0x85] = {"i2l", 1, 0},
    [0x86] = {"i2f", 1, 0},
    [0x87] = {"i2d", 1, 0},
    [0x88] = {"l2i", 1, 0},
    [0x89] = {"l2f", 1, 0},
    [0x8a] = {"l2d", 1, 0},
    [0x8b] = {"f2i", 1, 0},
    [0x8c] = {"f2l", 1, 0},
    [0x8d] = {"f2d", 1, 0},
    [0x8e] = {"d2i", 1, 0},
    [0x8f] = {"d2l", 1, 0},
    [0x90] = {"d2f", 1, 0},
    [0x91] = {"i2b", 1, 0},
    [0x92] = {"i2c", 1, 0},
    [0x93] = {"i2s", 1, 0},
    [0x94] = {"lcmp", 1, 0},
    [0x95] = {"fcmpl", 1, 0},
    [0x96] = {"fcmpg", 1, 0},
    [0x97] = {"dcmpl", 1, 0},
    [0x98] = {"dcmpg", 1, 0},
    [0x99] = {"ifeq", 3, BR},
    [0x9a] = {"ifne", 3, BR},
    [0x9b] = {"iflt", 3, BR},
    [0x9c] = {"ifge", 3, BR},
    [0x9d] = {"ifgt", 3, BR},
    [0x9e] = {"ifle", 3, BR},
    [0x9f] = {"if_icmpeq", 3, BR},
    [0xa0] = {"if_icmpne", 3, BR},
    [0xa1] = {"if_icmplt", 3, BR},
    [0xa2] = {"if_icmpge", 3, BR},
    [0xa3] = {"if_icmpgt", 3, BR},
    [0xa4] = {"if_icmple", 3, BR},
    [0xa5] = {"if_acmpeq", 3, BR},
    [0xa6] = {"if_acmpne", 3, BR},
    [0xa7] = {"goto", 3, BR},
    [0xa8] = {"jsr", 3, BR},
    [0xa9] = {"ret", 2, BR},
    [0xaa] = {"tableswitch", 0, BR},
    [0xab] = {"lookupswitch", 0, BR},
    [0xac] = {"ireturn", 1, RET},
    [0xad] = {"lreturn", 1, RET},
    [0xae] = {"freturn", 1, RET},
    [0xaf] = {"dreturn", 1, RET},
    [0xb0] = {"areturn", 1, RET},
    [0xb1] = {"return", 1, RET},
    [0xb2] = {"getstatic", 3, CP},
    [0xb3] = {"putstatic", 3, CP},
    [0xb4] = {"getfield", 3, CP},
    [0xb5] = {"putfield", 3, CP},
    [0xb6] = {"invokevirtual", 3, INV},
    [0xb7] = {"invokespecial", 3, INV},
    [0xb8] = {"invokestatic", 3, INV},
    [0xb9] = {"invokeinterface", 5, INV},
    [0xba] = {"invokedynamic", 5, INV},
    [0xbb] = {"new", 3, CP},
    [0xbc] = {"newarray", 2, NA},
    [0xbd] = {"anewarray", 3, NA | CP},
    [0xbe] = {"arraylength", 1, 0},
    [0xbf] = {"athrow", 1, 0},
    [0xc0] = {"checkcast", 3, CP},
    [0xc1] = {"instanceof", 3, CP},
    [0xc2] = {"monitorenter", 1, 0},
    [0xc3] = {"monitorexit", 1, 0},
    [0xc4] = {"wide", 0, 0},
    [0xc5] = {"multianewarray", 4, NA | CP},
    [0xc6] = {"ifnull", 3, BR},
    [0xc7] = {"ifnonnull", 3, BR},
    [0xc8] = {"goto_w", 5, BR},
    [0xc9] = {"jsr_w", 5, BR},
};

#undef BR
#undef INV
#undef RET
#undef CP
#undef NA

#define N_OPCODES (sizeof table / sizeof table[0])

const char *bc_mnemonic(uint8_t op)
{
    return op < N_OPCODES ? table[op].name : NULL;
}

int bc_opcode(const char *mnemonic)
{
    if (mnemonic == NULL)
        return -1;
    for (size_t op = 0; op < N_OPCODES; op++)
        if (strcmp(table[op].name, mnemonic) == 0)
            return (int)op;
    return -1;
}

unsigned bc_flags(uint8_t op)
{
    return op < N_OPCODES ? (unsigned)table[op].flags | BCF_VALID : 0u;
}

const char *bc_newarray_type(uint8_t atype)
{
    static const char *const names[] = {
        "boolean", "char", "float", "double", "byte", "short", "int", "long"
    };
    return atype >= 4 && atype <= 11 ? names[atype - 4] : NULL;
}

/*
 * tableswitch and lookupswitch: 0-3 padding bytes so that the operands start
 * at a multiple of four from the start of the code, then the fixed operands
 * (default, low, high / default, npairs), then the jump table. Everything in
 * 64 bits: pc < code_len <= UINT32_MAX, and the table is at most 2^32 * 8
 * bytes, so no sum can overflow.
 */
static uint32_t switch_length(const uint8_t *code, uint32_t code_len, uint32_t pc, int table_form)
{
    uint64_t ops = ((uint64_t)pc + 4) & ~(uint64_t)3;   /* first operand byte */
    uint64_t fixed = table_form ? 12 : 8;
    if (ops + fixed > code_len)
        return 0;
    uint64_t entries_bytes;
    if (table_form) {
        int64_t low = be_s32(code + ops + 4), high = be_s32(code + ops + 8);
        if (high < low)
            return 0;
        entries_bytes = (uint64_t)(high - low + 1) * 4;
    } else {
        int32_t npairs = be_s32(code + ops + 4);
        if (npairs < 0)
            return 0;
        entries_bytes = (uint64_t)npairs * 8;
    }
    uint64_t end = ops + fixed + entries_bytes;
    if (end > code_len)
        return 0;
    return (uint32_t)(end - pc);
}

uint32_t bc_insn_length(const uint8_t *code, uint32_t code_len, uint32_t pc)
{
    if (code == NULL || pc >= code_len)
        return 0;
    uint8_t op = code[pc];
    if (op >= N_OPCODES)
        return 0;
    uint32_t avail = code_len - pc;
    uint32_t len = table[op].len;

    if (op == BC_TABLESWITCH || op == BC_LOOKUPSWITCH)
        return switch_length(code, code_len, pc, op == BC_TABLESWITCH);

    if (op == BC_WIDE) {
        if (avail < 2)
            return 0;
        switch (code[pc + 1]) {
        case 0x84:                              /* wide iinc: index u2, const s2 */
            len = 6;
            break;
        case 0x15: case 0x16: case 0x17: case 0x18: case 0x19:  /* iload..aload */
        case 0x36: case 0x37: case 0x38: case 0x39: case 0x3a:  /* istore..astore */
        case 0xa9:                                              /* ret */
            len = 4;
            break;
        default:
            return 0;
        }
    }
    return len <= avail ? len : 0;
}
