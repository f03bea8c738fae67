/*
 * test_calibrate_histo.c - reading agent profiles, per-iteration
 * differences, and the feature rows the fit uses.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bytecode.h"
#include "histo.h"
#include "costs_keys.h"
#include "model.h"

#define PROFILE(ITERS, LOADS, ARRS, ELEMS, COPIES) \
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
    "<psf-profile version=\"5\" status=\"ok\">\n" \
    "  <opcodes bucket=\"work\">\n" \
    "    <opcode name=\"goto\" count=\"" #ITERS "\"/>\n" \
    "    <opcode name=\"iload_1\" count=\"" #LOADS "\"/>\n" \
    "    <opcode name=\"newarray\" count=\"" #ARRS "\"/>\n" \
    "  </opcodes>\n" \
    "  <opcodes bucket=\"overhead\"><opcode name=\"iadd\" count=\"999\"/></opcodes>\n" \
    "  <dependencies bucket=\"work\">\n" \
    "    <array elem=\"int\" allocations=\"" #ARRS "\" elements=\"" #ELEMS "\"/>\n" \
    "    <array elem=\"java.lang.String\" allocations=\"1\" elements=\"4\"/>\n" \
    "    <invoke method=\"java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V\" count=\"" #COPIES "\" native=\"true\" elements=\"" #ELEMS "\"/>\n" \
    "    <invoke method=\"Foo.bar()V\" count=\"3\"/>\n" \
    "    <invoke method=\"Foo.nat()V\" count=\"2\" native=\"true\"/>\n" \
    "    <ldc constant=\"class\" count=\"" #ARRS "\"/>\n" \
    "    <new class=\"Foo\" count=\"1\"/>\n" \
    "  </dependencies>\n" \
    "  <dependencies bucket=\"overhead\"><ldc constant=\"class\" count=\"7\"/><new class=\"Bar\" count=\"5\"/></dependencies>\n" \
    "  <branches bucket=\"work\" conditional=\"" #ITERS "\" taken=\"" #ARRS "\" mispredicted=\"" #COPIES "\"/>\n" \
    "  <branches bucket=\"overhead\" conditional=\"9\" taken=\"9\" mispredicted=\"9\"/>\n" \
    "  <calls bucket=\"work\" entries=\"" #ITERS "\" close=\"" #LOADS "\" fence_native=\"" #LOADS "\" fence_alloc=\"" #COPIES "\"/>\n" \
    "  <calls bucket=\"overhead\" entries=\"9\" close=\"9\" fence_native=\"9\" fence_alloc=\"9\"/>\n" \
    "</psf-profile>\n"

static void histo_parse__work_bucket__counts_and_dependencies(void **state)
{
    const char *p = PROFILE(64, 130, 64, 1024, 64);
    histo h;
    char err[256];
    const hdep *d;
    (void)state;
    assert_int_equal(histo_parse(&h, p, strlen(p), err, sizeof err), 0);
    assert_true(h.op[bc_opcode("goto")] == 64);
    assert_true(h.op[bc_opcode("iload_1")] == 130);
    assert_true(h.op[bc_opcode("iadd")] == 0);          /* overhead bucket ignored */
    d = histo_find(&h, HDEP_ARRAY, "int");
    assert_non_null(d);
    assert_true(d->count == 64 && d->elements == 1024);
    d = histo_find(&h, HDEP_INVOKE, "Foo.nat()V");
    assert_non_null(d);
    assert_true(d->native == 1 && d->count == 2);
    assert_null(histo_find(&h, HDEP_NEW, "Bar"));
    assert_true(histo_total(&h) == 64 + 130 + 64);
    assert_true(h.br_taken == 64 && h.br_mispredicted == 64);  /* work bucket only */
    assert_true(h.call_close == 130);                          /* work bucket only */
    assert_true(h.fence_native == 130 && h.fence_alloc == 64); /* work bucket only */
    assert_true(h.ldc_class == 64);                            /* work bucket only */
    histo_free(&h);
}

