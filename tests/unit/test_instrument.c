/*
 * test_instrument.c - unit tests for agent/classfile/instrument.c, the block-probe
 * rewriter.
 *
 * Classes with one method are built here byte by byte, so every expected
 * offset can be worked out by hand: a probe is 6 bytes (sipush/ldc_w +
 * invokestatic) before each block leader. Each probe method's Methodref is
 * appended to the 13-entry pool at its first use in code order (Utf8
 * "psf/Probe" and its Class first of all, then per probe its Utf8 name and
 * descriptor unless an equal Utf8 is already there, NameAndType,
 * Methodref): when the block probe comes first, its Methodref is the sixth
 * entry appended (index 18). The counted
 * loop is javac's Loops.sum (tests/fixtures/agent/Loops.java). Real javac
 * output (tests/fixtures/unit, compiled by agent/classfile/pure.mk) is rewritten
 * whole and checked instruction by instruction against the original.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "branchpred.h"
#include "bytecode.h"
#include "bytes.h"
#include "classfile.h"
#include "instrument.h"
#include "tann_check.h"

/* ---- building a class with one method ---------------------------------- */

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        b->p = realloc(b->p, cap);
        assert_non_null(b->p);
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void u1(buf *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    put(b, &x, 1);
}

static void u2(buf *b, unsigned v)
{
    u1(b, v >> 8);
    u1(b, v);
}

static void u4(buf *b, uint32_t v)
{
    u2(b, v >> 16);
    u2(b, v & 0xffff);
}

static const char *const pool[] = {
    NULL, "T", NULL, "java/lang/Object", NULL, "m", "()V", "Code", "StackMapTable",
    "LineNumberTable", "LocalVariableTable", "RuntimeVisibleTypeAnnotations", "LocalVariableTypeTable"
};
#define POOL_COUNT 13
#define PROBE_REF 18            /* POOL_COUNT + 5, when the block probe is the first used */

typedef struct attr {
    const char *name;
    const uint8_t *body;
    size_t len;
} attr;

typedef struct spec {
    uint16_t major;
    const uint8_t *code;
    size_t code_len;
    uint16_t max_stack;
    const uint8_t *exc;
    uint16_t nexc;
    attr attrs[6];
    int nattrs;
} spec;

static uint16_t pool_index(const char *name)
{
    for (uint16_t i = 1; i < POOL_COUNT; i++)
        if (pool[i] && strcmp(pool[i], name) == 0)
            return i;
    fail_msg("no pool entry %s", name);
    return 0;
}

/* Constant-pool entries after the pool above (a test sets and clears them). */
static const uint8_t *extra_pool;
static size_t extra_pool_len;
static uint16_t extra_pool_n;

/* The class file; an exactly sized heap block (ASan sees overreads). */
static uint8_t *build(const spec *s, size_t *len)
{
    buf b = {0};
    u4(&b, 0xCAFEBABE);
    u2(&b, 0);
    u2(&b, s->major ? s->major : 52);
    u2(&b, POOL_COUNT + extra_pool_n);
    for (int i = 1; i < POOL_COUNT; i++) {
        if (i == 2 || i == 4) {
            u1(&b, 7);          /* Class -> the Utf8 before it */
            u2(&b, i - 1);
            continue;
        }
        u1(&b, 1);
        u2(&b, (unsigned)strlen(pool[i]));
        put(&b, pool[i], strlen(pool[i]));
    }
    put(&b, extra_pool, extra_pool_len);
    u2(&b, 0x21);
    u2(&b, 2);
    u2(&b, 4);
    u2(&b, 0);                  /* interfaces */
    u2(&b, 0);                  /* fields */
    u2(&b, 1);                  /* methods */
    u2(&b, 0x09);
    u2(&b, 5);
    u2(&b, 6);
    u2(&b, 1);
    buf code = {0};
    u2(&code, s->max_stack);
    u2(&code, 4);
    u4(&code, (uint32_t)s->code_len);
    put(&code, s->code, s->code_len);
    u2(&code, s->nexc);
    put(&code, s->exc, 8u * s->nexc);
    u2(&code, (unsigned)s->nattrs);
    for (int i = 0; i < s->nattrs; i++) {
        u2(&code, pool_index(s->attrs[i].name));
        u4(&code, (uint32_t)s->attrs[i].len);
        put(&code, s->attrs[i].body, s->attrs[i].len);
    }
    u2(&b, pool_index("Code"));
    u4(&b, (uint32_t)code.len);
    put(&b, code.p, code.len);
    u2(&b, 0);                  /* class attributes */
    free(code.p);
    uint8_t *exact = malloc(b.len);
    assert_non_null(exact);
    memcpy(exact, b.p, b.len);
    *len = b.len;
    free(b.p);
    return exact;
}

/* ---- reading the result ------------------------------------------------ */

typedef struct rewritten {
    uint8_t *in;
    size_t in_len;
    ins_result r;
    classfile cf;               /* the rewritten class, parsed */
} rewritten;

static const ins_options probe_opts = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7};
static const ins_options branch_opts_for_map = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .branch_method = "branch"};

static void rewrite(rewritten *w, const spec *s, const ins_options *opt)
{
    char err[256] = "";
    w->in = build(s, &w->in_len);
    if (ins_rewrite(w->in, w->in_len, opt ? opt : &probe_opts, &w->r, err, sizeof err))
        fail_msg("ins_rewrite: %s", err);
    if (cf_parse(&w->cf, w->r.bytes, w->r.len, err, sizeof err))
        fail_msg("the rewritten class does not parse: %s", err);
}

static void release(rewritten *w)
{
    cf_free(&w->cf);
    ins_free(&w->r);
    free(w->in);
}

/* The body of the rewritten method's Code attribute named `name`. */
static const uint8_t *code_attr(const cf_method *m, const classfile *cf, const char *name, uint32_t *len)
{
    const uint8_t *p = m->code_attrs;
    for (uint32_t k = 0; k < m->code_attr_count; k++) {
        cp_str s;
        assert_int_equal(cp_utf8(&cf->cp, be_u16(p), &s), 0);
        if (s.len == strlen(name) && memcmp(s.ptr, name, s.len) == 0) {
            *len = be_u32(p + 2);
            return p + 6;
        }
        p += 6 + be_u32(p + 2);
    }
    fail_msg("no %s attribute", name);
    return NULL;
}

/* The Methodref at idx is psf/Probe.name with descriptor desc. */
static void expect_probe_ref(const classfile *cf, uint16_t idx, const char *name, const char *desc)
{
    cp_str owner, n, d;
    assert_int_equal(cp_member_ref(&cf->cp, idx, &owner, &n, &d), 0);
    assert_int_equal(owner.len, 9);
    assert_memory_equal(owner.ptr, "psf/Probe", 9);
    assert_int_equal(n.len, strlen(name));
    assert_memory_equal(n.ptr, name, n.len);
    assert_int_equal(d.len, strlen(desc));
    assert_memory_equal(d.ptr, desc, d.len);
}

static void expect_bytes(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len)
{
    assert_int_equal(got_len, want_len);
    for (size_t i = 0; i < want_len; i++)
        if (got[i] != want[i])
            fail_msg("byte %zu: got 0x%02x, want 0x%02x", i, got[i], want[i]);
}

/* ---- the counted loop -------------------------------------------------- */

static const uint8_t loop_code[] = {
    0x03, 0x3c, 0x03, 0x3d,       /*  0 iconst_0 istore_1 iconst_0 istore_2 */
    0x1c, 0x1a, 0xa2, 0x00, 0x0d, /*  4 iload_2 iload_0; 6 if_icmpge 19 */
    0x1b, 0x1c, 0x60, 0x3c,       /*  9 iload_1 iload_2 iadd istore_1 */
    0x84, 0x02, 0x01,             /* 13 iinc 2, 1 */
    0xa7, 0xff, 0xf4,             /* 16 goto 4 */
    0x1b, 0xac                    /* 19 iload_1 ireturn */
};
static const uint8_t loop_smt[] = {0, 2, 253, 0, 4, 1, 1, 250, 0, 14};
static const uint8_t loop_lnt[] = {0, 4, 0, 0, 0, 3, 0, 4, 0, 4, 0, 9, 0, 5, 0, 19, 0, 7};
static const uint8_t loop_lvt[] = {0, 2, 0, 0, 0, 21, 0, 5, 0, 6, 0, 0, 0, 4, 0, 15, 0, 5, 0, 6, 0, 2};
static const uint8_t loop_lvtt[] = {0, 1, 0, 9, 0, 10, 0, 5, 0, 6, 0, 1};

static spec loop_spec(void)
{
    spec s = {52, loop_code, sizeof loop_code, 2, NULL, 0, {{0}}, 0};
    s.attrs[s.nattrs++] = (attr){"StackMapTable", loop_smt, sizeof loop_smt};
    s.attrs[s.nattrs++] = (attr){"LineNumberTable", loop_lnt, sizeof loop_lnt};
    s.attrs[s.nattrs++] = (attr){"LocalVariableTable", loop_lvt, sizeof loop_lvt};
    s.attrs[s.nattrs++] = (attr){"LocalVariableTypeTable", loop_lvtt, sizeof loop_lvtt};
    return s;
}

static void ins_rewrite__counted_loop__probes_lead_each_block_and_branches_follow(void **state)
{
    (void)state;
    spec s = loop_spec();
    rewritten w;
    rewrite(&w, &s, NULL);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, PROBE_REF,  /*  0 probe 7 */
        0x03, 0x3c, 0x03, 0x3d,                   /*  6 */
        0x11, 0x00, 0x08, 0xb8, 0x00, PROBE_REF,  /* 10 probe 8: the loop test */
        0x1c, 0x1a, 0xa2, 0x00, 0x13,             /* 18 if_icmpge 37 (the exit's probe) */
        0x11, 0x00, 0x09, 0xb8, 0x00, PROBE_REF,  /* 21 probe 9 */
        0x1b, 0x1c, 0x60, 0x3c, 0x84, 0x02, 0x01, /* 27 */
        0xa7, 0xff, 0xe8,                         /* 34 goto 10 (the test's probe) */
        0x11, 0x00, 0x0a, 0xb8, 0x00, PROBE_REF,  /* 37 probe 10 */
        0x1b, 0xac
    };
    const cf_method *m = &w.cf.methods[0];
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 3);
    assert_int_equal(m->max_locals, 4);
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, PROBE_REF, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_memory_equal(name.ptr, "block", name.len);
    assert_memory_equal(desc.ptr, "(I)V", desc.len);
    assert_int_equal(cp_tag(&w.cf.cp, PROBE_REF), CP_METHODREF);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6);

    const ins_method *im = &w.r.methods[0];
    assert_int_equal(w.r.nmethods, 1);
    assert_int_equal(im->status, INS_METHOD_DONE);
    assert_int_equal(im->first_id, 7);
    assert_int_equal(im->blocks.nblocks, 4);
    assert_int_equal(im->old_len, 21);
    assert_int_equal(im->new_len, 45);
    assert_int_equal(w.r.next_id, 11);
    assert_int_equal(w.r.ndone, 1);
    assert_int_equal(w.r.nskipped, 0);
    assert_memory_equal(w.r.class_name.ptr, "T", 1);

    /* frames at 4 and 19 move to the probes at 10 and 37 */
    uint32_t len;
    const uint8_t *smt = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 2, 253, 0, 10, 1, 1, 250, 0, 26};
    expect_bytes(smt, len, want_smt, sizeof want_smt);
    const uint8_t *lnt = code_attr(m, &w.cf, "LineNumberTable", &len);
    static const uint8_t want_lnt[] = {0, 4, 0, 0, 0, 3, 0, 10, 0, 4, 0, 21, 0, 5, 0, 37, 0, 7};
    expect_bytes(lnt, len, want_lnt, sizeof want_lnt);
    /* n: all 45 bytes; i: from the test's probe to the exit's */
    const uint8_t *lvt = code_attr(m, &w.cf, "LocalVariableTable", &len);
    static const uint8_t want_lvt[] = {0, 2, 0, 0, 0, 45, 0, 5, 0, 6, 0, 0, 0, 10, 0, 27, 0, 5, 0, 6, 0, 2};
    expect_bytes(lvt, len, want_lvt, sizeof want_lvt);
    const uint8_t *lvtt = code_attr(m, &w.cf, "LocalVariableTypeTable", &len);
    static const uint8_t want_lvtt[] = {0, 1, 0, 21, 0, 16, 0, 5, 0, 6, 0, 1};
    expect_bytes(lvtt, len, want_lvtt, sizeof want_lvtt);
    release(&w);
}

static void ins_original_offset__counted_loop__maps_new_offsets_and_probes_back(void **state)
{
    (void)state;
    spec s = loop_spec();
    rewritten w;
    rewrite(&w, &s, &branch_opts_for_map);
    const ins_method *m = &w.r.methods[0];
    assert_int_equal(m->npcs, 15);
    /* new offset, original offset, in a probe */
    static const int64_t cases[][3] = {
        {0, 0, 1}, {5, 0, 1}, {6, 0, 0}, {9, 3, 0},     /* block 0's probe, then its code */
        {10, 4, 1}, {16, 4, 0}, {17, 5, 0},             /* block 1 */
        {18, 6, 1}, {26, 6, 1}, {27, 6, 0}, {29, 6, 0}, /* the branch probe, the if_icmpge and its operand */
        {30, 9, 1}, {43, 16, 0}, {45, 16, 0},           /* block 2, its goto */
        {46, 19, 1}, {52, 19, 0}, {53, 20, 0},          /* block 3 */
        {54, -1, 0}, {100000, -1, 0}
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int in_probe = -1;
        int64_t got = ins_original_offset(m, (uint32_t)cases[k][0], &in_probe);
        if (got != cases[k][1] || in_probe != (int)cases[k][2])
            fail_msg("new offset %lld: got %lld (probe %d), want %lld (probe %lld)", (long long)cases[k][0],
                     (long long)got, in_probe, (long long)cases[k][1], (long long)cases[k][2]);
    }
    assert_int_equal(ins_original_offset(NULL, 0, NULL), -1);
    release(&w);

    /* a method left unchanged has no map (a type annotation on a class's
     * type parameter, target 0x00, has no place in Code: refused) */
    static const uint8_t ann[] = {0, 1, 0x00, 0, 0, 0, 1, 0, 0};
    s.attrs[s.nattrs++] = (attr){"RuntimeVisibleTypeAnnotations", ann, sizeof ann};
    rewrite(&w, &s, NULL);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 0, NULL), -1);
    release(&w);
}

static void ins_rewrite__ids_past_32767__pushed_with_ldc_w_of_new_integers(void **state)
{
    (void)state;
    spec s = loop_spec();
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 32766};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 45);      /* every probe is 6 bytes either way */
    assert_int_equal(m->code[0], 0x11);
    assert_int_equal(be_u16(m->code + 1), 32766);
    assert_int_equal(m->code[10], 0x11);
    assert_int_equal(be_u16(m->code + 11), 32767);
    int32_t v;
    assert_int_equal(m->code[21], BC_LDC_W);
    assert_int_equal(cp_integer(&w.cf.cp, be_u16(m->code + 22), &v), 0);
    assert_int_equal(v, 32768);
    assert_int_equal(m->code[37], BC_LDC_W);
    assert_int_equal(cp_integer(&w.cf.cp, be_u16(m->code + 38), &v), 0);
    assert_int_equal(v, 32769);
    assert_int_equal(m->code[40], BC_INVOKESTATIC);
    assert_int_equal(w.r.next_id, 32770);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 2);
    release(&w);

    ins_options past = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 0x7ffffffe};  /* 4 blocks do not fit below 2^31 */
    char err[160];
    size_t n;
    uint8_t *in = build(&s, &n);
    ins_result r;
    assert_int_equal(ins_rewrite(in, n, &past, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "probe ids"));
    free(in);
}

/* ---- branch probes ------------------------------------------------------ */

static const ins_options branch_opts = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .branch_method = "branch"};

/* code (max_stack 2, no exception table, no attributes) rewritten with
 * branch_opts, if_icmp<cond> and ifnull/ifnonnull through the if probe as
 * icmp_as_if and null_as_int ask: its one method. */
static const cf_method *rewrite_branches(rewritten *w, const uint8_t *code, size_t code_len, int icmp_as_if,
                                         int null_as_int)
{
    spec s = {52, code, code_len, 2, NULL, 0, {{0}}, 0};
    ins_options opt = branch_opts;
    opt.icmp_as_if = icmp_as_if;
    opt.null_as_int = null_as_int;
    rewrite(w, &s, &opt);
    return &w->cf.methods[0];
}

