/*
 * test_classfile.c - unit tests for agent/classfile/classfile.c, and for
 * bc_insn_length() and cpool.c on real javac output.
 *
 * Fixtures: the classes compiled from tests/fixtures/unit into
 * $PSF_BUILD/fixtures/unit, each with a `javap -c -p` listing (X.javap)
 * made by agent/classfile/pure.mk. Every method of every fixture is decoded here and
 * compared, offset by offset, with javap's own decoding. Values written
 * below (names, descriptors, code lengths, max_stack/max_locals) are read
 * off the Java sources and `javap -c -v`; the few exact code lengths are
 * taken from methods small enough that any javac 17 compiles them the same
 * way. Malformed class files are built by hand or derived from the real
 * ones by truncation and bit flips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bytecode.h"
#include "bytes.h"
#include "classfile.h"

#define ACC_PUBLIC   0x0001
#define ACC_PRIVATE  0x0002
#define ACC_STATIC   0x0008
#define ACC_SUPER    0x0020
#define ACC_NATIVE   0x0100
#define ACC_ABSTRACT 0x0400
#define ACC_MODULE   0x8000

/* ---- helpers ----------------------------------------------------------- */

/* Read $PSF_BUILD/fixtures/unit/<rel> into an exactly sized heap block
 * (plus a NUL, for text); returns NULL when missing and allow_missing. */
static uint8_t *read_file(const char *path, size_t *len, int allow_missing);

static uint8_t *read_fixture_file(const char *rel, size_t *len, int allow_missing)
{
    const char *build = getenv("PSF_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/fixtures/unit/%s", build && *build ? build : "build", rel);
    return read_file(path, len, allow_missing);
}

/* Read the file at path (relative to the repository root, where tests run)
 * like read_fixture_file. */
static uint8_t *read_file(const char *path, size_t *len, int allow_missing)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        if (allow_missing)
            return NULL;
        fail_msg("cannot open fixture %s (run through make, which compiles it)", path);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_true(n > 0);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
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

