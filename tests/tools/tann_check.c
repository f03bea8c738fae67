/*
 * tann_check.c - the oracle of relocated type annotations on code
 * (tann_check.h), shared by the rewriter's unit test and its fuzzer, so
 * that both hold the rewriter to one reading of the attribute.
 */
#include "tann_check.h"
#include "bytes.h"

#include <string.h>

#define TANN_MAX_DEPTH 64   /* as deep as the rewriter walks element values */

/* Where the code for original offset old begins in the rewritten method:
 * the first new offset that maps back to it (the code's end for the
 * code's end); UINT32_MAX when old starts no instruction. */
static uint32_t starts_at(const ins_method *im, const cf_method *o, const cf_method *m, uint32_t old)
{
    if (old == o->code_len)
        return m->code_len;
    uint32_t lo = 0, hi = im->npcs;     /* pcs in code order */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (im->pcs[mid].old < old)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == im->npcs || im->pcs[lo].old != old)
        return UINT32_MAX;
    uint32_t pc = im->pcs[lo].start;
    if (ins_original_offset(im, pc, NULL) != (int64_t)old || (pc > 0 && ins_original_offset(im, pc - 1, NULL) == (int64_t)old))
        return UINT32_MAX;
    return pc;
}

/* Move *p past an element_value within end; -1 when it does not fit. */
static int skip_ev(const uint8_t **p, const uint8_t *end, unsigned depth)
{
    if (*p >= end || depth > TANN_MAX_DEPTH)
        return -1;
    uint8_t tag = *(*p)++;
    uint32_t n;
    switch (tag) {
    case 'e':
        n = 4;
        break;
    case '@':
        if (end - *p < 4)
            return -1;
        n = be_u16(*p + 2);
        *p += 4;
        for (uint32_t k = 0; k < n; k++) {
            if (end - *p < 2)
                return -1;
            *p += 2;
            if (skip_ev(p, end, depth + 1))
                return -1;
        }
        return 0;
    case '[':
        if (end - *p < 2)
            return -1;
        n = be_u16(*p);
        *p += 2;
        for (uint32_t k = 0; k < n; k++)
            if (skip_ev(p, end, depth + 1))
                return -1;
        return 0;
    default:
        n = 2;
    }
    if ((size_t)(end - *p) < n)
        return -1;
    *p += n;
    return 0;
}

int tann_check(const uint8_t *ob, const uint8_t *nb, uint32_t len, const ins_method *im, const cf_method *o,
               const cf_method *m, uint32_t *offsets)
{
    const uint8_t *p = ob, *end = ob + len;
    uint32_t checked = 0;
    if (len < 2 || be_u16(nb) != be_u16(ob))
        return -1;
    uint32_t n = be_u16(p);
    p += 2;
    for (uint32_t k = 0; k < n; k++) {
        if (p >= end)
            return -1;
        uint8_t target = *p++;
        const uint8_t *q = p;   /* what stays the same from here */
        if (target == 0x40 || target == 0x41) {     /* localvar_target: start_pc, length, index */
            if (end - p < 2)
                return -1;
            uint32_t entries = be_u16(p);
            p += 2;
            if ((size_t)(end - p) < 6u * entries)
                return -1;
            for (uint32_t j = 0; j < entries; j++, p += 6) {
                const uint8_t *e = nb + (p - ob);
                uint32_t os = be_u16(p), ns = starts_at(im, o, m, os), ne = starts_at(im, o, m, os + be_u16(p + 2));
                if (ns == UINT32_MAX || ne == UINT32_MAX || be_u16(e) != ns || be_u16(e + 2) != ne - ns ||
                    memcmp(e + 4, p + 4, 2) != 0)
                    return -1;
                checked += 2;
            }
            q = p;
        } else if (target >= 0x43 && target <= 0x4b) { /* an instruction's offset, then (0x47-0x4b) an index */
            if (end - p < (target <= 0x46 ? 2 : 3))
                return -1;
            int in_probe;
            uint32_t old = be_u16(p), nw = be_u16(nb + (p - ob));
            if (old >= o->code_len || nw >= m->code_len || ins_original_offset(im, nw, &in_probe) != (int64_t)old ||
                in_probe || m->code[nw] != o->code[old])
                return -1;
            checked++;
            p += 2;
            q = p;
            p += target <= 0x46 ? 0 : 1;
        } else if (target == 0x42) {                /* catch_target: an exception table index, kept */
            if (end - p < 2)
                return -1;
            p += 2;
        } else {
            return -1;  /* the rewriter relocates no other target */
        }
        if (p >= end || (size_t)(end - p - 1) < 2u * p[0])     /* type_path */
            return -1;
        p += 1 + 2u * p[0];
        if (end - p < 4)
            return -1;
        uint32_t pairs = be_u16(p + 2);
        p += 4;
        for (uint32_t j = 0; j < pairs; j++) {
            if (end - p < 2)
                return -1;
            p += 2;
            if (skip_ev(&p, end, 0))
                return -1;
        }
        if (memcmp(nb + (q - ob), q, (size_t)(p - q)) != 0)
            return -1;
    }
    if (p != end)
        return -1;
    if (offsets)
        *offsets = checked;
    return 0;
}
