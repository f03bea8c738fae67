/*
 * test_scorer_score.c - weighting counts with a table (scorer/score.c):
 * hand-computed scores, missing keys, rounding and overflow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bytecode.h"
#include "costs.h"
#include "profile_read.h"
#include "score.h"
#include "xmlload.h"

/* A profile built in memory: status ok, counts set by the helpers below.
 * Strings point at literals; nothing here is freed with profile_free. */
typedef struct fake {
    profile p;
    prof_dep deps[N_BUCKETS][16];
    prof_method methods[4];
    prof_mop mops[4][8];
} fake;

static void fake_init(fake *f)
{
    memset(f, 0, sizeof *f);
    f->p.path = (char *)"p.xml";
    f->p.status = ST_OK;
    f->p.status_word = (char *)"ok";
    f->p.deps[0] = f->deps[0];
    f->p.deps[1] = f->deps[1];
    f->p.methods = f->methods;
}

static void op(fake *f, int bucket, const char *mn, uint64_t n)
{
    int o = bc_opcode(mn);
    assert_true(o >= 0);
    f->p.opcodes[bucket][o] = n;
}

static void dep(fake *f, int bucket, dep_kind kind, const char *key, uint64_t count,
                uint64_t elements, int native)
{
    prof_dep *d = &f->deps[bucket][f->p.n_deps[bucket]++];
    d->kind = kind;
    d->key = (char *)key;
    d->count = count;
    d->elements = elements;
    d->native = native;
}

static void method(fake *f, const char *name, const char *mn, uint64_t work, uint64_t overhead)
{
    size_t i;
    for (i = 0; i < f->p.n_methods; i++)
        if (strcmp(f->methods[i].name, name) == 0)
            break;
    if (i == f->p.n_methods) {
        f->p.n_methods++;
        f->methods[i].name = (char *)name;
        f->methods[i].ops = f->mops[i];
    }
    prof_mop *m = &f->methods[i].ops[f->methods[i].n_ops++];
    m->op = (uint8_t)bc_opcode(mn);
    m->work = work;
    m->overhead = overhead;
}

#define CALIBRATED \
    "<costs unit=\"cycles\" calibrated=\"true\" cpu_model=\"X\" tsc_hz=\"1000\"" \
    " jdk_version=\"17\" jvm_flags=\"\" date=\"2025-11-22\" fit_r2=\"1\" isolated_core=\"true\">\n"

static void table(cost_table *t, const char *xml)
{
    psf_err e;
    if (costs_load_memory(t, "t.xml", (const unsigned char *)xml, strlen(xml), &e) != 0)
        fail_msg("table: %s", e.msg);
}

static void scored(const fake *f, const cost_table *t, int with_overhead, score_result *r)
{
    psf_err e;
    if (score_profile(&f->p, t, with_overhead, r, &e) != 0)
        fail_msg("score: %s", e.msg);
}

static const score_term *term(const score_result *r, const char *key)
{
    for (size_t i = 0; i < r->n_terms; i++)
        if (strcmp(r->terms[i].key, key) == 0)
            return &r->terms[i];
    return NULL;
}

/* <calls close> at the table's <call kind="close"> price, on top of the
 * opcodes; the overhead bucket's only with overhead; no price, no term. */
static void score__call_closeness__priced_per_unit(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "invokestatic", 10);  /* 10 x 2 = 20 */
    f.p.calls[BUCKET_WORK][PROF_CALL_ENTRIES] = 11;
    f.p.calls[BUCKET_WORK][PROF_CALL_CLOSE] = 883;      /* x 0.25 = 220.75 */
    f.p.calls[BUCKET_OVERHEAD][PROF_CALL_ENTRIES] = 3;
    f.p.calls[BUCKET_OVERHEAD][PROF_CALL_CLOSE] = 10;   /* x 0.25 = 2.5 */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/>\n<opcode name=\"invokestatic\" cost=\"2\"/>\n"
          "<call kind=\"close\" cost=\"0.25\"/>\n</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 241);                 /* 240.75 rounded half up */
    const score_term *c = term(&r, "call:close");
    assert_non_null(c);
    assert_true(c->count == 883 && c->kind == TERM_CALL && !c->missing);
    assert_false(r.approximate);
    score_free(&r);
    scored(&f, &t, 1, &r);
    assert_true(r.score == 243);                 /* 20 + 893 x 0.25 = 243.25 */
    score_free(&r);
    costs_free(&t);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/>\n<opcode name=\"invokestatic\" cost=\"2\"/>\n</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 20);
    assert_null(term(&r, "call:close"));
    score_free(&r);
    costs_free(&t);
}

