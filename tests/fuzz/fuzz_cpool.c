/*
 * fuzz_cpool.c - libFuzzer target for the constant-pool and class-file
 * readers (agent/classfile/cpool.c, agent/classfile/classfile.c).
 *
 * One input is used twice:
 *  - as a bare constant pool: the first two bytes (big-endian) are
 *    constant_pool_count, the rest the cp_info entries, as JVMTI
 *    GetConstantPool hands them to the agent. When the pool parses, every
 *    accessor is called on every index 0..count (one past the end too), and
 *    what they return is checked to lie inside the input;
 *  - as a whole .class file given to cf_parse; when it parses, every method's
 *    name, descriptor and code are checked to lie inside the input.
 * Seeds: tests/fuzz/corpus/cpool/ (real javac output and pools cut from it).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "cpool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort (a crash libFuzzer reports) unless [p, p+n) lies within the input. */
static void inside(const uint8_t *data, size_t size, const void *p, size_t n)
{
    const uint8_t *b = p;
    if (n == 0)
        return;
    if (b < data || b > data + size || n > (size_t)(data + size - b))
        abort();
}

static void str_inside(const uint8_t *data, size_t size, cp_str s)
{
    inside(data, size, s.ptr, s.len);
}

static void check_pool(const uint8_t *data, size_t size, const cpool *cp)
{
    for (uint32_t i = 0; i <= cp->count; i++) {
        uint16_t idx = (uint16_t)i;
        cp_str a, b, c;
        uint16_t bsm;
        int32_t iv;
        int64_t lv;
        int tag = cp_tag(cp, idx);
        if (i == 0 || i >= cp->count) {
            if (tag != 0)
                abort();
        }
        if (cp_utf8(cp, idx, &a) == 0) {
            if (tag != CP_UTF8)
                abort();
            str_inside(data, size, a);
        }
        if (cp_class_name(cp, idx, &a) == 0)
            str_inside(data, size, a);
        if (cp_name_and_type(cp, idx, &a, &b) == 0) {
            str_inside(data, size, a);
            str_inside(data, size, b);
        }
        if (cp_member_ref(cp, idx, &a, &b, &c) == 0) {
            str_inside(data, size, a);
            str_inside(data, size, b);
            str_inside(data, size, c);
        }
        if (cp_dynamic(cp, idx, &bsm, &a, &b) == 0) {
            str_inside(data, size, a);
            str_inside(data, size, b);
        }
        (void)cp_integer(cp, idx, &iv);
        (void)cp_long(cp, idx, &lv);
        /* NULL outputs are allowed where the header says so. */
        (void)cp_utf8(cp, idx, NULL);
        (void)cp_integer(cp, idx, NULL);
        (void)cp_long(cp, idx, NULL);
        (void)cp_dynamic(cp, idx, NULL, &a, &b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[200];

    if (size >= 2) {
        uint16_t count = (uint16_t)(data[0] << 8 | data[1]);
        cpool cp;
        size_t used = 0;
        const uint8_t *pool = data + 2;
        size_t len = size - 2;
        if (cp_parse(&cp, count, pool, len, &used, err, sizeof err) == 0) {
            if (used > len || cp.count != count)
                abort();
            check_pool(pool, len, &cp);
        } else if (cp.offsets != NULL || cp.count != 0 || memchr(err, '\0', sizeof err) == NULL) {
            abort();
        }
        cp_free(&cp);
    }

    classfile cf;
    if (cf_parse(&cf, data, size, err, sizeof err) == 0) {
        str_inside(data, size, cf.this_name);
        if (cf.super_name.len)
            str_inside(data, size, cf.super_name);
        check_pool(data, size, &cf.cp);
        for (uint16_t i = 0; i < cf.method_count; i++) {
            const cf_method *m = &cf.methods[i];
            str_inside(data, size, m->name);
            str_inside(data, size, m->desc);
            if (m->code) {
                if (m->code_len == 0 || m->code_len > 65535)
                    abort();
                inside(data, size, m->code, m->code_len);
            }
        }
    } else if (cf.methods != NULL || cf.method_count != 0) {
        abort();
    }
    cf_free(&cf);
    return 0;
}
