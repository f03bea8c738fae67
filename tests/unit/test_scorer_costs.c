/*
 * test_scorer_costs.c - the cost-table loader (scorer/costs.c): valid
 * tables, and every rejection with its line number.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bytecode.h"
#include "costs.h"
#include "sha256.h"
#include "xmlload.h"

#define HEAD "<?xml version=\"1.0\"?>\n"                      /* line 1 */
#define ROOT "<costs unit=\"bytecodes\" calibrated=\"false\">\n" /* line 2 */
#define DEF  "  <default cost=\"1\"/>\n"                       /* line 3 */
#define END  "</costs>\n"

#define CALIBRATED_ROOT \
    "<costs unit=\"cycles\" calibrated=\"true\" cpu_model=\"X\" tsc_hz=\"3000000000\"" \
    " jdk_version=\"17.0.15\" jvm_flags=\"-Xint\" date=\"2025-11-22\" fit_r2=\"0.99\"" \
    " isolated_core=\"false\">\n"

static int load(cost_table *t, const char *xml, psf_err *e)
{
    memset(e, 0, sizeof *e);
    return costs_load_memory(t, "t.xml", (const unsigned char *)xml, strlen(xml), e);
}

/* The table must be rejected with a message that starts "t.xml:LINE:" and
 * contains `part`. */