static int str_eq(cp_str s, const char *lit)
{
    return s.ptr != NULL && s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

/* A parsed fixture class; `bytes` must outlive `cf`. Copied into an exactly
 * sized block so ASan catches reads past the end. */
typedef struct fixture {
    uint8_t *bytes;
    size_t len;
    classfile cf;
} fixture;

static void load_bytes(fixture *fx, uint8_t *raw, size_t n, const char *rel);

static void load(fixture *fx, const char *rel)
{
    size_t n;
    uint8_t *raw = read_fixture_file(rel, &n, 0);
    load_bytes(fx, raw, n, rel);
}

/* Parse raw (n bytes, freed here) as fixture fx; rel names it in failures. */
static void load_bytes(fixture *fx, uint8_t *raw, size_t n, const char *rel)
{
    char err[256] = "";
    fx->bytes = heap_copy(raw, n);
    fx->len = n;
    free(raw);
    if (cf_parse(&fx->cf, fx->bytes, fx->len, err, sizeof err))
        fail_msg("cf_parse(%s): %s", rel, err);
}

static void unload(fixture *fx)
{
    cf_free(&fx->cf);
    free(fx->bytes);
}

static const cf_method *method(const classfile *cf, const char *name, const char *desc)
{
    for (uint16_t i = 0; i < cf->method_count; i++)
        if (str_eq(cf->methods[i].name, name) && str_eq(cf->methods[i].desc, desc))
            return &cf->methods[i];
    fail_msg("no method %s%s", name, desc);
    return NULL;
}

/* pc of the n-th (0-based) instruction with opcode op, found by walking. */
static uint32_t find_insn(const cf_method *m, uint8_t op, int nth)
{
    uint32_t pc = 0;
    while (pc < m->code_len) {
        uint32_t len = bc_insn_length(m->code, m->code_len, pc);
        assert_true(len > 0);
        if (m->code[pc] == op && nth-- == 0)
            return pc;
        pc += len;
    }
    fail_msg("no %s #%d in %.*s", bc_mnemonic(op), nth, (int)m->name.len, m->name.ptr);
    return 0;
}

/* The member reference of the invoke/field instruction at pc. */
static void expect_member_at(const classfile *cf, const cf_method *m, uint32_t pc, uint8_t op,
                             int tag, const char *owner, const char *name, const char *desc)
{
    cp_str o, n, d;
    assert_true(pc + 2 < m->code_len);
    assert_int_equal(m->code[pc], op);
    uint16_t idx = be_u16(m->code + pc + 1);
    assert_int_equal(cp_tag(&cf->cp, idx), tag);
    assert_int_equal(cp_member_ref(&cf->cp, idx, &o, &n, &d), 0);
    if (!str_eq(o, owner) || !str_eq(n, name) || !str_eq(d, desc))
        fail_msg("pc %u: %.*s.%.*s:%.*s, expected %s.%s:%s", pc, (int)o.len, o.ptr, (int)n.len,
                 n.ptr, (int)d.len, d.ptr, owner, name, desc);
}

/* The Class operand of new/anewarray/checkcast/instanceof/multianewarray. */
static void expect_class_at(const classfile *cf, const cf_method *m, uint32_t pc, uint8_t op,
                            const char *internal)
{
    cp_str s;
    assert_int_equal(m->code[pc], op);
    assert_int_equal(cp_class_name(&cf->cp, be_u16(m->code + pc + 1), &s), 0);
    assert_true(str_eq(s, internal));
}

static const char *const fixture_classes[] = {
    "module-info",
    "psf/fixtures/Constants",
    "psf/fixtures/Constants$Inner",
    "psf/fixtures/Natives",
    "psf/fixtures/Shape",
    "psf/fixtures/Switches",
    "psf/fixtures/Switches$1",
    "psf/fixtures/Switches$Color",
    "psf/fixtures/Wide",
};
#define N_FIXTURES (sizeof fixture_classes / sizeof fixture_classes[0])

static void fixture_path(char *buf, size_t cap, size_t i, const char *ext)
{
    snprintf(buf, cap, "%s.%s", fixture_classes[i], ext);
}

/* ---- real classes ------------------------------------------------------ */

static void cf_parse__constants_class__reads_version_access_and_names(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Constants.class");
    assert_int_equal(fx.cf.major, 61);      /* --release 17 */
    assert_int_equal(fx.cf.minor, 0);
    assert_int_equal(fx.cf.access, ACC_PUBLIC | ACC_SUPER);
    assert_true(str_eq(fx.cf.this_name, "psf/fixtures/Constants"));
    assert_true(str_eq(fx.cf.super_name, "java/lang/Object"));
    /* <init>, add, mix, size, length, concat, lambdas, primitiveArrays,
     * grid, guarded, bump, useInner and the synthetic lambda$lambdas$0. */
    assert_int_equal(fx.cf.method_count, 13);
    static const char *const names[] = {"<init>", "add", "mix", "size", "length", "concat",
                                        "lambdas", "primitiveArrays", "grid", "guarded",
                                        "bump", "useInner", "lambda$lambdas$0"};
    for (int i = 0; i < 13; i++)
        assert_true(str_eq(fx.cf.methods[i].name, names[i]));  /* class-file order = source order */
    const cf_method *lam = method(&fx.cf, "lambda$lambdas$0", "(I)I");
    assert_int_equal(lam->access & (ACC_PRIVATE | ACC_STATIC), ACC_PRIVATE | ACC_STATIC);
    unload(&fx);
}

static void cf_parse__small_methods__code_and_frame_sizes_match_javap(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Constants.class");
    static const struct {
        const char *name, *desc;
        uint32_t code_len;
        uint16_t max_stack, max_locals, access;
    } want[] = {
        {"<init>", "()V", 5, 1, 1, ACC_PUBLIC},
        {"add", "(II)I", 4, 2, 2, ACC_PUBLIC | ACC_STATIC},
        {"mix", "(I)D", 43, 4, 8, ACC_PUBLIC | ACC_STATIC},
        {"size", "(Ljava/util/List;)I", 7, 1, 1, ACC_PUBLIC | ACC_STATIC},
        {"length", "(Ljava/lang/String;)I", 5, 1, 1, ACC_PUBLIC | ACC_STATIC},
        {"concat", "(Ljava/lang/String;I)Ljava/lang/String;", 8, 2, 2, ACC_PUBLIC | ACC_STATIC},
        {"grid", "(II)[[I", 12, 2, 3, ACC_PUBLIC | ACC_STATIC},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        const cf_method *m = method(&fx.cf, want[k].name, want[k].desc);
        assert_non_null(m->code);
        assert_int_equal(m->code_len, want[k].code_len);
        assert_int_equal(m->max_stack, want[k].max_stack);
        assert_int_equal(m->max_locals, want[k].max_locals);
        assert_int_equal(m->access, want[k].access);
        assert_true(m->code >= fx.bytes && m->code + m->code_len <= fx.bytes + fx.len);
    }
    static const uint8_t add_code[] = {0x1a, 0x1b, 0x60, 0xac};  /* iload_0 iload_1 iadd ireturn */
    assert_memory_equal(method(&fx.cf, "add", "(II)I")->code, add_code, sizeof add_code);
    unload(&fx);
}

static void cf_parse__invokes_at_known_offsets__resolve_owner_name_desc(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Constants.class");
    const classfile *cf = &fx.cf;

    /* size(): 0 aload_0, 1 invokeinterface List.size, count 1, 0; 6 ireturn */
    const cf_method *m = method(cf, "size", "(Ljava/util/List;)I");
    expect_member_at(cf, m, 1, BC_INVOKEINTERFACE, CP_INTERFACE_METHODREF, "java/util/List", "size", "()I");
    assert_int_equal(m->code[4], 1);
    assert_int_equal(m->code[5], 0);
    assert_int_equal(bc_insn_length(m->code, m->code_len, 1), 5);

    /* length(): 1 invokevirtual String.length */
    m = method(cf, "length", "(Ljava/lang/String;)I");
    expect_member_at(cf, m, 1, BC_INVOKEVIRTUAL, CP_METHODREF, "java/lang/String", "length", "()I");

    /* <init>: 1 invokespecial Object.<init> */
    m = method(cf, "<init>", "()V");
    expect_member_at(cf, m, 1, BC_INVOKESPECIAL, CP_METHODREF, "java/lang/Object", "<init>", "()V");

    /* concat(): 2 invokedynamic makeConcatWithConstants, then two zero bytes */
    m = method(cf, "concat", "(Ljava/lang/String;I)Ljava/lang/String;");
    assert_int_equal(m->code[2], BC_INVOKEDYNAMIC);
    uint16_t bsm = 99;
    cp_str n, d;
    assert_int_equal(cp_dynamic(&cf->cp, be_u16(m->code + 3), &bsm, &n, &d), 0);
    assert_true(str_eq(n, "makeConcatWithConstants"));
    assert_true(str_eq(d, "(Ljava/lang/String;I)Ljava/lang/String;"));
    assert_int_equal(bsm, 0);   /* the first call site in the class */
    assert_int_equal(be_u16(m->code + 5), 0);

    /* grid(): 1 anewarray String, 7 multianewarray [[I with 2 dimensions */
    m = method(cf, "grid", "(II)[[I");
    expect_class_at(cf, m, 1, BC_ANEWARRAY, "java/lang/String");
    expect_class_at(cf, m, 7, BC_MULTIANEWARRAY, "[[I");
    assert_int_equal(m->code[10], 2);
    assert_int_equal(bc_insn_length(m->code, m->code_len, 7), 4);

    /* guarded(): instanceof, checkcast, new, the exception's constructor */
    m = method(cf, "guarded", "(Ljava/lang/Object;)I");
    expect_class_at(cf, m, 1, 0xc1, "java/lang/String");
    expect_class_at(cf, m, find_insn(m, 0xc0, 0), 0xc0, "java/lang/String");
    expect_class_at(cf, m, find_insn(m, BC_NEW, 0), BC_NEW, "java/lang/IllegalArgumentException");
    expect_member_at(cf, m, find_insn(m, BC_INVOKESPECIAL, 0), BC_INVOKESPECIAL, CP_METHODREF,
                     "java/lang/IllegalArgumentException", "<init>", "(Ljava/lang/String;)V");
    (void)find_insn(m, BC_ATHROW, 0);

    /* bump(): getfield/putfield counter */
    m = method(cf, "bump", "()I");
    expect_member_at(cf, m, find_insn(m, 0xb4, 0), 0xb4, CP_FIELDREF, "psf/fixtures/Constants", "counter", "I");
    expect_member_at(cf, m, find_insn(m, 0xb5, 0), 0xb5, CP_FIELDREF, "psf/fixtures/Constants", "counter", "I");
    (void)find_insn(m, 0xc2, 0);    /* monitorenter */
    (void)find_insn(m, 0xc3, 0);    /* monitorexit */

    /* useInner(): new Constants$Inner, <init>(I)V, get()I */
    m = method(cf, "useInner", "()I");
    expect_class_at(cf, m, 0, BC_NEW, "psf/fixtures/Constants$Inner");
    expect_member_at(cf, m, find_insn(m, BC_INVOKESPECIAL, 0), BC_INVOKESPECIAL, CP_METHODREF,
                     "psf/fixtures/Constants$Inner", "<init>", "(I)V");
    expect_member_at(cf, m, find_insn(m, BC_INVOKEVIRTUAL, 0), BC_INVOKEVIRTUAL, CP_METHODREF,
                     "psf/fixtures/Constants$Inner", "get", "()I");

    /* lambdas(): three invokedynamic call sites, then Supplier.get */
    m = method(cf, "lambdas", "(I)I");
    static const char *const sites[] = {"getAsInt", "apply", "get"};
    for (int k = 0; k < 3; k++) {
        uint32_t pc = find_insn(m, BC_INVOKEDYNAMIC, k);
        assert_int_equal(cp_dynamic(&cf->cp, be_u16(m->code + pc + 1), &bsm, &n, NULL), 0);
        assert_true(str_eq(n, sites[k]));
        assert_int_equal(bsm, k + 1);
    }
    expect_member_at(cf, m, find_insn(m, BC_INVOKEINTERFACE, 0), BC_INVOKEINTERFACE,
                     CP_INTERFACE_METHODREF, "java/util/function/Supplier", "get", "()Ljava/lang/Object;");
    unload(&fx);
}

static void cf_parse__primitive_arrays__newarray_atypes_in_source_order(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Constants.class");
    const cf_method *m = method(&fx.cf, "primitiveArrays", "(I)I");
    static const char *const want[] = {"boolean", "char", "float", "double",
                                       "byte", "short", "int", "long"};
    for (int k = 0; k < 8; k++) {
        uint32_t pc = find_insn(m, BC_NEWARRAY, k);
        assert_int_equal(bc_insn_length(m->code, m->code_len, pc), 2);
        assert_string_equal(bc_newarray_type(m->code[pc + 1]), want[k]);
    }
    unload(&fx);
}

static void cf_parse__switches__table_and_lookup_sizes_match_javap(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Switches.class");
    /* dense: 0 iload_0, 1 tableswitch {1..5} (pad 2, 12 + 5*4) -> next at 36 */
    const cf_method *m = method(&fx.cf, "dense", "(I)I");
    assert_int_equal(m->code[1], BC_TABLESWITCH);
    assert_int_equal(bc_insn_length(m->code, m->code_len, 1), 35);
    /* sparse: 1 lookupswitch, 3 pairs (pad 2, 8 + 3*8) -> next at 36 */
    m = method(&fx.cf, "sparse", "(I)I");
    assert_int_equal(m->code[1], BC_LOOKUPSWITCH);
    assert_int_equal(bc_insn_length(m->code, m->code_len, 1), 35);
    /* named: lookupswitch on hashCode at 8 (pad 3, 3 pairs) -> next at 44,
     * then a tableswitch on the case number. */
    m = method(&fx.cf, "named", "(Ljava/lang/String;)I");
    assert_int_equal(find_insn(m, BC_LOOKUPSWITCH, 0), 8);
    assert_int_equal(bc_insn_length(m->code, m->code_len, 8), 36);
    expect_member_at(&fx.cf, m, 5, BC_INVOKEVIRTUAL, CP_METHODREF, "java/lang/String", "hashCode", "()I");
    (void)find_insn(m, BC_TABLESWITCH, 0);
    /* colored: the enum switch reads Switches$1.$SwitchMap$...$Color */
    m = method(&fx.cf, "colored", "(Lpsf/fixtures/Switches$Color;)I");
    expect_member_at(&fx.cf, m, find_insn(m, BC_GETSTATIC, 0), BC_GETSTATIC, CP_FIELDREF,
                     "psf/fixtures/Switches$1", "$SwitchMap$psf$fixtures$Switches$Color", "[I");
    unload(&fx);
}

static void cf_parse__wide_method__uses_wide_forms_that_walk_to_code_len(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Wide.class");
    const cf_method *m = method(&fx.cf, "many", "(I)I");
    /* p, v0..v289, far (2), ff, fd (2), fs: 297 slots. */
    assert_int_equal(m->max_locals, 297);
    static const struct { uint16_t index; int16_t delta; } iincs[] = {
        {290, 1},       /* v289++ */
        {289, 1000},    /* v288 += 1000 */
        {6, 1000},      /* v5 += 1000: low slot, but the delta needs 16 bits */
    };
    int nth = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t pc;
        do                              /* the k-th wide iinc */
            pc = find_insn(m, BC_WIDE, nth++);
        while (m->code[pc + 1] != 0x84);
        assert_int_equal(bc_insn_length(m->code, m->code_len, pc), 6);
        assert_int_equal(be_u16(m->code + pc + 2), iincs[k].index);
        assert_int_equal((int16_t)be_u16(m->code + pc + 4), iincs[k].delta);
    }
    /* Every wide form javac uses here: iload, lload, fload, dload, aload and
     * the matching stores, all 4 bytes. */
    unsigned forms = 0;
    for (uint32_t pc = 0; pc < m->code_len;) {
        uint32_t len = bc_insn_length(m->code, m->code_len, pc);
        assert_true(len > 0);
        if (m->code[pc] == BC_WIDE && m->code[pc + 1] != 0x84) {
            uint8_t op = m->code[pc + 1];
            assert_int_equal(len, 4);
            if (op >= 0x15 && op <= 0x19)       /* iload..aload: bits 0-4 */
                forms |= 1u << (op - 0x15);
            else if (op >= 0x36 && op <= 0x3a)  /* istore..astore: bits 5-9 */
                forms |= 1u << (op - 0x36 + 5);
        }
        pc += len;
    }
    assert_int_equal(forms, 0x3ff);
    unload(&fx);
}

