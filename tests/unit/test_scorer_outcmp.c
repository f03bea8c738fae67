/*
 * test_scorer_outcmp.c - the program's output judged against the expected
 * output (scorer/outcmp.c): byte for byte by default, trailing white space
 * ignored on request, and the first differing line named in the message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "outcmp.h"

static int cmp(const char *e, size_t el, const char *g, size_t gl, int trim, char *msg)
{
    return outcmp_equal((const unsigned char *)e, el, (const unsigned char *)g, gl, trim, msg, OUTCMP_MSG_MAX);
}
#define CMP(e, g, trim, msg) cmp(e, strlen(e), g, strlen(g), trim, msg)

static void outcmp__same_bytes__equal(void **state)
{
    char msg[OUTCMP_MSG_MAX];
    (void)state;
    assert_int_equal(CMP("SORTED\n", "SORTED\n", 0, msg), 1);
    assert_string_equal(msg, "");
    assert_int_equal(CMP("", "", 0, msg), 1);
    assert_int_equal(CMP("a\nb", "a\nb", 0, msg), 1);
    /* NUL bytes are bytes like any other */
    assert_int_equal(cmp("a\0b\n", 4, "a\0b\n", 4, 0, msg), 1);
}

static void outcmp__differing_line__named_with_both_sides(void **state)
{
    char msg[OUTCMP_MSG_MAX];
    (void)state;
    assert_int_equal(CMP("n=2000\ntime\nSORTED\n", "n=2000\ntime\nNOT SORTED\n", 0, msg), 0);
    assert_string_equal(msg, "line 3: expected 'SORTED', got 'NOT SORTED'");
    /* a difference after a NUL byte is found: no string functions on the output */
    assert_int_equal(cmp("a\0b\n", 4, "a\0c\n", 4, 0, msg), 0);
    assert_string_equal(msg, "line 1: expected 'a\\x00b', got 'a\\x00c'");
}

static void outcmp__shorter_or_longer__says_the_end(void **state)
{
    char msg[OUTCMP_MSG_MAX];
    (void)state;
    assert_int_equal(CMP("a\nb\n", "a\n", 0, msg), 0);
    assert_string_equal(msg, "line 2: expected 'b', got the end of the output");
    assert_int_equal(CMP("a\n", "a\nextra\n", 0, msg), 0);
    assert_string_equal(msg, "line 2: expected the end of the output, got 'extra'");
    assert_int_equal(CMP("", "x", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected the end of the output, got 'x'");
}

static void outcmp__exact__trailing_space_and_newline_count(void **state)
{
    char msg[OUTCMP_MSG_MAX];
    (void)state;
    assert_int_equal(CMP("ok\n", "ok \n", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected 'ok', got 'ok '");
    assert_int_equal(CMP("ok\n", "ok\r\n", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected 'ok', got 'ok\\r'");
    assert_int_equal(CMP("ok\n", "ok", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected 'ok' and a newline, got 'ok' at the end of the output without one");
    assert_int_equal(CMP("ok", "ok\n", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected 'ok' at the end of the output without a newline, got 'ok' and a newline");
    assert_int_equal(CMP("ok\n", "ok\n\n", 0, msg), 0);
    assert_string_equal(msg, "line 2: expected the end of the output, got ''");
}

static void outcmp__ignore_trailing_space__only_at_line_ends(void **state)
{
    char msg[OUTCMP_MSG_MAX];
    (void)state;
    assert_int_equal(CMP("a\nb\n", "a  \t\r\nb", 1, msg), 1);
    assert_int_equal(CMP("a\nb", "a\nb\n\n  \n", 1, msg), 1);
    assert_int_equal(CMP("a\nb\n\n", "a\nb", 1, msg), 1);
    /* space inside a line, or at its start, still counts */
    assert_int_equal(CMP("a b\n", "a  b\n", 1, msg), 0);
    assert_string_equal(msg, "line 1: expected 'a b', got 'a  b'");
    assert_int_equal(CMP("x\n", " x\n", 1, msg), 0);
    assert_string_equal(msg, "line 1: expected 'x', got ' x'");
    /* a blank line between lines is a line */
    assert_int_equal(CMP("a\nb\n", "a\n\nb\n", 1, msg), 0);
    assert_string_equal(msg, "line 2: expected 'b', got ''");
    assert_int_equal(CMP("a\n", "a\nb\n", 1, msg), 0);
    assert_string_equal(msg, "line 2: expected the end of the output, got 'b'");
}

static void outcmp__long_line__cut_and_escaped(void **state)
{
    char msg[OUTCMP_MSG_MAX], e[300], g[300];
    (void)state;
    memset(e, 'x', 200);
    e[200] = '\0';
    memcpy(g, e, 201);
    g[199] = 'y';
    assert_int_equal(CMP(e, g, 0, msg), 0);
    /* 80 bytes of each side, then "..." */
    char want[400];
    snprintf(want, sizeof want, "line 1: expected '%.80s...', got '%.80s...'", e, g);
    assert_string_equal(msg, want);
    /* every unprintable byte escaped, so the message is one printable line */
    assert_int_equal(CMP("\x01\t'\\\n", "\xff\n", 0, msg), 0);
    assert_string_equal(msg, "line 1: expected '\\x01\\t\\'\\\\', got '\\xff'");
}

static void outcmp__small_buffer__cut_not_overrun(void **state)
{
    char msg[16];
    (void)state;
    memset(msg, '#', sizeof msg);
    assert_int_equal(outcmp_equal((const unsigned char *)"SORTED\n", 7, (const unsigned char *)"NOT SORTED\n", 11,
                                  0, msg, 10), 0);
    assert_string_equal(msg, "line 1: e");
    assert_int_equal(msg[10], '#');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outcmp__same_bytes__equal),
        cmocka_unit_test(outcmp__differing_line__named_with_both_sides),
        cmocka_unit_test(outcmp__shorter_or_longer__says_the_end),
        cmocka_unit_test(outcmp__exact__trailing_space_and_newline_count),
        cmocka_unit_test(outcmp__ignore_trailing_space__only_at_line_ends),
        cmocka_unit_test(outcmp__long_line__cut_and_escaped),
        cmocka_unit_test(outcmp__small_buffer__cut_not_overrun),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