static void histo_parse__status_not_ok__rejected(void **state)
{
    const char *p = "<psf-profile version=\"5\" status=\"not_invoked\"><message>x</message></psf-profile>";
    histo h;
    char err[256];
    (void)state;
    assert_int_equal(histo_parse(&h, p, strlen(p), err, sizeof err), -1);
    assert_non_null(strstr(err, "not_invoked"));
    histo_free(&h);
}

/* A work directory counted by an agent of another profile version (before
 * the fence counts) is refused by name, not as a bad <calls>. */
static void histo_parse__other_version__rejected_by_name(void **state)
{
    const char *p = PROFILE(64, 130, 64, 1024, 64);
    char *old = strdup(p), *v = strstr(old, "version=\"5\"");
    histo h;
    char err[256];
    (void)state;
    assert_non_null(v);
    v[9] = '4';
    assert_int_equal(histo_parse(&h, old, strlen(old), err, sizeof err), -1);
    assert_non_null(strstr(err, "profile format version '4', not 7, 6 or 5"));
    histo_free(&h);
    free(old);
}

static void histo_parse__unknown_mnemonic__rejected(void **state)
{
    const char *p = "<psf-profile version=\"5\" status=\"ok\"><opcodes bucket=\"work\">"
                    "<opcode name=\"iadd2\" count=\"1\"/></opcodes></psf-profile>";
    histo h;
    char err[256];
    (void)state;
    assert_int_equal(histo_parse(&h, p, strlen(p), err, sizeof err), -1);
    histo_free(&h);
}

static void histo_parse__malformed__rejected(void **state)
{
    const char *p = "<psf-profile";
    histo h;
    char err[256];
    (void)state;
    assert_int_equal(histo_parse(&h, p, strlen(p), err, sizeof err), -1);
    histo_free(&h);
}

static void histo_diff__two_iteration_counts__one_iteration(void **state)
{
    const char *p1 = PROFILE(64, 130, 64, 1024, 64), *p2 = PROFILE(128, 258, 128, 2048, 128);
    histo a, b, d;
    char err[256];
    const hdep *dep;
    (void)state;
    assert_int_equal(histo_parse(&a, p1, strlen(p1), err, sizeof err), 0);
    assert_int_equal(histo_parse(&b, p2, strlen(p2), err, sizeof err), 0);
    histo_diff(&d, &a, &b, 64);
    assert_true(d.op[bc_opcode("goto")] == 1);
    assert_true(d.op[bc_opcode("iload_1")] == 2);       /* setup's 2 cancel */
    dep = histo_find(&d, HDEP_ARRAY, "int");
    assert_true(dep && dep->count == 1 && dep->elements == 16);
    assert_null(histo_find(&d, HDEP_ARRAY, "java.lang.String"));   /* setup only: dropped */
    assert_null(histo_find(&d, HDEP_INVOKE, "Foo.bar()V"));
    assert_true(d.br_taken == 1 && d.br_mispredicted == 1);
    assert_true(d.call_close == 2);
    assert_true(d.fence_native == 2 && d.fence_alloc == 1);
    assert_true(d.ldc_class == 1);
    histo_free(&a);
    histo_free(&b);
    histo_free(&d);
}

