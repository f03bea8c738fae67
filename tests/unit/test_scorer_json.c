/*
 * test_scorer_json.c - the JSON writer: escaping and key order (scorer/json.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

/* Write v (or the string s) into memory and return it; caller frees. */
static char *render(const json *v, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (v)
        json_write(f, v);
    else
        json_write_string(f, s);
    fclose(f);
    return buf;
}

static void check_string(const char *in, const char *want)
{
    char *got = render(NULL, in);
    assert_string_equal(got, want);
    free(got);
}

static void json_write_string__specials__escaped(void **state)
{
    (void)state;
    check_string("plain", "\"plain\"");
    check_string("a\"b\\c", "\"a\\\"b\\\\c\"");
    check_string("l1\nl2\r\t\b\f", "\"l1\\nl2\\r\\t\\b\\f\"");
    check_string("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
    check_string("", "\"\"");
    check_string("</script>", "\"</script>\"");
}

static void json_write_string__utf8__passed_through(void **state)
{
    (void)state;
    check_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

static void json_write_string__invalid_utf8__replacement_char(void **state)
{
    (void)state;
    check_string("a\xff" "b", "\"a\\ufffdb\"");
    check_string("\xc3", "\"\\ufffd\"");                       /* truncated */
    check_string("\xc0\xaf", "\"\\ufffd\\ufffd\"");            /* overlong '/' */
    check_string("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate */
}

static void json_write__object__keys_sorted_at_every_level(void **state)
{
    json *o = json_object(), *inner = json_object(), *arr = json_array();
    char *got;
    (void)state;
    json_set(inner, "z", json_u64(1));
    json_set(inner, "a", json_bool(0));
    json_set(o, "zeta", inner);
    json_set(o, "alpha", json_null());
    json_push(arr, json_string("x"));
    json_push(arr, json_number("12.5"));
    json_set(o, "mid", arr);
    json_set(o, "empty", json_array());
    json_set(o, "none", json_object());
    json_set(o, "big", json_u64(UINT64_MAX));
    got = render(o, NULL);
    assert_string_equal(got,
        "{\n"
        "  \"alpha\": null,\n"
        "  \"big\": 18446744073709551615,\n"
        "  \"empty\": [],\n"
        "  \"mid\": [\n"
        "    \"x\",\n"
        "    12.5\n"
        "  ],\n"
        "  \"none\": {},\n"
        "  \"zeta\": {\n"
        "    \"a\": false,\n"
        "    \"z\": 1\n"
        "  }\n"
        "}\n");
    free(got);
    json_free(o);
}

static void json_string__null__writes_null(void **state)
{
    json *v = json_string(NULL);
    char *got = render(v, NULL);
    (void)state;
    assert_string_equal(got, "null\n");
    free(got);
    json_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_write_string__specials__escaped),
        cmocka_unit_test(json_write_string__utf8__passed_through),
        cmocka_unit_test(json_write_string__invalid_utf8__replacement_char),
        cmocka_unit_test(json_write__object__keys_sorted_at_every_level),
        cmocka_unit_test(json_string__null__writes_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
