/*
 * test_cpool.c - unit tests for agent/classfile/cpool.c.
 *
 * Real pools come from the javac-compiled fixtures in
 * $PSF_BUILD/fixtures/unit (sources in tests/fixtures/unit); the expected
 * values below are the constants written in those sources. Entries are
 * found by content, not by index, so the tests do not depend on the order
 * in which a javac version numbers its pool. CONSTANT_Dynamic (tag 17),
 * which javac 17 never emits, and malformed pools are built by hand.
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
#include "cpool.h"

/* ---- helpers ----------------------------------------------------------- */

/* Read $PSF_BUILD/fixtures/unit/<rel> into an exactly sized heap block. */
static uint8_t *read_fixture(const char *rel, size_t *len)
{
    const char *build = getenv("PSF_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/fixtures/unit/%s", build && *build ? build : "build", rel);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open fixture %s (run through make, which compiles it)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_true(n > 0);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static uint8_t *heap_copy(const uint8_t *src, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    if (n)
        memcpy(p, src, n);
    return p;
}

/* A class file with its pool parsed: the pool starts at byte 10, after
 * magic, minor, major and constant_pool_count. */
typedef struct loaded {
    uint8_t *file;
    size_t file_len;
    uint16_t count;
    cpool cp;
    size_t used;
} loaded;

static void load(loaded *l, const char *rel)
{
    char err[256] = "";
    l->file = read_fixture(rel, &l->file_len);
    assert_true(l->file_len > 10);
    assert_int_equal(be_u16(l->file), 0xCAFE);
    l->count = be_u16(l->file + 8);
    if (cp_parse(&l->cp, l->count, l->file + 10, l->file_len - 10, &l->used, err, sizeof err))
        fail_msg("cp_parse(%s): %s", rel, err);
}

static void unload(loaded *l)
{
    cp_free(&l->cp);
    free(l->file);
}

static int str_eq(cp_str s, const char *lit)
{
    return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

/* Index of the Utf8 entry holding text, or 0. */
static uint16_t find_utf8(const cpool *cp, const char *text)
{
    cp_str s;
    for (uint32_t i = 1; i < cp->count; i++)
        if (cp_utf8(cp, (uint16_t)i, &s) == 0 && str_eq(s, text))
            return (uint16_t)i;
    return 0;
}

/* Raw body bytes (after the tag) of entry idx. */
static const uint8_t *raw(const cpool *cp, uint16_t idx)
{
    assert_true(cp_tag(cp, idx) != 0);
    return cp->bytes + cp->offsets[idx] + 1;
}

/* Index of the entry with this tag whose first u2 operand is `ref`, or 0
 * (String, Class, MethodType, Module, Package all point at a Utf8). */
static uint16_t find_ref(const cpool *cp, int tag, uint16_t ref)
{
    for (uint32_t i = 1; i < cp->count; i++)
        if (cp_tag(cp, (uint16_t)i) == tag && be_u16(raw(cp, (uint16_t)i)) == ref)
            return (uint16_t)i;
    return 0;
}

/* Index of the Fieldref/Methodref/InterfaceMethodref owner.name:desc. */
static uint16_t find_member(const cpool *cp, const char *owner, const char *name, const char *desc)
{
    cp_str o, n, d;
    for (uint32_t i = 1; i < cp->count; i++)
        if (cp_member_ref(cp, (uint16_t)i, &o, &n, &d) == 0 && str_eq(o, owner) &&
            str_eq(n, name) && str_eq(d, desc))
            return (uint16_t)i;
    return 0;
}

static uint64_t raw_u8(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Hand-built pools. */
typedef struct pool_buf {
    uint8_t b[512];
    size_t n;
} pool_buf;

static void pb_u1(pool_buf *p, unsigned v)
{
    assert_true(p->n < sizeof p->b);
    p->b[p->n++] = (uint8_t)v;
}

static void pb_u2(pool_buf *p, unsigned v)
{
    pb_u1(p, v >> 8);
    pb_u1(p, v & 0xff);
}

static void pb_utf8(pool_buf *p, const char *s)
{
    pb_u1(p, CP_UTF8);
    pb_u2(p, (unsigned)strlen(s));
    for (const char *c = s; *c; c++)
        pb_u1(p, (uint8_t)*c);
}

/* Parse a hand-built pool from an exactly sized copy; returns cp_parse's
 * result and leaves the message in err. */
static int parse_built(const pool_buf *p, uint16_t count, char *err, size_t errlen)
{
    uint8_t *copy = heap_copy(p->b, p->n);
    cpool cp;
    size_t used = 0;
    int rc = cp_parse(&cp, count, copy, p->n, &used, err, errlen);
    if (rc == 0)
        assert_int_equal(used, p->n);
    else
        assert_null(cp.offsets);
    cp_free(&cp);
    free(copy);
    return rc;
}

static void expect_error(const pool_buf *p, uint16_t count, const char *part1, const char *part2)
{
    char err[256] = "";
    assert_int_equal(parse_built(p, count, err, sizeof err), -1);
    if (strstr(err, part1) == NULL || (part2 && strstr(err, part2) == NULL))
        fail_msg("error '%s' lacks '%s' / '%s'", err, part1, part2 ? part2 : "");
}

/* ---- real pools -------------------------------------------------------- */

static void cp_parse__constants_class__ends_where_access_flags_start(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    assert_int_equal(l.cp.len, l.used);
    assert_int_equal(l.cp.count, l.count);
    /* After the pool: access_flags (ACC_PUBLIC|ACC_SUPER), this_class. */
    const uint8_t *after = l.file + 10 + l.used;
    assert_int_equal(be_u16(after), 0x0021);
    cp_str name;
    assert_int_equal(cp_class_name(&l.cp, be_u16(after + 2), &name), 0);
    assert_true(str_eq(name, "psf/fixtures/Constants"));
    unload(&l);
}

static void cp_parse__long_and_double__take_two_slots(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    int longs = 0, doubles = 0, saw_big = 0, saw_neg = 0, saw_e = 0, saw_tenth = 0;
    for (uint32_t i = 1; i < l.count; i++) {
        uint16_t idx = (uint16_t)i;
        int tag = cp_tag(&l.cp, idx);
        if (tag != CP_LONG && tag != CP_DOUBLE)
            continue;
        assert_true(i + 1 < l.count);
        assert_int_equal(cp_tag(&l.cp, (uint16_t)(idx + 1)), 0);
        assert_int_equal(l.cp.offsets[idx + 1], UINT32_MAX);
        assert_int_equal(cp_utf8(&l.cp, (uint16_t)(idx + 1), NULL), -1);
        assert_int_equal(cp_long(&l.cp, (uint16_t)(idx + 1), NULL), -1);
        if (tag == CP_LONG) {
            int64_t v = 0;
            longs++;
            assert_int_equal(cp_long(&l.cp, idx, &v), 0);
            saw_big |= v == 1234567890123456789LL;
            saw_neg |= v == -9876543210LL;
        } else {
            double d;
            uint64_t bits = raw_u8(raw(&l.cp, idx));
            doubles++;
            assert_int_equal(cp_long(&l.cp, idx, NULL), -1);
            memcpy(&d, &bits, sizeof d);
            saw_e |= d == 2.718281828459045;
            saw_tenth |= d == 0.1;
        }
        i++;    /* skip the unusable slot */
    }
    assert_int_equal(longs, 2);     /* BIG_LONG, and -9876543210L in mix() */
    assert_int_equal(doubles, 2);   /* E, and 0.1 in mix() */
    assert_true(saw_big && saw_neg && saw_e && saw_tenth);
    unload(&l);
}

static void cp_integer__int_float_and_string_constants__read_source_values(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    int saw_magic = 0, saw_100k = 0, saw_ratio = 0, saw_3_5 = 0;
    for (uint32_t i = 1; i < l.count; i++) {
        uint16_t idx = (uint16_t)i;
        int32_t v;
        if (cp_tag(&l.cp, idx) == CP_INTEGER) {
            assert_int_equal(cp_integer(&l.cp, idx, &v), 0);
            saw_magic |= v == 0x12345678;
            saw_100k |= v == 100000;
        } else if (cp_tag(&l.cp, idx) == CP_FLOAT) {
            const uint8_t *b = raw(&l.cp, idx);
            uint32_t bits = (uint32_t)be_u16(b) << 16 | be_u16(b + 2);
            float f;
            memcpy(&f, &bits, sizeof f);
            assert_int_equal(cp_integer(&l.cp, idx, &v), -1);
            saw_ratio |= f == 1.25f;
            saw_3_5 |= f == 3.5f;
        }
    }
    assert_true(saw_magic && saw_100k && saw_ratio && saw_3_5);

    /* String entries point at their Utf8 text. */
    static const char *const strings[] = {"hello, psf", "mix", "abc", "not a string"};
    for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++) {
        uint16_t u = find_utf8(&l.cp, strings[k]);
        assert_true(u != 0);
        assert_true(find_ref(&l.cp, CP_STRING, u) != 0);
    }
    /* The concat recipe: \1 marks each argument, stored as one byte 0x01. */
    assert_true(find_ref(&l.cp, CP_STRING, find_utf8(&l.cp, "name=\001 n=\001")) != 0);
    unload(&l);
}

static void cp_member_ref__field_method_and_interface_refs__resolve_owner_name_desc(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    static const struct { int tag; const char *owner, *name, *desc; } refs[] = {
        {CP_METHODREF, "java/lang/Object", "<init>", "()V"},
        {CP_METHODREF, "java/lang/String", "length", "()I"},
        {CP_METHODREF, "java/lang/Integer", "intValue", "()I"},
        {CP_METHODREF, "java/lang/IllegalArgumentException", "<init>", "(Ljava/lang/String;)V"},
        {CP_METHODREF, "psf/fixtures/Constants$Inner", "<init>", "(I)V"},
        {CP_METHODREF, "psf/fixtures/Constants$Inner", "get", "()I"},
        {CP_METHODREF, "psf/fixtures/Constants", "lambda$lambdas$0", "(I)I"},
        {CP_METHODREF, "java/util/ArrayList", "<init>", "()V"},
        {CP_INTERFACE_METHODREF, "java/util/List", "size", "()I"},
        {CP_INTERFACE_METHODREF, "java/util/List", "add", "(Ljava/lang/Object;)Z"},
        {CP_INTERFACE_METHODREF, "java/util/function/Supplier", "get", "()Ljava/lang/Object;"},
        {CP_FIELDREF, "psf/fixtures/Constants", "counter", "I"},
    };
    for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) {
        uint16_t idx = find_member(&l.cp, refs[k].owner, refs[k].name, refs[k].desc);
        if (idx == 0)
            fail_msg("no member ref %s.%s:%s", refs[k].owner, refs[k].name, refs[k].desc);
        assert_int_equal(cp_tag(&l.cp, idx), refs[k].tag);
        /* The NameAndType it points at agrees. */
        cp_str n, d;
        assert_int_equal(cp_name_and_type(&l.cp, be_u16(raw(&l.cp, idx) + 2), &n, &d), 0);
        assert_true(str_eq(n, refs[k].name) && str_eq(d, refs[k].desc));
    }
    /* Out parameters are optional. */
    assert_int_equal(cp_member_ref(&l.cp, find_member(&l.cp, "java/util/List", "size", "()I"),
                                   NULL, NULL, NULL), 0);
    unload(&l);
}

static void cp_dynamic__invokedynamic_entries__name_call_sites_and_bootstraps(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    static const struct { const char *name, *desc; } sites[] = {
        {"makeConcatWithConstants", "(Ljava/lang/String;I)Ljava/lang/String;"},
        {"getAsInt", "(I)Ljava/util/function/IntSupplier;"},
        {"apply", "()Ljava/util/function/Function;"},
        {"get", "()Ljava/util/function/Supplier;"},
    };
    int found[4] = {0};
    unsigned bsm_seen = 0;
    int indys = 0;
    for (uint32_t i = 1; i < l.count; i++) {
        uint16_t bsm;
        cp_str n, d;
        if (cp_tag(&l.cp, (uint16_t)i) != CP_INVOKE_DYNAMIC) {
            assert_int_equal(cp_dynamic(&l.cp, (uint16_t)i, &bsm, &n, &d), -1);
            continue;
        }
        indys++;
        assert_int_equal(cp_dynamic(&l.cp, (uint16_t)i, &bsm, &n, &d), 0);
        assert_true(bsm < 4);   /* four BootstrapMethods, one per call site */
        bsm_seen |= 1u << bsm;
        for (int k = 0; k < 4; k++)
            if (str_eq(n, sites[k].name) && str_eq(d, sites[k].desc))
                found[k]++;
    }
    assert_int_equal(indys, 4);
    assert_int_equal(bsm_seen, 0xf);
    for (int k = 0; k < 4; k++)
        assert_int_equal(found[k], 1);
    unload(&l);
}

static void cp_parse__method_handles_and_types__point_at_the_right_entries(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    static const struct { uint8_t kind; const char *owner, *name; } handles[] = {
        {6, "java/lang/invoke/StringConcatFactory", "makeConcatWithConstants"},
        {6, "java/lang/invoke/LambdaMetafactory", "metafactory"},
        {6, "psf/fixtures/Constants", "lambda$lambdas$0"},     /* () -> k * 2 */
        {5, "java/lang/String", "length"},                     /* String::length */
        {8, "java/util/ArrayList", "<init>"},                  /* ArrayList::new */
    };
    int found[5] = {0}, total = 0;
    for (uint32_t i = 1; i < l.count; i++) {
        if (cp_tag(&l.cp, (uint16_t)i) != CP_METHOD_HANDLE)
            continue;
        total++;
        const uint8_t *b = raw(&l.cp, (uint16_t)i);
        cp_str o, n;
        assert_int_equal(cp_member_ref(&l.cp, be_u16(b + 1), &o, &n, NULL), 0);
        for (int k = 0; k < 5; k++)
            if (b[0] == handles[k].kind && str_eq(o, handles[k].owner) && str_eq(n, handles[k].name))
                found[k]++;
    }
    assert_int_equal(total, 5);
    for (int k = 0; k < 5; k++)
        assert_int_equal(found[k], 1);

    static const char *const types[] = {"()I", "(Ljava/lang/Object;)Ljava/lang/Object;",
                                        "(Ljava/lang/String;)Ljava/lang/Integer;",
                                        "()Ljava/lang/Object;", "()Ljava/util/List;"};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        assert_true(find_ref(&l.cp, CP_METHOD_TYPE, find_utf8(&l.cp, types[k])) != 0);
    unload(&l);
}

static void cp_parse__module_info__has_module_and_package_entries(void **state)
{
    (void)state;
    loaded l;
    load(&l, "module-info.class");
    uint16_t self = find_ref(&l.cp, CP_MODULE, find_utf8(&l.cp, "psf.fixtures"));
    uint16_t base = find_ref(&l.cp, CP_MODULE, find_utf8(&l.cp, "java.base"));
    uint16_t pkg = find_ref(&l.cp, CP_PACKAGE, find_utf8(&l.cp, "psf/fixtures"));
    assert_true(self != 0 && base != 0 && pkg != 0);
    /* A Module is not a Class: class accessors refuse it. */
    assert_int_equal(cp_class_name(&l.cp, self, NULL), -1);
    assert_int_equal(cp_class_name(&l.cp, pkg, NULL), -1);
    cp_str this_name;
    assert_int_equal(cp_class_name(&l.cp, be_u16(l.file + 10 + l.used + 2), &this_name), 0);
    assert_true(str_eq(this_name, "module-info"));
    unload(&l);
}

static const char *const fixture_classes[] = {
    "module-info.class",
    "psf/fixtures/Constants.class",
    "psf/fixtures/Constants$Inner.class",
    "psf/fixtures/Natives.class",
    "psf/fixtures/Shape.class",
    "psf/fixtures/Switches.class",
    "psf/fixtures/Switches$1.class",
    "psf/fixtures/Switches$Color.class",
    "psf/fixtures/Wide.class",
};
#define N_FIXTURES (sizeof fixture_classes / sizeof fixture_classes[0])

static void cp_parse__all_fixtures__cover_every_tag_javac_emits(void **state)
{
    (void)state;
    unsigned seen[32] = {0};
    for (size_t f = 0; f < N_FIXTURES; f++) {
        loaded l;
        load(&l, fixture_classes[f]);
        for (uint32_t i = 1; i < l.count; i++)
            seen[cp_tag(&l.cp, (uint16_t)i)]++;
        unload(&l);
    }
    static const int tags[] = {1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 18, 19, 20};
    for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++)
        if (seen[tags[k]] == 0)
            fail_msg("no fixture has a constant with tag %d", tags[k]);
    assert_int_equal(seen[CP_DYNAMIC], 0);  /* javac 17 never emits it: see the hand-built test */
}

