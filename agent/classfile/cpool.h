/*
 * cpool.h - a bounds-checked reader for a class file's constant pool.
 *
 * Pure C: the input is the constant pool in class-file format, either read
 * from a .class file or as JVMTI GetConstantPool returns it (the cp_info
 * entries without the leading count). Every tag used by Java 17+ class files
 * is understood (1, 3-12, 15-20); Long and Double take two slots. The reader
 * keeps a pointer into the caller's bytes, which must outlive it.
 */
#ifndef PSF_CPOOL_H
#define PSF_CPOOL_H

#include <stddef.h>
#include <stdint.h>

enum {
    CP_UTF8 = 1, CP_INTEGER = 3, CP_FLOAT = 4, CP_LONG = 5, CP_DOUBLE = 6,
    CP_CLASS = 7, CP_STRING = 8, CP_FIELDREF = 9, CP_METHODREF = 10,
    CP_INTERFACE_METHODREF = 11, CP_NAME_AND_TYPE = 12,
    CP_METHOD_HANDLE = 15, CP_METHOD_TYPE = 16, CP_DYNAMIC = 17,
    CP_INVOKE_DYNAMIC = 18, CP_MODULE = 19, CP_PACKAGE = 20
};

/* A string inside the pool: modified UTF-8, not NUL-terminated. */
typedef struct cp_str {
    const char *ptr;
    uint16_t len;
} cp_str;

typedef struct cpool {
    const uint8_t *bytes;   /* the caller's bytes (not owned) */
    size_t len;             /* bytes used by the pool */
    uint16_t count;         /* constant_pool_count: valid indices are 1..count-1 */
    uint32_t *offsets;      /* owned: offset of entry i's tag byte in bytes; UINT32_MAX for unusable slots */
} cpool;

/*
 * Parse `count - 1` slots of cp_info from bytes[0..len). On success returns 0,
 * fills *cp and stores in *used the number of bytes the pool occupies. On
 * failure returns -1, leaves *cp empty (safe to cp_free) and writes a message
 * naming the index and the problem into err (errlen bytes, may be 0).
 */
int cp_parse(cpool *cp, uint16_t count, const uint8_t *bytes, size_t len,
             size_t *used, char *err, size_t errlen);
void cp_free(cpool *cp);

/* Tag of slot idx, or 0 when idx is 0, out of range, or the second slot of a
 * Long/Double. */
int cp_tag(const cpool *cp, uint16_t idx);

/* Each returns 0 on success and -1 when idx is out of range, has the wrong
 * tag, or refers to an entry of the wrong tag. */
int cp_utf8(const cpool *cp, uint16_t idx, cp_str *out);

/* Slot i's Utf8 string, for a walk over a parsed pool's slots
 * 1..count-1 (cp_utf8 without its checks on the index: the rewriter walks
 * every slot of every class the fast engine loads): 0, or -1 when the
 * slot holds something else. */
static inline int cp_utf8_slot(const cpool *cp, uint16_t i, cp_str *s)
{
    uint32_t off = cp->offsets[i];
    if (off == UINT32_MAX || cp->bytes[off] != CP_UTF8)
        return -1;
    s->len = (size_t)(cp->bytes[off + 1] << 8 | cp->bytes[off + 2]);
    s->ptr = (const char *)cp->bytes + off + 3;
    return 0;
}
int cp_class_name(const cpool *cp, uint16_t idx, cp_str *internal_name);
int cp_name_and_type(const cpool *cp, uint16_t idx, cp_str *name, cp_str *desc);
/* Fieldref, Methodref or InterfaceMethodref. */
int cp_member_ref(const cpool *cp, uint16_t idx, cp_str *owner, cp_str *name, cp_str *desc);
/* InvokeDynamic or Dynamic. */
int cp_dynamic(const cpool *cp, uint16_t idx, uint16_t *bootstrap_index, cp_str *name, cp_str *desc);
int cp_integer(const cpool *cp, uint16_t idx, int32_t *out);
int cp_long(const cpool *cp, uint16_t idx, int64_t *out);

#endif