static void score__builtin_table__work_bytecode_count_exact(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "iadd", 30);
    op(&f, BUCKET_WORK, "nop", 12);
    op(&f, BUCKET_OVERHEAD, "nop", 1000);
    dep(&f, BUCKET_WORK, DEP_ARRAY, "int", 3, 99, 0);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "java.lang.Math.sin(D)D", 2, 0, 1);
    costs_builtin(&t);
    scored(&f, &t, 0, &r);
    assert_true(r.score == 42);
    assert_false(r.approximate);
    assert_false(r.uncalibrated_table);
    assert_int_equal(r.n_missing, 0);
    assert_null(term(&r, "array:int"));
    score_free(&r);
    scored(&f, &t, 1, &r);
    assert_true(r.score == 1042);
    score_free(&r);
    costs_free(&t);
}

static void score__hand_computed__exact(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "iadd", 30);          /* 30 x 1.5  = 45 */
    op(&f, BUCKET_WORK, "newarray", 4);       /*  4 x 0.25 =  1 */
    dep(&f, BUCKET_WORK, DEP_ARRAY, "int", 4, 100, 0);   /* 4 x 8 + 100 x 0.5 = 82 */
    dep(&f, BUCKET_WORK, DEP_NEW, "java.lang.StringBuilder", 4, 0, 0);  /* 4 x 6 = 24 */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/>\n"
          "<opcode name=\"iadd\" cost=\"1.5\"/><opcode name=\"newarray\" cost=\"0.25\"/>\n"
          "<array elem=\"int\" cost=\"8\" cost_per_element=\"0.5\"/>\n"
          "<new class=\"java.lang.StringBuilder\" cost=\"6\"/>\n"
          "</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 152);
    assert_true(r.total == 152000000);
    assert_true(r.opcode_total == 46000000);
    assert_true(r.dep_total == 106000000);
    assert_false(r.approximate);
    assert_true(term(&r, "array:int")->contribution == 82000000);
    assert_true(term(&r, "opcode:iadd")->cost == 1500000);
    score_free(&r);
    costs_free(&t);
}

static void score__missing_opcode__default_and_approximate(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "iadd", 10);
    op(&f, BUCKET_WORK, "jsr", 2);
    op(&f, BUCKET_OVERHEAD, "ret", 5);      /* overhead: not scored, not missing */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/><opcode name=\"iadd\" cost=\"1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 10 + 2 * 7);
    assert_true(r.approximate);
    assert_false(r.uncalibrated_table);
    assert_int_equal(r.n_missing, 1);
    assert_string_equal(r.missing[0], "opcode:jsr");
    assert_true(term(&r, "opcode:jsr")->missing);
    score_free(&r);

    scored(&f, &t, 1, &r);                   /* now ret counts, and is missing too */
    assert_true(r.score == 10 + 2 * 7 + 5 * 7);
    assert_int_equal(r.n_missing, 2);
    assert_string_equal(r.missing[0], "opcode:jsr");
    assert_string_equal(r.missing[1], "opcode:ret");
    score_free(&r);
    costs_free(&t);
}

static void score__arrays__specific_then_reference_then_missing(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    const score_term *x;
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_ARRAY, "int", 1, 10, 0);               /* specific: 2 + 10 x 1 = 12 */
    dep(&f, BUCKET_WORK, DEP_ARRAY, "java.lang.String", 2, 10, 0);  /* reference: 2 x 3 + 10 x 0.5 = 11 */
    dep(&f, BUCKET_WORK, DEP_ARRAY, "int[]", 1, 4, 0);              /* reference: 3 + 2 = 5 */
    dep(&f, BUCKET_WORK, DEP_ARRAY, "demo.Point", 1, 4, 0);         /* its own entry: 100 + 0 */
    dep(&f, BUCKET_WORK, DEP_ARRAY, "long", 3, 1000, 0);            /* primitive, no entry: missing, 3 x 7 */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"7\"/>\n"
          "<array elem=\"int\" cost=\"2\" cost_per_element=\"1\"/>\n"
          "<array elem=\"reference\" cost=\"3\" cost_per_element=\"0.5\"/>\n"
          "<array elem=\"demo.Point\" cost=\"100\" cost_per_element=\"0\"/>\n"
          "</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 12 + 11 + 5 + 100 + 21);
    assert_int_equal(r.n_missing, 1);
    assert_string_equal(r.missing[0], "array:long");
    x = term(&r, "array:long");
    assert_true(x->cost == 7000000 && x->per_element == 0 && x->elements == 1000);
    assert_true(term(&r, "array:int[]")->cost == 3000000);
    score_free(&r);
    costs_free(&t);
}