/* ---- hand-built pools -------------------------------------------------- */

static void cp_dynamic__hand_built_condy__reads_tag_17(void **state)
{
    (void)state;
    pool_buf p = {0};
    pb_utf8(&p, "CONST");           /* 1 */
    pb_utf8(&p, "Ljava/lang/Object;"); /* 2 */
    pb_u1(&p, CP_NAME_AND_TYPE);    /* 3 */
    pb_u2(&p, 1);
    pb_u2(&p, 2);
    pb_u1(&p, CP_DYNAMIC);          /* 4: bootstrap 7, #3 */
    pb_u2(&p, 7);
    pb_u2(&p, 3);
    pb_u1(&p, CP_INVOKE_DYNAMIC);   /* 5: bootstrap 65535, #3 */
    pb_u2(&p, 65535);
    pb_u2(&p, 3);

    uint8_t *copy = heap_copy(p.b, p.n);
    cpool cp;
    size_t used;
    char err[128];
    assert_int_equal(cp_parse(&cp, 6, copy, p.n, &used, err, sizeof err), 0);
    assert_int_equal(used, p.n);
    assert_int_equal(cp_tag(&cp, 4), CP_DYNAMIC);
    uint16_t bsm = 0;
    cp_str n, d;
    assert_int_equal(cp_dynamic(&cp, 4, &bsm, &n, &d), 0);
    assert_int_equal(bsm, 7);
    assert_true(str_eq(n, "CONST") && str_eq(d, "Ljava/lang/Object;"));
    assert_int_equal(cp_dynamic(&cp, 5, &bsm, NULL, NULL), 0);
    assert_int_equal(bsm, 65535);
    assert_int_equal(cp_dynamic(&cp, 3, &bsm, &n, &d), -1);
    assert_int_equal(cp_member_ref(&cp, 4, NULL, NULL, NULL), -1);
    cp_free(&cp);
    free(copy);

    /* A Dynamic whose name_and_type_index is a Utf8 is rejected. */
    p.b[p.n - 10 + 3] = 0;
    p.b[p.n - 10 + 4] = 1;
    expect_error(&p, 6, "constant pool index 4: Dynamic name_and_type_index 1 should be NameAndType, is Utf8", NULL);
}

