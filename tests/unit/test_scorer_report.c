/*
 * test_scorer_report.c - the student report's words (scorer/report.c):
 * Java names for descriptors, plain-words groups for opcodes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"
#include "report_fmt.h"

static void pretty(const char *in, const char *want)
{
    char *s = report_pretty_method(in);
    assert_string_equal(s, want);
    free(s);
}

static void report_pretty_method__descriptors__java_types(void **state)
{
    (void)state;
    pretty("Sorter.sort([I)V", "Sorter.sort(int[])");
    pretty("a.B.f(JD[[Ljava/lang/String;Z)I", "a.B.f(long, double, String[][], boolean)");
    pretty("Outer$Inner.<init>()V", "Outer$Inner.<init>()");
    pretty("no.descriptor", "no.descriptor");
    pretty("bad.f(Ljava/lang/Str", "bad.f(Ljava/lang/Str)");   /* unterminated: kept as written */
}

static void group(const char *mn, const char *want)
{
    const char *explain = NULL;
    assert_string_equal(report_opcode_group(mn, &explain), want);
    assert_non_null(explain);
}

static void report_opcode_group__mnemonics__plain_words(void **state)
{
    (void)state;
    group("iaload", "reading array elements");
    group("aastore", "writing array elements");
    group("if_icmpge", "comparisons and branches");
    group("ifnull", "comparisons and branches");
    group("iinc", "counting up or down");
    group("iload_1", "reading local variables");
    group("astore", "writing local variables");
    group("invokevirtual", "method calls");
    group("ireturn", "returns");
    group("return", "returns");
    group("lushr", "arithmetic");
    group("i2l", "number conversions");
    group("ldc_w", "loading constants");
    group("goto_w", "jumps");
    group("dup_x1", "operand stack housekeeping");
    group("breakpoint", "other");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_pretty_method__descriptors__java_types),
        cmocka_unit_test(report_opcode_group__mnemonics__plain_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
