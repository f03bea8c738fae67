/*
 * test_scorer_machine_check.c - comparing a calibrated table with this
 * machine (scorer/machine_check.c), with real tables: the fixture
 * tests/fixtures/scorer/zen5.costs.xml (CPU identity recorded) and edited
 * copies (one without the identity, as tables were written before it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "costs.h"
#include "machine_check.h"
#include "xmlload.h"

#define ZEN5 "tests/fixtures/scorer/zen5.costs.xml"
#define JDK "17.0.15+6-Debian-1deb12u1"

/* The machine zen5.costs.xml describes. */
static machine_here zen5_here(void)
{
    machine_here h;
    memset(&h, 0, sizeof h);
    cpu_ident_parse("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nstepping\t: 1\n", &h.cpu);
    h.tsc_hz = 2096018000u;
    h.jdk = JDK;
    return h;
}

static void load_file(cost_table *t, const char *path)
{
    psf_err e;
    memset(&e, 0, sizeof e);
    if (costs_load_file(t, path, &e) != 0)
        fail_msg("%s: %s", path, e.msg);
}

/* ZEN5 with `from` replaced by `to` (once), loaded. */
static void load_edited(cost_table *t, const char *from, const char *to)
{
    unsigned char *bytes;
    size_t len;
    psf_err e;
    char *pos, *edited;

    memset(&e, 0, sizeof e);
    assert_int_equal(xml_read_file(ZEN5, &bytes, &len, &e), 0);
    pos = strstr((char *)bytes, from);
    assert_non_null(pos);
    edited = malloc(len + strlen(to) + 1);
    assert_non_null(edited);
    memcpy(edited, bytes, (size_t)(pos - (char *)bytes));
    strcpy(edited + (pos - (char *)bytes), to);
    strcat(edited, pos + strlen(from));
    if (costs_load_memory(t, "edited.xml", (unsigned char *)edited, strlen(edited), &e) != 0)
        fail_msg("edited table: %s", e.msg);
    free(edited);
    free(bytes);
}

static int has_note(const char (*v)[MC_NOTE_LEN], size_t n, const char *want)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], want) == 0)
            return 1;
    return 0;
}

static void machine_check__same_machine__matches(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_file(&t, ZEN5);
    assert_string_equal(t.cpu_vendor, "AuthenticAMD");
    assert_int_equal(t.cpu_family, 26);
    assert_int_equal(t.cpu_model_number, 2);
    assert_int_equal(t.cpu_stepping, 1);
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_MATCHES);
    assert_int_equal(mc.n_differences, 0);
    assert_int_equal(mc.n_unchecked, 0);
    /* a TSC within 1%: the same machine measured again */
    h.tsc_hz = 2096018000u + 15000000u;
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_MATCHES);
    costs_free(&t);
}

static void machine_check__other_family__differs_with_reason(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_edited(&t, "cpu_family=\"26\"", "cpu_family=\"25\"");
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_DIFFERS);
    assert_int_equal(mc.n_differences, 1);
    assert_string_equal(mc.differences[0], "cpu family 25 in the table, 26 here");
    costs_free(&t);
}

static void machine_check__every_field_differs__every_reason(void **state)
{
    cost_table t;
    machine_here h;
    machine_check mc;
    (void)state;
    load_file(&t, ZEN5);
    memset(&h, 0, sizeof h);
    cpu_ident_parse("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\nstepping\t: 7\n", &h.cpu);
    h.tsc_hz = 2600000000u;
    h.jdk = "21.0.5+11-Debian-1";
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_DIFFERS);
    assert_int_equal(mc.n_differences, 6);
    assert_true(has_note(mc.differences, mc.n_differences, "cpu vendor AuthenticAMD in the table, GenuineIntel here"));
    assert_true(has_note(mc.differences, mc.n_differences, "cpu family 26 in the table, 6 here"));
    assert_true(has_note(mc.differences, mc.n_differences, "cpu model 2 in the table, 85 here"));
    assert_true(has_note(mc.differences, mc.n_differences, "cpu stepping 1 in the table, 7 here"));
    assert_true(has_note(mc.differences, mc.n_differences, "TSC 2096 MHz in the table, 2600 MHz here"));
    assert_true(has_note(mc.differences, mc.n_differences,
                         "JDK " JDK " in the table, 21.0.5+11-Debian-1 here"));
    costs_free(&t);
}

