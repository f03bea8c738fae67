/*
 * classfile.c - a bounds-checked reader for whole .class files.
 *
 * Reads the ClassFile structure of JVMS 4.1 front to back with one cursor;
 * every read goes through rd_need(), which turns running off the end into an
 * error naming the offset and what was being read. The constant pool is
 * parsed by cp_parse(); fields, interfaces and attributes other than a
 * method's Code are checked for length and skipped. The whole input must be
 * consumed: trailing bytes are an error.
 *
 * Choices:
 *  - major_version must be at least 45 (JDK 1.0.2); there is no upper limit,
 *    so newer class files still parse as long as their layout is unchanged.
 *  - Names and descriptors of fields and methods must be Utf8 entries; their
 *    syntax is not checked (see names.h for descriptors).
 *  - JVMS 4.7.3 is enforced: a method that is abstract or native has no
 *    Code attribute, every other method has exactly one. (<clinit> always
 *    needs one; class files before 51 may leave it non-static, so it is
 *    recognised by name.)
 *  - In a Code attribute, code_length must be 1..65535 and the exception
 *    table, the nested attributes and the attribute's own length must agree
 *    exactly. The bytecode itself is not decoded (see bytecode.h).
 *  - super_name of a class without a superclass (java/lang/Object,
 *    module-info) is an empty string with a non-NULL pointer.
 */
#include "classfile.h"
#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACC_NATIVE   0x0100
#define ACC_ABSTRACT 0x0400

/* One cursor over the input; the first error wins and sticks. */
typedef struct reader {
    const uint8_t *p;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
} reader;