static void ins_rewrite__branch_probes__see_the_operands_before_each_conditional(void **state)
{
    (void)state;
    spec s = loop_spec();
    rewritten w;
    rewrite(&w, &s, &branch_opts);
    const cf_method *m = &w.cf.methods[0];
    /* pool: 13..18 the block probe, then the one branch probe the code
     * uses, at its first use: 19 "branch", 20 its descriptor, 21 the
     * NameAndType, 22 the Methodref (the other forms are not added) */
    expect_probe_ref(&w.cf, 22, "branch", "(IIII)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 4);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, PROBE_REF,  /*  0 probe 7 */
        0x03, 0x3c, 0x03, 0x3d,
        0x11, 0x00, 0x08, 0xb8, 0x00, PROBE_REF,  /* 10 probe 8 */
        0x1c, 0x1a,
        0x5c, 0x10, 0xa2, 0x11, 0x00, 0x08, 0xb8, 0x00, 22, /* 18 dup2; bipush if_icmpge; sipush 8; branch(IIII)V */
        0xa2, 0x00, 0x13,                         /* 27 if_icmpge 46 */
        0x11, 0x00, 0x09, 0xb8, 0x00, PROBE_REF,  /* 30 probe 9 */
        0x1b, 0x1c, 0x60, 0x3c, 0x84, 0x02, 0x01,
        0xa7, 0xff, 0xdf,                         /* 43 goto 10 */
        0x11, 0x00, 0x0a, 0xb8, 0x00, PROBE_REF,  /* 46 probe 10 */
        0x1b, 0xac
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 2 + 4);
    assert_int_equal(w.r.methods[0].new_max_stack, 6);
    uint32_t len;
    const uint8_t *smt = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 2, 253, 0, 10, 1, 1, 250, 0, 35};
    expect_bytes(smt, len, want_smt, sizeof want_smt);
    release(&w);

    /* the three other forms: ifnull (dup, Object), ifeq (dup, int),
     * if_acmpeq (dup2, two Objects); each form's Methodref is added where
     * it is first used: 22, 25, 28 ("branch" is there once, at 19) */
    static const uint8_t code[] = {
        0x01, 0xc6, 0x00, 0x04, 0x00,   /*  0 aconst_null; 1 ifnull 5; 4 nop */
        0x03, 0x99, 0x00, 0x04, 0x00,   /*  5 iconst_0; 6 ifeq 10; 9 nop */
        0x01, 0x01, 0xa5, 0x00, 0x04,   /* 10 aconst_null x2; 12 if_acmpeq 16 */
        0x00, 0xb1                      /* 15 nop; 16 return */
    };
    m = rewrite_branches(&w, code, sizeof code, 0, 0);
    assert_int_equal(m->code_len, 86);
    static const uint8_t p1[] = {0x59, 0x10, 0xc6, 0x11, 0x00, 0x07, 0xb8, 0x00, 22, 0xc6, 0x00, 0x0a};
    expect_bytes(m->code + 7, sizeof p1, p1, sizeof p1);     /* ifnull at 16 to probe 9 at 26 */
    static const uint8_t p2[] = {0x59, 0x10, 0x99, 0x11, 0x00, 0x09, 0xb8, 0x00, 25, 0x99, 0x00, 0x0a};
    expect_bytes(m->code + 33, sizeof p2, p2, sizeof p2);    /* ifeq at 42 to probe 11 at 52 */
    static const uint8_t p3[] = {0x5c, 0x10, 0xa5, 0x11, 0x00, 0x0b, 0xb8, 0x00, 28, 0xa5, 0x00, 0x0a};
    expect_bytes(m->code + 60, sizeof p3, p3, sizeof p3);    /* if_acmpeq at 69 to probe 13 at 79 */
    assert_int_equal(be_u16(m->code + 80), 13);
    expect_probe_ref(&w.cf, 22, "branch", "(Ljava/lang/Object;II)V");
    expect_probe_ref(&w.cf, 25, "branch", "(III)V");
    expect_probe_ref(&w.cf, 28, "branch", "(Ljava/lang/Object;Ljava/lang/Object;II)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 1 + 3 * 3);
    release(&w);
}

/* The if<cond> that a branch probe's bipush names, and its outcome on v. */
static int if_outcome(uint8_t op, int v)
{
    switch (op) {
    case 0x99: return v == 0;
    case 0x9a: return v != 0;
    case 0x9b: return v < 0;
    case 0x9c: return v >= 0;
    case 0x9d: return v > 0;
    case 0x9e: return v <= 0;
    default: fail_msg("not an if<cond>: 0x%02x", op); return -1;
    }
}

static void ins_rewrite__icmp_as_if__if_icmp_calls_the_if_probe_on_the_sign(void **state)
{
    (void)state;
    /* every if_icmp<cond> (0 iconst_0; 1 iconst_1; 2 if_icmp<cond> 6; 5 nop;
     * 6 return): the probe at 8 takes the sign of b - a in longs (dup2,
     * i2l, dup2_x1, pop2, i2l, lcmp) and passes the if<cond> that holds
     * for it exactly when the if_icmp<cond> holds for a and b; the pool
     * gets the block probe (13..18) and branch(III)V (19 "branch", 20
     * "(III)V", 21, 22), no (IIII)V */
    static const uint8_t as_if[6] = {0x99, 0x9a, 0x9d, 0x9e, 0x9b, 0x9c};
    static const int32_t vals[] = {INT32_MIN, INT32_MIN + 1, -2, -1, 0, 1, 2, INT32_MAX - 1, INT32_MAX};
    for (uint8_t op = 0x9f; op <= 0xa4; op++) {
        const uint8_t code[] = {0x03, 0x04, op, 0x00, 0x04, 0x00, 0xb1};
        rewritten w;
        const cf_method *m = rewrite_branches(&w, code, sizeof code, 1, 0);
        const uint8_t want[] = {0x5c, 0x85, 0x5d, 0x58, 0x85, 0x94, 0x10, as_if[op - 0x9f],
                                0x11, 0x00, 0x07, 0xb8, 0x00, 22, op, 0x00, 0x0a};
        expect_bytes(m->code + 8, sizeof want, want, sizeof want);
        assert_int_equal(m->code_len, 6 + 2 + 14 + 3 + 6 + 1 + 6 + 1); /* blocks at 0, 5, 6 */
        assert_int_equal(m->max_stack, 2 + 5);
        expect_probe_ref(&w.cf, 22, "branch", "(III)V");
        assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 4);
        release(&w);
        /* what the probe then decides, against what the JVM decides */
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
            for (size_t j = 0; j < sizeof vals / sizeof vals[0]; j++) {
                int64_t a = vals[i], b = vals[j];
                int sign = b > a ? 1 : b < a ? -1 : 0;  /* lcmp of (long) b, (long) a */
                int taken = op == 0x9f ? a == b : op == 0xa0 ? a != b : op == 0xa1 ? a < b
                            : op == 0xa2 ? a >= b : op == 0xa3 ? a > b : a <= b;
                assert_int_equal(if_outcome(as_if[op - 0x9f], sign), taken);
            }
    }
}

static void ins_rewrite__icmp_as_if__names_in_the_pool_and_one_branch_descriptor(void **state)
{
    (void)state;
    /* the counted loop with the engine's names: block and branch probes
     * named Code, a Utf8 the pool holds (7, the attribute's name), so
     * no name is added: 13 "psf/Probe", 14 its Class, 15 "(I)V", 16, 17
     * Code(I)V; the if_icmpge's probe 18 "(III)V", 19, 20 Code(III)V */
    spec s = loop_spec();
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "Code", .first_id = 7,
                       .branch_method = "Code", .icmp_as_if = 1};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    expect_probe_ref(&w.cf, 17, "Code", "(I)V");
    expect_probe_ref(&w.cf, 20, "Code", "(III)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 8);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 17,         /*  0 probe 7 */
        0x03, 0x3c, 0x03, 0x3d,
        0x11, 0x00, 0x08, 0xb8, 0x00, 17,         /* 10 probe 8 */
        0x1c, 0x1a,
        0x5c, 0x85, 0x5d, 0x58, 0x85, 0x94,       /* 18 dup2; the sign of b - a */
        0x10, 0x9e, 0x11, 0x00, 0x08, 0xb8, 0x00, 20, /* 24 bipush ifle; sipush 8; Code(III)V */
        0xa2, 0x00, 0x13,                         /* 32 if_icmpge 51 */
        0x11, 0x00, 0x09, 0xb8, 0x00, 17,         /* 35 probe 9 */
        0x1b, 0x1c, 0x60, 0x3c, 0x84, 0x02, 0x01,
        0xa7, 0xff, 0xda,                         /* 48 goto 10 */
        0x11, 0x00, 0x0a, 0xb8, 0x00, 17,         /* 51 probe 10 */
        0x1b, 0xac
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 2 + 5);
    uint32_t len;
    const uint8_t *smt = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 2, 253, 0, 10, 1, 1, 250, 0, 40};
    expect_bytes(smt, len, want_smt, sizeof want_smt);
    release(&w);
}

static void ins_rewrite__null_as_int__ifnull_calls_the_if_probe_on_instanceof_object(void **state)
{
    (void)state;
    /* 0 aconst_null; 1 ifnull|ifnonnull 5; 4 nop; 5 iconst_0; 6 ifeq 10;
     * 9 nop; 10 aconst_null x2; 12 if_acmpeq 16; 15 nop; 16 return: the
     * ifnull's probe tests `instanceof java/lang/Object` (the pool's own
     * Class, 4: 0 for null) with ifeq (ifne for ifnonnull) and shares
     * branch(III)V with the ifeq's (19 "branch", 20 "(III)V", 21, 22);
     * only the if_acmpeq needs a descriptor of its own (23, 24, 25) */
    for (uint8_t op = 0xc6; op <= 0xc7; op++) {
        const uint8_t code[] = {0x01, op, 0x00, 0x04, 0x00, 0x03, 0x99, 0x00, 0x04, 0x00,
                                0x01, 0x01, 0xa5, 0x00, 0x04, 0x00, 0xb1};
        rewritten w;
        const cf_method *m = rewrite_branches(&w, code, sizeof code, 0, 1);
        assert_int_equal(m->code_len, 86 + 3);
        const uint8_t p1[] = {0x59, 0xc1, 0x00, 0x04, 0x10, op == 0xc6 ? 0x99 : 0x9a, 0x11, 0x00, 0x07, 0xb8, 0x00, 22,
                              op, 0x00, 0x0a};
        expect_bytes(m->code + 7, sizeof p1, p1, sizeof p1);     /* ifnull at 19 to probe 9 at 29 */
        static const uint8_t p2[] = {0x59, 0x10, 0x99, 0x11, 0x00, 0x09, 0xb8, 0x00, 22, 0x99, 0x00, 0x0a};
        expect_bytes(m->code + 36, sizeof p2, p2, sizeof p2);
        static const uint8_t p3[] = {0x5c, 0x10, 0xa5, 0x11, 0x00, 0x0b, 0xb8, 0x00, 25, 0xa5, 0x00, 0x0a};
        expect_bytes(m->code + 63, sizeof p3, p3, sizeof p3);
        expect_probe_ref(&w.cf, 22, "branch", "(III)V");
        expect_probe_ref(&w.cf, 25, "branch", "(Ljava/lang/Object;Ljava/lang/Object;II)V");
        assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 1 + 3 + 3);
        assert_int_equal(m->max_stack, 2 + 4);
        release(&w);
    }
}

/* ---- the entry probe ---------------------------------------------------- */

static void ins_rewrite__entry_probe__runs_on_calls_and_loops_to_offset_0_skip_it(void **state)
{
    (void)state;
    /* 0 iinc 0, 1; 3 iload_0; 4 ifne 0; 7 return: a loop at the top, with
     * its frame at 0 */
    static const uint8_t code[] = {0x84, 0x00, 0x01, 0x1a, 0x9a, 0xff, 0xfc, 0xb1};
    static const uint8_t smt[] = {0, 1, 0};
    static const uint8_t lnt[] = {0, 1, 0, 0, 0, 9};
    static const uint8_t exc[] = {0, 0, 0, 7, 0, 7, 0, 0};
    spec s = {52, code, sizeof code, 1, exc, 1, {{"StackMapTable", smt, sizeof smt},
                                                 {"LineNumberTable", lnt, sizeof lnt}}, 2};
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .entry_method = "entry"};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: 13 "psf/Probe", 14 its Class,
     * 15 "entry", 16 "(I)V", 17 the NameAndType, 18 the entry probe's
     * Methodref; then the block probe's: 19 "block", 20 (with 16), 21 */
    expect_probe_ref(&w.cf, 18, "entry", "(I)V");
    expect_probe_ref(&w.cf, 21, "block", "(I)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 18,         /*  0 entry probe, block 0's id */
        0x11, 0x00, 0x07, 0xb8, 0x00, 21,         /*  6 probe 7 */
        0x84, 0x00, 0x01, 0x1a,                   /* 12 */
        0x9a, 0xff, 0xf6,                         /* 16 ifne 6: past the entry probe */
        0x11, 0x00, 0x08, 0xb8, 0x00, 21,         /* 19 probe 8 */
        0xb1
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    /* the frame of the loop head moves to the block probe; the line and the
     * try range start with the entry probe; the handler is a target */
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 1, 6};
    expect_bytes(got, len, want_smt, sizeof want_smt);
    got = code_attr(m, &w.cf, "LineNumberTable", &len);
    expect_bytes(got, len, lnt, sizeof lnt);
    static const uint8_t want_exc[] = {0, 0, 0, 19, 0, 19, 0, 0};
    expect_bytes(m->exc, 8, want_exc, sizeof want_exc);
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 0, &in_probe), 0);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 6, &in_probe), 0);
    assert_int_equal(in_probe, 1);
    release(&w);
}

/* ---- the exit probe and the choice of methods -------------------------- */

static int choose_m(void *ctx, cp_str name, cp_str desc)
{
    (void)desc;
    return *(const int *)ctx && name.len == 1 && name.ptr[0] == 'm';
}

static void ins_rewrite__exit_probe__precedes_each_return_of_chosen_methods_only(void **state)
{
    (void)state;
    spec s = loop_spec();
    int yes = 1;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .entry_method = "enter", .exit_method = "exit", .calls_filter = choose_m, .calls_ctx = &yes};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: the entry probe at offset 0 (13
     * "psf/Probe", 14 its Class, 15 "enter", 16 "(I)V", 17 NameAndType,
     * 18 Methodref), block 0's probe (19 "block", 20 NameAndType with 16,
     * 21), the exit probe before the ireturn (22 "exit", 23 with 16, 24) */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 18, &owner, &name, &desc), 0);
    assert_int_equal(name.len, 5);
    assert_memory_equal(name.ptr, "enter", 5);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    const char *iv = desc.ptr;
    assert_int_equal(cp_member_ref(&w.cf.cp, 21, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "block", 5);
    assert_int_equal(cp_member_ref(&w.cf.cp, 24, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "exit", 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_ptr_equal(desc.ptr, iv);     /* one "(I)V" for all three */
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3 + 3);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 18,         /*  0 entry probe, block 0's id */
        0x11, 0x00, 0x07, 0xb8, 0x00, 21,         /*  6 probe 7 */
        0x03, 0x3c, 0x03, 0x3d,                   /* 12 */
        0x11, 0x00, 0x08, 0xb8, 0x00, 21,         /* 16 probe 8: the loop test */
        0x1c, 0x1a, 0xa2, 0x00, 0x13,             /* 22 if_icmpge 43 (the exit's probe) */
        0x11, 0x00, 0x09, 0xb8, 0x00, 21,         /* 27 probe 9 */
        0x1b, 0x1c, 0x60, 0x3c, 0x84, 0x02, 0x01, /* 33 */
        0xa7, 0xff, 0xe8,                         /* 40 goto 16 (the test's probe, past the entry probe) */
        0x11, 0x00, 0x0a, 0xb8, 0x00, 21,         /* 43 probe 10 */
        0x1b,                                     /* 49 iload_1 */
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,         /* 50 exit probe, block 0's id */
        0xac                                      /* 56 ireturn */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 3);
    uint32_t len;
    const uint8_t *smt = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 2, 253, 0, 16, 1, 1, 250, 0, 26};
    expect_bytes(smt, len, want_smt, sizeof want_smt);
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 49, &in_probe), 19);
    assert_int_equal(in_probe, 0);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 50, &in_probe), 20);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 56, &in_probe), 20);
    assert_int_equal(in_probe, 0);
    release(&w);

    /* a method the filter does not choose gets block probes only: the
     * block probe is the first used (13..18), "enter" and "exit" are not
     * added */
    yes = 0;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].new_len, 45);
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0xb8, 0x00, PROBE_REF, 0x03};
    expect_bytes(w.cf.methods[0].code, sizeof head, head, sizeof head);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6);
    release(&w);
}

/* ---- array probes ------------------------------------------------------ */

