/* Unit tests for agent/mutf8.c: modified UTF-8 (as JVMTI returns names) to UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mutf8.h"

static void mutf8_to_utf8__ascii_and_bmp__unchanged(void **state)
{
    (void)state;
    char out[64];
    const char *in = "pkg.Gr\xc3\xbc\xc3\x9f" "e.\xe6\x97\xa5";  /* Grüße.日 */
    assert_int_equal(mutf8_to_utf8(in, strlen(in), out, sizeof out), strlen(in));
    assert_string_equal(out, in);
}

static void mutf8_to_utf8__surrogate_pair__one_four_byte_sequence(void **state)
{
    (void)state;
    /* U+1F600 in modified UTF-8: D83D DE00 as two 3-byte sequences */
    const char in[] = "a\xed\xa0\xbd\xed\xb8\x80" "b";
    char out[16];
    assert_int_equal(mutf8_to_utf8(in, sizeof in - 1, out, sizeof out), 6);
    assert_string_equal(out, "a\xf0\x9f\x98\x80" "b");
}

static void mutf8_to_utf8__nul_and_lone_surrogate__replacement_char(void **state)
{
    (void)state;
    const char in[] = "x\xc0\x80y\xed\xa0\xbdz";
    char out[32];
    mutf8_to_utf8(in, sizeof in - 1, out, sizeof out);
    assert_string_equal(out, "x\xef\xbf\xbdy\xef\xbf\xbdz");
}

static void mutf8_to_utf8__malformed_and_control__replaced(void **state)
{
    (void)state;
    const char in[] = "\x01\xff\xc3";
    char out[32];
    mutf8_to_utf8(in, sizeof in - 1, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

static void mutf8_to_utf8__small_buffer__truncated_and_terminated(void **state)
{
    (void)state;
    char out[4];
    assert_int_equal(mutf8_to_utf8("abcdef", 6, out, sizeof out), 6);
    assert_string_equal(out, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mutf8_to_utf8__ascii_and_bmp__unchanged),
        cmocka_unit_test(mutf8_to_utf8__surrogate_pair__one_four_byte_sequence),
        cmocka_unit_test(mutf8_to_utf8__nul_and_lone_surrogate__replacement_char),
        cmocka_unit_test(mutf8_to_utf8__malformed_and_control__replaced),
        cmocka_unit_test(mutf8_to_utf8__small_buffer__truncated_and_terminated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