__attribute__((format(printf, 2, 3)))
static void rd_fail(reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = 1;
    if (r->err == NULL || r->errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}

/* 0 when n more bytes can be read; otherwise records a truncation error. */
static int rd_need(reader *r, size_t n, const char *what)
{
    if (r->failed)
        return -1;
    if (r->len - r->pos < n) {
        rd_fail(r, "truncated at offset %zu reading %s (needs %zu bytes, %zu left)",
                r->pos, what, n, r->len - r->pos);
        return -1;
    }
    return 0;
}

/* Readers return 0 after a failure; callers check r->failed at decision
 * points, so a failed read never leads to a read past the end. */
static uint16_t rd_u2(reader *r, const char *what)
{
    if (rd_need(r, 2, what))
        return 0;
    const uint8_t *b = r->p + r->pos;
    r->pos += 2;
    return be_u16(b);
}

static uint32_t rd_u4(reader *r, const char *what)
{
    if (rd_need(r, 4, what))
        return 0;
    const uint8_t *b = r->p + r->pos;
    r->pos += 4;
    return be_u32(b);
}

static const uint8_t *rd_bytes(reader *r, size_t n, const char *what)
{
    if (rd_need(r, n, what))
        return NULL;
    const uint8_t *b = r->p + r->pos;
    r->pos += n;
    return b;
}

/* The Utf8 entry at idx, or an error naming what referred to it. */
static int rd_utf8_ref(reader *r, const cpool *cp, uint16_t idx, cp_str *out, const char *what)
{
    if (r->failed)
        return -1;
    if (cp_utf8(cp, idx, out)) {
        rd_fail(r, "%s: constant pool index %u is not a Utf8 entry (tag %d)", what, idx,
                cp_tag(cp, idx));
        return -1;
    }
    return 0;
}

static int str_is(cp_str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

/*
 * Skip attributes_count attributes (attribute_name_index u2, attribute_length
 * u4, info), as found after a field, a method's Code or the class. `where`
 * names the owner in error messages.
 */
static int skip_attributes(reader *r, const cpool *cp, const char *where)
{
    uint16_t n = rd_u2(r, "attributes_count");
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        cp_str name;
        uint16_t name_idx = rd_u2(r, "attribute_name_index");
        uint32_t alen = rd_u4(r, "attribute_length");
        if (r->failed)
            break;
        if (rd_utf8_ref(r, cp, name_idx, &name, where))
            break;
        if (rd_need(r, alen, "attribute body"))
            break;
        r->pos += alen;
    }
    return r->failed ? -1 : 0;
}

/* Parse a Code attribute whose attribute_length is alen; the cursor is at
 * max_stack. Fills the code fields of m. */
static int read_code(reader *r, const cpool *cp, cf_method *m, uint32_t alen, uint16_t mi)
{
    size_t start = r->pos;
    if (rd_need(r, alen, "Code attribute"))
        return -1;
    /* Read within a sub-reader limited to the attribute, so its parts cannot
     * run into the next attribute unnoticed. */
    reader sub = {r->p, start + alen, start, r->err, r->errlen, 0};
    m->max_stack = rd_u2(&sub, "max_stack");
    m->max_locals = rd_u2(&sub, "max_locals");
    uint32_t clen = rd_u4(&sub, "code_length");
    if (!sub.failed && (clen == 0 || clen > 65535))
        rd_fail(&sub, "method %u: code_length %u is not 1..65535", mi, clen);
    const uint8_t *code = sub.failed ? NULL : rd_bytes(&sub, clen, "code");
    uint16_t ntry = rd_u2(&sub, "exception_table_length");
    const uint8_t *exc = sub.failed ? NULL : rd_bytes(&sub, (size_t)ntry * 8, "exception_table");
    size_t attrs_at = sub.pos + 2;
    uint16_t nattrs = 0;
    if (!sub.failed && rd_need(&sub, 2, "Code attributes_count") == 0)
        nattrs = be_u16(&r->p[sub.pos]);
    if (!sub.failed)
        skip_attributes(&sub, cp, "Code attribute");
    if (!sub.failed && sub.pos != sub.len)
        rd_fail(&sub, "method %u: Code attribute_length %u but its contents end after %zu bytes",
                mi, alen, sub.pos - start);
    if (sub.failed) {
        r->failed = 1;  /* the message is already in err */
        return -1;
    }
    m->code = code;
    m->code_len = clen;
    m->code_attr_off = start - 6;
    m->code_attr_size = alen + 6;
    m->exc = exc;
    m->exc_count = ntry;
    m->code_attrs = r->p + attrs_at;
    m->code_attrs_len = (uint32_t)(sub.len - attrs_at);
    m->code_attr_count = nattrs;
    r->pos = start + alen;
    return 0;
}

static int read_method(reader *r, const cpool *cp, cf_method *m, uint16_t mi)
{
    m->access = rd_u2(r, "method access_flags");
    uint16_t name_idx = rd_u2(r, "method name_index");
    uint16_t desc_idx = rd_u2(r, "method descriptor_index");
    if (rd_utf8_ref(r, cp, name_idx, &m->name, "method name_index") ||
        rd_utf8_ref(r, cp, desc_idx, &m->desc, "method descriptor_index"))
        return -1;
    uint16_t n = rd_u2(r, "method attributes_count");
    int ncode = 0;
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        cp_str aname;
        uint16_t aname_idx = rd_u2(r, "attribute_name_index");
        uint32_t alen = rd_u4(r, "attribute_length");
        if (rd_utf8_ref(r, cp, aname_idx, &aname, "method attribute_name_index"))
            break;
        if (str_is(aname, "Code")) {
            if (++ncode > 1) {
                rd_fail(r, "method %u (%.*s): more than one Code attribute", mi,
                        (int)m->name.len, m->name.ptr);
                break;
            }
            read_code(r, cp, m, alen, mi);
        } else if (!rd_need(r, alen, "method attribute body")) {
            r->pos += alen;
        }
    }
    if (r->failed)
        return -1;
    int bodiless = (m->access & (ACC_ABSTRACT | ACC_NATIVE)) && !str_is(m->name, "<clinit>");
    if (bodiless && ncode) {
        rd_fail(r, "method %u (%.*s): abstract or native but has a Code attribute", mi,
                (int)m->name.len, m->name.ptr);
        return -1;
    }
    if (!bodiless && !ncode) {
        rd_fail(r, "method %u (%.*s): no Code attribute", mi, (int)m->name.len, m->name.ptr);
        return -1;
    }
    return 0;
}