static void ins_rewrite__array_probes__follow_each_array_instruction_with_its_sites(void **state)
{
    (void)state;
    /* 0 iload_0; 1 ifeq 10; 4 iconst_1; 5 newarray int; 7 goto 13;
     * 10 iconst_2; 11 newarray int; 13 pop (a jump target right after an
     * array instruction); 14 iload_0; 15 iconst_3; 16 multianewarray #2 2;
     * 20 pop; 21 return. Frames at 10 (same) and 13 (one stack item). */
    static const uint8_t code[] = {0x1a, 0x99, 0x00, 0x09, 0x04, 0xbc, 0x0a, 0xa7, 0x00, 0x06, 0x05, 0xbc,
                                   0x0a, 0x57, 0x1a, 0x06, 0xc5, 0x00, 0x02, 0x02, 0x57, 0xb1};
    static const uint8_t smt[] = {0, 2, 10, 66, 7, 0, 4};
    spec s = {52, code, sizeof code, 2, NULL, 0, {{"StackMapTable", smt, sizeof smt}}, 1};
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7};
    opt.array_method = "array";
    opt.first_site = 3;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: 13..18 the block probe, 19..22 "array" and its Methodref */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 22, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_memory_equal(name.ptr, "array", 5);
    assert_int_equal(desc.len, strlen("(Ljava/lang/Object;II)V"));
    assert_memory_equal(desc.ptr, "(Ljava/lang/Object;II)V", desc.len);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 10);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, PROBE_REF,              /*  0 probe 7 */
        0x1a, 0x99, 0x00, 0x18,                               /*  6 ifeq 31 (probe 9) */
        0x11, 0x00, 0x08, 0xb8, 0x00, PROBE_REF,              /* 10 probe 8 */
        0x04, 0xbc, 0x0a,                                     /* 16 newarray int */
        0x59, 0x10, 0x01, 0x11, 0x00, 0x03, 0xb8, 0x00, 22,   /* 19 array probe: 1 level, site 3 */
        0xa7, 0x00, 0x15,                                     /* 28 goto 49 (probe 10) */
        0x11, 0x00, 0x09, 0xb8, 0x00, PROBE_REF,              /* 31 probe 9 */
        0x05, 0xbc, 0x0a,                                     /* 37 newarray int */
        0x59, 0x10, 0x01, 0x11, 0x00, 0x04, 0xb8, 0x00, 22,   /* 40 array probe: site 4 */
        0x11, 0x00, 0x0a, 0xb8, 0x00, PROBE_REF,              /* 49 probe 10: the jump lands after the array probe */
        0x57, 0x1a, 0x06, 0xc5, 0x00, 0x02, 0x02,             /* 55 .. 58 multianewarray #2 2 */
        0x59, 0x10, 0x02, 0x11, 0x00, 0x05, 0xb8, 0x00, 22,   /* 62 array probe: 2 levels, sites 5 and 6 */
        0x57, 0xb1                                            /* 71 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 6);
    const ins_method *im = &w.r.methods[0];
    assert_int_equal(im->first_site, 3);
    assert_int_equal(im->nsites, 4);
    assert_int_equal(w.r.next_site, 7);
    assert_int_equal(w.r.next_id, 11);
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want_smt[] = {0, 2, 31, 81, 7, 0, 4};
    expect_bytes(got, len, want_smt, sizeof want_smt);
    /* new offset, original offset, in a probe: an array probe maps to the
     * instruction it follows */
    static const int64_t cases[][3] = {
        {17, 5, 0}, {18, 5, 0}, {19, 5, 1}, {27, 5, 1}, {28, 7, 0},
        {40, 11, 1}, {49, 13, 1}, {58, 16, 0}, {61, 16, 0}, {62, 16, 1}, {70, 16, 1}, {71, 20, 0}, {72, 21, 0}
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int in_probe = -1;
        int64_t off = ins_original_offset(im, (uint32_t)cases[k][0], &in_probe);
        if (off != cases[k][1] || in_probe != (int)cases[k][2])
            fail_msg("new offset %lld: got %lld (probe %d), want %lld (probe %lld)", (long long)cases[k][0],
                     (long long)off, in_probe, (long long)cases[k][1], (long long)cases[k][2]);
    }
    release(&w);

    /* sites past 32767 are pushed with ldc_w, as ids are */
    opt.first_site = 32767;
    rewrite(&w, &s, &opt);
    static const uint8_t site1[] = {0x11, 0x7f, 0xff};
    expect_bytes(w.cf.methods[0].code + 22, 3, site1, 3);
    const uint8_t *p = w.cf.methods[0].code + 43;
    assert_int_equal(p[0], BC_LDC_W);
    int32_t v = 0;
    assert_int_equal(cp_integer(&w.cf.cp, be_u16(p + 1), &v), 0);
    assert_int_equal(v, 32768);
    assert_int_equal(w.r.next_site, 32767 + 4);
    release(&w);

    /* without array_method, no array probe and no site */
    rewrite(&w, &s, NULL);
    assert_int_equal(w.r.methods[0].new_len, 22 + 4 * 6);
    assert_int_equal(w.r.methods[0].nsites, 0);
    release(&w);
}

/* ---- copy probes ------------------------------------------------------- */

/* 13 Utf8 java/lang/System, 14 its Class, 15 Utf8 arraycopy, 16 Utf8 its
 * descriptor, 17 NameAndType, 18 Methodref */
static const uint8_t arraycopy_pool[] = {
    1, 0, 16, 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'S', 'y', 's', 't', 'e', 'm',
    7, 0, 13,
    1, 0, 9, 'a', 'r', 'r', 'a', 'y', 'c', 'o', 'p', 'y',
    1, 0, 42, '(', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't', ';', 'I',
    'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't', ';', 'I', 'I', ')', 'V',
    12, 0, 15, 0, 16,
    10, 0, 14, 0, 17
};

/* The arraycopy method: 0 aload_0 iconst_0 aload_0 iconst_0 iload_1;
 * 5 invokestatic #18 System.arraycopy; 8 iload_1; 9 ifne 0; 12 return,
 * with arraycopy_pool appended to the class's pool. */
static const uint8_t arraycopy_code[] = {0x2a, 0x03, 0x2a, 0x03, 0x1b, 0xb8, 0x00, 18, 0x1b, 0x9a, 0xff, 0xf7, 0xb1};
static const uint8_t arraycopy_smt[] = {0, 1, 0};

static spec arraycopy_method(void)
{
    extra_pool = arraycopy_pool;
    extra_pool_len = sizeof arraycopy_pool;
    extra_pool_n = 6;
    return (spec){52, arraycopy_code, sizeof arraycopy_code, 5, NULL, 0,
                  {{"StackMapTable", arraycopy_smt, sizeof arraycopy_smt}}, 1};
}

/*
 * A class whose pool names the probe class (in a descriptor here) is
 * refused: only the rewriter's probes may call it. A name that merely
 * begins like it is not the probe class's.
 */
static void ins_rewrite__a_pool_naming_the_probe_class_is_refused(void **state)
{
    (void)state;
    static const uint8_t ret[] = {0xb1};
    static const uint8_t naming[] = {1, 0, 14, '(', 'L', 'p', 's', 'f', '/', 'P', 'r', 'o', 'b', 'e', ';', ')', 'V'};
    static const uint8_t near[] = {1, 0, 13, '(', 'L', 'p', 's', 'f', '/', 'P', 'r', 'o', 'b', ';', ')', 'V'};
    spec s = {52, ret, sizeof ret, 0, NULL, 0, {{0}}, 0};
    extra_pool = naming;
    extra_pool_len = sizeof naming;
    extra_pool_n = 1;
    size_t len = 0;
    uint8_t *in = build(&s, &len);
    ins_result r;
    char err[256] = "";
    assert_int_equal(ins_rewrite(in, len, &probe_opts, &r, err, sizeof err), -1);
    assert_string_equal(err, "its constant pool names the probe class psf/Probe: only the rewriter may call the probes");
    free(in);
    extra_pool = near;
    extra_pool_len = sizeof near;
    rewritten w;
    rewrite(&w, &s, NULL);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 1 + 6);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

static void ins_rewrite__copy_probes__around_each_system_arraycopy(void **state)
{
    (void)state;
    spec s = arraycopy_method();
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7};
    opt.copy_method = "copy";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool (19 entries with arraycopy's), in the order of first use:
     * block 0's probe (19 "psf/Probe", 20 its Class, 21 "block", 22
     * "(I)V", 23 NameAndType, 24 Methodref), copy(I)V before the
     * arraycopy (25 "copy", 26 NameAndType with 22, 27), copy()V after it
     * (28 NameAndType of 25 and the input's own "()V" at 6, 29) */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 27, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_memory_equal(name.ptr, "copy", 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_int_equal(cp_member_ref(&w.cf.cp, 29, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "copy", 4);
    assert_int_equal(desc.len, 3);
    assert_memory_equal(desc.ptr, "()V", 3);
    cp_str own;
    assert_int_equal(cp_utf8(&w.cf.cp, 6, &own), 0);
    assert_ptr_equal(desc.ptr, own.ptr);    /* the input's "()V", none added */
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 5);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,   /*  0 probe 7 */
        0x2a, 0x03, 0x2a, 0x03, 0x1b,       /*  6 */
        0x59, 0xb8, 0x00, 27,               /* 11 dup the length; copy(I)V */
        0xb8, 0x00, 18,                     /* 15 System.arraycopy */
        0xb8, 0x00, 29,                     /* 18 copy()V: the copy returned */
        0x1b, 0x9a, 0xff, 0xea,             /* 21 iload_1; 22 ifne 0 (the probe) */
        0x11, 0x00, 0x08, 0xb8, 0x00, 24,   /* 25 probe 8 */
        0xb1                                /* 31 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 9);
    /* new offset, original offset, in a probe */
    static const int64_t cases[][3] = {
        {10, 4, 0}, {11, 5, 1}, {14, 5, 1}, {15, 5, 0}, {17, 5, 0}, {18, 5, 1}, {20, 5, 1}, {21, 8, 0}, {31, 12, 0}
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int in_probe = -1;
        int64_t off = ins_original_offset(&w.r.methods[0], (uint32_t)cases[k][0], &in_probe);
        if (off != cases[k][1] || in_probe != (int)cases[k][2])
            fail_msg("new offset %lld: got %lld (probe %d), want %lld (probe %lld)", (long long)cases[k][0],
                     (long long)off, in_probe, (long long)cases[k][1], (long long)cases[k][2]);
    }
    release(&w);

    /* without copy_method, or without an arraycopy, no copy probe and no entry */
    rewrite(&w, &s, NULL);
    assert_int_equal(w.r.methods[0].new_len, sizeof arraycopy_code + 2 * 6);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
    rewrite(&w, &s, &opt);  /* #18 is no longer a Methodref: the invoke is not an arraycopy */
    assert_int_equal(w.r.methods[0].new_len, sizeof arraycopy_code + 2 * 6);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6);
    release(&w);
}

/* ---- made probes ------------------------------------------------------- */

/* 13 Utf8 [I, 14 its Class, 15 Utf8 clone, 16 Utf8 ()Ljava/lang/Object;,
 * 17 NameAndType, 18 Methodref */
static const uint8_t clone_pool[] = {
    1, 0, 2, '[', 'I',
    7, 0, 13,
    1, 0, 5, 'c', 'l', 'o', 'n', 'e',
    1, 0, 20, '(', ')', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't', ';',
    12, 0, 15, 0, 16,
    10, 0, 14, 0, 17
};

static void ins_rewrite__made_probe__follows_an_array_clone_with_its_site(void **state)
{
    (void)state;
    /* 0 aload_0; 1 invokevirtual #18 [I.clone; 4 pop; 5 return */
    static const uint8_t code[] = {0x2a, 0xb6, 0x00, 18, 0x57, 0xb1};
    spec s = {52, code, sizeof code, 1, NULL, 0, {{0}}, 0};
    extra_pool = clone_pool;
    extra_pool_len = sizeof clone_pool;
    extra_pool_n = 6;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .first_site = 5};
    opt.made_method = "made";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: 19..24 the block probe, 25..28 "made", added at the clone */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 28, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "made", 4);
    assert_int_equal(desc.len, strlen("(Ljava/lang/Object;I)V"));
    assert_memory_equal(desc.ptr, "(Ljava/lang/Object;I)V", desc.len);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 4);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,         /*  0 probe 7 */
        0x2a, 0xb6, 0x00, 18,                     /*  6 aload_0; [I.clone */
        0x59, 0x11, 0x00, 0x05, 0xb8, 0x00, 28,   /* 10 the clone, site 5 */
        0x57, 0xb1                                /* 17 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 5);
    assert_int_equal(w.r.methods[0].first_site, 5);
    assert_int_equal(w.r.methods[0].nsites, 1);
    assert_int_equal(w.r.next_site, 6);
    assert_int_equal(ins_makes_array(&w.cf.cp, m->code, 7), INS_MAKES_ONE);
    assert_false(ins_makes_array(&w.cf.cp, m->code, 14));   /* the probe's own invokestatic */
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 7, &in_probe), 1);
    assert_int_equal(in_probe, 0);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 10, &in_probe), 1);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 16, &in_probe), 1);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 17, &in_probe), 4);
    assert_int_equal(in_probe, 0);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

/* 13 Utf8 java/lang/reflect/Array, 14 its Class, 15 Utf8 multiNewArray,
 * 16 Utf8 its descriptor, 17 NameAndType, 18 Methodref */
static const uint8_t multi_pool[] = {
    1, 0, 23, 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'r', 'e', 'f', 'l', 'e', 'c', 't', '/',
    'A', 'r', 'r', 'a', 'y',
    7, 0, 13,
    1, 0, 13, 'm', 'u', 'l', 't', 'i', 'N', 'e', 'w', 'A', 'r', 'r', 'a', 'y',
    1, 0, 39, '(', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'C', 'l', 'a', 's', 's', ';',
    '[', 'I', ')', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't', ';',
    12, 0, 15, 0, 16,
    10, 0, 14, 0, 17
};

static void ins_rewrite__made_probe__after_multi_new_array_walks_the_levels(void **state)
{
    (void)state;
    /* 0 aload_0 aload_1; 2 invokestatic #18 Array.multiNewArray; 5 pop; 6 return */
    static const uint8_t code[] = {0x2a, 0x2b, 0xb8, 0x00, 18, 0x57, 0xb1};
    spec s = {52, code, sizeof code, 2, NULL, 0, {{0}}, 0};
    extra_pool = multi_pool;
    extra_pool_len = sizeof multi_pool;
    extra_pool_n = 6;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .first_site = 40000};
    opt.made_method = "made";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: 19..24 block 0's probe (24 its
     * Methodref), then the made probe after the call: 25 the Integer
     * 40000 of its site (pushed before the invokestatic), 26 "made", 27
     * "(Ljava/lang/Object;II)V", 28 NameAndType, 29 Methodref */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 29, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "made", 4);
    assert_int_equal(desc.len, strlen("(Ljava/lang/Object;II)V"));
    assert_memory_equal(desc.ptr, "(Ljava/lang/Object;II)V", desc.len);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 1 + 4);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,             /*  0 probe 7 */
        0x2a, 0x2b, 0xb8, 0x00, 18,                   /*  6 Array.multiNewArray */
        0x59, 0x04, 0x13, 0x00, 25, 0xb8, 0x00, 29,   /* 11 the array, walk its levels, site 40000 */
        0x57, 0xb1                                    /* 19 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    int32_t v = 0;
    assert_int_equal(cp_integer(&w.cf.cp, 25, &v), 0);
    assert_int_equal(v, 40000);
    assert_int_equal(ins_makes_array(&w.cf.cp, m->code, 8), INS_MAKES_LEVELS);
    assert_int_equal(w.r.methods[0].nsites, 1);
    assert_int_equal(w.r.next_site, 40001);
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 18, &in_probe), 2);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 19, &in_probe), 5);
    assert_int_equal(in_probe, 0);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

/* ---- call and return probes ------------------------------------------- */