/* Pool: 1 Utf8 "C", 2 Class #1, 3 Utf8 "m", 4 Utf8 "()V", 5 NameAndType
 * #3:#4, 6 Fieldref, 7 Methodref, 8 InterfaceMethodref (all #2.#5), 9
 * MethodHandle(kind, ref). */
static void build_handle_pool(pool_buf *p, unsigned kind, unsigned ref)
{
    memset(p, 0, sizeof *p);
    pb_utf8(p, "C");
    pb_u1(p, CP_CLASS);
    pb_u2(p, 1);
    pb_utf8(p, "m");
    pb_utf8(p, "()V");
    pb_u1(p, CP_NAME_AND_TYPE);
    pb_u2(p, 3);
    pb_u2(p, 4);
    for (int t = CP_FIELDREF; t <= CP_INTERFACE_METHODREF; t++) {
        pb_u1(p, (unsigned)t);
        pb_u2(p, 2);
        pb_u2(p, 5);
    }
    pb_u1(p, CP_METHOD_HANDLE);
    pb_u1(p, kind);
    pb_u2(p, ref);
}

static void cp_parse__method_handle_kinds__accept_only_matching_references(void **state)
{
    (void)state;
    /* accept[kind][target]: target 6 Fieldref, 7 Methodref, 8 InterfaceMethodref */
    static const int accept[10][3] = {
        {0, 0, 0},
        {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0},    /* getField..putStatic */
        {0, 1, 0},                                      /* invokeVirtual */
        {0, 1, 1}, {0, 1, 1},                           /* invokeStatic, invokeSpecial */
        {0, 1, 0},                                      /* newInvokeSpecial */
        {0, 0, 1},                                      /* invokeInterface */
    };
    pool_buf p;
    char err[256];
    for (unsigned kind = 0; kind <= 10; kind++) {
        for (unsigned ref = 1; ref <= 9; ref++) {
            build_handle_pool(&p, kind, ref);
            int ok = kind >= 1 && kind <= 9 && ref >= 6 && ref <= 8 && accept[kind][ref - 6];
            int rc = parse_built(&p, 10, err, sizeof err);
            if (rc != (ok ? 0 : -1))
                fail_msg("kind %u -> #%u: rc %d (%s)", kind, ref, rc, err);
            if (!ok)
                assert_non_null(strstr(err, "constant pool index 9: MethodHandle"));
        }
    }
    build_handle_pool(&p, 10, 7);
    expect_error(&p, 10, "index 9", "reference_kind 10 is not 1..9");
    build_handle_pool(&p, 1, 7);
    expect_error(&p, 10, "reference_index 7 should be Fieldref, is Methodref", NULL);
    build_handle_pool(&p, 5, 0);
    expect_error(&p, 10, "reference_index 0 is out of range", NULL);
}

