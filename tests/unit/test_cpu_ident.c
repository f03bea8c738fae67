/*
 * test_cpu_ident.c - reading the CPU's identity from /proc/cpuinfo text
 * (common/cpu_ident.c): the first processor's block, "model" apart from
 * "model name", unknown fields left unknown; and the TSC rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cpu_ident.h"

/* The head of this machine's /proc/cpuinfo (a family-26 EPYC under a
 * hypervisor), with a second processor that must not override the first. */
static const char *const EPYC =
    "processor\t: 0\n"
    "vendor_id\t: AuthenticAMD\n"
    "cpu family\t: 26\n"
    "model\t\t: 2\n"
    "model name\t: AMD EPYC\n"
    "stepping\t: 1\n"
    "microcode\t: 0xffffffff\n"
    "cpu MHz\t\t: 2096.018\n"
    "flags\t\t: fpu vme tsc constant_tsc nonstop_tsc\n"
    "\n"
    "processor\t: 1\n"
    "vendor_id\t: GenuineIntel\n"
    "cpu family\t: 6\n"
    "model\t\t: 85\n"
    "stepping\t: 7\n";

static void cpu_ident_parse__epyc__first_block_fields(void **state)
{
    cpu_ident id;
    (void)state;
    cpu_ident_parse(EPYC, &id);
    assert_string_equal(id.vendor, "AuthenticAMD");
    assert_int_equal(id.family, 26);
    assert_int_equal(id.model, 2);
    assert_int_equal(id.stepping, 1);
    assert_string_equal(id.model_name, "AMD EPYC");
}

static void cpu_ident_parse__intel_model_name_first__model_is_the_number(void **state)
{
    cpu_ident id;
    (void)state;
    cpu_ident_parse("processor\t: 0\r\n"
                    "vendor_id\t: GenuineIntel\n"
                    "model name\t: Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz   \n"
                    "model\t\t: 85\n"
                    "cpu family\t: 6\n"
                    "stepping\t: 7\n", &id);
    assert_string_equal(id.vendor, "GenuineIntel");
    assert_int_equal(id.family, 6);
    assert_int_equal(id.model, 85);
    assert_int_equal(id.stepping, 7);
    assert_string_equal(id.model_name, "Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz");
}

static void cpu_ident_parse__missing_and_odd_fields__unknown(void **state)
{
    cpu_ident id;
    (void)state;
    /* an ARM-style cpuinfo: none of the x86 fields */
    cpu_ident_parse("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n", &id);
    assert_string_equal(id.vendor, "");
    assert_int_equal(id.family, -1);
    assert_int_equal(id.model, -1);
    assert_int_equal(id.stepping, -1);
    assert_string_equal(id.model_name, "");
    /* a stepping that is not a number, a model without a colon, no text at all */
    cpu_ident_parse("stepping\t: unknown\nmodel 5\ncpu family\t: 1234567890\n", &id);
    assert_int_equal(id.stepping, -1);
    assert_int_equal(id.model, -1);
    assert_int_equal(id.family, -1);
    cpu_ident_parse("", &id);
    assert_int_equal(id.family, -1);
}

static void cpu_ident_parse__long_vendor__cut_to_fit(void **state)
{
    cpu_ident id;
    char text[400];
    (void)state;
    memset(text, 0, sizeof text);
    strcpy(text, "vendor_id\t: ");
    memset(text + strlen(text), 'V', 200);
    cpu_ident_parse(text, &id);
    assert_int_equal(strlen(id.vendor), sizeof id.vendor - 1);
}

static void cpu_tsc_hz__this_machine__a_plausible_rate(void **state)
{
    double spread = -1;
    uint64_t hz;
    (void)state;
    hz = cpu_tsc_hz(3, 2, &spread);
    /* any x86 TSC of the last twenty years runs between 100 MHz and 10 GHz */
    assert_true(hz > 100000000u && hz < 10000000000u);
    assert_true(spread >= 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_ident_parse__epyc__first_block_fields),
        cmocka_unit_test(cpu_ident_parse__intel_model_name_first__model_is_the_number),
        cmocka_unit_test(cpu_ident_parse__missing_and_odd_fields__unknown),
        cmocka_unit_test(cpu_ident_parse__long_vendor__cut_to_fit),
        cmocka_unit_test(cpu_tsc_hz__this_machine__a_plausible_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