static void ins_rewrite__call_probes__around_each_invoke_with_its_call_site(void **state)
{
    (void)state;
    /* the arraycopy method, with copy probes too */
    spec s = arraycopy_method();
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7};
    opt.copy_method = "copy";
    opt.call_method = "call";
    opt.return_method = "ret";
    opt.first_call = 3;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: 19..24 block 0's probe (22
     * "(I)V", 24 its Methodref); at the invoke, in emission order:
     * copy(I)V (25 "copy", 26 NameAndType with 22, 27), call(I)V (28
     * "call", 29, 30), ret(I)V after it (31 "ret", 32, 33), copy()V (34
     * NameAndType of 25 and the input's "()V" at 6, 35) */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 30, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_int_equal(name.len, 4);
    assert_memory_equal(name.ptr, "call", 4);
    assert_int_equal(desc.len, 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_int_equal(cp_member_ref(&w.cf.cp, 33, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_int_equal(name.len, 3);
    assert_memory_equal(name.ptr, "ret", 3);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_int_equal(cp_member_ref(&w.cf.cp, 27, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "copy", 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_int_equal(cp_member_ref(&w.cf.cp, 35, &owner, &name, &desc), 0);
    assert_memory_equal(name.ptr, "copy", 4);
    assert_memory_equal(desc.ptr, "()V", 3);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 3 + 3 + 3 + 2);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,   /*  0 probe 7 */
        0x2a, 0x03, 0x2a, 0x03, 0x1b,       /*  6 */
        0x59, 0xb8, 0x00, 27,               /* 11 dup the length; copy(I)V */
        0x11, 0x00, 0x03, 0xb8, 0x00, 30,   /* 15 call(3) */
        0xb8, 0x00, 18,                     /* 21 System.arraycopy */
        0x11, 0x00, 0x03, 0xb8, 0x00, 33,   /* 24 ret(3): the call returned */
        0xb8, 0x00, 35,                     /* 30 copy()V */
        0x1b, 0x9a, 0xff, 0xde,             /* 33 iload_1; 34 ifne 0 (the probe) */
        0x11, 0x00, 0x08, 0xb8, 0x00, 24,   /* 37 probe 8 */
        0xb1                                /* 43 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 9);
    assert_int_equal(w.r.methods[0].first_call, 3);
    assert_int_equal(w.r.methods[0].ncalls, 1);
    assert_int_equal(w.r.next_call, 4);
    /* new offset, original offset, in a probe */
    static const int64_t cases[][3] = {
        {10, 4, 0}, {11, 5, 1}, {15, 5, 1}, {20, 5, 1}, {21, 5, 0}, {23, 5, 0},
        {24, 5, 1}, {29, 5, 1}, {30, 5, 1}, {32, 5, 1}, {33, 8, 0}, {43, 12, 0}
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int in_probe = -1;
        int64_t off = ins_original_offset(&w.r.methods[0], (uint32_t)cases[k][0], &in_probe);
        if (off != cases[k][1] || in_probe != (int)cases[k][2])
            fail_msg("new offset %lld: got %lld (probe %d), want %lld (probe %lld)", (long long)cases[k][0],
                     (long long)off, in_probe, (long long)cases[k][1], (long long)cases[k][2]);
    }
    release(&w);

    /* without call_method (or return_method), no call probe and no call
     * site: the block probe's 6 entries and the copy probes' 5, as in the
     * copy probes' test */
    opt.return_method = NULL;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].new_len, sizeof arraycopy_code + 2 * 6 + 4 + 3);
    assert_int_equal(w.r.methods[0].ncalls, 0);
    assert_int_equal(w.r.next_call, 3);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 5);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

static void ins_rewrite__call_probes__sites_past_32767_share_one_integer(void **state)
{
    (void)state;
    /* 0 aload_0; 1 invokevirtual #18 [I.clone; 4 pop; 5 return; with the
     * made probe after the clone */
    static const uint8_t code[] = {0x2a, 0xb6, 0x00, 18, 0x57, 0xb1};
    spec s = {52, code, sizeof code, 1, NULL, 0, {{0}}, 0};
    extra_pool = clone_pool;
    extra_pool_len = sizeof clone_pool;
    extra_pool_n = 6;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .first_site = 5};
    opt.made_method = "made";
    opt.call_method = "call";
    opt.return_method = "ret";
    opt.first_call = 40000;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: 19..24 block 0's probe (22
     * "(I)V"); at the clone: 25 the Integer 40000 of the call site,
     * pushed before call(I)V (26 "call", 27 NameAndType with 22, 28); ret
     * pushes the same Integer (29 "ret", 30, 31); then made after it,
     * site 5 (32 "made", 33 "(Ljava/lang/Object;I)V", 34, 35) */
    int32_t v;
    assert_int_equal(cp_integer(&w.cf.cp, 25, &v), 0);
    assert_int_equal(v, 40000);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 1 + 3 + 3 + 4);
    expect_probe_ref(&w.cf, 31, "ret", "(I)V");
    expect_probe_ref(&w.cf, 35, "made", "(Ljava/lang/Object;I)V");
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, 24,         /*  0 probe 7 */
        0x2a,                                     /*  6 aload_0 */
        0x13, 0x00, 25, 0xb8, 0x00, 28,           /*  7 call(40000) */
        0xb6, 0x00, 18,                           /* 13 [I.clone */
        0x13, 0x00, 25, 0xb8, 0x00, 31,           /* 16 ret(40000) */
        0x59, 0x11, 0x00, 0x05, 0xb8, 0x00, 35,   /* 22 the clone, site 5 */
        0x57, 0xb1                                /* 29 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 5);
    assert_int_equal(w.r.methods[0].first_call, 40000);
    assert_int_equal(w.r.methods[0].ncalls, 1);
    assert_int_equal(w.r.next_call, 40001);
    assert_int_equal(w.r.methods[0].first_site, 5);
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 7, &in_probe), 1);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 13, &in_probe), 1);
    assert_int_equal(in_probe, 0);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 16, &in_probe), 1);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 28, &in_probe), 1);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 29, &in_probe), 4);
    assert_int_equal(in_probe, 0);
    release(&w);

    /* a method without an invoke: no call probe, no Methodref, no site */
    static const uint8_t ret_only[] = {0xb1};
    spec r = {52, ret_only, sizeof ret_only, 0, NULL, 0, {{0}}, 0};
    rewrite(&w, &r, &opt);
    assert_int_equal(w.r.methods[0].new_len, 6 + 1);
    assert_int_equal(w.r.methods[0].ncalls, 0);
    assert_int_equal(w.r.next_call, 40000);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

/* A method with a new whose object stays on the stack across a branch:
 * 0 new #4; 3 dup; 4 iconst_0; 5 ifeq 12; 8 iconst_1; 9 goto 13;
 * 12 iconst_2; 13 pop pop pop return; frames at 12 and 13 holding two and
 * three values, Uninitialized(0) among them. */
static const uint8_t new_code[] = {
    0xbb, 0x00, 0x04, 0x59, 0x03, 0x99, 0x00, 0x07, 0x04, 0xa7, 0x00, 0x04, 0x05, 0x57, 0x57, 0x57, 0xb1
};
static const uint8_t new_smt[] = {
    0, 2,
    255, 0, 12, 0, 0, 0, 2, 8, 0, 0, 8, 0, 0,
    255, 0, 0, 0, 0, 0, 3, 8, 0, 0, 8, 0, 0, 1
};

static void ins_rewrite__new_probe__follows_each_new_with_a_call_site(void **state)
{
    (void)state;
    /* new_code, its object left uninitialized across the branch */
    spec s = {52, new_code, sizeof new_code, 3, NULL, 0, {{"StackMapTable", new_smt, sizeof new_smt}}, 1};
    ins_options opt = probe_opts;
    opt.new_method = "allocated";
    opt.first_call = 9;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: 13..18 block 0's probe (16 "(I)V"), then after the new 19
     * "allocated", 20 NameAndType with 16, 21 Methodref */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 21, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_int_equal(name.len, 9);
    assert_memory_equal(name.ptr, "allocated", 9);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    cp_str iv;
    assert_int_equal(cp_utf8(&w.cf.cp, 16, &iv), 0);
    assert_ptr_equal(desc.ptr, iv.ptr);     /* the block probe's "(I)V", shared */
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0xb8, 0x00, PROBE_REF,    /*  0 probe 7 */
        0xbb, 0x00, 0x04,                           /*  6 new #4 */
        0x11, 0x00, 0x09, 0xb8, 0x00, 21,           /*  9 allocated(9) */
        0x59, 0x03, 0x99, 0x00, 0x0d,               /* 15 dup; iconst_0; 17 ifeq 30 */
        0x11, 0x00, 0x08, 0xb8, 0x00, PROBE_REF,    /* 20 probe 8 */
        0x04, 0xa7, 0x00, 0x0a,                     /* 26 iconst_1; 27 goto 37 */
        0x11, 0x00, 0x09, 0xb8, 0x00, PROBE_REF,    /* 30 probe 9 */
        0x05,                                       /* 36 iconst_2 */
        0x11, 0x00, 0x0a, 0xb8, 0x00, PROBE_REF,    /* 37 probe 10 */
        0x57, 0x57, 0x57, 0xb1                      /* 43 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 4);
    /* the frames at 30 and 37; Uninitialized(6) still names the new */
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t frames[] = {
        0, 2,
        255, 0, 30, 0, 0, 0, 2, 8, 0, 6, 8, 0, 6,
        255, 0, 6, 0, 0, 0, 3, 8, 0, 6, 8, 0, 6, 1
    };
    expect_bytes(got, len, frames, sizeof frames);
    assert_int_equal(w.r.methods[0].first_call, 9);
    assert_int_equal(w.r.methods[0].ncalls, 1);
    assert_int_equal(w.r.next_call, 10);
    static const int64_t cases[][3] = {{6, 0, 0}, {8, 0, 0}, {9, 0, 1}, {14, 0, 1}, {15, 3, 0}, {17, 5, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int in_probe = -1;
        int64_t off = ins_original_offset(&w.r.methods[0], (uint32_t)cases[k][0], &in_probe);
        if (off != cases[k][1] || in_probe != (int)cases[k][2])
            fail_msg("new offset %lld: got %lld (probe %d), want %lld (probe %lld)", (long long)cases[k][0],
                     (long long)off, in_probe, (long long)cases[k][1], (long long)cases[k][2]);
    }
    release(&w);
}

/* ---- constants and folded branches -------------------------------------- */

/* The branch_seed of the tests: the method must be m()V. */
static uint32_t seed_of_m(void *ctx, cp_str name, cp_str desc)
{
    assert_int_equal(name.len, 1);
    assert_memory_equal(name.ptr, "m", 1);
    assert_int_equal(desc.len, 3);
    assert_memory_equal(desc.ptr, "()V", 3);
    return *(const uint32_t *)ctx;
}

static void ins_rewrite__consts_and_fold__lengths_segments_and_outcomes_are_pushed(void **state)
{
    (void)state;
    /* the new probe's method (new_code). Blocks 0 (4 bytecodes; its first
     * segment is the new), 8 and 12 (each entered only from the ifeq), 13
     * (from the goto and the fall-through) */
    spec s = {52, new_code, sizeof new_code, 3, NULL, 0, {{"StackMapTable", new_smt, sizeof new_smt}}, 1};
    uint32_t seed = 0x12345678u;
    ins_options opt = probe_opts;
    opt.branch_method = "branch";
    opt.new_method = "allocated";
    opt.first_call = 9;
    opt.consts = 1;
    opt.fold_method = "branched";
    opt.branch_seed = seed_of_m;
    opt.seed_ctx = &seed;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: 13..18 block 0's probe (16
     * "(II)V"), 19..21 allocated(II)V (sharing 16), 22 "branched",
     * 23 "(III)V", 24, 25 its Methodref; no branch probe is used */
    expect_probe_ref(&w.cf, 18, "block", "(II)V");
    expect_probe_ref(&w.cf, 21, "allocated", "(II)V");
    expect_probe_ref(&w.cf, 25, "branched", "(III)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3 + 4);
    unsigned site = bp_site(seed, 5) & 0x3fffu;  /* the ifeq at offset 5 */
    assert_int_equal(INS_FOLD_PACK(bp_site(seed, 5), 0), site);
    /* pushed as ~OUTCOME: negative */
    unsigned fall = ~site & 0xffffu, taken = ~(site | 1u << 14) & 0xffffu;
    uint8_t want[] = {
        0x11, 0x00, 0x07, 0x11, 0x40, 0x84, 0xb8, 0x00, 18,     /*  0 block(7, 4 | 1 << 7 | alloc) */
        0xbb, 0x00, 0x04,                                       /*  9 new #4 */
        0x11, 0x00, 0x09, 0x11, 0xbf, 0xfc, 0xb8, 0x00, 21,     /* 12 allocated(9, ~(3 bytecodes after)) */
        0x59, 0x03, 0x99, 0x00, 0x13,                           /* 21 dup; iconst_0; 23 ifeq 42, no branch probe */
        0x11, 0x00, 0x08, 0x11, 0x01, 0x02, 0x11, 0, 0, 0xb8, 0x00, 25, /* 26 branched(8, 2 | 2 << 7, not taken) */
        0x04, 0xa7, 0x00, 0x10,                                 /* 38 iconst_1; 39 goto 55 */
        0x11, 0x00, 0x09, 0x11, 0x00, 0x81, 0x11, 0, 0, 0xb8, 0x00, 25, /* 42 branched(9, 1 | 1 << 7, taken) */
        0x05,                                                   /* 54 iconst_2 */
        0x11, 0x00, 0x0a, 0x11, 0x02, 0x04, 0xb8, 0x00, 18,     /* 55 block(10, 4 | 4 << 7) */
        0x57, 0x57, 0x57, 0xb1                                  /* 64 */
    };
    want[33] = (uint8_t)(fall >> 8);
    want[34] = (uint8_t)fall;
    want[49] = (uint8_t)(taken >> 8);
    want[50] = (uint8_t)taken;
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(m->max_stack, 3 + 4);
    /* the frames at 42 and 55; Uninitialized(9) names the new */
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t frames[] = {
        0, 2,
        255, 0, 42, 0, 0, 0, 2, 8, 0, 9, 8, 0, 9,
        255, 0, 12, 0, 0, 0, 3, 8, 0, 9, 8, 0, 9, 1
    };
    expect_bytes(got, len, frames, sizeof frames);
    /* a fold probe is its block's probe: an exception there is before the block */
    int in_probe;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 26, &in_probe), 8);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 38, &in_probe), 8);
    assert_int_equal(in_probe, 0);
    release(&w);

    /* without fold_method the ifeq keeps its branch probe and every block
     * its block probe; without branch_method nothing folds either */
    opt.fold_method = NULL;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].new_len, sizeof new_code + 4 * 9 + 9 + INS_BRANCH_PROBE_LEN);
    release(&w);
    opt.fold_method = "branched";
    opt.branch_method = NULL;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].new_len, sizeof new_code + 4 * 9 + 9);
    assert_int_equal(w.r.methods[0].new_max_stack, 3 + 2);
    release(&w);
}

static void ins_rewrite__fold__a_successor_with_another_way_in_keeps_the_branch_probe(void **state)
{
    (void)state;
    /* 0 iload_0; 1 ifeq 6; 4 iconst_0; 5 istore_0; 6 return: the target
     * is also the fall-through of block 4 */
    static const uint8_t code[] = {0x1a, 0x99, 0x00, 0x05, 0x03, 0x3b, 0xb1};
    static const uint8_t smt[] = {0, 1, 6};
    spec s = {52, code, sizeof code, 1, NULL, 0, {{"StackMapTable", smt, sizeof smt}}, 1};
    ins_options opt = probe_opts;
    opt.branch_method = "branch";
    opt.consts = 1;
    opt.fold_method = "branched";      /* no branch_seed: seed 0 */
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0x11, 0x01, 0x02, 0xb8, 0x00, 18,     /*  0 block(7, 2 | 2 << 7) */
        0x1a,                                                   /*  9 iload_0 */
        0x59, 0x10, 0x99, 0x11, 0x00, 0x07, 0xb8, 0x00, 22,     /* 10 the branch probe */
        0x99, 0x00, 0x0f,                                       /* 19 ifeq 34 */
        0x11, 0x00, 0x08, 0x11, 0x01, 0x02, 0xb8, 0x00, 18,     /* 22 block(8, 2 | 2 << 7) */
        0x03, 0x3b,                                             /* 31 */
        0x11, 0x00, 0x09, 0x11, 0x00, 0x81, 0xb8, 0x00, 18,     /* 33 block(9, 1 | 1 << 7) */
        0xb1
    };
    (void)want;
    assert_int_equal(m->code_len, sizeof code + 3 * 9 + INS_BRANCH_PROBE_LEN);
    assert_int_equal(m->code[10], 0x59);                        /* the branch probe's dup */
    expect_probe_ref(&w.cf, 22, "branch", "(III)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 4);       /* no fold probe in the pool */
    release(&w);
}

static void ins_rewrite__consts__lengths_too_long_to_pack_push_0(void **state)
{
    (void)state;
    /* 127 nops and return: 128 bytecodes, one block; then 126 nops and
     * return: 127, the most that packs */
    uint8_t code[128];
    memset(code, 0x00, sizeof code);
    code[127] = 0xb1;
    spec s = {52, code, sizeof code, 0, NULL, 0, {{0}}, 0};
    ins_options opt = probe_opts;
    opt.consts = 1;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code[3], 0x11);
    assert_int_equal(be_u16(m->code + 4), 0);     /* the probe reads the agent's table */
    release(&w);
    s.code = code + 1;
    s.code_len = sizeof code - 1;
    rewrite(&w, &s, &opt);
    m = &w.cf.methods[0];
    assert_int_equal(be_u16(m->code + 4), INS_LEN_PACK(127, 127, 0));
    release(&w);
}

static void ins_rewrite__consts__a_goto_to_itself_pushes_0(void **state)
{
    (void)state;
    /* iconst_0 pop, then `goto 2`, a block of its own (an endless loop):
     * its probe pushes 0 so that it reads the agent's table, where the
     * fast engine marks the block (limit.c); the goto jumps to its probe */
    static const uint8_t code[] = {0x03, 0x57, 0xa7, 0x00, 0x00};
    spec s = {50, code, sizeof code, 1, NULL, 0, {{0}}, 0};
    ins_options opt = probe_opts;
    opt.consts = 1;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 23);
    assert_int_equal(m->code[3], 0x11);
    assert_int_equal(be_u16(m->code + 4), INS_LEN_PACK(2, 2, 0));
    assert_int_equal(m->code[9], 0x03);
    assert_int_equal(m->code[14], 0x11);
    assert_int_equal(be_u16(m->code + 15), 0);    /* the probe reads the agent's table */
    assert_int_equal(m->code[20], 0xa7);
    assert_int_equal(be_u16(m->code + 21), 0xfff7); /* goto 11: its own probe */
    release(&w);
}