static void score__primitive_array__never_priced_as_reference(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_ARRAY, "byte", 1, 1, 0);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<array elem=\"reference\" cost=\"3\" cost_per_element=\"0.5\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_int_equal(r.n_missing, 1);
    assert_string_equal(r.missing[0], "array:byte");
    assert_true(r.score == 1);
    score_free(&r);
    costs_free(&t);
}

static void score__invokes_and_news__only_native_can_be_missing(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "demo.A.f()V", 100, 0, 0);                 /* unlisted, bytecode: 0 */
    dep(&f, BUCKET_WORK, DEP_INVOKE, "java.lang.Object.hashCode()I", 3, 0, 1);  /* unlisted native: missing */
    dep(&f, BUCKET_WORK, DEP_INVOKE, "java.lang.Math.sin(D)D", 2, 0, 1);        /* listed: 2 x 30 */
    dep(&f, BUCKET_WORK, DEP_NEW, "demo.Big", 50, 0, 0);                        /* unlisted new: 0 */
    dep(&f, BUCKET_WORK, DEP_NEW, "java.lang.StringBuilder", 2, 0, 0);          /* listed: 2 x 4 */
    dep(&f, BUCKET_WORK, DEP_INDY, "run()Ljava/lang/Runnable;", 9, 0, 0);       /* informational */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"5\"/>\n"
          "<invoke method=\"java.lang.Math.sin(D)D\" cost=\"30\"/>\n"
          "<new class=\"java.lang.StringBuilder\" cost=\"4\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 3 * 5 + 60 + 8);
    assert_int_equal(r.n_missing, 1);
    assert_string_equal(r.missing[0], "invoke:java.lang.Object.hashCode()I");
    assert_null(term(&r, "invoke:demo.A.f()V"));
    assert_null(term(&r, "new:demo.Big"));
    assert_null(term(&r, "invokedynamic:run()Ljava/lang/Runnable;"));
    score_free(&r);
    costs_free(&t);
}

static void score__invoke_elements__priced_per_element(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    const char *copy = "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V";
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_INVOKE, copy, 3, 1000, 1);   /* 3 x 50 + 1000 x 0.25 = 400 */
    dep(&f, BUCKET_WORK, DEP_INVOKE, "java.lang.Math.sin(D)D", 2, 0, 1);  /* 2 x 30, no per-element price */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"5\"/>\n"
          "<invoke method=\"java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V\""
          " cost=\"50\" cost_per_element=\"0.25\"/>\n"
          "<invoke method=\"java.lang.Math.sin(D)D\" cost=\"30\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 460);
    assert_false(r.approximate);
    score_free(&r);
    costs_free(&t);

    /* Unpriced: the default per call, nothing per element. */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"5\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 3 * 5 + 2 * 5);
    assert_int_equal(r.n_missing, 2);
    score_free(&r);
    costs_free(&t);
}

/* A clone of a String[] or an int[][] (keys naming the array class) is
 * priced as Object[]'s when the table has no entry of its own; a String[]
 * clone with its own entry keeps it; a primitive array's clone never falls
 * back, nor does a method named clone on a class. */
