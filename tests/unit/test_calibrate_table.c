/*
 * test_calibrate_table.c - the calibrated table writer: prices in the
 * scorer's format, escaping, and whole tables valid against
 * config/costs.xsd (libxml2). Also the kernels generated for --keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "bytecode.h"
#include "kernels.h"
#include "model.h"
#include "table.h"

static void table_format_price__values__scorer_format(void **state)
{
    char b[32];
    (void)state;
    table_format_price(12, b, sizeof b);
    assert_string_equal(b, "12");
    table_format_price(0.25, b, sizeof b);
    assert_string_equal(b, "0.25");
    table_format_price(1.0000004, b, sizeof b);
    assert_string_equal(b, "1");
    table_format_price(3.1234567, b, sizeof b);
    assert_string_equal(b, "3.123457");
    table_format_price(-2, b, sizeof b);
    assert_string_equal(b, "0");
    table_format_price(0.0 / 0.0, b, sizeof b);
    assert_string_equal(b, "0");
    table_format_price(5e12, b, sizeof b);
    assert_string_equal(b, "1000000000");
}

static void table_escape_attr__markup__escaped(void **state)
{
    char b[128];
    (void)state;
    table_escape_attr("A.<init>(\"x\")&y", b, sizeof b);
    assert_string_equal(b, "A.&lt;init&gt;(&quot;x&quot;)&amp;y");
}

/* 1 when the file validates against config/costs.xsd. */
static int validates(const char *path)
{
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt("config/costs.xsd");
    xmlSchemaPtr s = pc ? xmlSchemaParse(pc) : NULL;
    xmlSchemaValidCtxtPtr vc = s ? xmlSchemaNewValidCtxt(s) : NULL;
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    int ok = vc && doc && xmlSchemaValidateDoc(vc, doc) == 0;
    xmlFreeDoc(doc);
    if (vc)
        xmlSchemaFreeValidCtxt(vc);
    if (s)
        xmlSchemaFree(s);
    if (pc)
        xmlSchemaFreeParserCtxt(pc);
    return ok;
}

static char *write_table(const table_meta *meta, fit_result *fr, model *m, const char *name)
{
    static char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", getenv("PSF_BUILD") ? getenv("PSF_BUILD") : "build", name);
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(table_write(f, m, fr, meta, 77.5, 2), 0);
    fclose(f);
    return path;
}