static void ins_rewrite__shared_names__probes_of_one_name_and_descriptor_share_a_methodref(void **state)
{
    (void)state;
    /* the engine's names: block, entry-block and fold probes p, the return
     * and new probes q; Loops.sum has no invoke and no new, so p(II)V
     * (block 0 is entered only on entry: the entry-block probe, with
     * ~lengths) and p(III)V (the folded loop test) */
    spec s = loop_spec();
    ins_options opt = probe_opts;
    opt.probe_method = "p";
    opt.branch_method = "p";
    opt.fold_method = "p";
    opt.other_entry_method = "e";
    opt.other_entry_block_method = "p";
    opt.consts = 1;
    int no = 0;
    opt.calls_filter = choose_m;    /* 0: m gets the other entry probe */
    opt.calls_ctx = &no;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* block 0 starts the method and nothing jumps there: the merged probe,
     * p(II)V with ~INS_LEN_PACK(4, 4, 0); block 1 (the loop test) p(II)V
     * with its lengths: the same Methodref */
    assert_int_equal(m->code[0], 0x11);
    assert_int_equal(be_u16(m->code + 4), ~INS_LEN_PACK(4, 4, 0) & 0xffffu);
    assert_int_equal(m->code[6], BC_INVOKESTATIC);
    uint16_t ref = be_u16(m->code + 7);
    expect_probe_ref(&w.cf, ref, "p", "(II)V");
    assert_int_equal(m->code[13], 0x11);
    assert_int_equal(be_u16(m->code + 17), INS_LEN_PACK(3, 3, 0));
    assert_int_equal(be_u16(m->code + 20), ref);
    /* pool: "psf/Probe", its Class, "p", "(II)V", NameAndType, Methodref;
     * then p(III)V: "(III)V", NameAndType, Methodref ("p" shared) */
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3);
    release(&w);
}

static void ins_rewrite_parsed__a_class_parsed_by_the_caller__same_result(void **state)
{
    (void)state;
    spec s = loop_spec();
    size_t n;
    uint8_t *in = build(&s, &n);
    ins_result a, b;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &branch_opts, &a, err, sizeof err), 0);
    classfile cf;
    assert_int_equal(cf_parse(&cf, in, n, err, sizeof err), 0);
    assert_int_equal(ins_rewrite_parsed(&cf, in, n, &branch_opts, &b, err, sizeof err), 0);
    expect_bytes(b.bytes, b.len, a.bytes, a.len);
    assert_int_equal(b.next_id, a.next_id);
    assert_int_equal(b.methods[0].new_len, a.methods[0].new_len);
    ins_options none = {0};
    ins_result c;
    assert_int_equal(ins_rewrite_parsed(&cf, in, n, &none, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "no probe class"));
    cf_free(&cf);       /* the result's names point into `in`, not into cf */
    assert_memory_equal(b.class_name.ptr, "T", 1);
    ins_free(&a);
    ins_free(&b);
    free(in);
}

static void ins_rewrite__consts__call_return_and_new_probes_share_q(void **state)
{
    (void)state;
    /* the arraycopy method with the engine's names: the call probe pushes INS_CALL_CONST, the
     * return probe the segment after the invoke (iload_1, ifne: 2
     * bytecodes), both q(II)V, one Methodref */
    spec s = arraycopy_method();
    ins_options opt = probe_opts;
    opt.probe_method = "p";
    opt.call_method = "q";
    opt.return_method = "q";
    opt.new_method = "q";
    opt.consts = 1;
    opt.program = 1;
    opt.first_call = 3;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* 0 p(7, lengths of block 0: 8 bytecodes, first segment 6 up to the invoke) */
    assert_int_equal(be_u16(m->code + 4), INS_LEN_PACK(8, 6, 0));
    /* 9..14 the five loads; 14 q(3, INS_CALL_CONST); 23 the invoke; 26 q(3, segment) */
    assert_int_equal(m->code[14], 0x11);
    assert_int_equal(be_u16(m->code + 15), 3);
    assert_int_equal(m->code[17], 0x11);
    assert_int_equal(be_u16(m->code + 18), INS_CALL_CONST);
    assert_int_equal(m->code[20], BC_INVOKESTATIC);
    uint16_t q = be_u16(m->code + 21);
    expect_probe_ref(&w.cf, q, "q", "(II)V");
    assert_int_equal(m->code[23], BC_INVOKESTATIC);
    assert_int_equal(be_u16(m->code + 24), 18);        /* System.arraycopy */
    assert_int_equal(be_u16(m->code + 27), 3);
    assert_int_equal(be_u16(m->code + 30), INS_SEG_PACK(2, 0, 1));
    assert_int_equal(be_u16(m->code + 33), q);         /* the same Methodref */
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

/* calls_not: the call, return and new probes push ~site, so that they can
 * call the block probe's method (the fast engine's Code(II)V): no pool
 * entry of their own, where q(II)V above costs a NameAndType and a
 * Methodref (and a name) */
static void ins_rewrite__calls_not__call_return_and_new_probes_add_no_pool_entry(void **state)
{
    (void)state;
    spec s = arraycopy_method();
    ins_options opt = probe_opts;
    opt.probe_method = "p";
    opt.call_method = "p";
    opt.return_method = "p";
    opt.new_method = "p";
    opt.consts = 1;
    opt.calls_not = 1;
    opt.program = 1;
    opt.first_call = 3;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: block 0's probe (19 "psf/Probe", 20 its Class, 21 "p", 22
     * "(II)V", 23 NameAndType, 24 Methodref); the call and return probes
     * add nothing */
    expect_probe_ref(&w.cf, 24, "p", "(II)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6);
    static const uint8_t want[] = {
        0x11, 0x00, 0x07, 0x11, 0x03, 0x08, 0xb8, 0x00, 24, /*  0 p(7, 8 | 6 << 7) */
        0x2a, 0x03, 0x2a, 0x03, 0x1b,                       /*  9 */
        0x11, 0xff, 0xfc, 0x11, 0x00, 0x01, 0xb8, 0x00, 24, /* 14 p(~3, INS_CALL_CONST) */
        0xb8, 0x00, 18,                                     /* 23 System.arraycopy */
        0x11, 0xff, 0xfc, 0x11, 0x60, 0x02, 0xb8, 0x00, 24, /* 26 p(~3, 2 | program | 1 << 14) */
        0x1b, 0x9a, 0xff, 0xdc,                             /* 35 iload_1; 36 ifne 0 */
        0x11, 0x00, 0x08, 0x11, 0x00, 0x81, 0xb8, 0x00, 24, /* 39 p(8, 1 | 1 << 7) */
        0xb1                                                /* 48 */
    };
    expect_bytes(m->code, m->code_len, want, sizeof want);
    assert_int_equal(be_u16(want + 4), INS_LEN_PACK(8, 6, 0));
    assert_int_equal(be_u16(want + 18), INS_CALL_CONST);
    assert_int_equal(be_u16(want + 30), INS_SEG_PACK(2, 0, 1));
    assert_int_equal(w.r.methods[0].ncalls, 1);
    assert_int_equal(w.r.next_call, 4);
    release(&w);

    /* call sites past 32767: one Integer of ~site (25 -40001), pushed by
     * both probes of the invoke */
    opt.first_call = 40000;
    rewrite(&w, &s, &opt);
    m = &w.cf.methods[0];
    int32_t v = 0;
    assert_int_equal(cp_integer(&w.cf.cp, 25, &v), 0);
    assert_int_equal(v, -40001);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 6 + 1);
    static const uint8_t call[] = {0x13, 0x00, 25, 0x11, 0x00, 0x01, 0xb8, 0x00, 24};
    expect_bytes(m->code + 14, sizeof call, call, sizeof call);
    static const uint8_t ret[] = {0x13, 0x00, 25, 0x11, 0x60, 0x02, 0xb8, 0x00, 24};
    expect_bytes(m->code + 26, sizeof ret, ret, sizeof ret);
    release(&w);
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;

    /* the new probe (new_code, site 9): p(~9, ~segment), the block
     * probe's Methodref (13..18), nothing added */
    spec n = {52, new_code, sizeof new_code, 3, NULL, 0, {{"StackMapTable", new_smt, sizeof new_smt}}, 1};
    opt.program = 0;
    opt.first_call = 9;
    rewrite(&w, &n, &opt);
    m = &w.cf.methods[0];
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6);
    static const uint8_t nwant[] = {
        0x11, 0x00, 0x07, 0x11, 0x40, 0x84, 0xb8, 0x00, 18, /*  0 p(7, 4 | 1 << 7 | alloc) */
        0xbb, 0x00, 0x04,                                   /*  9 new #4 */
        0x11, 0xff, 0xf6, 0x11, 0xbf, 0xfc, 0xb8, 0x00, 18, /* 12 p(~9, ~(3 bytecodes after)) */
        0x59, 0x03, 0x99, 0x00, 0x10,                       /* 21 dup; iconst_0; 23 ifeq 39 */
        0x11, 0x00, 0x08, 0x11, 0x01, 0x02, 0xb8, 0x00, 18, /* 26 p(8, 2 | 2 << 7) */
        0x04, 0xa7, 0x00, 0x0d,                             /* 35 iconst_1; 36 goto 49 */
        0x11, 0x00, 0x09, 0x11, 0x00, 0x81, 0xb8, 0x00, 18, /* 39 p(9, 1 | 1 << 7) */
        0x05,                                               /* 48 iconst_2 */
        0x11, 0x00, 0x0a, 0x11, 0x02, 0x04, 0xb8, 0x00, 18, /* 49 p(10, 4 | 4 << 7) */
        0x57, 0x57, 0x57, 0xb1                              /* 58 */
    };
    expect_bytes(m->code, m->code_len, nwant, sizeof nwant);
    release(&w);

    /* the root probes' constant is none of theirs: no segment (0 or bit
     * 14 set) and INS_CALL_CONST differ from INS_ROOT_CONST */
    assert_int_equal(INS_ROOT_CONST & (1u << 14), 0);
    assert_int_not_equal(INS_ROOT_CONST, 0);
    assert_int_not_equal(INS_ROOT_CONST, INS_CALL_CONST);
}

/* A reserve callback: ids from base[0], sites from base[1], calls from base[2], each advanced; base[3] asks to fail. */
static int reserve_from(void *ctx, uint32_t ids, uint32_t sites, uint32_t calls, uint32_t *fid, uint32_t *fsite,
                        uint32_t *fcall)
{
    uint32_t *base = ctx;
    if (base[3])
        return -1;
    *fid = base[0];
    *fsite = base[1];
    *fcall = base[2];
    base[0] += ids;
    base[1] += sites;
    base[2] += calls;
    return 0;
}

static void ins_rewrite__reserve__the_caller_numbers_ids_sites_and_calls(void **state)
{
    (void)state;
    spec s = loop_spec();
    uint32_t base[4] = {500, 70, 9000, 0};
    ins_options opt = probe_opts;   /* first_id 7: ignored */
    opt.reserve = reserve_from;
    opt.reserve_ctx = base;
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(w.r.methods[0].first_id, 500);
    assert_int_equal(be_u16(m->code + 1), 500);       /* block 0's probe */
    assert_int_equal(be_u16(m->code + 11), 501);      /* block 1's */
    assert_int_equal(base[0], 504);                 /* four blocks */
    assert_int_equal(base[1], 70);                  /* no array site, no call site */
    assert_int_equal(base[2], 9000);
    assert_int_equal(w.r.next_id, 7);               /* the result's own numbering did not move */
    release(&w);
    base[3] = 1;
    size_t n;
    uint8_t *in = build(&s, &n);
    ins_result r;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &opt, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "no probe ids"));
    free(in);
}

/* ---- root probes: the filter's second choice --------------------------- */

static int choose_root(void *ctx, cp_str name, cp_str desc)
{
    (void)desc;
    return name.len == 1 && name.ptr[0] == 'm' ? *(const int *)ctx : 0;
}

static void ins_rewrite__root_probes__the_filter_chooses_which_pair_a_method_gets(void **state)
{
    (void)state;
    spec s = loop_spec();
    int choice = 2;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .entry_method = "enter", .exit_method = "exit", .calls_filter = choose_root, .calls_ctx = &choice};
    opt.root_entry_method = "rootEnter";
    opt.root_exit_method = "rootExit";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: the root entry probe at offset 0
     * (13 "psf/Probe", 14 its Class, 15 "rootEnter", 16 "(I)V", 17
     * NameAndType, 18 Methodref), block 0's probe (19 "block", 20 with
     * 16, 21), the root exit probe before the ireturn (22 "rootExit", 23
     * with 16, 24); "enter" and "exit" are never used */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 18, &owner, &name, &desc), 0);
    assert_int_equal(name.len, 9);
    assert_memory_equal(name.ptr, "rootEnter", 9);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    assert_int_equal(cp_member_ref(&w.cf.cp, 24, &owner, &name, &desc), 0);
    assert_int_equal(name.len, 8);
    assert_memory_equal(name.ptr, "rootExit", 8);
    expect_probe_ref(&w.cf, 21, "block", "(I)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3 + 3);
    assert_int_equal(w.r.methods[0].calls, 2);
    /* the same layout as the entry and exit pair, calling the root pair */
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0xb8, 0x00, 18, 0x11, 0x00, 0x07, 0xb8, 0x00, 21};
    expect_bytes(m->code, sizeof head, head, sizeof head);
    assert_int_equal(m->code_len, 57);
    static const uint8_t tail[] = {0x1b, 0x11, 0x00, 0x07, 0xb8, 0x00, 24, 0xac};
    expect_bytes(m->code + 49, sizeof tail, tail, sizeof tail);
    release(&w);

    /* 1: the entry and exit pair, at the same indices as the root pair
     * above (18 "enter", 21 block, 24 "exit"): the names tell them apart */
    choice = 1;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].calls, 1);
    assert_int_equal(w.cf.methods[0].code[5], 18);
    assert_int_equal(w.cf.methods[0].code[55], 24);
    expect_probe_ref(&w.cf, 18, "enter", "(I)V");
    expect_probe_ref(&w.cf, 24, "exit", "(I)V");
    release(&w);

    /* 2 without root methods given: block probes only (13..18) */
    choice = 2;
    opt.root_entry_method = opt.root_exit_method = NULL;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].calls, 0);
    assert_int_equal(w.r.methods[0].new_len, 45);
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6);
    release(&w);
}

/* root_exit_not: the root exit probe passes ~id, so that the root pair can
 * be one method and one Methodref (the fast engine's Code(I)V): three
 * entries fewer than two names */
static void ins_rewrite__root_exit_not__one_methodref_for_the_root_pair(void **state)
{
    (void)state;
    spec s = loop_spec();
    int choice = 2;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .calls_filter = choose_root,
                       .calls_ctx = &choice, .root_entry_method = "root", .root_exit_method = "root",
                       .root_exit_not = 1};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: the root entry probe (13 "psf/Probe", 14 its Class, 15
     * "root", 16 "(I)V", 17 NameAndType, 18 Methodref), block 0's probe
     * (19 "block", 20 with 16, 21); the root exit probe adds nothing */
    expect_probe_ref(&w.cf, 18, "root", "(I)V");
    expect_probe_ref(&w.cf, 21, "block", "(I)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 9);
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0xb8, 0x00, 18, 0x11, 0x00, 0x07, 0xb8, 0x00, 21};
    expect_bytes(m->code, sizeof head, head, sizeof head);
    assert_int_equal(m->code_len, 57);
    /* before the ireturn: sipush ~7 (-8), invokestatic #18 */
    static const uint8_t tail[] = {0x1b, 0x11, 0xff, 0xf8, 0xb8, 0x00, 18, 0xac};
    expect_bytes(m->code + 49, sizeof tail, tail, sizeof tail);
    release(&w);

    /* ids past 32767: ldc_w of Integers, ~40000 an Integer of its own: 13
     * Integer 40000 (the entry's), 14..19 the root probe as above, 20
     * Integer 40000 (block 0's), 21 "block", 22, 23, the other blocks' 24
     * 40001, 25 40002, 26 40003, and 27 -40001 (the exit's) */
    opt.first_id = 40000;
    rewrite(&w, &s, &opt);
    m = &w.cf.methods[0];
    int32_t v = 0;
    assert_int_equal(cp_integer(&w.cf.cp, 27, &v), 0);
    assert_int_equal(v, -40001);
    assert_int_equal(w.cf.cp.count, 28);
    static const uint8_t ltail[] = {0x1b, 0x13, 0x00, 27, 0xb8, 0x00, 19, 0xac};
    expect_bytes(m->code + 49, sizeof ltail, ltail, sizeof ltail);
    release(&w);
}

/* root_via_entry_block: the root probes call the entry-block method with
 * ~INS_ROOT_CONST, which no block's lengths pack to (the fast engine's
 * Code(II)V): no entry of their own in the pool */
