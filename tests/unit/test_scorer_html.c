/*
 * test_scorer_html.c - escaping and durations for the HTML pages (scorer/html.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "html.h"

/* What a writer puts out, as a string the test frees. */
static char *capture(void (*fn)(FILE *, const char *), const char *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(f, in);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void html_text__markup__escaped(void **state)
{
    (void)state;
    char *s = capture(html_text, "<a href='x'>\"Tom & Jerry\"</a>");
    assert_string_equal(s, "&lt;a href=&#39;x&#39;&gt;&quot;Tom &amp; Jerry&quot;&lt;/a&gt;");
    free(s);
}

static void html_text__control_characters__question_marks(void **state)
{
    (void)state;
    char *s = capture(html_text, "a\001b\tc\nd\x7f" "\xc3\xa9");
    assert_string_equal(s, "a?b\tc\nd?\xc3\xa9");
    free(s);
}

static void html_url_component__slashes_and_schemes__encoded(void **state)
{
    (void)state;
    char *s = capture(html_url_component, "javascript:alert(1)/../x y.html");
    assert_string_equal(s, "javascript%3Aalert%281%29%2F..%2Fx%20y.html");
    free(s);
}

static void html_duration__each_range__three_digits(void **state)
{
    char b[32];
    (void)state;
    assert_string_equal(html_duration(0, b, sizeof b), "0 ns");
    assert_string_equal(html_duration(999, b, sizeof b), "999 ns");
    assert_string_equal(html_duration(1000, b, sizeof b), "1.00 us");
    assert_string_equal(html_duration(12345, b, sizeof b), "12.3 us");
    assert_string_equal(html_duration(4555000, b, sizeof b), "4.56 ms");
    assert_string_equal(html_duration(218000000, b, sizeof b), "218 ms");
    assert_string_equal(html_duration(1234000000, b, sizeof b), "1.23 s");
    assert_string_equal(html_duration(1234000000000ull, b, sizeof b), "1234 s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(html_text__markup__escaped),
        cmocka_unit_test(html_text__control_characters__question_marks),
        cmocka_unit_test(html_url_component__slashes_and_schemes__encoded),
        cmocka_unit_test(html_duration__each_range__three_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