static void cf_parse__abstract_native_and_interface_methods__code_only_where_a_body_is(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Natives.class");
    assert_int_equal(fx.cf.access & ACC_ABSTRACT, ACC_ABSTRACT);
    const cf_method *m = method(&fx.cf, "nativeCall", "(I)I");
    assert_int_equal(m->access, ACC_PUBLIC | ACC_NATIVE);
    assert_null(m->code);
    assert_int_equal(m->code_len, 0);
    m = method(&fx.cf, "hook", "()V");
    assert_int_equal(m->access, ACC_PUBLIC | ACC_ABSTRACT);
    assert_null(m->code);
    m = method(&fx.cf, "<clinit>", "()V");
    assert_int_equal(m->access, ACC_STATIC);
    assert_int_equal(m->code_len, 7);
    expect_member_at(&fx.cf, m, 0, BC_INVOKESTATIC, CP_METHODREF, "java/lang/System", "nanoTime", "()J");
    expect_member_at(&fx.cf, m, 3, 0xb3, CP_FIELDREF, "psf/fixtures/Natives", "START", "J");
    unload(&fx);

    load(&fx, "psf/fixtures/Shape.class");
    assert_int_equal(fx.cf.access, 0x0601);     /* public abstract interface */
    assert_true(str_eq(fx.cf.super_name, "java/lang/Object"));
    assert_int_equal(fx.cf.method_count, 4);
    assert_null(method(&fx.cf, "area", "()D")->code);
    m = method(&fx.cf, "doubled", "()D");
    assert_int_equal(m->code_len, 13);
    expect_member_at(&fx.cf, m, 2, BC_INVOKEINTERFACE, CP_INTERFACE_METHODREF, "psf/fixtures/Shape", "area", "()D");
    expect_member_at(&fx.cf, m, 7, BC_INVOKEINTERFACE, CP_INTERFACE_METHODREF, "psf/fixtures/Shape", "twice", "(D)D");
    assert_int_equal(method(&fx.cf, "twice", "(D)D")->access, ACC_PRIVATE);
    m = method(&fx.cf, "total", "(Lpsf/fixtures/Shape;Lpsf/fixtures/Shape;)D");
    expect_member_at(&fx.cf, m, 7, BC_INVOKEINTERFACE, CP_INTERFACE_METHODREF, "psf/fixtures/Shape", "doubled", "()D");
    unload(&fx);
}