static void cp_parse__bad_references__messages_name_index_and_problem(void **state)
{
    (void)state;
    pool_buf p = {0};

    /* Methodref whose class_index is a Utf8. */
    pb_u1(&p, CP_METHODREF);    /* 1 */
    pb_u2(&p, 2);
    pb_u2(&p, 3);
    pb_utf8(&p, "x");           /* 2 */
    pb_u1(&p, CP_NAME_AND_TYPE);/* 3 */
    pb_u2(&p, 2);
    pb_u2(&p, 2);
    expect_error(&p, 4, "constant pool index 1: Methodref class_index 2 should be Class, is Utf8", NULL);

    /* The same with an index past the end of the pool. */
    p.b[2] = 9;
    expect_error(&p, 4, "constant pool index 1: Methodref class_index 9 is out of range (1..3)", NULL);

    /* A Class naming index 0, a String naming a Class. */
    memset(&p, 0, sizeof p);
    pb_u1(&p, CP_CLASS);
    pb_u2(&p, 0);
    expect_error(&p, 2, "constant pool index 1: Class name_index 0 is out of range", NULL);
    memset(&p, 0, sizeof p);
    pb_utf8(&p, "s");
    pb_u1(&p, CP_CLASS);
    pb_u2(&p, 1);
    pb_u1(&p, CP_STRING);
    pb_u2(&p, 2);
    expect_error(&p, 4, "constant pool index 3: String string_index 2 should be Utf8, is Class", NULL);

    /* NameAndType whose descriptor is a Class; MethodType naming a Long's
     * unusable second slot. */
    memset(&p, 0, sizeof p);
    pb_utf8(&p, "n");
    pb_u1(&p, CP_CLASS);
    pb_u2(&p, 1);
    pb_u1(&p, CP_NAME_AND_TYPE);
    pb_u2(&p, 1);
    pb_u2(&p, 2);
    expect_error(&p, 4, "constant pool index 3: NameAndType descriptor_index 2 should be Utf8, is Class", NULL);
    memset(&p, 0, sizeof p);
    pb_u1(&p, CP_LONG);
    for (int k = 0; k < 8; k++)
        pb_u1(&p, 0);
    pb_u1(&p, CP_METHOD_TYPE);
    pb_u2(&p, 2);
    expect_error(&p, 4, "constant pool index 3: MethodType descriptor_index 2 should be Utf8, is the second slot of a Long or Double", NULL);
}

