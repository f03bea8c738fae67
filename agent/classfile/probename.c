/*
 * probename.c - the probe class's name for the run, and its class file
 * renamed (probename.h).
 */
#include "probename.h"
#include "bytes.h"
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t probe_name_hash(const char *internal)
{
    uint32_t h = 0;
    for (const char *p = internal; *p; p++)
        h = 31 * h + (uint8_t)(*p == '/' ? '.' : *p);
    return (int32_t)h;
}

/* 31^k mod 2^64 */
static uint64_t pow31(unsigned k)
{
    uint64_t v = 1;
    while (k-- > 0)
        v *= 31;
    return v;
}

void probe_name_make(const uint8_t rnd[PROBE_NAME_RANDOM], char out[PROBE_NAME_LEN + 1])
{
    static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const size_t base = sizeof PROBE_NAME_COMPILED - 1, free_chars = PROBE_NAME_RANDOM - PROBE_NAME_FIT;
    memcpy(out, PROBE_NAME_COMPILED, base);
    for (size_t i = 0; i < free_chars; i++)
        out[base + i] = alnum[rnd[i] % (sizeof alnum - 1)];
    out[base + free_chars] = '\0';
    /*
     * hash = hash(prefix) * 31^FIT + sum c_j * 31^(FIT-1-j) (mod 2^32),
     * c_j = '`' + d_j with digits d_j in 0..30: the digits' value V in
     * 0 .. 31^FIT - 1 (more than 2^32 of them) must be congruent to what
     * the target leaves; of the values that are, the last random byte
     * picks one.
     */
    uint64_t ones = 0;
    for (unsigned k = 0; k < PROBE_NAME_FIT; k++)
        ones += pow31(k);
    uint32_t have = (uint32_t)probe_name_hash(out) * (uint32_t)pow31(PROBE_NAME_FIT) + (uint32_t)('`' * ones);
    uint64_t r = (uint32_t)((uint32_t)PROBE_NAME_HASH - have);
    uint64_t top = pow31(PROBE_NAME_FIT); /* V < top */
    uint64_t choices = (top - 1 - r) / ((uint64_t)1 << 32) + 1;
    uint64_t v = r + (uint64_t)(rnd[PROBE_NAME_RANDOM - 1] % choices) * ((uint64_t)1 << 32);
    for (unsigned j = PROBE_NAME_FIT; j-- > 0;) {
        out[base + free_chars + j] = (char)('`' + v % 31);
        v /= 31;
    }
    out[PROBE_NAME_LEN] = '\0';
}

/* The size of constant-pool entry `tag` after its tag byte (a Utf8's is read from it); 0 for an unknown tag. */
static size_t entry_size(uint8_t tag)
{
    switch (tag) {
    case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: return 4; /* Integer, Float, refs, NameAndType, Dynamic */
    case 5: case 6: return 8;                      /* Long, Double */
    case 7: case 8: case 16: case 19: case 20: return 2; /* Class, String, MethodType, Module, Package */
    case 15: return 3;                             /* MethodHandle */
    default: return 0;
    }
}

/* Append n bytes to out (its capacity checked by the caller's bound). */
static void put(uint8_t *out, size_t *at, const void *p, size_t n)
{
    memcpy(out + *at, p, n);
    *at += n;
}

int probe_class_rename(const uint8_t *in, size_t len, const char *from, const char *to, uint8_t **out,
                       size_t *out_len, char *err, size_t errlen)
{
    *out = NULL;
    *out_len = 0;
    size_t nf = strlen(from), nt = strlen(to);
    if (nf == 0 || len < 10 || in[0] != 0xCA || in[1] != 0xFE || in[2] != 0xBA || in[3] != 0xBE) {
        errmsg_set(err, errlen, "not a class file");
        return -1;
    }
    /* each occurrence of `from` grows by at most nt - nf bytes */
    size_t cap = len + (nt > nf ? (len / nf + 1) * (nt - nf) : 0);
    uint8_t *o = malloc(cap);
    if (o == NULL) {
        errmsg_set(err, errlen, "out of memory");
        return -1;
    }
    size_t at = 0, p = 10, renamed = 0;
    put(o, &at, in, 10);
    unsigned count = be_u16(in + 8);
    for (unsigned i = 1; i < count; i++) {
        if (p >= len)
            goto truncated;
        uint8_t tag = in[p];
        if (tag != 1) {
            size_t n = entry_size(tag);
            if (n == 0) {
                errmsg_set(err, errlen, "constant %u has an unknown tag %u", i, (unsigned)tag);
                goto fail;
            }
            if (p + 1 + n > len)
                goto truncated;
            put(o, &at, in + p, 1 + n);
            p += 1 + n;
            if (tag == 5 || tag == 6)
                i++; /* a Long or Double takes two slots */
            continue;
        }
        if (p + 3 > len)
            goto truncated;
        size_t n = be_u16(in + p + 1);
        const uint8_t *s = in + p + 3;
        if (p + 3 + n > len)
            goto truncated;
        size_t head = at;
        at += 3; /* tag and length, written below */
        if (n == nf && memcmp(s, from, nf) == 0) {
            put(o, &at, to, nt);
            renamed++;
        } else {
            for (size_t k = 0; k < n;) {
                if (s[k] == 'L' && k + 1 + nf < n && s[k + 1 + nf] == ';' && memcmp(s + k + 1, from, nf) == 0) {
                    put(o, &at, "L", 1);
                    put(o, &at, to, nt);
                    k += 1 + nf;
                    continue;
                }
                put(o, &at, s + k, 1);
                k++;
            }
        }
        size_t m = at - head - 3;
        if (m > 0xffff) {
            errmsg_set(err, errlen, "constant %u grows past 65535 bytes", i);
            goto fail;
        }
        o[head] = 1;
        be_put_u16(o + head + 1, (uint16_t)m);
        p += 3 + n;
    }
    if (renamed == 0) {
        errmsg_set(err, errlen, "the class file does not name %s", from);
        goto fail;
    }
    put(o, &at, in + p, len - p);
    *out = o;
    *out_len = at;
    return 0;
truncated:
    errmsg_set(err, errlen, "the constant pool is truncated");
fail:
    free(o);
    return -1;
}
