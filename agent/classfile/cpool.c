/*
 * cpool.c - a bounds-checked reader for a class file's constant pool.
 *
 * cp_parse() makes two passes. The first walks the cp_info entries, checks
 * every tag and length against the input and records where each entry
 * starts. The second checks every reference between entries (a Methodref's
 * class_index names a Class, whose name_index names a Utf8, ...), so a pool
 * that parses is internally consistent. The accessors check index and tags
 * again on every call: they are cheap, and the caller's bytes are not ours,
 * so they must stay safe even if the pool is queried with garbage indices.
 *
 * Choices:
 *  - Utf8 contents are checked only for the two JVMS 4.4.7 hard rules (no
 *    byte 0x00, no byte in 0xf0-0xff); the multi-byte structure is not
 *    decoded, since nothing here needs code points.
 *  - A Long or Double in the last slot (its second slot would be index
 *    count) is an error, as in HotSpot.
 *  - MethodHandle: reference_kind must be 1-9; kinds 1-4 must name a
 *    Fieldref, 5 and 8 a Methodref, 6 and 7 a Methodref or
 *    InterfaceMethodref (the version-dependent part of JVMS 4.4.8 needs the
 *    class version, which a bare pool does not have), 9 an
 *    InterfaceMethodref.
 *  - Descriptors and names are not checked for syntax here (see names.h).
 */
#include "cpool.h"
#include "bytes.h"
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_ENTRY UINT32_MAX     /* offsets[] value of slot 0 and Long/Double second slots */

static const char *tag_name(int tag)
{
    switch (tag) {
    case CP_UTF8: return "Utf8";
    case CP_INTEGER: return "Integer";
    case CP_FLOAT: return "Float";
    case CP_LONG: return "Long";
    case CP_DOUBLE: return "Double";
    case CP_CLASS: return "Class";
    case CP_STRING: return "String";
    case CP_FIELDREF: return "Fieldref";
    case CP_METHODREF: return "Methodref";
    case CP_INTERFACE_METHODREF: return "InterfaceMethodref";
    case CP_NAME_AND_TYPE: return "NameAndType";
    case CP_METHOD_HANDLE: return "MethodHandle";
    case CP_METHOD_TYPE: return "MethodType";
    case CP_DYNAMIC: return "Dynamic";
    case CP_INVOKE_DYNAMIC: return "InvokeDynamic";
    case CP_MODULE: return "Module";
    case CP_PACKAGE: return "Package";
    default: return "unusable slot";
    }
}

/* Size of the fixed part of an entry after its tag byte, or 0 for an
 * unknown tag. Utf8's is its length field; the bytes follow. */
static size_t body_size(int tag)
{
    switch (tag) {
    case CP_UTF8: return 2;
    case CP_CLASS: case CP_STRING: case CP_METHOD_TYPE:
    case CP_MODULE: case CP_PACKAGE: return 2;
    case CP_METHOD_HANDLE: return 3;
    case CP_INTEGER: case CP_FLOAT: case CP_FIELDREF: case CP_METHODREF:
    case CP_INTERFACE_METHODREF: case CP_NAME_AND_TYPE:
    case CP_DYNAMIC: case CP_INVOKE_DYNAMIC: return 4;
    case CP_LONG: case CP_DOUBLE: return 8;
    default: return 0;
    }
}

void cp_free(cpool *cp)
{
    if (cp == NULL)
        return;
    free(cp->offsets);
    memset(cp, 0, sizeof *cp);
}

/* cp_tag, inlined in this file's accessors (the rewriter asks them for
 * every invoke of every class the fast engine loads) */
static inline int tag_of(const cpool *cp, uint16_t idx)
{
    if (cp == NULL || idx == 0 || idx >= cp->count || cp->offsets == NULL)
        return 0;
    uint32_t off = cp->offsets[idx];
    return off == NO_ENTRY ? 0 : cp->bytes[off];
}

int cp_tag(const cpool *cp, uint16_t idx)
{
    return tag_of(cp, idx);
}

/* The bytes after the tag of entry idx if it has tag `tag`, else NULL. */
static inline const uint8_t *body(const cpool *cp, uint16_t idx, int tag)
{
    if (tag_of(cp, idx) != tag)
        return NULL;
    return cp->bytes + cp->offsets[idx] + 1;
}

/* 1 when the n bytes at s hold neither 0x00 nor a byte in 0xf0-0xff (JVMS
 * 4.4.7), eight at a time: every class's names pass through here. */
static int utf8_bytes_ok(const uint8_t *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u, f0 = 0xf0f0f0f0f0f0f0f0u;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x;
        memcpy(&x, s + k, 8);
        uint64_t y = (x & f0) ^ f0;     /* a zero byte where x's byte is 0xf0-0xff */
        if (((x - ones) & ~x & highs) | ((y - ones) & ~y & highs))
            return 0;
    }
    for (; k < n; k++)
        if (s[k] == 0 || s[k] >= 0xf0)
            return 0;
    return 1;
}