static void ins_rewrite__root_via_entry_block__root_probes_add_no_pool_entry(void **state)
{
    (void)state;
    spec s = loop_spec();
    int choice = 2;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .calls_filter = choose_root,
                       .calls_ctx = &choice, .root_entry_method = "root", .root_exit_method = "root", .consts = 1,
                       .other_entry_block_method = "eb", .root_exit_not = 1, .root_via_entry_block = 1};
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool: the root entry probe (13 "psf/Probe", 14 its Class, 15 "eb",
     * 16 "(II)V", 17 NameAndType, 18 Methodref), block 0's probe (19
     * "block", 20 with 16, 21); "root" is never used, the root exit probe
     * adds nothing: three entries fewer than root_exit_not alone */
    expect_probe_ref(&w.cf, 18, "eb", "(II)V");
    expect_probe_ref(&w.cf, 21, "block", "(II)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 9);
    /* eb(7, ~INS_ROOT_CONST), block(7, INS_LEN_PACK(4, 4, 0)) */
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0x11, 0xff, 0x7f, 0xb8, 0x00, 18,
                                   0x11, 0x00, 0x07, 0x11, 0x02, 0x04, 0xb8, 0x00, 21};
    expect_bytes(m->code, sizeof head, head, sizeof head);
    /* block 3's probe (id 10, INS_LEN_PACK(2, 2, 0)), iload_1, before the
     * ireturn eb(~7, ~INS_ROOT_CONST) */
    static const uint8_t tail[] = {0x11, 0x00, 0x0a, 0x11, 0x01, 0x02, 0xb8, 0x00, 21,
                                   0x1b, 0x11, 0xff, 0xf8, 0x11, 0xff, 0x7f, 0xb8, 0x00, 18, 0xac};
    assert_true(m->code_len > sizeof tail);
    expect_bytes(m->code + m->code_len - sizeof tail, sizeof tail, tail, sizeof tail);
    assert_int_equal(INS_ROOT_CONST & INS_LEN_MAX, 0);
    release(&w);
}

static void ins_rewrite__other_entry_probe__every_method_the_filter_leaves_gets_one(void **state)
{
    (void)state;
    spec s = loop_spec();
    int choice = 0;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .entry_method = "enter", .exit_method = "exit", .calls_filter = choose_root, .calls_ctx = &choice};
    opt.root_entry_method = "rootEnter";
    opt.root_exit_method = "rootExit";
    opt.other_entry_method = "entered";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: the other entry probe at offset 0
     * (13 "psf/Probe", 14 its Class, 15 "entered", 16 "(I)V", 17
     * NameAndType, 18 Methodref), block 0's probe (19 "block", 20 with
     * 16, 21); no pair is used, none added */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 18, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_int_equal(name.len, 7);
    assert_memory_equal(name.ptr, "entered", 7);
    assert_int_equal(desc.len, 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    expect_probe_ref(&w.cf, 21, "block", "(I)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3);
    assert_int_equal(w.r.methods[0].calls, 3);
    /* the entry probe with block 0's id before block 0's probe, no exit
     * probe: 45 bytes of the loop with its probes, 6 more */
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0xb8, 0x00, 18, 0x11, 0x00, 0x07, 0xb8, 0x00, 21};
    expect_bytes(m->code, sizeof head, head, sizeof head);
    assert_int_equal(m->code_len, 51);
    static const uint8_t tail[] = {0x1b, 0xac};
    expect_bytes(m->code + 49, sizeof tail, tail, sizeof tail);
    release(&w);

    /* the filter's own choices keep their pairs: 1 enter and exit, 2 the
     * roots'; either pair is the first used, at 18 and 24 (block at 21),
     * so the names tell which */
    choice = 1;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].calls, 1);
    assert_int_equal(w.cf.methods[0].code[5], 18);
    assert_int_equal(w.cf.methods[0].code[55], 24);
    expect_probe_ref(&w.cf, 18, "enter", "(I)V");
    expect_probe_ref(&w.cf, 24, "exit", "(I)V");
    release(&w);
    choice = 2;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.r.methods[0].calls, 2);
    assert_int_equal(w.cf.methods[0].code[5], 18);
    assert_int_equal(w.cf.methods[0].code[55], 24);
    expect_probe_ref(&w.cf, 18, "rootEnter", "(I)V");
    expect_probe_ref(&w.cf, 24, "rootExit", "(I)V");
    release(&w);
}

static void ins_rewrite__merged_entry_probe__replaces_both_probes_unless_a_jump_lands_on_offset_0(void **state)
{
    (void)state;
    spec s = loop_spec();
    int choice = 0;
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = 7, .entry_method = "enter", .exit_method = "exit", .calls_filter = choose_root, .calls_ctx = &choice};
    opt.root_entry_method = "rootEnter";
    opt.root_exit_method = "rootExit";
    opt.other_entry_method = "entered";
    opt.other_entry_block_method = "enteredBlock";
    rewritten w;
    rewrite(&w, &s, &opt);
    const cf_method *m = &w.cf.methods[0];
    /* pool, in the order of first use: the merged probe at offset 0 (13
     * "psf/Probe", 14 its Class, 15 "enteredBlock", 16 "(I)V", 17
     * NameAndType, 18 Methodref), block 1's probe (19 "block", 20 with 16,
     * 21); "entered" is never used, not added */
    cp_str owner, name, desc;
    assert_int_equal(cp_member_ref(&w.cf.cp, 18, &owner, &name, &desc), 0);
    assert_memory_equal(owner.ptr, "psf/Probe", owner.len);
    assert_int_equal(name.len, 12);
    assert_memory_equal(name.ptr, "enteredBlock", 12);
    assert_int_equal(desc.len, 4);
    assert_memory_equal(desc.ptr, "(I)V", 4);
    expect_probe_ref(&w.cf, 21, "block", "(I)V");
    assert_int_equal(w.cf.cp.count, POOL_COUNT + 6 + 3);
    assert_int_equal(w.r.methods[0].calls, 3);
    /* the loop jumps to 4, not 0: one probe with block 0's id, the loop
     * with its probes as without an entry probe (45 bytes) */
    static const uint8_t head[] = {0x11, 0x00, 0x07, 0xb8, 0x00, 18, 0x03, 0x3c};
    expect_bytes(m->code, sizeof head, head, sizeof head);
    assert_int_equal(m->code_len, 45);
    static const uint8_t next[] = {0x11, 0x00, 0x08, 0xb8, 0x00, 21};  /* block 1's probe, id 8 */
    expect_bytes(m->code + 10, sizeof next, next, sizeof next);
    int in_probe = 0;
    assert_int_equal(ins_original_offset(&w.r.methods[0], 5, &in_probe), 0);
    assert_int_equal(in_probe, 1);
    assert_int_equal(ins_original_offset(&w.r.methods[0], 6, &in_probe), 0);
    assert_int_equal(in_probe, 0);
    release(&w);

    /* the filter's own choices keep their pairs: "enter" first used
     * (13..18), then block 0's probe (19..21) */
    choice = 1;
    rewrite(&w, &s, &opt);
    assert_int_equal(w.cf.methods[0].code[5], 18);
    assert_int_equal(w.cf.methods[0].code[11], 21);
    expect_probe_ref(&w.cf, 18, "enter", "(I)V");
    release(&w);

    /* a loop back to offset 0 (0 iinc 0, -1; 3 iload_0; 4 ifgt 0; 7
     * iload_0; 8 ireturn; class version 49, no frames): the entry probe,
     * then block 0's own probe, where the branch lands; "entered" first
     * used (13..18), then "block" (19..21) */
    static const uint8_t back[] = {0x84, 0x00, 0xff, 0x1a, 0x9d, 0xff, 0xfc, 0x1a, 0xac};
    spec b = {49, back, sizeof back, 1, NULL, 0, {{0}}, 0};
    choice = 0;
    rewrite(&w, &b, &opt);
    static const uint8_t both[] = {0x11, 0x00, 0x07, 0xb8, 0x00, 18, 0x11, 0x00, 0x07, 0xb8, 0x00, 21, 0x84};
    expect_bytes(w.cf.methods[0].code, sizeof both, both, sizeof both);
    expect_probe_ref(&w.cf, 18, "entered", "(I)V");
    release(&w);

    /* a handler at offset 0 (0 iload_0; 1 ireturn, covering 0..1) */
    static const uint8_t ret[] = {0x1a, 0xac};
    static const uint8_t exc[] = {0, 0, 0, 1, 0, 0, 0, 0};
    spec h = {49, ret, sizeof ret, 1, exc, 1, {{0}}, 0};
    rewrite(&w, &h, &opt);
    expect_bytes(w.cf.methods[0].code, sizeof both - 1, both, sizeof both - 1);
    release(&w);
}

/* ---- the fast engine's options ------------------------------------------ */

/* The fast engine's calls_filter for a method neither measured nor a root. */
static int no_calls(void *ctx, cp_str name, cp_str desc)
{
    (void)ctx;
    (void)name;
    (void)desc;
    return 0;
}

/* The probe class's Methodrefs in w's pool, "name desc" each, sorted, joined by "; ". */
static void probe_refs(const rewritten *w, char *out, size_t n)
{
    char refs[32][96];
    int k = 0;
    for (uint16_t i = 1; i < w->cf.cp.count; i++) {
        cp_str owner, name, desc;
        if (cp_member_ref(&w->cf.cp, i, &owner, &name, &desc) != 0 || owner.len != 9 ||
            memcmp(owner.ptr, "psf/Probe", 9) != 0)
            continue;
        assert_true(k < 32);
        snprintf(refs[k++], sizeof refs[0], "%.*s %.*s", (int)name.len, name.ptr, (int)desc.len, desc.ptr);
    }
    qsort(refs, (size_t)k, sizeof refs[0], (int (*)(const void *, const void *))strcmp);
    size_t at = 0;
    for (int i = 0; i < k; i++) {
        size_t len = strlen(refs[i]), sep = i ? 2 : 0;
        assert_true(at + sep + len < n);
        memcpy(out + at, "; ", sep);
        memcpy(out + at + sep, refs[i], len);
        at += sep + len;
    }
    out[at] = '\0';
}

static void ins_fast_options__the_probes_by_loader_and_program(void **state)
{
    (void)state;
    /* the null_as_int test's code: 0 aconst_null; 1 ifnull 5; 4 nop; 5
     * iconst_0; 6 ifeq 10; 9 nop; 10 aconst_null x2; 12 if_acmpeq 16; 15
     * nop; 16 return. No branch folds (each has a successor with another
     * way in); offset 0 is no jump's target, so the entry and block 0's
     * probe are one Code(II)V, as every block probe; ifeq and if_icmp<cond>
     * call Code(III)V, and ifnull too in the boot loader's classes (through
     * instanceof Object), elsewhere Code(Object,II)V; if_acmpeq its own */
    static const uint8_t code[] = {0x01, 0xc6, 0x00, 0x04, 0x00, 0x03, 0x99, 0x00, 0x04, 0x00,
                                   0x01, 0x01, 0xa5, 0x00, 0x04, 0x00, 0xb1};
    /* and System.arraycopy in a loop back to offset 0: the entry probe
     * (SourceFile(I)V) apart from block 0's, the call and return probes
     * through Code(II)V, the copy probes: the program's its own */
    static const struct {
        int copy, program, boot;
        const char *want;
    } cases[] = {
        {0, 0, 0, "Code (II)V; Code (III)V; Code (Ljava/lang/Object;II)V; Code (Ljava/lang/Object;Ljava/lang/Object;II)V"},
        {0, 0, 1, "Code (II)V; Code (III)V; Code (Ljava/lang/Object;Ljava/lang/Object;II)V"},
        {1, 0, 1, "Code (II)V; Code (III)V; SourceFile (I)V; copy ()V; copy (I)V"},
        {1, 1, 1, "Code (II)V; Code (III)V; SourceFile (I)V; programCopy ()V; programCopy (I)V"},
    };
    char got[1024];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        spec s = cases[k].copy ? arraycopy_method() : (spec){52, code, sizeof code, 2, NULL, 0, {{0}}, 0};
        ins_options opt;
        ins_fast_options(&opt, "psf/Probe", cases[k].program, cases[k].boot);
        opt.calls_filter = no_calls;
        rewritten w;
        rewrite(&w, &s, &opt);
        probe_refs(&w, got, sizeof got);
        assert_string_equal(got, cases[k].want);
        release(&w);
    }
    extra_pool = NULL;
    extra_pool_len = 0;
    extra_pool_n = 0;
}

/* ---- stack map frames -------------------------------------------------- */

static void ins_rewrite__frame_delta_past_63__takes_the_extended_form(void **state)
{
    (void)state;
    /* 0 iconst_0; 1 ifeq 62; 4..61 nop; 62 return; a same_frame at 62 */
    uint8_t code[63];
    memset(code, 0, sizeof code);
    code[0] = 0x03;
    code[1] = 0x99;
    code[2] = 0;
    code[3] = 61;
    code[62] = 0xb1;
    static const uint8_t smt[] = {0, 1, 62};
    spec s = {52, code, sizeof code, 1, NULL, 0, {{"StackMapTable", smt, sizeof smt}}, 1};
    rewritten w;
    rewrite(&w, &s, NULL);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 6 + 4 + 6 + 58 + 6 + 1);
    assert_int_equal(m->code[7], 0x99);
    assert_int_equal(be_u16(m->code + 8), 74 - 7);
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want[] = {0, 1, 251, 0, 74};
    expect_bytes(got, len, want, sizeof want);
    release(&w);
}

static void ins_rewrite__handler_frame__range_takes_the_probes_and_frame_moves(void **state)
{
    (void)state;
    /* 0 aconst_null 1 athrow 2 astore_0 3 return; [0, 2) -> 2; the handler's
     * frame: same_locals_1_stack_item Object (the pool's java/lang/Object) */
    static const uint8_t code[] = {0x01, 0xbf, 0x4b, 0xb1};
    static const uint8_t exc[] = {0, 0, 0, 2, 0, 2, 0, 4};
    static const uint8_t smt[] = {0, 1, 64 + 2, 7, 0, 4};
    spec s = {52, code, sizeof code, 1, exc, 1, {{"StackMapTable", smt, sizeof smt}}, 1};
    rewritten w;
    rewrite(&w, &s, NULL);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 16);
    assert_int_equal(m->exc_count, 1);
    static const uint8_t want_exc[] = {0, 0, 0, 8, 0, 8, 0, 4};
    expect_bytes(m->exc, 8, want_exc, sizeof want_exc);
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want[] = {0, 1, 64 + 8, 7, 0, 4};
    expect_bytes(got, len, want, sizeof want);
    release(&w);

    /* 60 nops before: the handler's frame delta passes 63 */
    uint8_t code2[64];
    memset(code2, 0, sizeof code2);
    memcpy(code2 + 60, code, 4);
    static const uint8_t exc2[] = {0, 0, 0, 62, 0, 62, 0, 4};
    static const uint8_t smt2[] = {0, 1, 64 + 62, 7, 0, 4};
    spec s2 = {52, code2, sizeof code2, 1, exc2, 1, {{"StackMapTable", smt2, sizeof smt2}}, 1};
    rewrite(&w, &s2, NULL);
    m = &w.cf.methods[0];
    static const uint8_t want_exc2[] = {0, 0, 0, 68, 0, 68, 0, 4};
    expect_bytes(m->exc, 8, want_exc2, sizeof want_exc2);
    got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want2[] = {0, 1, 247, 0, 68, 7, 0, 4};
    expect_bytes(got, len, want2, sizeof want2);
    release(&w);
}

static void ins_rewrite__uninitialized_types__name_the_new_instruction_after_its_probe(void **state)
{
    (void)state;
    /* new T; dup; iconst_0; ifeq L1; iconst_1; goto L2; L1: iconst_2; L2: pop pop pop return */
    static const uint8_t code[] = {
        0xbb, 0x00, 0x04, 0x59, 0x03,   /* 0 new #4; 3 dup; 4 iconst_0 */
        0x99, 0x00, 0x07,               /* 5 ifeq 12 */
        0x04, 0xa7, 0x00, 0x04,         /* 8 iconst_1; 9 goto 13 */
        0x05,                           /* 12 iconst_2 */
        0x57, 0x57, 0x57, 0xb1          /* 13 pop pop pop return */
    };
    static const uint8_t smt[] = {
        0, 2,
        255, 0, 12, 0, 0, 0, 2, 8, 0, 0, 8, 0, 0,
        255, 0, 0, 0, 0, 0, 3, 8, 0, 0, 8, 0, 0, 1
    };
    spec s = {52, code, sizeof code, 3, NULL, 0, {{"StackMapTable", smt, sizeof smt}}, 1};
    rewritten w;
    rewrite(&w, &s, NULL);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 41);
    assert_int_equal(m->code[6], BC_NEW);
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "StackMapTable", &len);
    static const uint8_t want[] = {
        0, 2,
        255, 0, 24, 0, 0, 0, 2, 8, 0, 6, 8, 0, 6,
        255, 0, 6, 0, 0, 0, 3, 8, 0, 6, 8, 0, 6, 1
    };
    expect_bytes(got, len, want, sizeof want);
    release(&w);

    /* Uninitialized(3) names a dup, not a new: malformed */
    uint8_t bad[sizeof smt];
    memcpy(bad, smt, sizeof smt);
    bad[11] = 3;
    spec sb = {52, code, sizeof code, 3, NULL, 0, {{"StackMapTable", bad, sizeof bad}}, 1};
    size_t n;
    uint8_t *in = build(&sb, &n);
    ins_result r;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed StackMapTable"));
    assert_null(r.bytes);
    free(in);
}