static void cf_parse__module_info__has_no_superclass_and_no_methods(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "module-info.class");
    assert_int_equal(fx.cf.access, ACC_MODULE);
    assert_true(str_eq(fx.cf.this_name, "module-info"));
    assert_non_null(fx.cf.super_name.ptr);
    assert_int_equal(fx.cf.super_name.len, 0);
    assert_int_equal(fx.cf.method_count, 0);
    assert_null(fx.cf.methods);
    unload(&fx);

    load(&fx, "psf/fixtures/Constants$Inner.class");
    assert_true(str_eq(fx.cf.this_name, "psf/fixtures/Constants$Inner"));
    assert_int_equal(fx.cf.method_count, 2);
    unload(&fx);
}

/* javap's listing as (pc, mnemonic) pairs, in file order. Instruction lines
 * look like "      12: invokevirtual #7 ..."; switch cases ("1: 36",
 * "default: 42"), exception tables and headers do not match. */
typedef struct listing_entry {
    uint32_t pc;
    char name[24];
} listing_entry;

static size_t parse_listing(const char *text, listing_entry *out, size_t cap)
{
    size_t n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t line_len = end ? (size_t)(end - line) : strlen(line);
        const char *p = line;
        while (*p == ' ')
            p++;
        uint32_t pc = 0;
        const char *digits = p;
        while (*p >= '0' && *p <= '9')
            pc = pc * 10 + (uint32_t)(*p++ - '0');
        if (p > digits && p[0] == ':' && p[1] == ' ') {
            p += 2;
            while (*p == ' ')
                p++;
            if (*p >= 'a' && *p <= 'z') {
                size_t k = 0;
                assert_true(n < cap);
                while (((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_') &&
                       k + 1 < sizeof out[n].name)
                    out[n].name[k++] = *p++;
                out[n].name[k] = '\0';
                out[n].pc = pc;
                n++;
            }
        }
        line += line_len + (end ? 1 : 0);
    }
    return n;
}

/* The mnemonic javap prints for the instruction at pc: wide forms are
 * shown as "<op>_w" ("iinc_w", "aload_w"). */
static void javap_name(const uint8_t *code, uint32_t pc, char *buf, size_t cap)
{
    if (code[pc] == BC_WIDE)
        snprintf(buf, cap, "%s_w", bc_mnemonic(code[pc + 1]));
    else
        snprintf(buf, cap, "%s", bc_mnemonic(code[pc]));
}

/* Decode every method of the class in raw (freed here, with text) and
 * compare it, instruction by instruction, with javap's listing text; adds to
 * *methods, *compared and seen_ops. */
static void compare_with_javap(const char *path, uint8_t *raw, size_t class_len, char *text, size_t text_len,
                               size_t *methods_out, size_t *compared_out, unsigned seen_ops[256])
{
    size_t methods = 0, compared = 0;
    fixture fx;
    load_bytes(&fx, raw, class_len, path);
    size_t cap = text_len / 4 + 1;
    listing_entry *want = calloc(cap, sizeof *want);
    assert_non_null(want);
    size_t n_want = parse_listing(text, want, cap), k = 0;

    for (uint16_t i = 0; i < fx.cf.method_count; i++) {
        const cf_method *m = &fx.cf.methods[i];
        if (m->code == NULL)
            continue;
        methods++;
        uint32_t pc = 0;
        while (pc < m->code_len) {
            uint32_t len = bc_insn_length(m->code, m->code_len, pc);
            if (len == 0)
                fail_msg("%s %.*s: no instruction at pc %u", path, (int)m->name.len, m->name.ptr, pc);
            char name[32];
            javap_name(m->code, pc, name, sizeof name);
            if (k >= n_want || want[k].pc != pc || strcmp(want[k].name, name) != 0)
                fail_msg("%s %.*s: pc %u is %s, javap says %u: %s", path, (int)m->name.len,
                         m->name.ptr, pc, name, k < n_want ? want[k].pc : 0,
                         k < n_want ? want[k].name : "(end)");
            seen_ops[m->code[pc]]++;
            k++;
            compared++;
            pc += len;
        }
        assert_int_equal(pc, m->code_len);  /* exactly, never past */
    }
    assert_int_equal(k, n_want);            /* javap listed nothing more */
    free(want);
    free(text);
    unload(&fx);
    *methods_out += methods;
    *compared_out += compared;
}

static void bc_insn_length__every_fixture_method__lands_on_code_len_and_matches_javap(void **state)
{
    (void)state;
    size_t compared = 0, methods = 0;
    unsigned seen_ops[256] = {0};
    for (size_t f = 0; f < N_FIXTURES; f++) {
        char path[256], listing[256];
        size_t text_len, class_len;
        fixture_path(path, sizeof path, f, "class");
        fixture_path(listing, sizeof listing, f, "javap");
        uint8_t *raw = read_fixture_file(path, &class_len, 0);
        char *text = (char *)read_fixture_file(listing, &text_len, 0);
        compare_with_javap(path, raw, class_len, text, text_len, &methods, &compared, seen_ops);
    }
    assert_true(methods >= 30);
    assert_true(compared >= 900);       /* 992 with javac 17 */
    /* The fixtures exercise the variable-length and multi-operand forms. */
    static const uint8_t must[] = {BC_TABLESWITCH, BC_LOOKUPSWITCH, BC_WIDE, BC_INVOKEINTERFACE,
                                   BC_INVOKEDYNAMIC, BC_MULTIANEWARRAY, BC_NEWARRAY, 0x14 /* ldc2_w */};
    for (size_t i = 0; i < sizeof must; i++)
        if (seen_ops[must[i]] == 0)
            fail_msg("no fixture uses %s", bc_mnemonic(must[i]));
}

/* ---- class files of Java 25 (major version 69) --------------------------- */

/* Compiled by javac 25 (--release 25) from tests/fixtures/jdk25/Shapes.java
 * and committed with their `javap -c -p` listings (make
 * jdk25-class-fixtures), so they are read the same with any build JDK. */
static const char *const jdk25_classes[] = {
    "Shapes", "Shapes$Base", "Shapes$Checked", "Shapes$Circle", "Shapes$Line", "Shapes$Rect", "Shapes$Shape",
};
#define N_JDK25 (sizeof jdk25_classes / sizeof jdk25_classes[0])

static uint8_t *read_jdk25(const char *cls, const char *ext, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/jdk25/%s.%s", cls, ext);
    return read_file(path, len, 0);
}

static void cf_parse__javac25_classes__version_69_and_every_method_matches_javap(void **state)
{
    (void)state;
    size_t compared = 0, methods = 0;
    unsigned seen_ops[256] = {0};
    for (size_t f = 0; f < N_JDK25; f++) {
        size_t class_len, text_len;
        uint8_t *raw = read_jdk25(jdk25_classes[f], "class", &class_len);
        assert_true(class_len > 8);
        assert_int_equal(be_u16(raw + 6), 69);    /* Java 25 */
        char *text = (char *)read_jdk25(jdk25_classes[f], "javap", &text_len);
        compare_with_javap(jdk25_classes[f], raw, class_len, text, text_len, &methods, &compared, seen_ops);
    }
    /* Shapes: <init>, area, kind, main; Base and Checked: <init>; each
     * record: <init>, its accessors, toString, hashCode, equals. */
    assert_int_equal(methods, 4 + 1 + 1 + (1 + 1 + 3) + (1 + 4 + 3) + (1 + 2 + 3));
    assert_true(compared >= 300);
    static const uint8_t must[] = {BC_INVOKEDYNAMIC, BC_TABLESWITCH, BC_INVOKEINTERFACE, BC_ATHROW};
    for (size_t i = 0; i < sizeof must; i++)
        if (seen_ops[must[i]] == 0)
            fail_msg("no Java 25 fixture uses %s", bc_mnemonic(must[i]));
}

static void cf_parse__javac25_pattern_switch__typeswitch_call_site_resolves(void **state)
{
    (void)state;
    size_t n;
    fixture fx;
    uint8_t *raw = read_jdk25("Shapes", "class", &n);
    load_bytes(&fx, raw, n, "Shapes.class");
    assert_int_equal(fx.cf.major, 69);
    assert_int_equal(fx.cf.minor, 0);           /* no preview features */
    const cf_method *area = method(&fx.cf, "area", "(LShapes$Shape;)D");
    uint32_t pc = find_insn(area, BC_INVOKEDYNAMIC, 0);
    uint16_t bsm;
    cp_str name, desc;
    assert_int_equal(cp_dynamic(&fx.cf.cp, be_u16(area->code + pc + 1), &bsm, &name, &desc), 0);
    assert_true(str_eq(name, "typeSwitch"));
    assert_true(str_eq(desc, "(LShapes$Shape;I)I"));
    assert_int_equal(bsm, 0);
    /* the record patterns call the accessors through invokevirtual */
    expect_member_at(&fx.cf, area, find_insn(area, BC_INVOKEVIRTUAL, 0), BC_INVOKEVIRTUAL, CP_METHODREF,
                     "Shapes$Circle", "r", "()D");
    unload(&fx);

    /* statements before super(): the argument is computed, then <init> runs */
    raw = read_jdk25("Shapes$Checked", "class", &n);
    load_bytes(&fx, raw, n, "Shapes$Checked.class");
    const cf_method *init = method(&fx.cf, "<init>", "(I)V");
    uint32_t athrow = find_insn(init, BC_ATHROW, 0);
    uint32_t sup = find_insn(init, BC_INVOKESPECIAL, 1);   /* #0 is the exception's <init> */
    assert_true(athrow < sup);
    expect_member_at(&fx.cf, init, sup, BC_INVOKESPECIAL, CP_METHODREF, "Shapes$Base", "<init>", "(I)V");
    unload(&fx);
}

static void cf_parse__javac25_classes_truncated_at_every_length__fail_with_message(void **state)
{
    (void)state;
    for (size_t f = 0; f < N_JDK25; f++) {
        size_t len;
        uint8_t *full = read_jdk25(jdk25_classes[f], "class", &len);
        for (size_t n = 0; n < len; n++) {
            uint8_t *copy = heap_copy(full, n);
            classfile cf;
            char err[256] = "";
            if (cf_parse(&cf, copy, n, err, sizeof err) == 0)
                fail_msg("%s cut to %zu of %zu bytes parsed", jdk25_classes[f], n, len);
            assert_true(err[0] != '\0');
            cf_free(&cf);
            free(copy);
        }
        free(full);
    }
}

/* ---- damaged real classes ---------------------------------------------- */

static void cf_parse__real_classes_truncated_at_every_length__fail_with_message(void **state)
{
    (void)state;
    for (size_t f = 0; f < N_FIXTURES; f++) {
        char path[256];
        fixture_path(path, sizeof path, f, "class");
        size_t len;
        uint8_t *full = read_fixture_file(path, &len, 0);
        for (size_t n = 0; n < len; n++) {
            uint8_t *copy = heap_copy(full, n);
            classfile cf;
            char err[256] = "";
            if (cf_parse(&cf, copy, n, err, sizeof err) == 0)
                fail_msg("%s cut to %zu of %zu bytes parsed", path, n, len);
            if (strstr(err, "truncated") == NULL && strstr(err, "cannot fit") == NULL)
                fail_msg("%s cut to %zu: unexpected message '%s'", path, n, err);
            assert_null(cf.methods);
            assert_int_equal(cf.method_count, 0);
            cf_free(&cf);
            free(copy);
        }
        free(full);
    }
}

static void cf_parse__trailing_bytes__rejected(void **state)
{
    (void)state;
    size_t len;
    uint8_t *full = read_fixture_file("psf/fixtures/Constants$Inner.class", &len, 0);
    for (size_t extra = 1; extra <= 3; extra++) {
        uint8_t *copy = malloc(len + extra);
        assert_non_null(copy);
        memcpy(copy, full, len);
        memset(copy + len, 0, extra);
        classfile cf;
        char err[256] = "", want[96];
        assert_int_equal(cf_parse(&cf, copy, len + extra, err, sizeof err), -1);
        snprintf(want, sizeof want, "trailing garbage: %zu bytes after the end of the class file at offset %zu",
                 extra, len);
        assert_string_equal(err, want);
        free(copy);
    }
    free(full);
}

/* Check what a parse that succeeded on damaged input hands out. */
static void check_parsed(const classfile *cf, const uint8_t *bytes, size_t len)
{
    for (uint16_t i = 0; i < cf->method_count; i++) {
        const cf_method *m = &cf->methods[i];
        assert_true((const uint8_t *)m->name.ptr >= bytes && (const uint8_t *)m->name.ptr + m->name.len <= bytes + len);
        assert_true((const uint8_t *)m->desc.ptr >= bytes && (const uint8_t *)m->desc.ptr + m->desc.len <= bytes + len);
        if (m->code == NULL)
            continue;
        assert_true(m->code >= bytes && m->code + m->code_len <= bytes + len);
        for (uint32_t pc = 0; pc < m->code_len;) {
            uint32_t step = bc_insn_length(m->code, m->code_len, pc);
            if (step == 0)
                break;
            pc += step;
        }
    }
}

static void cf_parse__every_byte_flipped__never_reads_out_of_bounds(void **state)
{
    (void)state;
    static const char *const files[] = {"psf/fixtures/Switches.class", "psf/fixtures/Shape.class",
                                        "module-info.class", "psf/fixtures/Natives.class"};
    static const uint8_t masks[] = {0xff, 0x01, 0x80, 0x10};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t len;
        uint8_t *full = read_fixture_file(files[f], &len, 0);
        size_t accepted = 0;
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t mi = 0; mi < sizeof masks; mi++) {
                uint8_t *copy = heap_copy(full, len);
                copy[pos] ^= masks[mi];
                classfile cf;
                char err[256] = "";
                if (cf_parse(&cf, copy, len, err, sizeof err) == 0) {
                    accepted++;
                    check_parsed(&cf, copy, len);
                    /* the line tables too: a flipped table is read or
                     * refused, never read past (ASan) */
                    for (uint16_t k = 0; k < cf.method_count; k++) {
                        if (cf.methods[k].code == NULL)
                            continue;
                        uint32_t *line = malloc(cf.methods[k].code_len * sizeof *line);
                        assert_non_null(line);
                        int r = cf_offset_lines(&cf, &cf.methods[k], line);
                        assert_true(r == 0 || r == -1);
                        for (uint32_t o = 0; o < cf.methods[k].code_len; o++)
                            assert_true(line[o] <= 65535 && (r == 0 || line[o] == 0));
                        free(line);
                    }
                } else {
                    assert_true(strlen(err) > 0);
                }
                cf_free(&cf);
                free(copy);
            }
        }
        /* Flips inside code bytes or flag words still parse. */
        assert_true(accepted > 0);
        free(full);
    }
}