static void cp_parse__bad_tags_and_sizes__rejected_with_message(void **state)
{
    (void)state;
    static const uint8_t unknown[] = {0, 2, 13, 14, 21, 100, 255};
    for (size_t k = 0; k < sizeof unknown; k++) {
        pool_buf p = {0};
        pb_utf8(&p, "a");
        pb_u1(&p, unknown[k]);
        pb_u2(&p, 1);
        char want[64];
        snprintf(want, sizeof want, "constant pool index 2: unknown tag %u at offset 4", unknown[k]);
        expect_error(&p, 3, want, NULL);
    }

    /* Long and Double in the last slot. */
    for (int tag = CP_LONG; tag <= CP_DOUBLE; tag++) {
        pool_buf p = {0};
        pb_u1(&p, (unsigned)tag);
        for (int k = 0; k < 8; k++)
            pb_u1(&p, 0);
        expect_error(&p, 2, "constant pool index 1:", "no room for its second slot");
        char err[64];
        assert_int_equal(parse_built(&p, 3, err, sizeof err), 0);
    }

    /* Bytes that modified UTF-8 forbids. */
    static const uint8_t forbidden[] = {0x00, 0xf0, 0xf8, 0xff};
    for (size_t k = 0; k < sizeof forbidden; k++) {
        pool_buf p = {0};
        pb_utf8(&p, "abc");
        p.b[4] = forbidden[k];
        expect_error(&p, 2, "constant pool index 1: Utf8 byte 1", "not allowed in modified UTF-8");
    }
    /* The same bytes at every place of a longer string (cp_parse checks
     * eight bytes at a time, then the rest one by one), among the allowed
     * bytes nearest them: 0x01, 0xef, 0x7f and 0x80. */
    static const char near[] = "\x01\xef\x7f\x80\x01\xef\x7f\x80\x01\xef\x7f\x80\x01\xef\x7f\x80\x01\xef\x7f\x80";
    for (size_t at = 0; at < sizeof near - 1; at++)
        for (size_t k = 0; k < sizeof forbidden; k++) {
            pool_buf p = {0};
            pb_utf8(&p, near);
            p.b[3 + at] = forbidden[k];
            char want[64];
            snprintf(want, sizeof want, "constant pool index 1: Utf8 byte %zu is 0x%02x", at, forbidden[k]);
            expect_error(&p, 2, want, "not allowed in modified UTF-8");
        }
    pool_buf nearby = {0};
    pb_utf8(&nearby, near);
    char near_err[64];
    assert_int_equal(parse_built(&nearby, 2, near_err, sizeof near_err), 0);
    /* Multi-byte sequences (here "é" and a surrogate half) are fine. */
    pool_buf ok = {0};
    pb_utf8(&ok, "\xc3\xa9\xed\xa0\x80\xc0\x80");
    char err[64];
    assert_int_equal(parse_built(&ok, 2, err, sizeof err), 0);

    /* Too few entries for the count; trailing bytes are not the pool's. */
    pool_buf p = {0};
    pb_utf8(&p, "a");
    expect_error(&p, 3, "constant pool index 2: truncated at offset 4 (no tag byte)", NULL);
    pb_u1(&p, 0xee);
    {
        uint8_t *copy = heap_copy(p.b, p.n);
        cpool cp;
        size_t used = 0;
        assert_int_equal(cp_parse(&cp, 2, copy, p.n, &used, err, sizeof err), 0);
        assert_int_equal(used, 4);
        assert_int_equal(cp.len, 4);
        cp_free(&cp);
        free(copy);
    }
}