static void table_write__fitted_model__valid_against_schema(void **state)
{
    model m;
    fit_result fr = { 0 };
    cpu_ident cpu = { "AuthenticAMD", 26, 2, 1, "Test CPU <fast> & \"quoted\"" };
    table_meta meta = { &cpu, 2596000000u, "17.0.15+6", "-Xint -XX:-UseTLAB",
                        "2025-11-22T10:00:00Z", 0.9987, 0, "costs-report.txt" };
    char *path, buf[1 << 16];
    FILE *f;
    size_t len;
    (void)state;
    model_init(&m);
    fr.cost = calloc(m.nf, sizeof *fr.cost);
    fr.seen = calloc(m.nf, 1);
    fr.unpriced = calloc(m.nf, 1);
    for (size_t j = 0; j < m.nf; j++) {
        fr.cost[j] = 0.5 + (double)j / 3.0;
        fr.seen[j] = j % 5 != 0;       /* some features unseen */
    }
    fr.seen[model_find(&m, FK_FENCE_NATIVE, "fence_native")] = 1;   /* one fence priced, */
    fr.seen[model_find(&m, FK_FENCE_ALLOC, "fence_alloc")] = 0;     /* the other not */
    /* a native and an array type left out for noise (model_price_work),
     * beside another of each, priced */
    {
        int sq = model_find(&m, FK_INVOKE, "java.lang.Math.sqrt(D)D"), ab = model_find(&m, FK_INVOKE, "java.lang.Math.abs(D)D");
        int by = model_find(&m, FK_ARRAY_ALLOC, "byte"), in = model_find(&m, FK_ARRAY_ALLOC, "int");
        assert_true(sq >= 0 && ab >= 0 && by >= 0 && in >= 0);
        fr.seen[sq] = fr.seen[ab] = fr.seen[by] = fr.seen[by + 1] = fr.seen[in] = fr.seen[in + 1] = 1;
        fr.unpriced[sq] = fr.unpriced[sq + 1] = UNPRICED_CALL;
        fr.unpriced[by] = fr.unpriced[by + 1] = UNPRICED_ELEM;
    }
    path = write_table(&meta, &fr, &m, "test_calibrate_table.xml");
    assert_true(validates(path));
    f = fopen(path, "r");
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    assert_non_null(strstr(buf, "calibrated=\"true\""));
    assert_non_null(strstr(buf, "unit=\"cycles\""));
    assert_non_null(strstr(buf, "isolated_core=\"false\""));
    assert_non_null(strstr(buf, "tsc_hz=\"2596000000\""));
    assert_non_null(strstr(buf, "fit_r2=\"0.998700\""));
    /* what identifies the CPU, for the scorer's comparison with its own */
    assert_non_null(strstr(buf, "cpu_vendor=\"AuthenticAMD\" cpu_family=\"26\" cpu_model_number=\"2\""
                                " cpu_stepping=\"1\""));
    assert_non_null(strstr(buf, "<default cost=\"77.5\"/>"));
    assert_null(strstr(buf, "<invoke method=\"java.lang.Math.sqrt(D)D\""));
    assert_non_null(strstr(buf, "<!-- left out: invoke:java.lang.Math.sqrt(D)D, its kernels showed no work for it"));
    assert_non_null(strstr(buf, "<!-- left out: array:byte, its kernels showed no work for it"));
    assert_null(strstr(buf, "left out: invoke:java.lang.Math.abs"));
    assert_non_null(strstr(buf, "<invoke method=\"java.lang.Math.abs(D)D\""));
    assert_null(strstr(buf, "<array elem=\"byte\""));
    assert_non_null(strstr(buf, "<array elem=\"int\""));
    {
        /* the class-constant price, when its feature was seen */
        int j = model_find(&m, FK_LDC_CLASS, "class");
        char want[64];
        assert_true(j >= 0);
        if (fr.seen[j]) {
            snprintf(want, sizeof want, "<ldc constant=\"class\" cost=\"");
            assert_non_null(strstr(buf, want));
        } else {
            assert_null(strstr(buf, "<ldc "));
        }
    }
    {
        /* the call prices (entries, and the two fences), each when its feature was seen */
        static const struct { feat_kind k; const char *name; } calls[] = {
            { FK_CALL_CLOSE, "close" }, { FK_FENCE_NATIVE, "fence_native" }, { FK_FENCE_ALLOC, "fence_alloc" },
        };
        for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
            int j = model_find(&m, calls[c].k, calls[c].name);
            char want[64];
            assert_true(j >= 0);
            snprintf(want, sizeof want, "<call kind=\"%s\" cost=\"", calls[c].name);
            if (fr.seen[j])
                assert_non_null(strstr(buf, want));
            else
                assert_null(strstr(buf, want));
        }
    }
    assert_non_null(strstr(buf, "&lt;fast&gt; &amp; &quot;quoted&quot;"));
    {
        /* every valid opcode has exactly one entry */
        unsigned n = 0, want = 0;
        for (const char *p = buf; (p = strstr(p, "<opcode ")) != NULL; p++)
            n++;
        for (unsigned op = 0; op < 256; op++)
            want += (bc_flags((uint8_t)op) & BCF_VALID) != 0;
        assert_int_equal(n, want);
    }
    fit_free(&fr);
    model_free(&m);
}