/* Check that entry `idx` (referenced from entry `from`'s field `what`) has
 * one of the tags in `want` (0-terminated). */
static int check_ref(const cpool *cp, uint16_t from, const char *what, uint16_t idx,
                     const int *want, char *err, size_t errlen)
{
    int tag = tag_of(cp, idx);
    for (const int *w = want; *w; w++)
        if (tag == *w)
            return 0;
    const char *from_name = tag_name(tag_of(cp, from));
    if (idx == 0 || idx >= cp->count)
        errmsg_set(err, errlen, "constant pool index %u: %s %s %u is out of range (1..%u)",
             from, from_name, what, idx, cp->count - 1u);
    else
        errmsg_set(err, errlen, "constant pool index %u: %s %s %u should be %s%s%s, is %s",
             from, from_name, what, idx, tag_name(want[0]), want[1] ? " or " : "",
             want[1] ? tag_name(want[1]) : "",
             tag ? tag_name(tag) : "the second slot of a Long or Double");
    return -1;
}

/* Pass 2: every reference from entry i points at an entry of the right tag. */
static int check_entry(const cpool *cp, uint16_t i, char *err, size_t errlen)
{
    static const int utf8[] = {CP_UTF8, 0}, cls[] = {CP_CLASS, 0}, nat[] = {CP_NAME_AND_TYPE, 0},
                     field[] = {CP_FIELDREF, 0}, meth[] = {CP_METHODREF, 0},
                     imeth[] = {CP_INTERFACE_METHODREF, 0},
                     any_meth[] = {CP_METHODREF, CP_INTERFACE_METHODREF, 0};
    int tag = tag_of(cp, i);
    if (tag == 0)
        return 0;
    const uint8_t *b = cp->bytes + cp->offsets[i] + 1;
    switch (tag) {
    case CP_CLASS:
    case CP_MODULE:
    case CP_PACKAGE:
        return check_ref(cp, i, "name_index", be_u16(b), utf8, err, errlen);
    case CP_STRING:
        return check_ref(cp, i, "string_index", be_u16(b), utf8, err, errlen);
    case CP_METHOD_TYPE:
        return check_ref(cp, i, "descriptor_index", be_u16(b), utf8, err, errlen);
    case CP_FIELDREF:
    case CP_METHODREF:
    case CP_INTERFACE_METHODREF:
        if (check_ref(cp, i, "class_index", be_u16(b), cls, err, errlen))
            return -1;
        return check_ref(cp, i, "name_and_type_index", be_u16(b + 2), nat, err, errlen);
    case CP_NAME_AND_TYPE:
        if (check_ref(cp, i, "name_index", be_u16(b), utf8, err, errlen))
            return -1;
        return check_ref(cp, i, "descriptor_index", be_u16(b + 2), utf8, err, errlen);
    case CP_DYNAMIC:
    case CP_INVOKE_DYNAMIC:
        return check_ref(cp, i, "name_and_type_index", be_u16(b + 2), nat, err, errlen);
    case CP_METHOD_HANDLE: {
        uint8_t kind = b[0];
        uint16_t ref = be_u16(b + 1);
        if (kind >= 1 && kind <= 4)
            return check_ref(cp, i, "reference_index", ref, field, err, errlen);
        if (kind == 5 || kind == 8)
            return check_ref(cp, i, "reference_index", ref, meth, err, errlen);
        if (kind == 6 || kind == 7)
            return check_ref(cp, i, "reference_index", ref, any_meth, err, errlen);
        if (kind == 9)
            return check_ref(cp, i, "reference_index", ref, imeth, err, errlen);
        errmsg_set(err, errlen, "constant pool index %u: MethodHandle reference_kind %u is not 1..9",
             i, kind);
        return -1;
    }
    default:
        return 0;
    }
}