/* ---- widening, too large, refused --------------------------------------- */

/* head (the first instruction(s)), then k times `goto +3`, then return; the
 * head's branch jumps to the return. With frames: a same_frame after every
 * goto (and at `fall`, the head's fall-through, when fall_frame). */
static uint8_t *goto_chain(const uint8_t *head, size_t hlen, uint32_t k, int frames, int fall_frame,
                           uint16_t major, size_t *len)
{
    size_t code_len = hlen + 3 * (size_t)k + 1;
    uint8_t *code = malloc(code_len);
    assert_non_null(code);
    memcpy(code, head, hlen);
    uint32_t branch_at = (uint32_t)hlen - 3;
    uint32_t end = (uint32_t)(hlen + 3 * k);
    code[branch_at + 1] = (uint8_t)((end - branch_at) >> 8);
    code[branch_at + 2] = (uint8_t)(end - branch_at);
    for (uint32_t j = 0; j < k; j++) {
        code[hlen + 3 * j] = 0xa7;
        code[hlen + 3 * j + 1] = 0;
        code[hlen + 3 * j + 2] = 3;
    }
    code[end] = 0xb1;
    buf smt = {0};
    u2(&smt, 0);
    uint32_t n = 0, prev = UINT32_MAX;
    for (uint32_t off = (uint32_t)hlen; frames && off <= end; off += 3) {
        if (off == hlen && !fall_frame)
            continue;
        uint32_t d = prev == UINT32_MAX ? off : off - prev - 1;
        if (d <= 63)
            u1(&smt, d);
        else {
            u1(&smt, 251);
            u2(&smt, d);
        }
        prev = off;
        n++;
    }
    smt.p[0] = (uint8_t)(n >> 8);
    smt.p[1] = (uint8_t)n;
    spec s = {major, code, code_len, 1, NULL, 0, {{0}}, 0};
    if (frames)
        s.attrs[s.nattrs++] = (attr){"StackMapTable", smt.p, smt.len};
    uint8_t *cls = build(&s, len);
    free(smt.p);
    free(code);
    return cls;
}

static void ins_rewrite__goto_out_of_reach__widened_to_goto_w(void **state)
{
    (void)state;
    static const uint8_t head[] = {0xa7, 0, 0};
    const uint32_t k = 4000;    /* 12,003 bytes before, 36,018 after */
    size_t n;
    uint8_t *in = goto_chain(head, sizeof head, k, 0, 0, 49, &n);
    ins_result r;
    classfile cf;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_DONE);
    assert_int_equal(cf_parse(&cf, r.bytes, r.len, err, sizeof err), 0);
    const cf_method *m = &cf.methods[0];
    assert_int_equal(m->code_len, 6 + 5 + 9 * k + 6 + 1);
    assert_int_equal(m->code[6], 0xc8);
    assert_int_equal(be_s32(m->code + 7), (int32_t)(11 + 9 * k - 6));
    /* the short gotos stay short: each jumps over nothing to the next probe */
    assert_int_equal(m->code[11 + 6], 0xa7);
    assert_int_equal(be_u16(m->code + 11 + 7), 3);
    cf_free(&cf);
    ins_free(&r);
    free(in);
}

static void ins_rewrite__conditional_out_of_reach__inverted_over_a_goto_w_when_framed(void **state)
{
    (void)state;
    static const uint8_t head[] = {0x03, 0x99, 0, 0};  /* iconst_0; ifeq END */
    const uint32_t k = 4000;
    size_t n;
    uint8_t *in = goto_chain(head, sizeof head, k, 1, 1, 52, &n);
    ins_result r;
    classfile cf;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_DONE);
    assert_int_equal(cf_parse(&cf, r.bytes, r.len, err, sizeof err), 0);
    const cf_method *m = &cf.methods[0];
    uint32_t end_probe = 15 + 9 * k;
    assert_int_equal(m->code_len, end_probe + 7);
    static const uint8_t want[] = {0x03, 0x9a, 0x00, 0x08, 0xc8};  /* iconst_0; ifne +8; goto_w */
    expect_bytes(m->code + 6, 5, want, sizeof want);
    assert_int_equal(be_s32(m->code + 11), (int32_t)(end_probe - 10));
    assert_int_equal(m->code[15], 0x11);    /* the fall-through's probe, where ifne lands */
    /* frames: at the fall-through's probe (15), then every 9 bytes */
    uint32_t len;
    const uint8_t *smt = code_attr(m, &cf, "StackMapTable", &len);
    assert_int_equal(be_u16(smt), k + 1);
    assert_int_equal(smt[2], 15);
    for (uint32_t j = 1; j <= k; j++)
        assert_int_equal(smt[2 + j], 8);
    assert_int_equal(len, 2 + k + 1);
    /* the new code splits into the same blocks plus one: after the goto_w */
    blk_table t;
    assert_int_equal(blk_analyze(m->code, m->code_len, NULL, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.nblocks, r.methods[0].blocks.nblocks + 1);
    assert_int_equal(t.blocks[1].start, 10);
    blk_free(&t);
    cf_free(&cf);
    ins_free(&r);
    free(in);

    /* no frame after the branch: refused, copied unchanged */
    in = goto_chain(head, sizeof head, k, 1, 0, 52, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_REFUSED);
    assert_non_null(strstr(r.methods[0].why, "conditional branch at offset 1"));
    assert_int_equal(r.ndone, 0);
    assert_int_equal(r.nskipped, 1);
    assert_int_equal(r.methods[0].new_len, r.methods[0].old_len);
    assert_int_equal(cf_parse(&cf, r.bytes, r.len, err, sizeof err), 0);
    classfile orig;
    assert_int_equal(cf_parse(&orig, in, n, err, sizeof err), 0);
    assert_int_equal(cf.methods[0].code_len, orig.methods[0].code_len);
    assert_memory_equal(cf.methods[0].code, orig.methods[0].code, orig.methods[0].code_len);
    assert_int_equal(cf.cp.count, orig.cp.count);   /* no probe emitted: nothing added */
    cf_free(&orig);
    cf_free(&cf);
    ins_free(&r);
    free(in);

    /* a class file before version 50 needs no frames: widened anyway */
    in = goto_chain(head, sizeof head, k, 0, 0, 49, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_DONE);
    ins_free(&r);
    free(in);
}

static void ins_rewrite__code_past_65535__reported_too_large_and_copied(void **state)
{
    (void)state;
    static const uint8_t head[] = {0xa7, 0, 0};
    const uint32_t k = 7300;    /* 21,904 bytes grow to 65,718 */
    size_t n;
    uint8_t *in = goto_chain(head, sizeof head, k, 0, 0, 49, &n);
    ins_result r;
    classfile cf, orig;
    char err[160];
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_TOO_LARGE);
    assert_non_null(strstr(r.methods[0].why, "21904 bytes of code would grow to 65718"));
    assert_int_equal(r.nskipped, 1);
    assert_int_equal(r.methods[0].blocks.nblocks, k + 2);    /* the table is there all the same */
    assert_int_equal(cf_parse(&cf, r.bytes, r.len, err, sizeof err), 0);
    assert_int_equal(cf_parse(&orig, in, n, err, sizeof err), 0);
    assert_int_equal(cf.methods[0].code_len, 21904);
    assert_memory_equal(cf.methods[0].code, orig.methods[0].code, 21904);
    assert_int_equal(cf.methods[0].max_stack, orig.methods[0].max_stack);
    cf_free(&orig);
    cf_free(&cf);
    ins_free(&r);
    free(in);
}

/* Four type annotations on the counted loop's code (JVMS 4.7.20), one of
 * each kind of target, with a type_path and nested element values:
 * a local variable's ranges (i: 4 to 19, n: the whole code), an exception
 * table index, an instanceof at 9 (a block leader), a cast at 6 (the
 * if_icmpge). */
static const uint8_t loop_tann[] = {
    0, 4,
    0x40, 0, 2, 0, 4, 0, 15, 0, 2, 0, 0, 0, 21, 0, 0,  /* localvar_target: (4, 15, 2), (0, 21, 0) */
    1, 3, 0,                                /* type_path: type argument 0 */
    0, 1, 0, 2,                             /* type_index, two pairs */
    0, 5, '[', 0, 2, 'I', 0, 6, '@', 0, 1, 0, 1, 0, 5, 'e', 0, 1, 0, 5,
    0, 6, 's', 0, 7,
    0x42, 0, 0, 0, 0, 1, 0, 0,              /* catch_target 0 */
    0x43, 0, 9, 0, 0, 1, 0, 0,              /* offset_target 9 */
    0x47, 0, 6, 1,                          /* type_argument_target: offset 6, argument 1 */
    2, 0, 0, 2, 0, 0, 1, 0, 1, 0, 5, 'c', 0, 6
};

/* loop_tann with its offsets at s, l (i's range), whole (n's length),
 * io (the instanceof) and co (the cast). */
static void expect_tann(const uint8_t *got, uint32_t len, unsigned st, unsigned l, unsigned whole, unsigned io,
                        unsigned co)
{
    uint8_t want[sizeof loop_tann];
    memcpy(want, loop_tann, sizeof want);
    want[5] = (uint8_t)(st >> 8), want[6] = (uint8_t)st;
    want[7] = (uint8_t)(l >> 8), want[8] = (uint8_t)l;
    want[13] = (uint8_t)(whole >> 8), want[14] = (uint8_t)whole;
    const size_t at_io = 2 + 15 + 3 + 4 + 20 + 5 + 8 + 1, at_co = at_io + 2 + 5 + 1;
    want[at_io] = (uint8_t)(io >> 8), want[at_io + 1] = (uint8_t)io;
    want[at_co] = (uint8_t)(co >> 8), want[at_co + 1] = (uint8_t)co;
    assert_int_equal(loop_tann[at_io - 1], 0x43);
    assert_int_equal(loop_tann[at_co - 1], 0x47);
    expect_bytes(got, len, want, sizeof want);
}

static void ins_rewrite__type_annotations_in_code__ranges_take_the_probes_offsets_name_the_instruction(void **state)
{
    (void)state;
    spec s = loop_spec();
    s.attrs[s.nattrs++] = (attr){"RuntimeVisibleTypeAnnotations", loop_tann, sizeof loop_tann};
    rewritten w;
    rewrite(&w, &s, NULL);
    assert_int_equal(w.r.methods[0].status, INS_METHOD_DONE);
    const cf_method *m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 45);
    uint32_t len;
    const uint8_t *got = code_attr(m, &w.cf, "RuntimeVisibleTypeAnnotations", &len);
    /* as the counted loop's LocalVariableTable: i from the test's probe (10)
     * to the exit's (37), n all 45 bytes; the iload_1 at 9 lies at 27, after
     * its block's probe at 21; the if_icmpge at 18 */
    expect_tann(got, len, 10, 27, 45, 27, 18);
    release(&w);

    /* with branch probes the if_icmpge lies after the branch probe (18 to
     * 27), the block after it from 30 (its probe) and 36 (iload_1), the
     * exit's probe at 46, the code 54 bytes */
    rewrite(&w, &s, &branch_opts_for_map);
    m = &w.cf.methods[0];
    assert_int_equal(m->code_len, 54);
    got = code_attr(m, &w.cf, "RuntimeVisibleTypeAnnotations", &len);
    expect_tann(got, len, 10, 36, 54, 36, 27);
    release(&w);

    /* no annotation: copied */
    static const uint8_t none[] = {0, 0};
    s = loop_spec();
    s.attrs[s.nattrs++] = (attr){"RuntimeVisibleTypeAnnotations", none, sizeof none};
    rewrite(&w, &s, NULL);
    assert_int_equal(w.r.methods[0].status, INS_METHOD_DONE);
    got = code_attr(&w.cf.methods[0], &w.cf, "RuntimeVisibleTypeAnnotations", &len);
    expect_bytes(got, len, none, sizeof none);
    release(&w);
}

/* One offset_target at 4 whose only pair's value is `levels` arrays, each
 * holding the next, around an int. */
static size_t nested_tann(uint8_t *p, unsigned levels)
{
    static const uint8_t head[] = {0, 1, 0x43, 0, 4, 0, 0, 1, 0, 1, 0, 5};
    memcpy(p, head, sizeof head);
    size_t n = sizeof head;
    for (unsigned k = 0; k < levels; k++) {
        p[n++] = '[';
        p[n++] = 0;
        p[n++] = 1;
    }
    p[n++] = 'I';
    p[n++] = 0;
    p[n++] = 6;
    return n;
}

static void ins_rewrite__type_annotations_the_rewriter_cannot_walk__method_refused_unchanged(void **state)
{
    (void)state;
    static const uint8_t class_target[] = {0, 1, 0x00, 0, 0, 0, 1, 0, 0};  /* a class's type parameter */
    static const uint8_t inside[] = {0, 1, 0x43, 0, 7, 0, 0, 1, 0, 0};    /* 7: inside the if_icmpge */
    static const uint8_t range_inside[] = {0, 1, 0x40, 0, 1, 0, 4, 0, 3, 0, 2, 0, 0, 1, 0, 0};  /* ends at 7 */
    static const uint8_t past[] = {0, 1, 0x40, 0, 1, 0, 4, 0, 18, 0, 2, 0, 0, 1, 0, 0};  /* ends at 22 > 21 */
    static const uint8_t cut[] = {0, 1, 0x47, 0, 6};                        /* no type_argument_index */
    static const uint8_t path_cut[] = {0, 1, 0x43, 0, 9, 2, 0, 0};          /* two path steps, one there */
    static const uint8_t trailing[] = {0, 0, 0};
    static const uint8_t bad_tag[] = {0, 1, 0x43, 0, 9, 0, 0, 1, 0, 1, 0, 5, 'X', 0, 6};
    static const uint8_t short_pairs[] = {0, 1, 0x43, 0, 9, 0, 0, 1, 0, 2, 0, 5, 'I', 0, 6};
    uint8_t deep[12 + 3 * 64 + 3];
    size_t deep_len = nested_tann(deep, 64);
    const struct {
        const uint8_t *body;
        size_t len;
    } cases[] = {
        {class_target, sizeof class_target}, {inside, sizeof inside}, {range_inside, sizeof range_inside},
        {past, sizeof past}, {cut, sizeof cut}, {path_cut, sizeof path_cut}, {trailing, sizeof trailing},
        {bad_tag, sizeof bad_tag}, {short_pairs, sizeof short_pairs}, {deep, deep_len},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        spec s = loop_spec();
        s.attrs[s.nattrs++] = (attr){"RuntimeVisibleTypeAnnotations", cases[k].body, cases[k].len};
        rewritten w;
        rewrite(&w, &s, NULL);
        if (w.r.methods[0].status != INS_METHOD_REFUSED)
            fail_msg("case %zu: status %d, not refused", k, w.r.methods[0].status);
        assert_non_null(strstr(w.r.methods[0].why, "RuntimeVisibleTypeAnnotations is not a list of type "
                                                   "annotations on code"));
        expect_bytes(w.cf.methods[0].code, w.cf.methods[0].code_len, loop_code, sizeof loop_code);
        uint32_t len;
        const uint8_t *got = code_attr(&w.cf.methods[0], &w.cf, "RuntimeVisibleTypeAnnotations", &len);
        expect_bytes(got, len, cases[k].body, cases[k].len);
        assert_int_equal(w.r.next_id, 7);   /* no ids used */
        release(&w);
    }
    /* 63 levels of arrays are walked (TA_MAX_DEPTH is 64): the instruction
     * at 4 (iload_2, the loop test's leader) lies at 16 */
    uint8_t ok[12 + 3 * 63 + 3];
    size_t ok_len = nested_tann(ok, 63);
    spec s = loop_spec();
    s.attrs[s.nattrs++] = (attr){"RuntimeVisibleTypeAnnotations", ok, ok_len};
    rewritten w;
    rewrite(&w, &s, NULL);
    assert_int_equal(w.r.methods[0].status, INS_METHOD_DONE);
    uint32_t len;
    const uint8_t *got = code_attr(&w.cf.methods[0], &w.cf, "RuntimeVisibleTypeAnnotations", &len);
    ok[4] = 16;
    expect_bytes(got, len, ok, ok_len);
    release(&w);
}

/* ---- refusals of the whole class --------------------------------------- */