static void model_row__groups_arrays_invokes__summed_into_features(void **state)
{
    const char *p = PROFILE(64, 130, 64, 1024, 64);
    histo h;
    model m;
    char err[256];
    double x[512];
    int f;
    (void)state;
    model_init(&m);
    assert_true(m.nf < 512);
    assert_int_equal(histo_parse(&h, p, strlen(p), err, sizeof err), 0);
    model_row(&m, &h, x);
    f = model_find(&m, FK_OPGROUP, "load");
    assert_true(f >= 0 && x[f] == 130);
    f = model_find(&m, FK_OPGROUP, "goto");
    assert_true(f >= 0 && x[f] == 64);
    f = model_find(&m, FK_BRANCH_TAKEN, "taken");
    assert_true(f >= 0 && x[f] == 64);
    f = model_find(&m, FK_BRANCH_MISS, "mispredicted");
    assert_true(f >= 0 && x[f] == 64);
    f = model_find(&m, FK_ARRAY_ALLOC, "int");
    assert_true(f >= 0 && x[f] == 64 && x[f + 1] == 1024);
    f = model_find(&m, FK_ARRAY_ALLOC, "reference");           /* String[] falls back */
    assert_true(f >= 0 && x[f] == 1 && x[f + 1] == 4);
    f = model_find(&m, FK_INVOKE, "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
    assert_true(f >= 0 && x[f] == 64 && x[f + 1] == 1024);   /* calls, elements copied */
    f = model_find(&m, FK_OTHER_NATIVE, "other native methods");
    assert_true(f >= 0 && x[f] == 2);                          /* Foo.nat; Foo.bar is not native */
    f = model_find(&m, FK_LDC_CLASS, "class");
    assert_true(f >= 0 && x[f] == 64);
    histo_free(&h);
    model_free(&m);
}

static void model_init__every_valid_opcode__has_a_group(void **state)
{
    model m;
    (void)state;
    model_init(&m);
    for (unsigned op = 0; op < 256; op++)
        if (bc_flags((uint8_t)op) & BCF_VALID)
            assert_true(m.op_feature[op] >= 0);
    model_free(&m);
}

/* The fit tests' set-up: a model, a zeroed design of `rows` kernels and the
 * columns of the load and goto groups. */
static double *fit_setup(model *m, size_t rows, int *load, int *go)
{
    model_init(m);
    *load = model_find(m, FK_OPGROUP, "load");
    *go = model_find(m, FK_OPGROUP, "goto");
    assert_true(*load >= 0 && *go >= 0);
    return test_calloc(rows * m->nf, sizeof(double));
}

static void model_fit__exact_data__recovers_costs_and_predicts(void **state)
{
    model m;
    fit_result fr;
    size_t nf;
    double *x, y[3];
    unsigned char use[3] = { 1, 1, 0 };
    int load, go;
    (void)state;
    x = fit_setup(&m, 3, &load, &go);
    nf = m.nf;
    x[0 * nf + load] = 2; x[0 * nf + go] = 1; y[0] = 2 * 1.5 + 4;
    x[1 * nf + load] = 6; x[1 * nf + go] = 1; y[1] = 6 * 1.5 + 4;
    x[2 * nf + load] = 10; x[2 * nf + go] = 2; y[2] = 10 * 1.5 + 8;   /* held out */
    assert_int_equal(model_fit(&m, x, y, use, 3, 0, 0, &fr), 0);
    assert_true(fr.seen[load] && fr.seen[go]);
    assert_true(fabs(fr.cost[load] - 1.5) < 1e-6);
    assert_true(fabs(fr.cost[go] - 4) < 1e-6);
    assert_true(fabs(model_predict(&m, &fr, &x[2 * nf]) - y[2]) < 1e-6);
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}

/* With a strong ridge on the opcode groups, data in which every bytecode
 * costs the same are fitted by the common price alone, and that price is
 * folded into every group's (predictions unchanged); a group the kernels
 * show to be dearer keeps its extra. */
static void model_fit__group_ridge__common_price_folded_into_groups(void **state)
{
    model m;
    fit_result fr;
    size_t nf;
    double *x, y[3];
    unsigned char use[3] = { 1, 1, 1 };
    int load, go, base;
    (void)state;
    x = fit_setup(&m, 3, &load, &go);
    nf = m.nf;
    base = model_find(&m, FK_BYTECODE, "bytecode");
    assert_true(base >= 0);
    for (int i = 0; i < 3; i++) {
        x[i * nf + load] = 2 + 4 * i;
        x[i * nf + go] = 1 + i;
        x[i * nf + base] = x[i * nf + load] + x[i * nf + go];
        y[i] = 2.0 * x[i * nf + base];
    }
    assert_int_equal(model_fit(&m, x, y, use, 3, 1e-4, 3, &fr), 0);
    assert_true(fabs(fr.base - 2) < 1e-6);
    assert_true(fabs(fr.cost[load] - 2) < 1e-6 && fabs(fr.cost[go] - 2) < 1e-6);
    assert_true(fr.cost[base] == 0);
    assert_true(fabs(model_predict(&m, &fr, &x[2 * nf]) - y[2]) < 1e-6);
    fit_free(&fr);
    /* goto 3 cycles dearer than a load: without a group ridge the data are
     * met exactly, the shared part at most the load's 2 */
    for (int i = 0; i < 3; i++)
        y[i] = 2.0 * x[i * nf + load] + 5.0 * x[i * nf + go];
    assert_int_equal(model_fit(&m, x, y, use, 3, 0, 0, &fr), 0);
    assert_true(fabs(fr.cost[load] - 2) < 1e-6 && fabs(fr.cost[go] - 5) < 1e-6);
    assert_true(fr.base >= 0 && fr.base <= 2 + 1e-6);
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}


static int runs_bytecode_none(const char *name)
{
    (void)name;
    return 0;
}

/* A fit that gave a native's work to the bytecodes around it (its two
 * kernels, 256 and 65536 bytes a call, priced 0 and 0): the native is
 * priced again from its own kernels, per call and per byte, exactly what
 * they measured beyond their bytecodes; other prices do not move. */
static void model_price_work__zeroed_native__priced_from_its_own_kernels(void **state)
{
    model m;
    fit_result fr;
    size_t nf, bad_row = 99;
    double *x, y[3];
    unsigned char use[3] = { 1, 1, 1 };
    int load, go, cm, bad_f = -1;
    char why[256] = "";
    (void)state;
    x = fit_setup(&m, 3, &load, &go);
    nf = m.nf;
    cm = model_find(&m, FK_INVOKE, "jdk.internal.misc.Unsafe.copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V");
    assert_true(cm >= 0 && m.f[cm + 1].kind == FK_INVOKE_ELEM);
    memset(&fr, 0, sizeof fr);
    fr.cost = calloc(nf, sizeof *fr.cost);
    fr.seen = calloc(nf, 1);
    fr.repriced = calloc(nf, 1);
    fr.cost[load] = 3;
    fr.cost[go] = 2;
    fr.seen[load] = fr.seen[go] = fr.seen[cm] = fr.seen[cm + 1] = 1;
    /* row 0: a loop of loads alone; rows 1 and 2: 100 loads, one call of
     * 256 and of 65536 bytes at 120 cycles + 0.04 a byte */
    x[0 * nf + load] = 10; x[0 * nf + go] = 1; y[0] = 32;
    x[1 * nf + load] = 100; x[1 * nf + cm] = 1; x[1 * nf + cm + 1] = 256; y[1] = 300 + 120 + 0.04 * 256;
    x[2 * nf + load] = 100; x[2 * nf + cm] = 1; x[2 * nf + cm + 1] = 65536; y[2] = 300 + 120 + 0.04 * 65536;
    assert_int_equal(model_price_work(&m, x, y, use, 3, runs_bytecode_none, 0, &fr, &bad_f, &bad_row, why, sizeof why), 0);
    assert_true(fabs(fr.cost[cm] - 120) < 1e-6);
    assert_true(fabs(fr.cost[cm + 1] - 0.04) < 1e-9);
    assert_true(fr.repriced[cm] && fr.repriced[cm + 1]);
    assert_true(fr.cost[load] == 3 && fr.cost[go] == 2 && !fr.repriced[load] && !fr.repriced[go]);
    assert_true(fabs(model_predict(&m, &fr, &x[2 * nf]) - y[2]) < 1e-6);

    /* the same kernels, but the large one measured no dearer per call than
     * the small: its time does not grow with the bytes, refused naming the
     * large kernel's row and the per-element feature */
    fr.cost[cm] = fr.cost[cm + 1] = 0;
    fr.repriced[cm] = fr.repriced[cm + 1] = 0;
    y[2] = y[1];
    assert_int_equal(model_price_work(&m, x, y, use, 3, runs_bytecode_none, 0, &fr, &bad_f, &bad_row, why, sizeof why), 1);
    assert_int_equal(bad_f, cm + 1);
    assert_int_equal((int)bad_row, 2);
    assert_non_null(strstr(why, "does not grow with the elements of jdk.internal.misc.Unsafe.copyMemory0"));

    /* kernels whose time the loads explain in full: no cycles left for the
     * calls, refused naming the kernel with the fewest bytes a call */
    fr.cost[cm] = fr.cost[cm + 1] = 0;
    y[1] = 300;
    y[2] = 300;
    assert_int_equal(model_price_work(&m, x, y, use, 3, runs_bytecode_none, 0, &fr, &bad_f, &bad_row, why, sizeof why), 1);
    assert_int_equal(bad_f, cm);
    assert_int_equal((int)bad_row, 1);
    assert_non_null(strstr(why, "leaves no cycles for the calls of"));
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}

/* model_fit, then model_price_work, after the fit priced a native and
 * String.hashCode at 0: every feature the rows exercise ends with a
 * positive price, the native's from its own kernel, and a method that runs
 * bytecode keeps its extra of 0. */
static void model_price_work__after_fit__no_exercised_work_at_zero(void **state)
{
    model m;
    fit_result fr;
    size_t nf, bad_row = 0;
    double *x, y[4];
    unsigned char use[4] = { 1, 1, 1, 1 };
    int load, go, isp, sh, bad_f = -1;
    char why[256] = "";
    (void)state;
    x = fit_setup(&m, 4, &load, &go);
    nf = m.nf;
    isp = model_find(&m, FK_INVOKE, "java.lang.Class.isPrimitive()Z");
    sh = model_find(&m, FK_INVOKE, "java.lang.String.hashCode()I");
    assert_true(isp >= 0 && sh >= 0);
    x[0 * nf + load] = 10; x[0 * nf + go] = 1; y[0] = 32;
    x[1 * nf + load] = 20; x[1 * nf + go] = 1; y[1] = 62;
    /* isPrimitive always with 4 loads; String.hashCode's extra is 0 */
    x[2 * nf + load] = 4; x[2 * nf + isp] = 1; y[2] = 12 + 40;
    x[3 * nf + load] = 30; x[3 * nf + sh] = 1; y[3] = 90;
    for (int i = 0; i < 4; i++)
        x[i * nf + model_find(&m, FK_BYTECODE, "bytecode")] = x[i * nf + load] + x[i * nf + go];
    assert_int_equal(model_fit(&m, x, y, use, 4, 1e-4, 3, &fr), 0);
    /* as a fit on noisy timings can: both calls' extras zeroed */
    fr.cost[isp] = 0;
    fr.cost[sh] = 0;
    assert_int_equal(model_price_work(&m, x, y, use, 4, costs_runs_bytecode, 0, &fr, &bad_f, &bad_row, why, sizeof why), 0);
    for (size_t j = 0; j < nf; j++) {
        int work = m.f[j].kind == FK_OPGROUP || m.f[j].kind == FK_ARRAY_ALLOC || m.f[j].kind == FK_INVOKE;
        if (fr.seen[j] && work && (int)j != sh)
            assert_true(fr.cost[j] >= MODEL_PRICE_MIN);
    }
    /* isPrimitive: its kernel's 52 cycles less its 4 loads at the fitted price */
    assert_true(fr.repriced[isp]);
    assert_true(fabs(fr.cost[isp] - (52 - 4 * fr.cost[load])) < 1e-6);
    assert_true(fr.cost[isp] > 30);
    /* String.hashCode runs bytecode: its extra stays 0 */
    assert_true(fr.cost[sh] == 0 && !fr.repriced[sh]);
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}

/* Two natives that only ever come together (getIntVolatile beside
 * compareAndSetInt) and a fit that gave both calls' cycles to one: the
 * other, with nothing left in its rows, gets the fitted price of an
 * unlisted native's call, not 0 and not a refusal. A stack trace's per-call
 * price may stay 0 when every call brings frames at a positive price. */
static void model_price_work__inseparable_native__unlisted_native_price(void **state)
{
    model m;
    fit_result fr;
    size_t nf, bad_row = 0;
    double *x, y[3];
    unsigned char use[3] = { 1, 1, 1 };
    int load, go, giv, cas, other, fst, bad_f = -1;
    char why[256] = "";
    (void)state;
    x = fit_setup(&m, 3, &load, &go);
    nf = m.nf;
    giv = model_find(&m, FK_INVOKE, "jdk.internal.misc.Unsafe.getIntVolatile(Ljava/lang/Object;J)I");
    cas = model_find(&m, FK_INVOKE, "jdk.internal.misc.Unsafe.compareAndSetInt(Ljava/lang/Object;JII)Z");
    other = model_find(&m, FK_OTHER_NATIVE, "other native methods");
    fst = model_find(&m, FK_INVOKE, "java.lang.Throwable.fillInStackTrace(I)Ljava/lang/Throwable;");
    assert_true(giv >= 0 && cas >= 0 && other >= 0 && fst >= 0);
    memset(&fr, 0, sizeof fr);
    fr.cost = calloc(nf, sizeof *fr.cost);
    fr.seen = calloc(nf, 1);
    fr.repriced = calloc(nf, 1);
    fr.cost[load] = 3;
    fr.cost[cas] = 150;
    fr.cost[other] = 60;
    fr.cost[fst + 1] = 10;      /* fillInStackTrace: 0 a call, 10 a frame */
    fr.seen[load] = fr.seen[giv] = fr.seen[cas] = fr.seen[other] = fr.seen[fst] = fr.seen[fst + 1] = 1;
    x[0 * nf + load] = 20; x[0 * nf + giv] = 1; x[0 * nf + cas] = 1; y[0] = 60 + 150;
    /* stack traces of 4 and 40 frames, at 10 cycles a frame and nothing a call */
    x[1 * nf + load] = 10; x[1 * nf + fst] = 1; x[1 * nf + fst + 1] = 4; y[1] = 30 + 40;
    x[2 * nf + load] = 10; x[2 * nf + fst] = 1; x[2 * nf + fst + 1] = 40; y[2] = 30 + 400;
    assert_int_equal(model_price_work(&m, x, y, use, 3, runs_bytecode_none, 0, &fr, &bad_f, &bad_row, why, sizeof why), 0);
    assert_true(fabs(fr.cost[giv] - 60) < 1e-9);
    assert_int_equal(fr.repriced[giv], 2);
    assert_true(fr.cost[cas] == 150 && !fr.repriced[cas]);
    assert_true(fr.cost[fst] < 1e-9 && fabs(fr.cost[fst + 1] - 10) < 1e-9);
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}

/* Noise that leaves no work for two natives (their kernels' time is their
 * loads' alone) and an array type whose elements come out free: with
 * room for three entries left out, each is left out of the table (both
 * features flagged, the reason kept) and nothing is refused; with room for
 * one, the second is refused, naming it, its kernel and the one already
 * left out. A class constant at 0 is never left out. */
static void model_price_work__noise__entries_left_out_up_to_the_most(void **state)
{
    model m;
    fit_result fr;
    size_t nf, bad_row = 99;
    double *x, y[5];
    unsigned char use[5] = { 1, 1, 1, 1, 1 };
    int load, go, sq, ab, arr, ldc, bad_f = -1;
    char why[512] = "";
    (void)state;
    x = fit_setup(&m, 5, &load, &go);
    nf = m.nf;
    sq = model_find(&m, FK_INVOKE, "java.lang.Math.sqrt(D)D");
    ab = model_find(&m, FK_INVOKE, "java.lang.Math.abs(D)D");
    arr = model_find(&m, FK_ARRAY_ALLOC, "byte");
    ldc = model_find(&m, FK_LDC_CLASS, "class");
    assert_true(sq >= 0 && ab >= 0 && arr >= 0 && ldc >= 0 && m.f[arr + 1].kind == FK_ARRAY_ELEM);
    memset(&fr, 0, sizeof fr);
    fr.cost = calloc(nf, sizeof *fr.cost);
    fr.seen = calloc(nf, 1);
    fr.repriced = calloc(nf, 1);
    fr.unpriced = calloc(nf, 1);
    fr.cost[load] = 3;
    fr.seen[load] = fr.seen[sq] = fr.seen[ab] = fr.seen[arr] = fr.seen[arr + 1] = 1;
    /* one kernel each for sqrt and abs: 10 loads, 30 cycles, the loads' */
    x[0 * nf + load] = 10; x[0 * nf + sq] = 1; y[0] = 30;
    x[1 * nf + load] = 10; x[1 * nf + ab] = 1; y[1] = 30;
    /* byte[1] and byte[1024], 50 cycles an allocation each: no growth */
    x[2 * nf + load] = 10; x[2 * nf + arr] = 1; x[2 * nf + arr + 1] = 1; y[2] = 80;
    x[3 * nf + load] = 10; x[3 * nf + arr] = 1; x[3 * nf + arr + 1] = 1024; y[3] = 80;
    x[4 * nf + load] = 10; y[4] = 30;
    assert_int_equal(model_price_work(&m, x, y, use, 5, runs_bytecode_none, 3, &fr, &bad_f, &bad_row, why, sizeof why), 0);
    assert_int_equal(fr.unpriced[sq], UNPRICED_CALL);
    assert_int_equal(fr.unpriced[sq + 1], UNPRICED_CALL);
    assert_int_equal(fr.unpriced[ab], UNPRICED_CALL);
    assert_int_equal(fr.unpriced[arr], UNPRICED_ELEM);
    assert_int_equal(fr.unpriced[arr + 1], UNPRICED_ELEM);
    assert_int_equal(fr.unpriced[load], 0);
    assert_true(fr.cost[load] == 3 && !fr.repriced[sq] && !fr.repriced[ab]);

    /* the natives alone, room for one: Math.sqrt left out (it comes
     * first), Math.abs refused */
    memset(fr.unpriced, 0, nf);
    fr.seen[arr] = fr.seen[arr + 1] = 0;
    assert_int_equal(model_price_work(&m, x, y, use, 5, runs_bytecode_none, 1, &fr, &bad_f, &bad_row, why, sizeof why), 1);
    assert_int_equal(bad_f, ab);
    assert_int_equal((int)bad_row, 1);
    assert_non_null(strstr(why, "leaves no cycles for the calls of java.lang.Math.abs(D)D"));
    assert_non_null(strstr(why, "; 1 other entry without a price already left out of the table"));
    assert_int_equal(fr.unpriced[sq], UNPRICED_CALL);
    assert_int_equal(fr.unpriced[ab], 0);

    /* none to spare: refused at the first, as without this rule */
    memset(fr.unpriced, 0, nf);
    assert_int_equal(model_price_work(&m, x, y, use, 5, runs_bytecode_none, 0, &fr, &bad_f, &bad_row, why, sizeof why), 1);
    assert_int_equal(bad_f, sq);
    assert_null(strstr(why, "left out"));

    /* a class constant whose kernel shows no work: refused with room to spare */
    memset(fr.unpriced, 0, nf);
    fr.seen[sq] = fr.seen[ab] = 0;
    x[4 * nf + ldc] = 1;
    fr.seen[ldc] = 1;
    assert_int_equal(model_price_work(&m, x, y, use, 5, runs_bytecode_none, 3, &fr, &bad_f, &bad_row, why, sizeof why), 1);
    assert_int_equal(bad_f, ldc);
    assert_int_equal(fr.unpriced[ldc], 0);
    fit_free(&fr);
    test_free(x);
    model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(histo_parse__work_bucket__counts_and_dependencies),
        cmocka_unit_test(histo_parse__status_not_ok__rejected),
        cmocka_unit_test(histo_parse__other_version__rejected_by_name),
        cmocka_unit_test(histo_parse__unknown_mnemonic__rejected),
        cmocka_unit_test(histo_parse__malformed__rejected),
        cmocka_unit_test(histo_diff__two_iteration_counts__one_iteration),
        cmocka_unit_test(model_row__groups_arrays_invokes__summed_into_features),
        cmocka_unit_test(model_init__every_valid_opcode__has_a_group),
        cmocka_unit_test(model_fit__exact_data__recovers_costs_and_predicts),
        cmocka_unit_test(model_fit__group_ridge__common_price_folded_into_groups),
        cmocka_unit_test(model_price_work__zeroed_native__priced_from_its_own_kernels),
        cmocka_unit_test(model_price_work__after_fit__no_exercised_work_at_zero),
        cmocka_unit_test(model_price_work__inseparable_native__unlisted_native_price),
        cmocka_unit_test(model_price_work__noise__entries_left_out_up_to_the_most),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