int cp_parse(cpool *cp, uint16_t count, const uint8_t *bytes, size_t len,
             size_t *used, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (cp == NULL) {
        errmsg_set(err, errlen, "constant pool: no output");
        return -1;
    }
    memset(cp, 0, sizeof *cp);
    if (used)
        *used = 0;
    if (count == 0) {
        errmsg_set(err, errlen, "constant pool: constant_pool_count is 0 (must be at least 1)");
        return -1;
    }
    if (bytes == NULL && len > 0) {
        errmsg_set(err, errlen, "constant pool: no input bytes");
        return -1;
    }
    uint32_t *offsets = malloc((size_t)count * sizeof *offsets);
    if (offsets == NULL) {
        errmsg_set(err, errlen, "constant pool: out of memory for %u slots", count);
        return -1;
    }
    offsets[0] = NO_ENTRY;

    size_t pos = 0;
    for (uint32_t i = 1; i < count; i++) {
        if (pos >= len) {
            errmsg_set(err, errlen, "constant pool index %u: truncated at offset %zu (no tag byte)", i, pos);
            goto fail;
        }
        if (pos >= NO_ENTRY) {
            errmsg_set(err, errlen, "constant pool index %u: offset %zu too large", i, pos);
            goto fail;
        }
        int tag = bytes[pos];
        size_t size = body_size(tag);
        if (size == 0) {
            errmsg_set(err, errlen, "constant pool index %u: unknown tag %d at offset %zu", i, tag, pos);
            goto fail;
        }
        if (len - pos - 1 < size) {
            errmsg_set(err, errlen, "constant pool index %u: %s truncated at offset %zu "
                 "(needs %zu bytes, %zu left)", i, tag_name(tag), pos, 1 + size, len - pos);
            goto fail;
        }
        offsets[i] = (uint32_t)pos;
        if (tag == CP_UTF8) {
            size_t n = be_u16(bytes + pos + 1);
            const uint8_t *s = bytes + pos + 3;
            if (len - pos - 3 < n) {
                errmsg_set(err, errlen, "constant pool index %u: Utf8 of %zu bytes truncated at offset %zu "
                     "(%zu left)", i, n, pos, len - pos - 3);
                goto fail;
            }
            if (!utf8_bytes_ok(s, n)) {
                size_t k = 0;
                while (s[k] != 0 && s[k] < 0xf0)
                    k++;
                errmsg_set(err, errlen, "constant pool index %u: Utf8 byte %zu is 0x%02x, "
                     "not allowed in modified UTF-8", i, k, s[k]);
                goto fail;
            }
            pos += 3 + n;
        } else {
            pos += 1 + size;
        }
        if (tag == CP_LONG || tag == CP_DOUBLE) {
            if (i + 1 >= count) {
                errmsg_set(err, errlen, "constant pool index %u: %s in the last slot has no room "
                     "for its second slot", i, tag_name(tag));
                goto fail;
            }
            offsets[++i] = NO_ENTRY;
        }
    }

    cp->bytes = bytes;
    cp->len = pos;
    cp->count = count;
    cp->offsets = offsets;
    for (uint32_t i = 1; i < count; i++)
        if (check_entry(cp, (uint16_t)i, err, errlen))
            goto fail;
    if (used)
        *used = pos;
    return 0;

fail:
    free(offsets);
    memset(cp, 0, sizeof *cp);
    return -1;
}

int cp_utf8(const cpool *cp, uint16_t idx, cp_str *out)
{
    const uint8_t *b = body(cp, idx, CP_UTF8);
    if (b == NULL)
        return -1;
    if (out) {
        out->len = be_u16(b);
        out->ptr = (const char *)b + 2;
    }
    return 0;
}

int cp_class_name(const cpool *cp, uint16_t idx, cp_str *internal_name)
{
    const uint8_t *b = body(cp, idx, CP_CLASS);
    return b ? cp_utf8(cp, be_u16(b), internal_name) : -1;
}

int cp_name_and_type(const cpool *cp, uint16_t idx, cp_str *name, cp_str *desc)
{
    const uint8_t *b = body(cp, idx, CP_NAME_AND_TYPE);
    if (b == NULL || cp_utf8(cp, be_u16(b), name) || cp_utf8(cp, be_u16(b + 2), desc))
        return -1;
    return 0;
}

int cp_member_ref(const cpool *cp, uint16_t idx, cp_str *owner, cp_str *name, cp_str *desc)
{
    int tag = tag_of(cp, idx);
    if (tag != CP_FIELDREF && tag != CP_METHODREF && tag != CP_INTERFACE_METHODREF)
        return -1;
    const uint8_t *b = cp->bytes + cp->offsets[idx] + 1;
    if (cp_class_name(cp, be_u16(b), owner) || cp_name_and_type(cp, be_u16(b + 2), name, desc))
        return -1;
    return 0;
}

int cp_dynamic(const cpool *cp, uint16_t idx, uint16_t *bootstrap_index, cp_str *name, cp_str *desc)
{
    int tag = tag_of(cp, idx);
    if (tag != CP_DYNAMIC && tag != CP_INVOKE_DYNAMIC)
        return -1;
    const uint8_t *b = cp->bytes + cp->offsets[idx] + 1;
    if (cp_name_and_type(cp, be_u16(b + 2), name, desc))
        return -1;
    if (bootstrap_index)
        *bootstrap_index = be_u16(b);
    return 0;
}

int cp_integer(const cpool *cp, uint16_t idx, int32_t *out)
{
    const uint8_t *b = body(cp, idx, CP_INTEGER);
    if (b == NULL)
        return -1;
    if (out) {
        uint32_t v = be_u32(b);
        *out = v <= INT32_MAX ? (int32_t)v : -(int32_t)(~v) - 1;
    }
    return 0;
}

int cp_long(const cpool *cp, uint16_t idx, int64_t *out)
{
    const uint8_t *b = body(cp, idx, CP_LONG);
    if (b == NULL)
        return -1;
    if (out) {
        uint64_t v = (uint64_t)be_u32(b) << 32 | be_u32(b + 4);
        *out = v <= INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
    }
    return 0;
}