static void rejected(const char *xml, long line, const char *part)
{
    cost_table t;
    psf_err e;
    char prefix[32];

    assert_int_equal(load(&t, xml, &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    snprintf(prefix, sizeof prefix, "t.xml:%ld:", line);
    if (strncmp(e.msg, prefix, strlen(prefix)) != 0 || !strstr(e.msg, part))
        fail_msg("got \"%s\", want prefix \"%s\" and \"%s\"", e.msg, prefix, part);
    assert_null(t.path);       /* left empty */
    costs_free(&t);
}

static void costs_load__minimal_table__loads(void **state)
{
    cost_table t;
    psf_err e;
    const char *xml = HEAD ROOT DEF
        "  <opcode name=\"iadd\" cost=\"0.5\"/>\n"
        "  <array elem=\"int\" cost=\"2\" cost_per_element=\"0.125\"/>\n"
        "  <array elem=\"reference\" cost=\"3\" cost_per_element=\"1\"/>\n"
        "  <new class=\"java.lang.StringBuilder\" cost=\"4\"/>\n"
        "  <invoke method=\"java.lang.Math.sin(D)D\" cost=\"30\"/>\n"
        "  <invoke method=\"java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V\""
        " cost=\"50\" cost_per_element=\"0.5\"/>\n"
        "  <opcode name=\"nop\" cost=\"0\"/>\n"
        "  <call kind=\"close\" cost=\"0.96\"/>\n"
        "  <call kind=\"fence_alloc\" cost=\"0.5\"/>\n"
        "  <ldc constant=\"class\" cost=\"61.5\"/>\n"
        END;
    char hex[65];
    (void)state;

    assert_int_equal(load(&t, xml, &e), 0);
    assert_string_equal(t.path, "t.xml");
    assert_string_equal(t.unit, "bytecodes");
    assert_false(t.calibrated);
    assert_false(t.builtin);
    assert_true(t.default_cost == 1000000);
    assert_true(t.has_opcode[bc_opcode("iadd")]);
    assert_true(t.opcode[bc_opcode("iadd")] == 500000);
    assert_true(t.has_opcode[bc_opcode("nop")]);
    assert_true(t.opcode[bc_opcode("nop")] == 0);
    assert_false(t.has_opcode[bc_opcode("isub")]);
    assert_true(t.has_call[CALLK_CLOSE] && t.call[CALLK_CLOSE] == 960000);
    assert_true(t.has_call[CALLK_FENCE_ALLOC] && t.call[CALLK_FENCE_ALLOC] == 500000);
    assert_false(t.has_call[CALLK_FENCE_NATIVE]);
    assert_true(t.has_ldc_class && t.ldc_class == 61500000);
    assert_int_equal(t.arrays.n, 2);
    assert_true(costs_find(&t.arrays, "int")->per_element == 125000);
    assert_true(costs_find(&t.arrays, "reference")->cost == 3000000);
    assert_null(costs_find(&t.arrays, "long"));
    assert_true(costs_find(&t.news, "java.lang.StringBuilder")->cost == 4000000);
    assert_true(costs_find(&t.invokes, "java.lang.Math.sin(D)D")->cost == 30000000);
    assert_null(costs_find(&t.invokes, "java.lang.Math.cos(D)D"));
    assert_true(costs_find(&t.invokes, "java.lang.Math.sin(D)D")->per_element == 0);
    assert_true(costs_find(&t.invokes, "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V")
                    ->per_element == 500000);
    sha256_hex(xml, strlen(xml), hex);
    assert_string_equal(t.sha256, hex);
    costs_free(&t);
}

static void costs_load__calibrated_table__keeps_machine(void **state)
{
    cost_table t;
    psf_err e;
    (void)state;
    assert_int_equal(load(&t, HEAD CALIBRATED_ROOT DEF END, &e), 0);
    assert_true(t.calibrated);
    assert_string_equal(t.unit, "cycles");
    assert_string_equal(t.cpu_model, "X");
    assert_true(t.tsc_hz == 3000000000u);
    assert_string_equal(t.jdk_version, "17.0.15");
    assert_string_equal(t.jvm_flags, "-Xint");
    assert_string_equal(t.date, "2025-11-22");
    assert_string_equal(t.fit_r2, "0.99");
    assert_false(t.isolated_core);
    costs_free(&t);
}

/* The shipped table is a calibration of the reference machine: in cycles,
 * with its metadata (the CPU that measured it included, so that psf-score
 * can tell another machine), and pricing every JVMS opcode. */
static void costs_load__shipped_table__calibrated_and_complete(void **state)
{
    cost_table t;
    psf_err e;
    (void)state;
    assert_int_equal(costs_load_file(&t, "config/costs.xml", &e), 0);
    assert_true(t.calibrated);
    assert_string_equal(t.unit, "cycles");
    assert_non_null(t.cpu_model);
    assert_non_null(t.cpu_vendor);
    assert_true(t.cpu_family >= 0);
    assert_true(t.cpu_model_number >= 0);
    assert_true(t.tsc_hz > 0);
    for (unsigned op = 0; op < 256; op++)
        assert_int_equal(t.has_opcode[op], (bc_flags((uint8_t)op) & BCF_VALID) != 0);
    costs_free(&t);
}

static void costs_load__unit_table__every_opcode_at_one(void **state)
{
    cost_table t;
    psf_err e;
    unsigned n = 0;
    (void)state;
    assert_int_equal(costs_load_file(&t, "config/costs-uncalibrated.xml", &e), 0);
    assert_false(t.calibrated);
    assert_string_equal(t.unit, "bytecodes");
    for (unsigned op = 0; op < 256; op++) {
        assert_int_equal(t.has_opcode[op], (bc_flags((uint8_t)op) & BCF_VALID) != 0);
        if (t.has_opcode[op]) {
            assert_true(t.opcode[op] == 1000000);
            n++;
        }
    }
    assert_int_equal(n, 202);
    assert_int_equal(t.arrays.n, 9);
    assert_true(costs_find(&t.arrays, "reference")->per_element == 0);
    assert_true(t.default_cost == 1000000);
    costs_free(&t);
}

static void costs_builtin__every_opcode_one__nothing_else(void **state)
{
    cost_table t;
    (void)state;
    costs_builtin(&t);
    assert_true(t.builtin);
    assert_null(t.path);
    assert_string_equal(t.unit, "bytecodes");
    assert_true(t.opcode[bc_opcode("multianewarray")] == 1000000);
    assert_int_equal(t.arrays.n + t.news.n + t.invokes.n, 0);
    costs_free(&t);
}

static void costs_load__negative_cost__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"1\"/>\n  <opcode name=\"isub\" cost=\"-1\"/>\n" END,
             5, "<opcode name=\"isub\">: cost=\"-1\" is negative");
}