static void score__ref_array_clone__priced_as_object_array(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "[Ljava.lang.String;.clone()Ljava/lang/Object;", 2, 10, 1);  /* 2 x 40 + 10 x 0.5 = 85 */
    dep(&f, BUCKET_WORK, DEP_INVOKE, "[[I.clone()Ljava/lang/Object;", 1, 4, 1);                    /* 40 + 4 x 0.5 = 42 */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"7\"/>\n"
          "<invoke method=\"[Ljava.lang.Object;.clone()Ljava/lang/Object;\" cost=\"40\" cost_per_element=\"0.5\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 85 + 42);
    assert_false(r.approximate);
    score_free(&r);
    costs_free(&t);

    /* its own entry first */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"7\"/>\n"
          "<invoke method=\"[Ljava.lang.Object;.clone()Ljava/lang/Object;\" cost=\"40\" cost_per_element=\"0.5\"/>\n"
          "<invoke method=\"[Ljava.lang.String;.clone()Ljava/lang/Object;\" cost=\"10\" cost_per_element=\"1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 2 * 10 + 10 * 1 + 42);
    score_free(&r);
    costs_free(&t);

    /* a primitive array's clone and a class's clone method: no fallback */
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "[J.clone()Ljava/lang/Object;", 1, 4, 1);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "pkg.Lclone.clone()Ljava/lang/Object;", 1, 0, 1);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"7\"/>\n"
          "<invoke method=\"[Ljava.lang.Object;.clone()Ljava/lang/Object;\" cost=\"40\" cost_per_element=\"0.5\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 7 + 7);
    assert_int_equal(r.n_missing, 2);
    score_free(&r);
    costs_free(&t);
}

/* A native whose work grows with its input (CRC32, Deflater: agent/runtime/bulk.c)
 * priced per call only is never free per element: missing, approximate. */
static void score__invoke_elements_without_element_price__missing(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    const char *crc = "java.util.zip.CRC32.updateBytes0(I[BII)I";
    (void)state;
    fake_init(&f);
    dep(&f, BUCKET_WORK, DEP_INVOKE, crc, 2, 100000, 1);
    dep(&f, BUCKET_WORK, DEP_INVOKE, "demo.A.bytes([B)V", 1, 10, 0); /* bytecode callee that allocated: still elements */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"5\"/>\n"
          "<invoke method=\"java.util.zip.CRC32.updateBytes0(I[BII)I\" cost=\"40\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.approximate);
    assert_int_equal(r.n_missing, 2);
    assert_string_equal(r.missing[0], "invoke:demo.A.bytes([B)V");
    assert_string_equal(r.missing[1], "invoke:java.util.zip.CRC32.updateBytes0(I[BII)I");
    assert_true(r.score == 2 * 40 + 5);
    score_free(&r);
    costs_free(&t);

    /* priced per element: exact */
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"5\"/>\n"
          "<invoke method=\"java.util.zip.CRC32.updateBytes0(I[BII)I\" cost=\"40\" cost_per_element=\"0.5\"/>\n"
          "<invoke method=\"demo.A.bytes([B)V\" cost=\"0\" cost_per_element=\"0\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_false(r.approximate);
    assert_int_equal(r.n_missing, 0);
    assert_true(r.score == 2 * 40 + 50000);
    score_free(&r);
    costs_free(&t);
}

static void score__uncalibrated_table__approximate_without_missing_keys(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "nop", 3);
    table(&t, "<?xml version=\"1.0\"?>\n<costs unit=\"bytecodes\" calibrated=\"false\">"
          "<default cost=\"1\"/><opcode name=\"nop\" cost=\"1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 3);
    assert_true(r.approximate);
    assert_true(r.uncalibrated_table);
    assert_int_equal(r.n_missing, 0);
    score_free(&r);
    costs_free(&t);
}

static void score__with_overhead__same_key_merged(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "nop", 1);
    op(&f, BUCKET_OVERHEAD, "nop", 2);
    dep(&f, BUCKET_WORK, DEP_ARRAY, "int", 1, 10, 0);
    dep(&f, BUCKET_OVERHEAD, DEP_ARRAY, "int", 2, 20, 0);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"nop\" cost=\"1\"/><array elem=\"int\" cost=\"1\" cost_per_element=\"1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 1 + 11);
    score_free(&r);
    scored(&f, &t, 1, &r);
    assert_true(r.score == 3 + 33);
    assert_true(term(&r, "array:int")->count == 3 && term(&r, "array:int")->elements == 30);
    assert_true(term(&r, "opcode:nop")->count == 3);
    score_free(&r);
    costs_free(&t);
}

