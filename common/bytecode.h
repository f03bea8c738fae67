/*
 * bytecode.h - the JVMS opcode table and instruction decoding.
 *
 * Pure C: no JVM, no allocation. The agent uses it to precompute, once per
 * method, what each bytecode offset needs on the per-step path; the scorer
 * and the calibrator use the mnemonic table to name histogram entries.
 */
#ifndef PSF_BYTECODE_H
#define PSF_BYTECODE_H

#include <stdint.h>

/* Opcodes the agent treats specially (JVMS chapter 6 values). */
enum {
    BC_NOP             = 0x00,
    BC_LDC             = 0x12,
    BC_LDC_W           = 0x13,
    BC_GOTO            = 0xa7,
    BC_TABLESWITCH     = 0xaa,
    BC_LOOKUPSWITCH    = 0xab,
    BC_IRETURN         = 0xac, /* the returns are 0xac..0xb1 */
    BC_RETURN          = 0xb1,
    BC_GETSTATIC       = 0xb2,
    BC_PUTSTATIC       = 0xb3,
    BC_INVOKEVIRTUAL   = 0xb6,
    BC_INVOKESPECIAL   = 0xb7,
    BC_INVOKESTATIC    = 0xb8,
    BC_INVOKEINTERFACE = 0xb9,
    BC_INVOKEDYNAMIC   = 0xba,
    BC_NEW             = 0xbb,
    BC_NEWARRAY        = 0xbc,
    BC_ANEWARRAY       = 0xbd,
    BC_ATHROW          = 0xbf,
    BC_WIDE            = 0xc4,
    BC_MULTIANEWARRAY  = 0xc5
};

/* Per-opcode properties, OR-ed together by bc_flags(). */
enum {
    BCF_VALID    = 1u << 0, /* defined by the JVMS for class files (0x00-0xc9) */
    BCF_INVOKE   = 1u << 1, /* invokevirtual/special/static/interface/dynamic */
    BCF_BRANCH   = 1u << 2, /* if*, goto, goto_w, jsr, jsr_w, ret, tableswitch, lookupswitch */
    BCF_RETURN   = 1u << 3, /* ireturn .. return */
    BCF_NEWARRAY = 1u << 4, /* newarray, anewarray, multianewarray */
    BCF_CPREF    = 1u << 5  /* operand is a constant-pool index (ldc*, field/invoke ops, new, anewarray, checkcast, instanceof, multianewarray) */
};

/* The JVMS mnemonic of an opcode ("iadd", "invokevirtual", "wide"), or NULL
 * for a byte that no valid class file contains (0xca-0xff). */
const char *bc_mnemonic(uint8_t op);

/* The opcode with that mnemonic, or -1. */
int bc_opcode(const char *mnemonic);

/* BCF_* flags of an opcode; 0 for invalid opcodes. */
unsigned bc_flags(uint8_t op);

/*
 * Length in bytes of the instruction that starts at code[pc], including the
 * padding of tableswitch/lookupswitch (which aligns to offsets counted from
 * the start of the method's code) and the wide prefix. Returns 0 when the
 * instruction is invalid or runs past code_len.
 */
uint32_t bc_insn_length(const uint8_t *code, uint32_t code_len, uint32_t pc);

/* 1 when the instruction at code[pc] is a goto to itself (an endless
 * loop: the step engine stops the run at its first execution, limits.c). */
static inline int bc_goto_self(const uint8_t *code, uint32_t code_len, uint32_t pc)
{
    return pc < code_len && code_len - pc >= 3 && code[pc] == BC_GOTO && code[pc + 1] == 0 && code[pc + 2] == 0;
}

/* Element type name of a newarray atype operand (4=boolean .. 11=long), or
 * NULL for an invalid atype. */
const char *bc_newarray_type(uint8_t atype);

#endif