void cf_free(classfile *cf)
{
    if (cf == NULL)
        return;
    cp_free(&cf->cp);
    free(cf->fields);
    free(cf->methods);
    memset(cf, 0, sizeof *cf);
}

int cf_parse(classfile *cf, const uint8_t *bytes, size_t len, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (cf == NULL)
        return -1;
    memset(cf, 0, sizeof *cf);
    reader r = {bytes, bytes ? len : 0, 0, err, errlen, 0};

    uint32_t magic = rd_u4(&r, "magic");
    if (!r.failed && magic != 0xCAFEBABEu)
        rd_fail(&r, "bad magic 0x%08X (expected 0xCAFEBABE)", magic);
    cf->minor = rd_u2(&r, "minor_version");
    cf->major = rd_u2(&r, "major_version");
    if (!r.failed && cf->major < 45)
        rd_fail(&r, "major_version %u is older than any Java release (45)", cf->major);
    uint16_t cp_count = rd_u2(&r, "constant_pool_count");
    if (r.failed)
        goto fail;

    size_t used = 0;
    char cperr[160] = "";
    if (cp_parse(&cf->cp, cp_count, r.p + r.pos, r.len - r.pos, &used, cperr, sizeof cperr)) {
        rd_fail(&r, "%s (pool starts at offset %zu)", cperr, r.pos);
        goto fail;
    }
    r.pos += used;
    cf->cp_end = r.pos;

    cf->access = rd_u2(&r, "access_flags");
    uint16_t this_idx = rd_u2(&r, "this_class");
    uint16_t super_idx = rd_u2(&r, "super_class");
    if (r.failed)
        goto fail;
    if (cp_class_name(&cf->cp, this_idx, &cf->this_name)) {
        rd_fail(&r, "this_class: constant pool index %u is not a Class (tag %d)", this_idx,
                cp_tag(&cf->cp, this_idx));
        goto fail;
    }
    if (super_idx == 0) {
        cf->super_name.ptr = "";
        cf->super_name.len = 0;
    } else if (cp_class_name(&cf->cp, super_idx, &cf->super_name)) {
        rd_fail(&r, "super_class: constant pool index %u is not a Class (tag %d)", super_idx,
                cp_tag(&cf->cp, super_idx));
        goto fail;
    }

    uint16_t nif = rd_u2(&r, "interfaces_count");
    for (uint32_t i = 0; i < nif && !r.failed; i++) {
        uint16_t idx = rd_u2(&r, "interfaces entry");
        if (!r.failed && cp_tag(&cf->cp, idx) != CP_CLASS)
            rd_fail(&r, "interfaces[%u]: constant pool index %u is not a Class (tag %d)", i, idx,
                    cp_tag(&cf->cp, idx));
    }

    uint16_t nfields = rd_u2(&r, "fields_count");
    if (r.failed)
        goto fail;
    if (nfields > 0) {
        /* Each field_info takes at least 8 bytes, as a method_info does. */
        if ((size_t)nfields * 8 > r.len - r.pos) {
            rd_fail(&r, "fields_count %u cannot fit in the %zu bytes left at offset %zu",
                    nfields, r.len - r.pos, r.pos);
            goto fail;
        }
        cf->fields = calloc(nfields, sizeof *cf->fields);
        if (cf->fields == NULL) {
            rd_fail(&r, "out of memory for %u fields", nfields);
            goto fail;
        }
        cf->field_count = nfields;
    }
    for (uint32_t i = 0; i < nfields && !r.failed; i++) {
        cf_field *f = &cf->fields[i];
        f->access = rd_u2(&r, "field access_flags");
        uint16_t name_idx = rd_u2(&r, "field name_index");
        uint16_t desc_idx = rd_u2(&r, "field descriptor_index");
        if (rd_utf8_ref(&r, &cf->cp, name_idx, &f->name, "field name_index") ||
            rd_utf8_ref(&r, &cf->cp, desc_idx, &f->desc, "field descriptor_index"))
            break;
        skip_attributes(&r, &cf->cp, "field attribute_name_index");
    }

    uint16_t nmethods = rd_u2(&r, "methods_count");
    if (r.failed)
        goto fail;
    if (nmethods > 0) {
        /* Each method_info takes at least 8 bytes: refuse to allocate for
         * methods the input cannot hold. */
        if ((size_t)nmethods * 8 > r.len - r.pos) {
            rd_fail(&r, "methods_count %u cannot fit in the %zu bytes left at offset %zu",
                    nmethods, r.len - r.pos, r.pos);
            goto fail;
        }
        cf->methods = calloc(nmethods, sizeof *cf->methods);
        if (cf->methods == NULL) {
            rd_fail(&r, "out of memory for %u methods", nmethods);
            goto fail;
        }
        cf->method_count = nmethods;
    }
    for (uint16_t i = 0; i < nmethods && !r.failed; i++)
        read_method(&r, &cf->cp, &cf->methods[i], i);

    skip_attributes(&r, &cf->cp, "class attribute_name_index");
    if (!r.failed && r.pos != r.len)
        rd_fail(&r, "trailing garbage: %zu bytes after the end of the class file at offset %zu",
                r.len - r.pos, r.pos);
    if (r.failed)
        goto fail;
    return 0;

fail:
    cf_free(cf);
    return -1;
}