static void score__half_unit__rounded_up_once(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    /* 3 x 0.1666665 would round per term; the rule rounds the exact sum once:
     * 5 x 0.1 + 5 x 0.2 = 1.5 -> 2, and 4 x 0.125 = 0.5 -> 1. */
    op(&f, BUCKET_WORK, "nop", 5);
    op(&f, BUCKET_WORK, "pop", 5);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"nop\" cost=\"0.1\"/><opcode name=\"pop\" cost=\"0.2\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.total == 1500000);
    assert_true(r.score == 2);
    score_free(&r);
    costs_free(&t);

    fake_init(&f);
    op(&f, BUCKET_WORK, "nop", 4);
    op(&f, BUCKET_WORK, "pop", 1);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"nop\" cost=\"0.124999\"/><opcode name=\"pop\" cost=\"0.000004\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.total == 500000);          /* 0.499996 + 0.000004 */
    assert_true(r.score == 1);
    score_free(&r);
    costs_free(&t);
}

static void score__too_large__overflow_error(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    psf_err e;
    (void)state;
    fake_init(&f);
    /* (2^64-1) x 10^9 units does not fit in 64 bits of whole units. */
    op(&f, BUCKET_WORK, "nop", UINT64_MAX);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"nop\" cost=\"1000000000\"/><opcode name=\"pop\" cost=\"1\"/></costs>\n");
    assert_int_equal(score_profile(&f.p, &t, 0, &r, &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    assert_non_null(strstr(e.msg, "overflow"));
    assert_int_equal(r.n_terms, 0);

    /* Exactly 2^64-1 units still fits. */
    fake_init(&f);
    op(&f, BUCKET_WORK, "pop", UINT64_MAX);
    scored(&f, &t, 0, &r);
    assert_true(r.score == UINT64_MAX);
    score_free(&r);

    /* ... one more unit does not. */
    op(&f, BUCKET_OVERHEAD, "pop", 1);
    assert_int_equal(score_profile(&f.p, &t, 1, &r, &e), -1);
    assert_non_null(strstr(e.msg, "overflow"));
    costs_free(&t);
}

static void score__many_max_terms__128_bit_overflow_caught(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    psf_err e;
    char xml[8192];
    size_t n = 0;
    unsigned k = 0;
    (void)state;
    /* 202 terms of (2^64-1) x 10^15 micro-units pass 2^128 after about 19. */
    fake_init(&f);
    n += (size_t)snprintf(xml + n, sizeof xml - n, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n");
    for (unsigned o = 0; o < 256 && k < 40; o++)
        if (bc_flags((uint8_t)o) & BCF_VALID) {
            f.p.opcodes[BUCKET_WORK][o] = UINT64_MAX;
            n += (size_t)snprintf(xml + n, sizeof xml - n, "<opcode name=\"%s\" cost=\"1000000000\"/>\n",
                                  bc_mnemonic((uint8_t)o));
            k++;
        }
    snprintf(xml + n, sizeof xml - n, "</costs>\n");
    table(&t, xml);
    assert_int_equal(score_profile(&f.p, &t, 0, &r, &e), -1);
    assert_non_null(strstr(e.msg, "overflow"));
    costs_free(&t);
}

static void score__methods__split_by_own_opcodes(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    size_t n;
    const score_term **top;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "iadd", 30);
    op(&f, BUCKET_WORK, "nop", 30);
    method(&f, "A.run()V", "iadd", 20, 0);
    method(&f, "A.run()V", "nop", 10, 0);
    method(&f, "A.help()V", "iadd", 10, 0);
    method(&f, "A.help()V", "nop", 20, 0);
    method(&f, "A.<clinit>()V", "nop", 0, 7);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"iadd\" cost=\"1.5\"/><opcode name=\"nop\" cost=\"0.1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_int_equal(r.n_methods, 3);
    assert_string_equal(r.methods[0].name, "A.run()V");
    assert_true(r.methods[0].contribution == 31000000);
    assert_true(r.methods[0].bytecodes == 30);
    assert_string_equal(r.methods[1].name, "A.help()V");
    assert_true(r.methods[1].contribution == 17000000);
    assert_true(r.methods[2].contribution == 0);
    assert_true(r.methods[0].contribution + r.methods[1].contribution + r.methods[2].contribution == r.opcode_total);
    top = score_top_terms(&r, 1, &n);
    assert_int_equal(n, 2);
    assert_string_equal(top[0]->key, "opcode:iadd");
    free((void *)top);
    score_free(&r);
    costs_free(&t);
}

/* A method's lines are priced as the method is: A.run's line 5 runs
 * iadd 15 + nop 4, line 6 iadd 5 + nop 6 (and 3 overhead nops). */
static void score__lines__priced_like_their_method(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    prof_mop l5[2] = {{(uint8_t)bc_opcode("iadd"), 15, 0}, {(uint8_t)bc_opcode("nop"), 4, 0}};
    prof_mop l6[2] = {{(uint8_t)bc_opcode("iadd"), 5, 0}, {(uint8_t)bc_opcode("nop"), 6, 3}};
    prof_line lines[2] = {{5, 19, 0, l5, 2, 2}, {6, 11, 3, l6, 2, 2}};
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "iadd", 20);
    op(&f, BUCKET_WORK, "nop", 10);
    op(&f, BUCKET_OVERHEAD, "nop", 3);
    method(&f, "A.run()V", "iadd", 20, 0);
    method(&f, "A.run()V", "nop", 10, 3);
    f.methods[0].lines = lines;
    f.methods[0].n_lines = 2;
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/>\n"
          "<opcode name=\"iadd\" cost=\"1.5\"/><opcode name=\"nop\" cost=\"0.1\"/></costs>\n");
    scored(&f, &t, 0, &r);
    assert_int_equal(r.methods[0].n_lines, 2);
    assert_int_equal(r.methods[0].lines[0].number, 5);
    assert_true(r.methods[0].lines[0].contribution == 22900000);   /* 15 x 1.5 + 4 x 0.1 */
    assert_true(r.methods[0].lines[0].bytecodes == 19);
    assert_true(r.methods[0].lines[1].contribution == 8100000);    /* 5 x 1.5 + 6 x 0.1 */
    assert_true(r.methods[0].lines[0].contribution + r.methods[0].lines[1].contribution ==
                r.methods[0].contribution);
    score_free(&r);
    scored(&f, &t, 1, &r);                                          /* with overhead: 3 more nops */
    assert_true(r.methods[0].lines[1].contribution == 8400000 && r.methods[0].lines[1].bytecodes == 14);
    assert_true(r.methods[0].lines[0].contribution + r.methods[0].lines[1].contribution ==
                r.methods[0].contribution);
    score_free(&r);
    costs_free(&t);
}