static void cp_parse__count_zero_or_one__handled(void **state)
{
    (void)state;
    cpool cp;
    size_t used = 99;
    char err[128] = "";
    assert_int_equal(cp_parse(&cp, 0, NULL, 0, &used, err, sizeof err), -1);
    assert_non_null(strstr(err, "constant_pool_count is 0"));
    assert_null(cp.offsets);
    cp_free(&cp);
    /* count 1: an empty pool of zero bytes. */
    assert_int_equal(cp_parse(&cp, 1, NULL, 0, &used, err, sizeof err), 0);
    assert_int_equal(used, 0);
    assert_int_equal(cp_tag(&cp, 0), 0);
    assert_int_equal(cp_tag(&cp, 1), 0);
    cp_free(&cp);
    /* err may be absent. */
    assert_int_equal(cp_parse(&cp, 0, NULL, 0, NULL, NULL, 0), -1);
    assert_int_equal(cp_parse(&cp, 2, NULL, 0, NULL, err, 0), -1);
}

/* ---- accessors --------------------------------------------------------- */

static void cp_accessors__wrong_tags_and_ranges__return_minus_one(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    const cpool *cp = &l.cp;
    uint16_t utf8 = find_utf8(cp, "java/lang/String");
    uint16_t cls = find_ref(cp, CP_CLASS, utf8);
    uint16_t mref = find_member(cp, "java/lang/String", "length", "()I");
    uint16_t nat = be_u16(raw(cp, mref) + 2);
    assert_true(utf8 && cls && mref && nat);

    assert_int_equal(cp_tag(cp, 0), 0);
    assert_int_equal(cp_tag(cp, l.count), 0);
    assert_int_equal(cp_tag(cp, 65535), 0);
    assert_int_equal(cp_tag(NULL, 1), 0);
    for (uint16_t bad = 0; bad < 3; bad++) {
        uint16_t idx = bad == 0 ? 0 : bad == 1 ? l.count : 65535;
        assert_int_equal(cp_utf8(cp, idx, NULL), -1);
        assert_int_equal(cp_class_name(cp, idx, NULL), -1);
        assert_int_equal(cp_name_and_type(cp, idx, NULL, NULL), -1);
        assert_int_equal(cp_member_ref(cp, idx, NULL, NULL, NULL), -1);
        assert_int_equal(cp_dynamic(cp, idx, NULL, NULL, NULL), -1);
        assert_int_equal(cp_integer(cp, idx, NULL), -1);
        assert_int_equal(cp_long(cp, idx, NULL), -1);
    }
    assert_int_equal(cp_utf8(cp, cls, NULL), -1);
    assert_int_equal(cp_class_name(cp, utf8, NULL), -1);
    assert_int_equal(cp_class_name(cp, mref, NULL), -1);
    assert_int_equal(cp_name_and_type(cp, mref, NULL, NULL), -1);
    assert_int_equal(cp_member_ref(cp, nat, NULL, NULL, NULL), -1);
    assert_int_equal(cp_member_ref(cp, cls, NULL, NULL, NULL), -1);
    assert_int_equal(cp_dynamic(cp, mref, NULL, NULL, NULL), -1);
    assert_int_equal(cp_integer(cp, utf8, NULL), -1);
    assert_int_equal(cp_long(cp, utf8, NULL), -1);

    cp_str s;
    assert_int_equal(cp_class_name(cp, cls, &s), 0);
    assert_true(str_eq(s, "java/lang/String"));

    /* An empty (failed or freed) pool answers nothing. */
    cpool empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(cp_tag(&empty, 1), 0);
    assert_int_equal(cp_utf8(&empty, 1, NULL), -1);
    assert_int_equal(cp_member_ref(&empty, 1, NULL, NULL, NULL), -1);
    unload(&l);
    cp_free(&l.cp);     /* freeing twice is harmless */
    cp_free(NULL);
}

