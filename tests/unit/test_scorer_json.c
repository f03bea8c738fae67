/*
 * test_scorer_json.c - psf-score's JSON output on jansson (scorer/json.c):
 * numbers written exactly, strings from arbitrary bytes, key order and
 * layout of the writer.
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

/* Write v into memory and return the text; caller frees. Takes v. */
static char *render(json_t *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_non_null(v);
    assert_int_equal(psf_json_write(f, v), 0);
    fclose(f);
    json_decref(v);
    return buf;
}

static void check(json_t *v, const char *want)
{
    char *got = render(v);
    assert_string_equal(got, want);
    free(got);
}

static void psf_json_write__object__keys_sorted_at_every_level(void **state)
{
    json_t *o = json_object(), *inner = json_object(), *arr = json_array();
    (void)state;
    json_object_set_new(inner, "z", psf_json_u64(1));
    json_object_set_new(inner, "a", json_boolean(0));
    json_object_set_new(o, "zeta", inner);
    json_object_set_new(o, "alpha", json_null());
    json_array_append_new(arr, psf_json_string("x"));
    json_array_append_new(arr, psf_json_number("12.5"));
    json_object_set_new(o, "mid", arr);
    json_object_set_new(o, "empty", json_array());
    json_object_set_new(o, "none", json_object());
    json_object_set_new(o, "big", psf_json_u64(UINT64_MAX));
    check(o,
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
}

static void psf_json_u64__around_llong_max__exact(void **state)
{
    json_t *a = json_array();
    json_t *fits = psf_json_u64(9223372036854775807u);
    (void)state;
    assert_true(json_is_integer(fits)); /* jansson's own integer where it can hold it */
    json_array_append_new(a, fits);
    json_array_append_new(a, psf_json_u64(9223372036854775808u));
    json_array_append_new(a, psf_json_u64(0));
    check(a, "[\n  9223372036854775807,\n  9223372036854775808,\n  0\n]\n");
}

static void psf_json_number__decimals__written_as_given(void **state)
{
    json_t *a = json_array();
    (void)state;
    json_array_append_new(a, psf_json_number("0.000001"));
    json_array_append_new(a, psf_json_number("1844674407370955161.5"));
    json_array_append_new(a, psf_json_number("0.98"));
    json_array_append_new(a, psf_json_number("7"));
    check(a, "[\n  0.000001,\n  1844674407370955161.5,\n  0.98,\n  7\n]\n");
}

static void psf_json_number__not_plain_decimal__string_or_null(void **state)
{
    json_t *a = json_array();
    (void)state;
    json_array_append_new(a, psf_json_number("1e5"));
    json_array_append_new(a, psf_json_number("-1"));
    json_array_append_new(a, psf_json_number("1."));
    json_array_append_new(a, psf_json_number(""));
    json_array_append_new(a, psf_json_number(NULL));
    check(a, "[\n  \"1e5\",\n  \"-1\",\n  \"1.\",\n  \"\",\n  null\n]\n");
}

static void psf_json_string__specials__escaped(void **state)
{
    (void)state;
    check(psf_json_string("a\"b\\c"), "\"a\\\"b\\\\c\"\n");
    check(psf_json_string("l1\nl2\r\t\b\f"), "\"l1\\nl2\\r\\t\\b\\f\"\n");
    check(psf_json_string("\x01"), "\"\\u0001\"\n");
    check(psf_json_string(""), "\"\"\n");
    check(psf_json_string("</script>"), "\"</script>\"\n");
}

static void psf_json_string__utf8__passed_through(void **state)
{
    (void)state;
    check(psf_json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n");
}

static void psf_json_string__invalid_utf8__replacement_char(void **state)
{
    (void)state;
    check(psf_json_string("a\xff" "b"), "\"a\xef\xbf\xbd" "b\"\n");
    check(psf_json_string("\xc3"), "\"\xef\xbf\xbd\"\n");                            /* truncated */
    check(psf_json_string("\xc0\xaf"), "\"\xef\xbf\xbd\xef\xbf\xbd\"\n");            /* overlong '/' */
    check(psf_json_string("\xed\xa0\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"\n"); /* surrogate */
}

/* Text that looks like the number tag stays a string: only a real NUL,
 * which no C string carries, makes one. */
static void psf_json_write__tag_lookalike__stays_string(void **state)
{
    json_t *o = json_object();
    (void)state;
    json_object_set_new(o, "\\u0000 1", psf_json_string("\\u00001"));
    json_object_set_new(o, "q", psf_json_string("\"\\u00002\""));
    check(o, "{\n  \"\\\\u0000 1\": \"\\\\u00001\",\n  \"q\": \"\\\"\\\\u00002\\\"\"\n}\n");
}

static void psf_json_string__null__writes_null(void **state)
{
    (void)state;
    check(psf_json_string(NULL), "null\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(psf_json_write__object__keys_sorted_at_every_level),
        cmocka_unit_test(psf_json_u64__around_llong_max__exact),
        cmocka_unit_test(psf_json_number__decimals__written_as_given),
        cmocka_unit_test(psf_json_number__not_plain_decimal__string_or_null),
        cmocka_unit_test(psf_json_string__specials__escaped),
        cmocka_unit_test(psf_json_string__utf8__passed_through),
        cmocka_unit_test(psf_json_string__invalid_utf8__replacement_char),
        cmocka_unit_test(psf_json_write__tag_lookalike__stays_string),
        cmocka_unit_test(psf_json_string__null__writes_null),
    };
    psf_json_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