/* ---- hand-built classes ------------------------------------------------ */

/*
 * A minimal class: pool
 *   1 Utf8 "T", 2 Class #1, 3 Utf8 "java/lang/Object", 4 Class #3,
 *   5 Utf8 "run", 6 Utf8 "()V", 7 Utf8 "Code", 8 Utf8 "Other"
 * one interface (#4), one field with an "Other" attribute, one method
 * run()V with an "Other" attribute and a Code attribute (code: return, one
 * exception-table entry, one nested "Other" attribute), and one class
 * attribute. Knobs let each test break one thing.
 */
typedef struct knobs {
    uint32_t magic;
    uint16_t major;
    uint16_t this_class;
    uint16_t method_name;
    uint16_t method_access;
    uint16_t methods_count;     /* 0 = 1 */
    uint32_t code_len_field;    /* the code_length written (the code is 1 byte) */
    int code_attr_extra;        /* added to the Code attribute_length */
    int code_attrs;             /* number of Code attributes (default 1) */
    int pad_after_code;         /* bytes inserted after the Code attribute */
} knobs;

typedef struct buf {
    uint8_t b[512];
    size_t n;
} buf;

static void u1(buf *b, unsigned v)
{
    assert_true(b->n < sizeof b->b);
    b->b[b->n++] = (uint8_t)v;
}