static void score__status_not_ok__refused(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    psf_err e;
    (void)state;
    fake_init(&f);
    f.p.status = ST_INCOMPLETE;
    f.p.status_word = (char *)"incomplete";
    costs_builtin(&t);
    assert_int_equal(score_profile(&f.p, &t, 0, &r, &e), -1);
    assert_int_equal(e.status, ST_INTERNAL_ERROR);
    costs_free(&t);
}

static int teardown(void **state)
{
    (void)state;
    xml_cleanup();
    return 0;
}

/* Class constants loaded by ldc at the table's <ldc constant="class"> price,
 * on top of the ldc opcodes; the overhead bucket's only with overhead. A
 * table without the price charges the default and marks the key missing. */
static void score__ldc_class__priced_or_missing(void **state)
{
    fake f;
    cost_table t;
    score_result r;
    (void)state;
    fake_init(&f);
    op(&f, BUCKET_WORK, "ldc", 10);                     /* 10 x 2 = 20 */
    dep(&f, BUCKET_WORK, DEP_LDC, "class", 4, 0, 0);    /* 4 x 60.5 = 242 */
    op(&f, BUCKET_OVERHEAD, "ldc_w", 3);                /* 3 x 2 = 6 */
    dep(&f, BUCKET_OVERHEAD, DEP_LDC, "class", 1, 0, 0);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/>\n<opcode name=\"ldc\" cost=\"2\"/>\n<opcode name=\"ldc_w\" cost=\"2\"/>\n"
          "<ldc constant=\"class\" cost=\"60.5\"/>\n</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 262);
    const score_term *c = term(&r, "ldc:class");
    assert_non_null(c);
    assert_true(c->count == 4 && c->kind == TERM_LDC && !c->missing);
    assert_false(r.approximate);
    score_free(&r);
    scored(&f, &t, 1, &r);
    assert_true(r.score == 329);                        /* 20 + 6 + 5 x 60.5 = 328.5, half up */
    assert_true(term(&r, "ldc:class")->count == 5);
    score_free(&r);
    costs_free(&t);
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED
          "<default cost=\"7\"/>\n<opcode name=\"ldc\" cost=\"2\"/>\n</costs>\n");
    scored(&f, &t, 0, &r);
    assert_true(r.score == 48);                         /* 20 + 4 x the default 7 */
    assert_true(term(&r, "ldc:class")->missing);
    assert_true(r.approximate);
    score_free(&r);
    costs_free(&t);
}