/* The accessors check referenced tags themselves, not only cp_parse: point a
 * Class at an Integer after parsing (the bytes are the caller's). */
static void cp_accessors__references_changed_after_parse__are_refused(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    uint16_t mref = find_member(&l.cp, "java/lang/String", "length", "()I");
    uint16_t cls = be_u16(raw(&l.cp, mref));
    uint16_t integer = 0;
    for (uint32_t i = 1; i < l.count && !integer; i++)
        if (cp_tag(&l.cp, (uint16_t)i) == CP_INTEGER)
            integer = (uint16_t)i;
    assert_true(integer != 0);

    uint8_t *name_index = l.file + 10 + l.cp.offsets[cls] + 1;
    name_index[0] = (uint8_t)(integer >> 8);
    name_index[1] = (uint8_t)integer;
    assert_int_equal(cp_class_name(&l.cp, cls, NULL), -1);
    assert_int_equal(cp_member_ref(&l.cp, mref, NULL, NULL, NULL), -1);
    name_index[0] = 0xff;       /* out of range */
    assert_int_equal(cp_class_name(&l.cp, cls, NULL), -1);
    unload(&l);
}

/* ---- corrupt input ----------------------------------------------------- */

/* Exercise every accessor on every index of a pool that parsed. */
static void query_everything(const cpool *cp)
{
    cp_str a, b, c;
    uint16_t bsm;
    int32_t i32;
    int64_t i64;
    for (uint32_t i = 0; i <= (uint32_t)cp->count + 1 && i <= 65535; i++) {
        uint16_t idx = (uint16_t)i;
        (void)cp_tag(cp, idx);
        if (cp_utf8(cp, idx, &a) == 0)
            assert_true(a.ptr >= (const char *)cp->bytes &&
                        a.ptr + a.len <= (const char *)cp->bytes + cp->len);
        (void)cp_class_name(cp, idx, &a);
        (void)cp_name_and_type(cp, idx, &a, &b);
        (void)cp_member_ref(cp, idx, &a, &b, &c);
        (void)cp_dynamic(cp, idx, &bsm, &a, &b);
        (void)cp_integer(cp, idx, &i32);
        (void)cp_long(cp, idx, &i64);
    }
}

