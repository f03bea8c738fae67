/*
 * bytes.h - the big-endian numbers of a class file, read from and written
 * into a byte array in place: the class file (JVMS 4) stores every u2 and
 * u4, every constant-pool index and every branch offset most significant
 * byte first. Shared by the class-file readers and the rewriter
 * (agent/classfile/), the opcode table's instruction lengths (bytecode.c),
 * every other part of the agent that reads an operand from a method's code
 * (a constant-pool index, a branch offset) or patches a class's bytes, and
 * their tests.
 *
 * The caller has checked that the bytes are there; nothing here checks a
 * bound. A signed read converts without relying on the implementation's
 * conversion of an out-of-range value to a signed type.
 */
#ifndef PSF_BYTES_H
#define PSF_BYTES_H

#include <stdint.h>

static inline uint16_t be_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be_u32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A branch offset of goto, if<cond> and the like. */
static inline int16_t be_s16(const uint8_t *p)
{
    uint16_t v = be_u16(p);
    return v <= INT16_MAX ? (int16_t)v : (int16_t)(-(int32_t)(uint16_t)~v - 1);
}

/* A branch offset of goto_w and jsr_w, a switch's offsets and bounds. */
static inline int32_t be_s32(const uint8_t *p)
{
    uint32_t v = be_u32(p);
    return v <= INT32_MAX ? (int32_t)v : -(int32_t)(~v) - 1;
}

static inline void be_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void be_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