static void machine_check__only_the_jdk_differs__differs(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_file(&t, ZEN5);
    h.jdk = "17.0.21+1";
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_DIFFERS);
    assert_int_equal(mc.n_differences, 1);
    assert_string_equal(mc.differences[0], "JDK " JDK " in the table, 17.0.21+1 here");
    /* a profile that names no JVM: the JDK is not compared, the CPU still is */
    h.jdk = NULL;
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_MATCHES);
    assert_true(has_note(mc.unchecked, mc.n_unchecked, "JDK: the profile does not name its JVM"));
    costs_free(&t);
}

/* A table written before the identity attributes existed loads, and what
 * it does record (TSC rate, JDK) is still compared. */
static void machine_check__table_without_identity__unknown_or_tsc_differs(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_edited(&t, "cpu_vendor=\"AuthenticAMD\" cpu_family=\"26\" cpu_model_number=\"2\" cpu_stepping=\"1\"", "");
    assert_true(t.calibrated);
    assert_null(t.cpu_vendor);
    assert_int_equal(t.cpu_family, -1);
    assert_int_equal(t.cpu_model_number, -1);
    assert_int_equal(t.cpu_stepping, -1);
    h.jdk = t.jdk_version;
    h.tsc_hz = t.tsc_hz;            /* the same TSC rate: nothing differs, the CPU is unknown */
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_UNKNOWN);
    assert_int_equal(mc.n_differences, 0);
    assert_true(has_note(mc.unchecked, mc.n_unchecked, "cpu family: the table does not record it"));
    assert_true(has_note(mc.unchecked, mc.n_unchecked, "cpu vendor: the table does not record it"));
    h.tsc_hz = t.tsc_hz / 5 * 4;    /* 20% slower: differs */
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_DIFFERS);
    assert_int_equal(mc.n_differences, 1);
    assert_non_null(strstr(mc.differences[0], "MHz in the table"));
    costs_free(&t);
}

static void machine_check__no_cpuinfo_here__unknown(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_file(&t, ZEN5);
    cpu_ident_parse("", &h.cpu);
    h.tsc_hz = 0;
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_UNKNOWN);
    assert_true(has_note(mc.unchecked, mc.n_unchecked, "cpu model: this machine does not report it"));
    assert_true(has_note(mc.unchecked, mc.n_unchecked, "TSC rate: could not be measured here"));
    costs_free(&t);
}

static void machine_check__uncalibrated_or_builtin__not_checked(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    (void)state;
    load_file(&t, "tests/fixtures/scorer/cycles_uncalibrated.costs.xml");
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_NOT_CHECKED);
    costs_free(&t);
    costs_builtin(&t);
    assert_int_equal(t.cpu_family, -1);
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_NOT_CHECKED);
    costs_free(&t);
}

/* The reasons as one line: the differences in the order they are found,
 * what was not compared when nothing differs, nothing for a match, and a
 * short buffer cut but terminated. */
static void machine_check_reasons__per_verdict__joined_notes(void **state)
{
    cost_table t;
    machine_here h = zen5_here();
    machine_check mc;
    char buf[MC_MAX_NOTES * MC_NOTE_LEN], small[12];
    (void)state;

    load_edited(&t, "cpu_stepping=\"1\"", "cpu_stepping=\"4\"");
    h.tsc_hz = 3000000000u;
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_DIFFERS);
    assert_string_equal(machine_check_reasons(&mc, buf, sizeof buf),
                        "cpu stepping 4 in the table, 1 here; TSC 2096 MHz in the table, 3000 MHz here");
    assert_string_equal(machine_check_reasons(&mc, small, sizeof small), "cpu steppin");
    costs_free(&t);

    load_file(&t, ZEN5);
    h = zen5_here();
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_MATCHES);
    assert_string_equal(machine_check_reasons(&mc, buf, sizeof buf), "");

    memset(&h.cpu, 0, sizeof h.cpu);
    cpu_ident_parse("", &h.cpu);
    machine_check_table(&t, &h, &mc);
    assert_int_equal(mc.verdict, MC_UNKNOWN);
    assert_string_equal(machine_check_reasons(&mc, buf, sizeof buf),
                        "cpu vendor: this machine does not report it; cpu family: this machine does not report it; "
                        "cpu model: this machine does not report it; cpu stepping: this machine does not report it");
    costs_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(machine_check__same_machine__matches),
        cmocka_unit_test(machine_check__other_family__differs_with_reason),
        cmocka_unit_test(machine_check__every_field_differs__every_reason),
        cmocka_unit_test(machine_check__only_the_jdk_differs__differs),
        cmocka_unit_test(machine_check__table_without_identity__unknown_or_tsc_differs),
        cmocka_unit_test(machine_check__no_cpuinfo_here__unknown),
        cmocka_unit_test(machine_check__uncalibrated_or_builtin__not_checked),
        cmocka_unit_test(machine_check_reasons__per_verdict__joined_notes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