static void cp_parse__real_pool_truncated_at_every_length__fails_cleanly(void **state)
{
    (void)state;
    for (size_t f = 0; f < N_FIXTURES; f++) {
        loaded l;
        load(&l, fixture_classes[f]);
        for (size_t n = 0; n < l.used; n++) {
            uint8_t *copy = heap_copy(l.file + 10, n);
            cpool cp;
            size_t used = 12345;
            char err[200] = "";
            if (cp_parse(&cp, l.count, copy, n, &used, err, sizeof err) == 0)
                fail_msg("%s: pool cut to %zu of %zu bytes parsed", fixture_classes[f], n, l.used);
            assert_non_null(strstr(err, "constant pool index "));
            assert_non_null(strstr(err, "truncated"));
            assert_int_equal(used, 0);
            assert_null(cp.offsets);
            cp_free(&cp);
            free(copy);
        }
        unload(&l);
    }
}

static void cp_parse__every_tag_byte_replaced__never_reads_out_of_bounds(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Constants.class");
    size_t pool_len = l.used;
    int accepted = 0, rejected = 0, entries = 0;
    for (uint32_t i = 1; i < l.count; i++) {
        if (l.cp.offsets[i] == UINT32_MAX)
            continue;
        entries++;
        for (unsigned tag = 0; tag <= 0xff; tag++) {
            uint8_t *copy = heap_copy(l.file + 10, pool_len);
            copy[l.cp.offsets[i]] = (uint8_t)tag;
            cpool cp;
            char err[200] = "";
            if (cp_parse(&cp, l.count, copy, pool_len, NULL, err, sizeof err) == 0) {
                accepted++;
                query_everything(&cp);
            } else {
                rejected++;
                assert_true(strlen(err) > 0);
            }
            cp_free(&cp);
            free(copy);
        }
    }
    /* The original tag is accepted; almost everything else is not. */
    assert_true(accepted >= entries);
    assert_true(rejected > accepted);
    unload(&l);
}

static void cp_parse__every_byte_flipped__never_reads_out_of_bounds(void **state)
{
    (void)state;
    loaded l;
    load(&l, "psf/fixtures/Switches.class");
    for (size_t pos = 0; pos < l.used; pos++) {
        static const uint8_t masks[] = {0xff, 0x01, 0x80};
        for (size_t m = 0; m < sizeof masks; m++) {
            uint8_t *copy = heap_copy(l.file + 10, l.used);
            copy[pos] ^= masks[m];
            cpool cp;
            char err[200] = "";
            if (cp_parse(&cp, l.count, copy, l.used, NULL, err, sizeof err) == 0)
                query_everything(&cp);
            else
                assert_non_null(strstr(err, "constant pool index "));
            cp_free(&cp);
            free(copy);
        }
    }
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cp_parse__constants_class__ends_where_access_flags_start),
        cmocka_unit_test(cp_parse__long_and_double__take_two_slots),
        cmocka_unit_test(cp_integer__int_float_and_string_constants__read_source_values),
        cmocka_unit_test(cp_member_ref__field_method_and_interface_refs__resolve_owner_name_desc),
        cmocka_unit_test(cp_dynamic__invokedynamic_entries__name_call_sites_and_bootstraps),
        cmocka_unit_test(cp_parse__method_handles_and_types__point_at_the_right_entries),
        cmocka_unit_test(cp_parse__module_info__has_module_and_package_entries),
        cmocka_unit_test(cp_parse__all_fixtures__cover_every_tag_javac_emits),
        cmocka_unit_test(cp_dynamic__hand_built_condy__reads_tag_17),
        cmocka_unit_test(cp_parse__method_handle_kinds__accept_only_matching_references),
        cmocka_unit_test(cp_parse__bad_references__messages_name_index_and_problem),
        cmocka_unit_test(cp_parse__bad_tags_and_sizes__rejected_with_message),
        cmocka_unit_test(cp_parse__count_zero_or_one__handled),
        cmocka_unit_test(cp_accessors__wrong_tags_and_ranges__return_minus_one),
        cmocka_unit_test(cp_accessors__references_changed_after_parse__are_refused),
        cmocka_unit_test(cp_parse__real_pool_truncated_at_every_length__fails_cleanly),
        cmocka_unit_test(cp_parse__every_tag_byte_replaced__never_reads_out_of_bounds),
        cmocka_unit_test(cp_parse__every_byte_flipped__never_reads_out_of_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