static void table_write__r2_out_of_range_and_partial_cpu__clamped_and_valid(void **state)
{
    model m;
    fit_result fr = { 0 };
    table_meta meta = { NULL, 1, "jdk", "", "2025-11-22", -0.5, 1, NULL };
    cpu_ident partial = { "", 25, -1, -1, "" };
    (void)state;
    model_init(&m);
    fr.cost = calloc(m.nf, sizeof *fr.cost);
    fr.seen = calloc(m.nf, 1);
    fr.unpriced = calloc(m.nf, 1);
    assert_true(validates(write_table(&meta, &fr, &m, "test_calibrate_table2.xml")));
    /* a CPU that reports only some fields: only those are written */
    meta.cpu = &partial;
    {
        const char *path = write_table(&meta, &fr, &m, "test_calibrate_table3.xml");
        char buf[1 << 16];
        FILE *f;
        size_t len;
        assert_true(validates(path));
        f = fopen(path, "r");
        len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        assert_non_null(strstr(buf, "cpu_family=\"25\""));
        assert_null(strstr(buf, "cpu_vendor="));
        assert_null(strstr(buf, "cpu_stepping="));
        assert_non_null(strstr(buf, "cpu_model=\"unknown\""));
    }
    fit_free(&fr);
    model_free(&m);
}

static void kernels_builtin__generated_java__every_kernel_dispatched(void **state)
{
    kernel_set ks;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    (void)state;
    kernels_builtin(&ks);
    assert_true(ks.n > 100);
    kernels_write_java(&ks, f, 0);
    fclose(f);
    for (size_t k = 0; k < ks.n; k++) {
        char want[160];
        snprintf(want, sizeof want, "static long k_%s(int n)", ks.v[k].name);
        assert_non_null(strstr(text, want));
    }
    free(text);
    kernels_free(&ks);
}

/* The locals --jit hands to sinks: those a statement list declares at its
 * top level with an initializer, and nothing else. */
static void declared(const char *stmts, const char *want)
{
    char names[16][64], got[512] = "";
    size_t n = kernels_declared(stmts, names, 16);
    for (size_t k = 0; k < n; k++) {
        strcat(got, k ? " " : "");
        strcat(got, names[k]);
    }
    assert_string_equal(got, want);
}

static void kernels_declared__statements__initialized_top_level_locals(void **state)
{
    (void)state;
    declared("int[] a = new int[16]; int x = 0;", "a x");
    declared("long w0 = 0, w1 = 0; int x = 0, y = 0;", "w0 w1 x y");
    declared("java.nio.MappedByteBuffer m = MAP(262144); boolean b;", "m");
    declared("int j = i & 7; a[j] = a[j + 8] + x; x = a[j + 1];", "j");
    declared("java.util.Map<String, Integer> m = new java.util.HashMap<String, Integer>(); m.put(\"a,b\", 1);", "m");
    declared("for (int k = 0; k < 3; k++) { int z = k; } double d = 1.5;", "d");
    declared("if (x < y) x = y; final Object o = sof(null), p = new int[] { 1, 2 };", "o p");
    declared("String s = \"a;b = c\"; char c = ';'; x = y == z ? 1 : 2;", "s c");
    declared("x += 1000; y = x; w129 = w128 + y; f(a, b); acc ^= x == 0 ? 1 : 0;", "");
    declared("", "");
}