static void costs_load__nan_and_exponent__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"NaN\"/>\n" END, 4, "is not a number");
    rejected(HEAD ROOT DEF "\n\n  <new class=\"A\" cost=\"1e3\"/>\n" END, 6, "uses an exponent");
    rejected(HEAD ROOT "  <default cost=\"inf\"/>\n" END, 3, "<default>: cost=\"inf\" is not a number");
}

static void costs_load__absurd_magnitude__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <array elem=\"int\" cost=\"1\" cost_per_element=\"1000000001\"/>\n" END,
             4, "cost_per_element=\"1000000001\" is larger than 1000000000");
}

static void costs_load__too_many_decimals__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"0.0000001\"/>\n" END, 4, "more than 6 decimal places");
}

static void costs_load__unknown_cost_attribute__checked_as_price(void **state)
{
    (void)state;
    /* Every cost* attribute is a price, even one the schema then refuses. */
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"1\" costly=\"x\"/>\n" END, 4, "costly=\"x\"");
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"1\" cost_extra=\"2\"/>\n" END, 4, "does not match the schema");
}

static void costs_load__duplicate_keys__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"1\"/>\n  <opcode name=\"iadd\" cost=\"2\"/>\n" END,
             5, "iadd");
    rejected(HEAD ROOT DEF "  <array elem=\"int\" cost=\"1\" cost_per_element=\"0\"/>\n"
             "  <new class=\"A\" cost=\"1\"/>\n"
             "  <array elem=\"int\" cost=\"1\" cost_per_element=\"0\"/>\n" END, 6, "int");
    rejected(HEAD ROOT DEF "  <invoke method=\"A.b()V\" cost=\"1\"/>\n  <invoke method=\"A.b()V\" cost=\"1\"/>\n" END,
             5, "A.b()V");
    rejected(HEAD ROOT DEF "  <new class=\"A\" cost=\"1\"/>\n  <new class=\"A\" cost=\"1\"/>\n" END, 5, "A");
    rejected(HEAD ROOT DEF "  <call kind=\"close\" cost=\"1\"/>\n  <call kind=\"close\" cost=\"2\"/>\n" END, 5,
             "close");
    rejected(HEAD ROOT DEF "  <call kind=\"fence_native\" cost=\"1\"/>\n  <call kind=\"close\" cost=\"1\"/>\n"
             "  <call kind=\"fence_native\" cost=\"2\"/>\n" END, 6, "fence_native");
}

static void costs_load__unknown_mnemonic__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT DEF "  <opcode name=\"iad\" cost=\"1\"/>\n" END, 4, "not a JVMS opcode mnemonic");
    rejected(HEAD ROOT DEF "  <opcode name=\"impdep1\" cost=\"1\"/>\n" END, 4, "not a JVMS opcode mnemonic");
}

static void costs_load__schema_violations__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD ROOT "  <opcode name=\"iadd\" cost=\"1\"/>\n" END, 3, "does not match the schema");   /* no default */
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\"/>\n" END, 4, "does not match the schema");
    rejected(HEAD ROOT DEF "  <array elem=\"int\" cost=\"1\"/>\n" END, 4, "cost_per_element");
    rejected(HEAD ROOT DEF "  <bogus/>\n" END, 4, "does not match the schema");
    rejected(HEAD ROOT DEF "  <call kind=\"entry\" cost=\"1\"/>\n" END, 4, "does not match the schema");
    rejected(HEAD ROOT DEF "  <ldc constant=\"class\" cost=\"1\"/>\n  <ldc constant=\"class\" cost=\"2\"/>\n" END, 5,
             "one-ldc-entry");
    rejected(HEAD ROOT DEF "  <ldc constant=\"string\" cost=\"1\"/>\n" END, 4, "does not match the schema");
    rejected(HEAD "<costs unit=\"seconds\" calibrated=\"false\">\n" DEF END, 2, "does not match the schema");
    rejected(HEAD "<costs unit=\"cycles\" calibrated=\"true\" tsc_hz=\"0\">\n" DEF END, 2, "tsc_hz");
}