static void u2(buf *b, unsigned v)
{
    u1(b, v >> 8);
    u1(b, v & 0xff);
}

static void u4(buf *b, uint32_t v)
{
    u2(b, v >> 16);
    u2(b, v & 0xffff);
}

static void utf8(buf *b, const char *s)
{
    u1(b, CP_UTF8);
    u2(b, (unsigned)strlen(s));
    while (*s)
        u1(b, (uint8_t)*s++);
}

static knobs defaults(void)
{
    knobs k = {0xCAFEBABEu, 52, 2, 5, ACC_PUBLIC | ACC_STATIC, 0, 1, 0, 1, 0};
    return k;
}

static void build(buf *b, const knobs *k)
{
    memset(b, 0, sizeof *b);
    u4(b, k->magic);
    u2(b, 0);
    u2(b, k->major);
    u2(b, 9);
    utf8(b, "T");
    u1(b, CP_CLASS), u2(b, 1);
    utf8(b, "java/lang/Object");
    u1(b, CP_CLASS), u2(b, 3);
    utf8(b, "run");
    utf8(b, "()V");
    utf8(b, "Code");
    utf8(b, "Other");
    u2(b, 0x0021);
    u2(b, k->this_class);
    u2(b, 4);
    u2(b, 1), u2(b, 4);                         /* interfaces */
    u2(b, 1);                                   /* fields */
    u2(b, ACC_PRIVATE), u2(b, 5), u2(b, 6);
    u2(b, 1), u2(b, 8), u4(b, 3), u1(b, 'a'), u1(b, 'b'), u1(b, 'c');
    u2(b, k->methods_count ? k->methods_count : 1);
    u2(b, k->method_access), u2(b, k->method_name), u2(b, 6);
    u2(b, 1 + (unsigned)k->code_attrs);
    u2(b, 8), u4(b, 2), u1(b, 'x'), u1(b, 'y');
    for (int c = 0; c < k->code_attrs; c++) {
        /* max_stack, max_locals, code_length, code, exception table of one
         * entry, one nested attribute of 0 bytes */
        uint32_t body = 2 + 2 + 4 + 1 + 2 + 8 + 2 + 6;
        u2(b, 7), u4(b, (uint32_t)((int)body + k->code_attr_extra));
        u2(b, 3), u2(b, 4), u4(b, k->code_len_field), u1(b, 0xb1);
        u2(b, 1), u2(b, 0), u2(b, 1), u2(b, 0), u2(b, 0);
        u2(b, 1), u2(b, 8), u4(b, 0);
        for (int p = 0; p < k->pad_after_code; p++)
            u1(b, 0);
    }
    u2(b, 1), u2(b, 8), u4(b, 1), u1(b, 'z');   /* class attributes */
}