/* --jit's Kernels.java sinks every such local; the -Xint one has no sink calls. */
static void kernels_write_java__sink__locals_reach_acc(void **state)
{
    kernel_set ks = { 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    kernels_add(&ks, "t", 0, "int[] a = new int[16]; int x = 0;", "int j = i & 7; a[j] = x;");
    for (int sink = 0; sink <= 1; sink++) {
        f = open_memstream(&text, &len);
        kernels_write_java(&ks, f, sink);
        fclose(f);
        if (sink) {
            const char *body = strstr(text, "a[j] = x;"), *end = body ? strstr(body, "return acc;") : NULL;
            assert_non_null(end);
            /* j inside the loop, before its closing brace; a and x after it */
            assert_non_null(strstr(body, "acc += SINK(j);\n        }\n        acc += SINK(a);\n        acc += SINK(x);\n        return acc;"));
        } else {
            assert_null(strstr(text, "acc += SINK("));
        }
        free(text);
        text = NULL;
    }
    kernels_free(&ks);
}

/* Each Math function the table prices (but abs) is timed with its argument
 * read from an array and with it converted from the loop counter, never
 * with a constant (docs/calibration.md, "Math functions"). */
static void kernels_builtin__math_functions__both_argument_sources(void **state)
{
    static const char *const fn[] = { "sin", "cos", "tan", "sqrt", "log", "log10", "exp", "pow" };
    kernel_set ks;
    (void)state;
    kernels_builtin(&ks);
    for (size_t f = 0; f < sizeof fn / sizeof fn[0]; f++) {
        char call[32];
        int from_array = 0, from_counter = 0;
        snprintf(call, sizeof call, "Math.%s(d", fn[f]);
        for (size_t k = 0; k < ks.n; k++) {
            const char *b = ks.v[k].body;
            if (!strstr(b, call))
                continue;
            from_array += strstr(b, "d = v[i & 1023];") != NULL;
            from_counter += strstr(b, "d = (i & 1023) * 0.01 + 0.005;") != NULL;
        }
        assert_int_equal(from_array, 1);
        assert_int_equal(from_counter, 1);
    }
    for (size_t k = 0; k < ks.n; k++)
        assert_null(strstr(ks.v[k].body, "Math.sin(0"));
    kernels_free(&ks);
}

static void kernels_for_key__supported_and_unsupported_keys(void **state)
{
    kernel_set ks = { 0 };
    char why[256];
    (void)state;
    /* a floating-point argument: two kernels, from an array and from the counter */
    assert_int_equal(kernels_for_key(&ks, "invoke:java.lang.Math.cbrt(D)D", why, sizeof why), 0);
    assert_int_equal(ks.n, 2);
    assert_string_equal(ks.v[0].name, "x_java_lang_Math_cbrt_D_D");
    assert_string_equal(ks.v[0].body, "d = v[i & 1023]; java.lang.Math.cbrt(d);");
    assert_non_null(strstr(ks.v[0].setup, "double[] v = new double[1024];"));
    assert_string_equal(ks.v[1].name, "x_java_lang_Math_cbrt_D_D_i2d");
    assert_string_equal(ks.v[1].body, "d = (i & 1023) * 0.01 + 0.005; java.lang.Math.cbrt(d);");
    assert_int_equal(kernels_for_key(&ks, "invoke:java.lang.Math.scalb(FI)F", why, sizeof why), 0);
    assert_int_equal(ks.n, 4);
    assert_string_equal(ks.v[2].body, "d = v[i & 1023]; java.lang.Math.scalb((float) d, 3);");
    /* no floating-point argument (a double result does not count): one kernel */
    assert_int_equal(kernels_for_key(&ks, "invoke:Foo.f(IJ)D", why, sizeof why), 0);
    assert_int_equal(ks.n, 5);
    assert_string_equal(ks.v[4].body, "Foo.f(3, 3L);");
    assert_string_equal(ks.v[4].setup, "");
    assert_int_equal(kernels_for_key(&ks, "array:java.lang.String", why, sizeof why), 0);
    assert_int_equal(ks.n, 8);   /* three sizes */
    assert_int_equal(kernels_for_key(&ks, "invoke:Foo.bar(Ljava/util/List;)V", why, sizeof why), -1);
    assert_int_equal(kernels_for_key(&ks, "invoke:[I.clone()Ljava/lang/Object;", why, sizeof why), -1);
    assert_int_equal(kernels_for_key(&ks, "opcode:iadd", why, sizeof why), -1);
    assert_int_equal(kernels_for_key(&ks, "ldc:class", why, sizeof why), -1);   /* a built-in kernel's */
    assert_non_null(strstr(why, "ldc:class are always in a calibrated table"));
    assert_int_equal(kernels_for_key(&ks, "nonsense", why, sizeof why), -1);
    kernels_free(&ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_format_price__values__scorer_format),
        cmocka_unit_test(table_escape_attr__markup__escaped),
        cmocka_unit_test(table_write__fitted_model__valid_against_schema),
        cmocka_unit_test(table_write__r2_out_of_range_and_partial_cpu__clamped_and_valid),
        cmocka_unit_test(kernels_builtin__generated_java__every_kernel_dispatched),
        cmocka_unit_test(kernels_declared__statements__initialized_top_level_locals),
        cmocka_unit_test(kernels_write_java__sink__locals_reach_acc),
        cmocka_unit_test(kernels_builtin__math_functions__both_argument_sources),
        cmocka_unit_test(kernels_for_key__supported_and_unsupported_keys),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    xmlCleanupParser();
    return rc;
}