static void score_jdk_feature__version_strings__feature_number(void **state)
{
    (void)state;
    assert_int_equal(score_jdk_feature("17.0.15+6-Debian-1deb12u1"), 17);
    assert_int_equal(score_jdk_feature("25.0.3+9-LTS"), 25);
    assert_int_equal(score_jdk_feature("25+36"), 25);
    assert_int_equal(score_jdk_feature("21-ea"), 21);
    assert_int_equal(score_jdk_feature("17"), 17);
    assert_int_equal(score_jdk_feature("1.8.0_402-b06"), 8);
    assert_int_equal(score_jdk_feature(""), 0);
    assert_int_equal(score_jdk_feature(NULL), 0);
    assert_int_equal(score_jdk_feature("v25"), 0);
    assert_int_equal(score_jdk_feature("99999999999999999999"), 0);
}

/* A table calibrated on JDK 17 (CALIBRATED says jdk_version="17") scores a
 * profile counted on the JDK in `jvm`. */
static void score_on_jdk(const char *jvm, score_result *r)
{
    fake f;
    cost_table t;
    fake_init(&f);
    op(&f, BUCKET_WORK, "nop", 3);
    f.p.has_jvm = jvm != NULL;
    f.p.jvm_version = (char *)jvm;
    table(&t, "<?xml version=\"1.0\"?>\n" CALIBRATED "<default cost=\"1\"/><opcode name=\"nop\" cost=\"2\"/></costs>\n");
    scored(&f, &t, 0, r);
    costs_free(&t);
}

static void score__table_of_another_jdk__approximate_and_names_both(void **state)
{
    score_result r;
    (void)state;
    score_on_jdk("25.0.3+9-LTS", &r);
    assert_true(r.score == 6);              /* the prices still apply */
    assert_true(r.approximate);
    assert_true(r.jdk_mismatch);
    assert_int_equal(r.table_jdk, 17);
    assert_int_equal(r.profile_jdk, 25);
    assert_int_equal(r.n_missing, 0);
    assert_false(r.uncalibrated_table);
    score_free(&r);
}

static void score__table_of_the_same_jdk__exact(void **state)
{
    score_result r;
    (void)state;
    score_on_jdk("17.0.15+6-Debian-1deb12u1", &r);
    assert_true(r.score == 6);
    assert_false(r.approximate);
    assert_false(r.jdk_mismatch);
    score_free(&r);
    score_on_jdk(NULL, &r);                 /* no <jvm>: nothing to compare */
    assert_false(r.approximate);
    assert_false(r.jdk_mismatch);
    score_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(score__builtin_table__work_bytecode_count_exact),
        cmocka_unit_test(score__call_closeness__priced_per_unit),
        cmocka_unit_test(score__ldc_class__priced_or_missing),
        cmocka_unit_test(score__hand_computed__exact),
        cmocka_unit_test(score__missing_opcode__default_and_approximate),
        cmocka_unit_test(score__arrays__specific_then_reference_then_missing),
        cmocka_unit_test(score__primitive_array__never_priced_as_reference),
        cmocka_unit_test(score__invokes_and_news__only_native_can_be_missing),
        cmocka_unit_test(score__invoke_elements__priced_per_element),
        cmocka_unit_test(score__ref_array_clone__priced_as_object_array),
        cmocka_unit_test(score__invoke_elements_without_element_price__missing),
        cmocka_unit_test(score__uncalibrated_table__approximate_without_missing_keys),
        cmocka_unit_test(score_jdk_feature__version_strings__feature_number),
        cmocka_unit_test(score__table_of_another_jdk__approximate_and_names_both),
        cmocka_unit_test(score__table_of_the_same_jdk__exact),
        cmocka_unit_test(score__with_overhead__same_key_merged),
        cmocka_unit_test(score__half_unit__rounded_up_once),
        cmocka_unit_test(score__too_large__overflow_error),
        cmocka_unit_test(score__many_max_terms__128_bit_overflow_caught),
        cmocka_unit_test(score__methods__split_by_own_opcodes),
        cmocka_unit_test(score__lines__priced_like_their_method),
        cmocka_unit_test(score__status_not_ok__refused),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