/* Parse a hand-built class from an exactly sized copy. */
static int parse_built(const buf *b, char *err, size_t errlen, classfile *out)
{
    uint8_t *copy = heap_copy(b->b, b->n);
    classfile cf;
    int rc = cf_parse(&cf, copy, b->n, err, errlen);
    if (rc == 0 && out) {
        /* Only plain fields are compared after the copy is gone. */
        out->major = cf.major;
        out->method_count = cf.method_count;
        out->access = cf.access;
        out->methods = NULL;
        if (cf.method_count) {
            assert_int_equal(cf.methods[0].code_len, 1);
            assert_int_equal(cf.methods[0].code[0], 0xb1);
            assert_int_equal(cf.methods[0].max_stack, 3);
            assert_int_equal(cf.methods[0].max_locals, 4);
            assert_true(str_eq(cf.methods[0].name, "run"));
            assert_true(str_eq(cf.this_name, "T"));
        }
    }
    cf_free(&cf);
    free(copy);
    return rc;
}

static void expect_reject(const knobs *k, const char *part)
{
    buf b;
    char err[256] = "";
    build(&b, k);
    assert_int_equal(parse_built(&b, err, sizeof err, NULL), -1);
    if (strstr(err, part) == NULL)
        fail_msg("error '%s' lacks '%s'", err, part);
}

static void cf_parse__hand_built_class__skips_interfaces_fields_and_attributes(void **state)
{
    (void)state;
    knobs k = defaults();
    buf b;
    char err[256] = "";
    classfile got;
    build(&b, &k);
    if (parse_built(&b, err, sizeof err, &got))
        fail_msg("%s", err);
    assert_int_equal(got.major, 52);
    assert_int_equal(got.method_count, 1);
    assert_int_equal(got.access, 0x0021);
}