/* Order of line entries: start, then their place in the table (the sort
 * keeps the first of equal starts first). */
typedef struct line_at {
    cf_line e;
    uint32_t order;
} line_at;

static int cmp_line_at(const void *pa, const void *pb)
{
    const line_at *a = pa, *b = pb;
    if (a->e.start != b->e.start)
        return a->e.start < b->e.start ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

int cf_lines_apply(uint32_t *line, uint32_t code_len, const cf_line *t, uint32_t n)
{
    if (code_len > 0)
        memset(line, 0, code_len * sizeof *line);
    if (n == 0 || code_len == 0)
        return 0;
    line_at *s = malloc(n * sizeof *s);
    if (s == NULL)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        s[i] = (line_at){t[i], i};
    qsort(s, n, sizeof *s, cmp_line_at);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && s[j].e.start == s[i].e.start)
            j++; /* later entries at the same start lose to the first */
        uint32_t end = j < n ? s[j].e.start : code_len;
        if (end > code_len)
            end = code_len;
        for (uint32_t o = s[i].e.start; o < end; o++)
            line[o] = s[i].e.line;
        i = j;
    }
    free(s);
    return 0;
}

int cf_offset_lines(const classfile *cf, const cf_method *m, uint32_t *line)
{
    if (m->code_len > 0)
        memset(line, 0, m->code_len * sizeof *line);
    /* cf_parse has checked that the attributes fill code_attrs exactly */
    uint32_t n = 0;
    const uint8_t *p = m->code_attrs, *end = m->code_attrs + m->code_attrs_len;
    for (uint32_t k = 0; k < m->code_attr_count; k++) {
        cp_str name;
        uint32_t len = be_u32(p + 2);
        if (cp_utf8(&cf->cp, be_u16(p), &name) == 0 && str_is(name, "LineNumberTable")) {
            if (len < 2 || len != 2 + 4 * (uint32_t)be_u16(p + 6))
                return -1;
            n += be_u16(p + 6);
        }
        p += 6 + len;
    }
    if (n == 0)
        return 0;
    cf_line *t = malloc(n * sizeof *t);
    if (t == NULL)
        return -1;
    uint32_t i = 0;
    p = m->code_attrs;
    for (uint32_t k = 0; k < m->code_attr_count && p < end; k++) {
        cp_str name;
        uint32_t len = be_u32(p + 2);
        if (cp_utf8(&cf->cp, be_u16(p), &name) == 0 && str_is(name, "LineNumberTable"))
            for (uint32_t e = 0; e < be_u16(p + 6); e++)
                t[i++] = (cf_line){be_u16(p + 8 + 4 * e), be_u16(p + 10 + 4 * e)};
        p += 6 + len;
    }
    int r = cf_lines_apply(line, m->code_len, t, n);
    free(t);
    return r;
}