static void costs_load__calibration_rules__rejected_with_line(void **state)
{
    (void)state;
    rejected(HEAD "<costs unit=\"cycles\" calibrated=\"true\">\n" DEF END, 2, "must say cpu_model=");
    rejected(HEAD "<costs unit=\"bytecodes\" calibrated=\"true\" cpu_model=\"X\" tsc_hz=\"1\""
             " jdk_version=\"1\" jvm_flags=\"\" date=\"2025-01-01\" fit_r2=\"1\" isolated_core=\"true\">\n"
             DEF END, 2, "unit=\"cycles\"");
}

static void costs_load__not_a_table__rejected(void **state)
{
    (void)state;
    rejected(HEAD "<psf-profile version=\"1\" status=\"ok\"/>\n", 2, "not a cost table");
    rejected(HEAD ROOT DEF "  <opcode name=\"iadd\" cost=\"1\"/>\n  <opcode na", 5, "malformed XML");
    rejected(HEAD "<!DOCTYPE costs [<!ENTITY x \"1\">]>\n" ROOT DEF END, 2, "DOCTYPE");
}

static void costs_load__truncated_or_empty_file__rejected(void **state)
{
    cost_table t;
    psf_err e;
    (void)state;
    assert_int_equal(costs_load_memory(&t, "t.xml", (const unsigned char *)"", 0, &e), -1);
    assert_string_equal(e.msg, "t.xml: empty file");
    rejected(HEAD ROOT DEF, 4, "malformed XML");
}

static void costs_load_file__missing_file__says_so(void **state)
{
    cost_table t;
    psf_err e;
    (void)state;
    assert_int_equal(costs_load_file(&t, "tests/fixtures/scorer/no-such-table.xml", &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    assert_string_equal(e.msg, "tests/fixtures/scorer/no-such-table.xml: cannot open: No such file or directory");
    assert_int_equal(costs_load_file(&t, "tests", &e), -1);
    assert_string_equal(e.msg, "tests: not a regular file (a directory)");
}

static int teardown(void **state)
{
    (void)state;
    xml_cleanup();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(costs_load__minimal_table__loads),
        cmocka_unit_test(costs_load__calibrated_table__keeps_machine),
        cmocka_unit_test(costs_load__unit_table__every_opcode_at_one),
        cmocka_unit_test(costs_load__shipped_table__calibrated_and_complete),
        cmocka_unit_test(costs_builtin__every_opcode_one__nothing_else),
        cmocka_unit_test(costs_load__negative_cost__rejected_with_line),
        cmocka_unit_test(costs_load__nan_and_exponent__rejected_with_line),
        cmocka_unit_test(costs_load__absurd_magnitude__rejected_with_line),
        cmocka_unit_test(costs_load__too_many_decimals__rejected_with_line),
        cmocka_unit_test(costs_load__unknown_cost_attribute__checked_as_price),
        cmocka_unit_test(costs_load__duplicate_keys__rejected_with_line),
        cmocka_unit_test(costs_load__unknown_mnemonic__rejected_with_line),
        cmocka_unit_test(costs_load__schema_violations__rejected_with_line),
        cmocka_unit_test(costs_load__calibration_rules__rejected_with_line),
        cmocka_unit_test(costs_load__not_a_table__rejected),
        cmocka_unit_test(costs_load__truncated_or_empty_file__rejected),
        cmocka_unit_test(costs_load_file__missing_file__says_so),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