static void cf_parse__hand_built_defects__rejected_with_clear_messages(void **state)
{
    (void)state;
    knobs k;

    k = defaults(), k.magic = 0xCAFEBABFu;
    expect_reject(&k, "bad magic 0xCAFEBABF (expected 0xCAFEBABE)");
    k = defaults(), k.major = 44;
    expect_reject(&k, "major_version 44");
    k = defaults(), k.this_class = 1;
    expect_reject(&k, "this_class: constant pool index 1 is not a Class (tag 1)");
    k = defaults(), k.this_class = 99;
    expect_reject(&k, "this_class: constant pool index 99 is not a Class (tag 0)");
    k = defaults(), k.method_name = 2;
    expect_reject(&k, "method name_index: constant pool index 2 is not a Utf8 entry (tag 7)");
    k = defaults(), k.code_len_field = 0;
    expect_reject(&k, "method 0: code_length 0 is not 1..65535");
    k = defaults(), k.code_len_field = 70000;
    expect_reject(&k, "method 0: code_length 70000 is not 1..65535");
    k = defaults(), k.code_len_field = 2;   /* claims more code than the attribute holds */
    expect_reject(&k, "truncated");
    k = defaults(), k.code_attr_extra = 1, k.pad_after_code = 1;
    expect_reject(&k, "method 0: Code attribute_length 28 but its contents end after 27 bytes");
    k = defaults(), k.code_attr_extra = -1;
    expect_reject(&k, "truncated at offset");
    k = defaults(), k.code_attrs = 2;
    expect_reject(&k, "method 0 (run): more than one Code attribute");
    k = defaults(), k.code_attrs = 0;
    expect_reject(&k, "method 0 (run): no Code attribute");
    k = defaults(), k.method_access = ACC_PUBLIC | ACC_ABSTRACT;
    expect_reject(&k, "method 0 (run): abstract or native but has a Code attribute");
    k = defaults(), k.method_access = ACC_NATIVE;
    expect_reject(&k, "abstract or native but has a Code attribute");
    k = defaults(), k.methods_count = 65535;
    expect_reject(&k, "methods_count 65535 cannot fit");
    /* A second method read from the class attributes: Other ()? index 0. */
    k = defaults(), k.methods_count = 2;
    expect_reject(&k, "method descriptor_index: constant pool index 0 is not a Utf8 entry (tag 0)");

    /* A native method without Code is fine. */
    k = defaults(), k.method_access = ACC_NATIVE, k.code_attrs = 0;
    buf b;
    char err[256] = "";
    build(&b, &k);
    assert_int_equal(parse_built(&b, err, sizeof err, NULL), 0);
}

static void cf_parse__null_or_empty_input__fails_and_frees_safely(void **state)
{
    (void)state;
    classfile cf;
    char err[128] = "";
    assert_int_equal(cf_parse(&cf, NULL, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated at offset 0 reading magic"));
    assert_int_equal(cf_parse(&cf, NULL, 100, NULL, 0), -1);
    cf_free(&cf);
    cf_free(&cf);
    cf_free(NULL);
    assert_int_equal(cf_parse(NULL, NULL, 0, err, sizeof err), -1);
}

/* ---- source lines ------------------------------------------------------ */

static void cf_lines_apply__unordered_and_repeated_starts__greatest_start_first_entry(void **state)
{
    (void)state;
    /* by hand, code of 12 bytes: nothing covers 0..1 (line 0); 2..4 line 7;
     * 5..8 line 9, the first of the two entries at 5 (the second, 30, and
     * an entry past the code lose); 9..11 line 8 (listed before line 7's) */
    const cf_line t[] = {{9, 8}, {2, 7}, {5, 9}, {5, 30}, {40, 50}};
    uint32_t line[12];
    memset(line, 0xff, sizeof line);
    assert_int_equal(cf_lines_apply(line, 12, t, 5), 0);
    const uint32_t want[12] = {0, 0, 7, 7, 7, 9, 9, 9, 9, 8, 8, 8};
    assert_memory_equal(line, want, sizeof want);
    memset(line, 0xff, sizeof line);
    assert_int_equal(cf_lines_apply(line, 12, t, 0), 0);
    for (int o = 0; o < 12; o++)
        assert_int_equal(line[o], 0);
}

static void cf_offset_lines__javac_switch__each_case_on_its_line(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "psf/fixtures/Switches.class");
    /* Switches.java, dense(int): the switch on line 13 (0 iload_0, 1
     * tableswitch up to 35), then one case a line, 14 to 18, each a bipush
     * and an ireturn (3 bytes) from 36 on, the default (line 19) iconst_m1
     * and ireturn at 51 and 52 */
    const cf_method *m = method(&fx.cf, "dense", "(I)I");
    assert_int_equal(m->code_len, 53);
    uint32_t line[53];
    assert_int_equal(cf_offset_lines(&fx.cf, m, line), 0);
    for (uint32_t o = 0; o < 53; o++) {
        uint32_t want = o < 36 ? 13 : o < 51 ? 14 + (o - 36) / 3 : 19;
        if (line[o] != want)
            fail_msg("offset %u: line %u, want %u", o, line[o], want);
    }
    unload(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cf_parse__constants_class__reads_version_access_and_names),
        cmocka_unit_test(cf_parse__small_methods__code_and_frame_sizes_match_javap),
        cmocka_unit_test(cf_parse__invokes_at_known_offsets__resolve_owner_name_desc),
        cmocka_unit_test(cf_parse__primitive_arrays__newarray_atypes_in_source_order),
        cmocka_unit_test(cf_parse__switches__table_and_lookup_sizes_match_javap),
        cmocka_unit_test(cf_parse__wide_method__uses_wide_forms_that_walk_to_code_len),
        cmocka_unit_test(cf_parse__abstract_native_and_interface_methods__code_only_where_a_body_is),
        cmocka_unit_test(cf_parse__module_info__has_no_superclass_and_no_methods),
        cmocka_unit_test(bc_insn_length__every_fixture_method__lands_on_code_len_and_matches_javap),
        cmocka_unit_test(cf_parse__javac25_classes__version_69_and_every_method_matches_javap),
        cmocka_unit_test(cf_parse__javac25_pattern_switch__typeswitch_call_site_resolves),
        cmocka_unit_test(cf_parse__javac25_classes_truncated_at_every_length__fail_with_message),
        cmocka_unit_test(cf_parse__real_classes_truncated_at_every_length__fail_with_message),
        cmocka_unit_test(cf_parse__trailing_bytes__rejected),
        cmocka_unit_test(cf_parse__every_byte_flipped__never_reads_out_of_bounds),
        cmocka_unit_test(cf_parse__hand_built_class__skips_interfaces_fields_and_attributes),
        cmocka_unit_test(cf_parse__hand_built_defects__rejected_with_clear_messages),
        cmocka_unit_test(cf_parse__null_or_empty_input__fails_and_frees_safely),
        cmocka_unit_test(cf_lines_apply__unordered_and_repeated_starts__greatest_start_first_entry),
        cmocka_unit_test(cf_offset_lines__javac_switch__each_case_on_its_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
