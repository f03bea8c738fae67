/*
 * test_probe_fields.c - the probe class's fields and methods the fast
 * engine binds by name (agent/fast/probe_fields.h) against the probe class
 * as javac compiled it ($PSF_BUILD/agent/probe/java/lang/Probe.class, made
 * by agent/agent.mk), read with the agent's own class-file reader.
 *
 * A field renamed, retyped or made static in Probe.java and not in the
 * table fails here, by name, instead of as a JVM run that falls back; so
 * does a Probe.FAR that is not PROBE_FAR.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bytes.h"
#include "classfile.h"
#include "probe_fields.h"
#include "probename.h"

enum { ACC_STATIC = 0x0008, ACC_NATIVE = 0x0100 };

typedef struct entry {
    const char *what, *name, *desc;
    int is_static;
} entry;

#define ENTRY(member, name, desc, st) {#member, name, desc, st},
static const entry fields[] = {PROBE_FIELDS(ENTRY) PROBE_ARRAY_FIELDS(ENTRY)};
static const entry methods[] = {PROBE_METHODS(ENTRY)};
#undef ENTRY
#define NATIVE(fn, name, desc) {#fn, name, desc, 1},
static const entry natives[] = {PROBE_NATIVES(NATIVE)};
#undef NATIVE

static uint8_t *bytes;
static size_t nbytes;
static classfile cf;

static int is(cp_str s, const char *c)
{
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

static int setup(void **state)
{
    (void)state;
    const char *build = getenv("PSF_BUILD");
    char path[4096];
    snprintf(path, sizeof path, "%s/agent/probe/%s.class", build ? build : "build", PROBE_NAME_COMPILED);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s (make builds it with the agent)\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc(n > 0 ? (size_t)n : 1);
    nbytes = bytes != NULL && n > 0 ? fread(bytes, 1, (size_t)n, f) : 0;
    fclose(f);
    char err[200];
    if (nbytes != (size_t)n || cf_parse(&cf, bytes, nbytes, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, nbytes != (size_t)n ? "short read" : err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cf_free(&cf);
    free(bytes);
    return 0;
}

/* The class is the one the engine renames. */
static void test_class_is_the_probe(void **state)
{
    (void)state;
    assert_true(is(cf.this_name, PROBE_NAME_COMPILED));
}

/* Every field of the table: there, with its descriptor and static-ness. */
static void test_every_field_is_declared(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const entry *e = &fields[i];
        const cf_field *found = NULL;
        for (uint16_t j = 0; j < cf.field_count && found == NULL; j++)
            if (is(cf.fields[j].name, e->name))
                found = &cf.fields[j];
        if (found == NULL) {
            fprintf(stderr, "%s: Probe.java has no field %s\n", e->what, e->name);
            bad++;
        } else if (!is(found->desc, e->desc)) {
            fprintf(stderr, "%s: field %s is %.*s in Probe.java, %s in the table\n", e->what, e->name,
                    (int)found->desc.len, found->desc.ptr, e->desc);
            bad++;
        } else if (!!(found->access & ACC_STATIC) != e->is_static) {
            fprintf(stderr, "%s: field %s is %sstatic in Probe.java\n", e->what, e->name,
                    (found->access & ACC_STATIC) ? "" : "not ");
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Every method the agent calls, and every native it binds (native in the
 * class, so RegisterNatives finds it). */
static int check_methods(const entry *t, size_t n, int native)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_method *found = NULL;
        for (uint16_t j = 0; j < cf.method_count && found == NULL; j++)
            if (is(cf.methods[j].name, t[i].name) && is(cf.methods[j].desc, t[i].desc))
                found = &cf.methods[j];
        if (found == NULL) {
            fprintf(stderr, "%s: Probe.java has no method %s%s\n", t[i].what, t[i].name, t[i].desc);
            bad++;
        } else if (native && !(found->access & ACC_NATIVE)) {
            fprintf(stderr, "%s: %s%s is not native in Probe.java\n", t[i].what, t[i].name, t[i].desc);
            bad++;
        } else if (!native && !!(found->access & ACC_STATIC) != t[i].is_static) {
            fprintf(stderr, "%s: %s%s is %sstatic in Probe.java\n", t[i].what, t[i].name, t[i].desc,
                    (found->access & ACC_STATIC) ? "" : "not ");
            bad++;
        }
    }
    return bad;
}

static void test_every_method_is_declared(void **state)
{
    (void)state;
    assert_int_equal(check_methods(methods, sizeof methods / sizeof methods[0], 0), 0);
    assert_int_equal(check_methods(natives, sizeof natives / sizeof natives[0], 1), 0);
}

/* The reader's fields are the class's: each name once, and the table's
 * entries each name a different field. */
static void test_table_names_are_distinct(void **state)
{
    (void)state;
    assert_true(cf.field_count >= sizeof fields / sizeof fields[0]);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        for (size_t j = i + 1; j < sizeof fields / sizeof fields[0]; j++)
            assert_string_not_equal(fields[i].name, fields[j].name);
}

/* The ConstantValue of static field name, read from the class's bytes
 * (the reader skips the fields' attributes): 0, or -1 when the field or
 * its attribute is not there or not a long. The reader has checked the
 * bounds of everything walked here. */
static int long_constant(const char *name, int64_t *out)
{
    const uint8_t *p = bytes + cf.cp_end + 6; /* access_flags, this_class, super_class */
    p += 2 + 2 * (size_t)be_u16(p);          /* the interfaces */
    uint16_t nfields = be_u16(p);
    p += 2;
    for (uint16_t i = 0; i < nfields; i++) {
        cp_str fname;
        int wanted = cp_utf8(&cf.cp, be_u16(p + 2), &fname) == 0 && is(fname, name);
        uint16_t nattrs = be_u16(p + 6);
        p += 8;
        for (uint16_t k = 0; k < nattrs; k++) {
            cp_str aname;
            uint32_t len = be_u32(p + 2);
            if (wanted && len == 2 && cp_utf8(&cf.cp, be_u16(p), &aname) == 0 && is(aname, "ConstantValue"))
                return cp_long(&cf.cp, be_u16(p + 6), out);
            p += 6 + (size_t)len;
        }
    }
    return -1;
}

/* Probe.FAR, the number the agent writes into entryAt (threads.c), is
 * PROBE_FAR: Java and C each spell it. */
static void test_far_is_probe_far(void **state)
{
    (void)state;
    int64_t far = 0;
    assert_int_equal(long_constant("FAR", &far), 0);
    assert_true(far == PROBE_FAR);
    assert_true(far == -INT64_C(4611686018427387904)); /* Long.MIN_VALUE / 2 = -2^62 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_class_is_the_probe),
        cmocka_unit_test(test_every_field_is_declared),
        cmocka_unit_test(test_every_method_is_declared),
        cmocka_unit_test(test_table_names_are_distinct),
        cmocka_unit_test(test_far_is_probe_far),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