static void ins_rewrite__malformed_or_forbidden_input__fails_with_a_message(void **state)
{
    (void)state;
    spec s = loop_spec();
    size_t n;
    uint8_t *in = build(&s, &n);
    ins_result r;
    char err[256];

    ins_options self = {.probe_class = "T", .probe_method = "block"};
    assert_int_equal(ins_rewrite(in, n, &self, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "probe class"));
    assert_int_equal(ins_rewrite(in, n, NULL, &r, err, sizeof err), -1);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, NULL, err, sizeof err), -1);

    /* every truncation fails (cf_parse), without reading past the end */
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *p = malloc(cut ? cut : 1);
        assert_non_null(p);
        memcpy(p, in, cut);
        assert_int_equal(ins_rewrite(p, cut, &probe_opts, &r, err, sizeof err), -1);
        assert_true(err[0] != '\0');
        assert_null(r.bytes);
        free(p);
    }
    free(in);

    /* a reserved frame type */
    static const uint8_t bad_smt[] = {0, 1, 200};
    spec b1 = {52, loop_code, sizeof loop_code, 2, NULL, 0, {{"StackMapTable", bad_smt, sizeof bad_smt}}, 1};
    in = build(&b1, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed StackMapTable"));
    free(in);
    /* a frame inside an instruction (offset 7, inside if_icmpge) */
    static const uint8_t mid_smt[] = {0, 1, 7};
    spec b2 = {52, loop_code, sizeof loop_code, 2, NULL, 0, {{"StackMapTable", mid_smt, sizeof mid_smt}}, 1};
    in = build(&b2, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    free(in);
    /* a line number inside an instruction */
    static const uint8_t bad_lnt[] = {0, 1, 0, 7, 0, 1};
    spec b3 = {52, loop_code, sizeof loop_code, 2, NULL, 0, {{"LineNumberTable", bad_lnt, sizeof bad_lnt}}, 1};
    in = build(&b3, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed LineNumberTable"));
    free(in);
    /* a local variable range past the code */
    static const uint8_t bad_lvt[] = {0, 1, 0, 4, 0, 40, 0, 5, 0, 6, 0, 2};
    spec b4 = {52, loop_code, sizeof loop_code, 2, NULL, 0, {{"LocalVariableTable", bad_lvt, sizeof bad_lvt}}, 1};
    in = build(&b4, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "malformed LocalVariableTable"));
    free(in);
    /* a branch into an instruction: blk_analyze's error, named with the method */
    uint8_t code[sizeof loop_code];
    memcpy(code, loop_code, sizeof code);
    code[8] = 0x0c;     /* if_icmpge 18: inside the goto */
    spec b5 = {52, code, sizeof code, 2, NULL, 0, {{0}}, 0};
    in = build(&b5, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "method m()V"));
    assert_non_null(strstr(err, "inside an instruction"));
    free(in);
    /* max_stack at its limit: refused, not failed */
    spec b6 = {52, loop_code, sizeof loop_code, 65535, NULL, 0, {{0}}, 0};
    in = build(&b6, &n);
    assert_int_equal(ins_rewrite(in, n, &probe_opts, &r, err, sizeof err), 0);
    assert_int_equal(r.methods[0].status, INS_METHOD_REFUSED);
    assert_non_null(strstr(r.methods[0].why, "max_stack"));
    ins_free(&r);
    free(in);
}

/* ---- real javac output ------------------------------------------------- */

static uint8_t *read_fixture(const char *rel, size_t *len)
{
    const char *build_dir = getenv("PSF_BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/fixtures/unit/%s", build_dir && *build_dir ? build_dir : "build", rel);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open fixture %s (run through make, which compiles it)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    assert_true(n > 0);
    uint8_t *p = malloc((size_t)n);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

static const char *const fixtures[] = {
    "psf/fixtures/Constants.class", "psf/fixtures/Natives.class", "psf/fixtures/Shape.class",
    "psf/fixtures/Switches.class", "psf/fixtures/Wide.class", "psf/fixtures/TypeAnnotated.class",
    "module-info.class"
};
/* Whether each fixture's own pool holds the Utf8 "(I)V", from its source:
 * Constants calls new Inner(int), Constants$Inner.<init>:(I)V; no other
 * fixture names a method taking one int and returning void. */
static const int fixture_has_iv[] = {1, 0, 0, 0, 0, 0, 0};

/* The index of the Utf8 s among the first `count` entries of cp, or 0. */
static uint16_t utf8_index(const cpool *cp, uint16_t count, const char *s)
{
    for (uint16_t i = 1; i < count; i++) {
        cp_str u;
        if (cp_tag(cp, i) == CP_UTF8 && cp_utf8(cp, i, &u) == 0 && u.len == strlen(s) &&
            memcmp(u.ptr, s, u.len) == 0)
            return i;
    }
    return 0;
}

/* The probe at new offset pc (sipush/ldc_w, invokestatic of the probe);
 * returns its id. */
static uint32_t probe_at(const classfile *cf, const uint8_t *code, uint32_t code_len, uint32_t pc, uint16_t ref)
{
    assert_true(pc + INS_PROBE_LEN <= code_len);
    uint32_t id;
    if (code[pc] == 0x11) {
        id = be_u16(code + pc + 1);
    } else {
        int32_t v;
        assert_int_equal(code[pc], BC_LDC_W);
        assert_int_equal(cp_integer(&cf->cp, be_u16(code + pc + 1), &v), 0);
        id = (uint32_t)v;
    }
    assert_int_equal(code[pc + 3], BC_INVOKESTATIC);
    assert_int_equal(be_u16(code + pc + 4), ref);
    return id;
}

/* A type annotation attribute of a javac fixture's Code, old (o) and
 * rewritten (m), relocated (tests/tools/tann_check.h). Returns how many
 * offsets it checked. */
static uint32_t expect_tann_relocated(const uint8_t *ob, uint32_t olen, const uint8_t *nb, uint32_t nlen,
                                      const cf_method *o, const cf_method *m, const ins_method *im)
{
    uint32_t checked = 0;
    assert_int_equal(nlen, olen);
    assert_int_equal(tann_check(ob, nb, olen, im, o, m, &checked), 0);
    return checked;
}

static void ins_rewrite__javac_fixtures__original_code_between_the_probes(void **state)
{
    (void)state;
    uint32_t id = 40000;    /* past 32767: ldc_w probes too */
    uint32_t tann_offsets = 0;
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        size_t n;
        uint8_t *in = read_fixture(fixtures[f], &n);
        ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .first_id = id};
        ins_result r;
        classfile cf, orig;
        char err[256];
        if (ins_rewrite(in, n, &opt, &r, err, sizeof err))
            fail_msg("%s: %s", fixtures[f], err);
        assert_int_equal(r.nskipped, 0);
        assert_int_equal(cf_parse(&cf, r.bytes, r.len, err, sizeof err), 0);
        assert_int_equal(cf_parse(&orig, in, n, err, sizeof err), 0);
        assert_int_equal(cf.method_count, orig.method_count);
        /* the first probe is block 0's of the first method with code, its
         * id past 32767: orig.cp.count the Integer of its id, then
         * "psf/Probe", its Class, "block", "(I)V" unless the fixture's
         * pool has it, NameAndType, the Methodref */
        uint16_t iv = utf8_index(&orig.cp, orig.cp.count, "(I)V");
        assert_int_equal(iv != 0, fixture_has_iv[f]);
        uint16_t ref = (uint16_t)(orig.cp.count + (fixture_has_iv[f] ? 5 : 6));
        int32_t first = 0;
        if (orig.method_count == 0) {   /* module-info: no probe, nothing added */
            assert_int_equal(cf.cp.count, orig.cp.count);
        } else {
            cp_str owner, name, desc;
            assert_int_equal(cp_integer(&cf.cp, orig.cp.count, &first), 0);
            assert_int_equal(first, (int32_t)id);
            assert_int_equal(cp_member_ref(&cf.cp, ref, &owner, &name, &desc), 0);
            assert_int_equal(name.len, 5);
            assert_memory_equal(name.ptr, "block", 5);
            if (fixture_has_iv[f]) {    /* the fixture's own "(I)V" */
                cp_str u;
                assert_int_equal(cp_utf8(&cf.cp, iv, &u), 0);
                assert_ptr_equal(desc.ptr, u.ptr);
            }
        }
        uint32_t blocks = 0;
        for (uint32_t k = 0; k < cf.method_count; k++) {
            const cf_method *m = &cf.methods[k], *o = &orig.methods[k];
            const ins_method *im = &r.methods[k];
            if (o->code == NULL) {
                assert_int_equal(im->status, INS_METHOD_NO_CODE);
                assert_null(m->code);
                continue;
            }
            assert_int_equal(im->status, INS_METHOD_DONE);
            assert_int_equal(m->max_stack, o->max_stack + 1);
            assert_int_equal(m->exc_count, o->exc_count);
            assert_int_equal(m->code_attr_count, o->code_attr_count);
            /* the new code: a probe with the right id at each block start,
             * then the original instructions, opcode for opcode */
            blk_table t;
            assert_int_equal(blk_analyze(m->code, m->code_len, m->exc, m->exc_count, &t, err, sizeof err), 0);
            assert_int_equal(t.nblocks, im->blocks.nblocks);
            uint32_t npc = 0, opc = 0, b = 0;
            while (opc < o->code_len) {
                int in_probe;
                if (im->blocks.mark[opc] & BLK_MARK_LEADER) {
                    assert_int_equal(t.blocks[b].start, npc);
                    assert_int_equal(probe_at(&cf, m->code, m->code_len, npc, ref), im->first_id + b);
                    assert_int_equal(ins_original_offset(im, npc, &in_probe), opc);
                    assert_int_equal(in_probe, 1);
                    npc += INS_PROBE_LEN;
                    b++;
                }
                assert_int_equal(ins_original_offset(im, npc, &in_probe), opc);
                assert_int_equal(in_probe, 0);
                assert_int_equal(m->code[npc], o->code[opc]);
                uint32_t ol = bc_insn_length(o->code, o->code_len, opc);
                uint32_t nl = bc_insn_length(m->code, m->code_len, npc);
                if (o->code[opc] != BC_TABLESWITCH && o->code[opc] != BC_LOOKUPSWITCH)
                    assert_int_equal(nl, ol);
                if (!(bc_flags(o->code[opc]) & BCF_BRANCH))
                    assert_memory_equal(m->code + npc, o->code + opc, ol);
                opc += ol;
                npc += nl;
            }
            assert_int_equal(npc, m->code_len);
            assert_int_equal(b, im->blocks.nblocks);
            /* type annotations on code (TypeAnnotated): relocated */
            const uint8_t *oa = o->code_attrs, *na = m->code_attrs;
            for (uint32_t a = 0; a < o->code_attr_count; a++) {
                cp_str name;
                assert_int_equal(cp_utf8(&orig.cp, be_u16(oa), &name), 0);
                if ((name.len == 29 && memcmp(name.ptr, "RuntimeVisibleTypeAnnotations", 29) == 0) ||
                    (name.len == 31 && memcmp(name.ptr, "RuntimeInvisibleTypeAnnotations", 31) == 0)) {
                    assert_int_equal(be_u16(na), be_u16(oa));
                    tann_offsets += expect_tann_relocated(oa + 6, be_u32(oa + 2), na + 6, be_u32(na + 2), o, m, im);
                }
                oa += 6 + be_u32(oa + 2);
                na += 6 + be_u32(na + 2);
            }
            assert_int_equal(im->new_len, m->code_len);
            blocks += b;
            blk_free(&t);
        }
        assert_int_equal(r.next_id, id + blocks);
        id = r.next_id;
        cf_free(&orig);
        cf_free(&cf);
        ins_free(&r);
        free(in);
    }
    assert_true(id > 40000 + 50);
    /* TypeAnnotated.run (javap -v): 6 instruction offsets (the cast,
     * instanceof, new, the constructor reference, the type argument, the
     * method reference) and 5 ranges of 2 offsets (s, i, l, r, make) */
    assert_int_equal(tann_offsets, 6 + 2 * 5);
}

/* Flip each byte of a real class: the rewriter fails or gives a class that
 * parses and whose instrumented code decodes; never reads out of bounds. */
static void ins_rewrite__every_byte_flipped__fails_cleanly_or_stays_valid(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = read_fixture("psf/fixtures/Switches.class", &n);
    uint32_t ok = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = malloc(n);
        assert_non_null(p);
        memcpy(p, in, n);
        p[i] ^= 0xff;
        ins_result r;
        classfile cf;
        char err[256];
        if (ins_rewrite(p, n, &probe_opts, &r, err, sizeof err) == 0) {
            ok++;
            if (cf_parse(&cf, r.bytes, r.len, err, sizeof err))
                fail_msg("flip at %zu: output does not parse: %s", i, err);
            for (uint32_t k = 0; k < cf.method_count; k++) {
                blk_table t;
                if (r.methods[k].status != INS_METHOD_DONE)
                    continue;
                if (blk_analyze(cf.methods[k].code, cf.methods[k].code_len, cf.methods[k].exc,
                                cf.methods[k].exc_count, &t, err, sizeof err))
                    fail_msg("flip at %zu: method %u does not decode: %s", i, k, err);
                blk_free(&t);
            }
            cf_free(&cf);
            ins_free(&r);
        } else {
            assert_true(err[0] != '\0');
        }
        free(p);
    }
    assert_true(ok > 0);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ins_rewrite__counted_loop__probes_lead_each_block_and_branches_follow),
        cmocka_unit_test(ins_original_offset__counted_loop__maps_new_offsets_and_probes_back),
        cmocka_unit_test(ins_rewrite__ids_past_32767__pushed_with_ldc_w_of_new_integers),
        cmocka_unit_test(ins_rewrite__branch_probes__see_the_operands_before_each_conditional),
        cmocka_unit_test(ins_rewrite__icmp_as_if__if_icmp_calls_the_if_probe_on_the_sign),
        cmocka_unit_test(ins_rewrite__icmp_as_if__names_in_the_pool_and_one_branch_descriptor),
        cmocka_unit_test(ins_rewrite__null_as_int__ifnull_calls_the_if_probe_on_instanceof_object),
        cmocka_unit_test(ins_rewrite__entry_probe__runs_on_calls_and_loops_to_offset_0_skip_it),
        cmocka_unit_test(ins_rewrite__exit_probe__precedes_each_return_of_chosen_methods_only),
        cmocka_unit_test(ins_rewrite__root_probes__the_filter_chooses_which_pair_a_method_gets),
        cmocka_unit_test(ins_rewrite__root_exit_not__one_methodref_for_the_root_pair),
        cmocka_unit_test(ins_rewrite__root_via_entry_block__root_probes_add_no_pool_entry),
        cmocka_unit_test(ins_rewrite__other_entry_probe__every_method_the_filter_leaves_gets_one),
        cmocka_unit_test(ins_rewrite__merged_entry_probe__replaces_both_probes_unless_a_jump_lands_on_offset_0),
        cmocka_unit_test(ins_rewrite__array_probes__follow_each_array_instruction_with_its_sites),
        cmocka_unit_test(ins_rewrite__a_pool_naming_the_probe_class_is_refused),
        cmocka_unit_test(ins_rewrite__copy_probes__around_each_system_arraycopy),
        cmocka_unit_test(ins_fast_options__the_probes_by_loader_and_program),
        cmocka_unit_test(ins_rewrite__made_probe__follows_an_array_clone_with_its_site),
        cmocka_unit_test(ins_rewrite__made_probe__after_multi_new_array_walks_the_levels),
        cmocka_unit_test(ins_rewrite__call_probes__around_each_invoke_with_its_call_site),
        cmocka_unit_test(ins_rewrite__call_probes__sites_past_32767_share_one_integer),
        cmocka_unit_test(ins_rewrite__new_probe__follows_each_new_with_a_call_site),
        cmocka_unit_test(ins_rewrite__consts_and_fold__lengths_segments_and_outcomes_are_pushed),
        cmocka_unit_test(ins_rewrite__fold__a_successor_with_another_way_in_keeps_the_branch_probe),
        cmocka_unit_test(ins_rewrite__consts__lengths_too_long_to_pack_push_0),
        cmocka_unit_test(ins_rewrite__consts__a_goto_to_itself_pushes_0),
        cmocka_unit_test(ins_rewrite__shared_names__probes_of_one_name_and_descriptor_share_a_methodref),
        cmocka_unit_test(ins_rewrite_parsed__a_class_parsed_by_the_caller__same_result),
        cmocka_unit_test(ins_rewrite__consts__call_return_and_new_probes_share_q),
        cmocka_unit_test(ins_rewrite__calls_not__call_return_and_new_probes_add_no_pool_entry),
        cmocka_unit_test(ins_rewrite__reserve__the_caller_numbers_ids_sites_and_calls),
        cmocka_unit_test(ins_rewrite__frame_delta_past_63__takes_the_extended_form),
        cmocka_unit_test(ins_rewrite__handler_frame__range_takes_the_probes_and_frame_moves),
        cmocka_unit_test(ins_rewrite__uninitialized_types__name_the_new_instruction_after_its_probe),
        cmocka_unit_test(ins_rewrite__goto_out_of_reach__widened_to_goto_w),
        cmocka_unit_test(ins_rewrite__conditional_out_of_reach__inverted_over_a_goto_w_when_framed),
        cmocka_unit_test(ins_rewrite__code_past_65535__reported_too_large_and_copied),
        cmocka_unit_test(ins_rewrite__type_annotations_in_code__ranges_take_the_probes_offsets_name_the_instruction),
        cmocka_unit_test(ins_rewrite__type_annotations_the_rewriter_cannot_walk__method_refused_unchanged),
        cmocka_unit_test(ins_rewrite__malformed_or_forbidden_input__fails_with_a_message),
        cmocka_unit_test(ins_rewrite__javac_fixtures__original_code_between_the_probes),
        cmocka_unit_test(ins_rewrite__every_byte_flipped__fails_cleanly_or_stays_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
