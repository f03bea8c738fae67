/*
 * test_scorer_fixed.c - exact prices and the score arithmetic (scorer/fixed.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixed.h"

static psf_micro price_ok(const char *text)
{
    psf_micro m = 12345;
    const char *why = NULL;
    assert_int_equal(fixed_parse_price(text, &m, &why), 0);
    assert_null(why);
    return m;
}

static void price_bad(const char *text, const char *expect_why)
{
    psf_micro m = 12345;
    const char *why = NULL;
    assert_int_equal(fixed_parse_price(text, &m, &why), -1);
    assert_non_null(why);
    assert_string_equal(why, expect_why);
    assert_true(m == 12345);
}

static void fixed_parse_price__integers_and_fractions__exact_micro_units(void **state)
{
    (void)state;
    assert_true(price_ok("0") == 0);
    assert_true(price_ok("1") == 1000000);
    assert_true(price_ok("0.25") == 250000);
    assert_true(price_ok("12.000001") == 12000001);
    assert_true(price_ok("0.1") == 100000);
    assert_true(price_ok("007.5") == 7500000);
    assert_true(price_ok("3.000") == 3000000);
}

static void fixed_parse_price__zeros_past_six_places__accepted(void **state)
{
    (void)state;
    assert_true(price_ok("1.50000000000") == 1500000);
    assert_true(price_ok("0.0000010") == 1);
}

static void fixed_parse_price__seven_significant_places__rejected(void **state)
{
    (void)state;
    price_bad("0.0000001", "has more than 6 decimal places");
    price_bad("1.1234567", "has more than 6 decimal places");
}

static void fixed_parse_price__negative_nan_exponent_sign__rejected(void **state)
{
    (void)state;
    price_bad("-1", "is negative");
    price_bad("-0.5", "is negative");
    price_bad("NaN", "is not a number");
    price_bad("nan", "is not a number");
    price_bad("inf", "is not a number");
    price_bad("Infinity", "is not a number");
    price_bad("1e3", "uses an exponent");
    price_bad("1E-2", "uses an exponent");
    price_bad("+1", "has a sign");
    price_bad(" 1", "contains whitespace");
    price_bad("1 ", "contains whitespace");
    price_bad("", "is empty");
}

static void fixed_parse_price__malformed__rejected(void **state)
{
    (void)state;
    const char *generic = "is not a decimal number like 12 or 0.25";
    price_bad(".5", generic);
    price_bad("5.", generic);
    price_bad("1.2.3", generic);
    price_bad("1,5", generic);
    price_bad("0x10", generic);
}

static void fixed_parse_price__magnitude__capped_at_one_billion(void **state)
{
    (void)state;
    assert_true(price_ok("1000000000") == (psf_micro)1000000000 * 1000000);
    assert_true(price_ok("0001000000000.000") == (psf_micro)1000000000 * 1000000);
    price_bad("1000000000.000001", "is larger than 1000000000");
    price_bad("1000000001", "is larger than 1000000000");
    price_bad("99999999999999999999999", "is larger than 1000000000");
}

static void fixed_parse_u64__range__exact(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(fixed_parse_u64("0", &v), 0);
    assert_true(v == 0);
    assert_int_equal(fixed_parse_u64("18446744073709551615", &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(fixed_parse_u64("18446744073709551616", &v), -1);
    assert_int_equal(fixed_parse_u64("99999999999999999999", &v), -1);
    assert_int_equal(fixed_parse_u64("", &v), -1);
    assert_int_equal(fixed_parse_u64("-1", &v), -1);
    assert_int_equal(fixed_parse_u64("12a", &v), -1);
    assert_int_equal(fixed_parse_u64(" 1", &v), -1);
}

static void fixed_mul_add__sums__exact(void **state)
{
    psf_u128 acc = 0;
    (void)state;
    assert_int_equal(fixed_mul_add(&acc, 3, 250000), 0);
    assert_int_equal(fixed_mul_add(&acc, 2, 1000000), 0);
    assert_true(acc == 2750000);
    /* The largest product fits: (2^64-1)^2 < 2^128. */
    acc = 0;
    assert_int_equal(fixed_mul_add(&acc, UINT64_MAX, UINT64_MAX), 0);
    assert_true(acc == (psf_u128)UINT64_MAX * UINT64_MAX);
}

static void fixed_mul_add__overflow__fails_and_keeps_sum(void **state)
{
    psf_u128 acc = PSF_U128_MAX - 5, before;
    (void)state;
    before = acc;
    assert_int_equal(fixed_mul_add(&acc, 3, 2), -1);
    assert_true(acc == before);
    assert_int_equal(fixed_mul_add(&acc, 5, 1), 0);
    assert_true(acc == PSF_U128_MAX);
    assert_int_equal(fixed_add(&acc, 1), -1);
    assert_true(acc == PSF_U128_MAX);
}

static void fixed_round__half__goes_up(void **state)
{
    uint64_t u = 0;
    (void)state;
    assert_int_equal(fixed_round(437500000, &u), 0);
    assert_true(u == 438);
    assert_int_equal(fixed_round(437499999, &u), 0);
    assert_true(u == 437);
    assert_int_equal(fixed_round(436000000, &u), 0);
    assert_true(u == 436);
    assert_int_equal(fixed_round(499999, &u), 0);
    assert_true(u == 0);
    assert_int_equal(fixed_round(500000, &u), 0);
    assert_true(u == 1);
}

static void fixed_round__above_uint64__overflow(void **state)
{
    uint64_t u = 7;
    psf_u128 max_ok = (psf_u128)UINT64_MAX * 1000000 + 499999;
    (void)state;
    assert_int_equal(fixed_round(max_ok, &u), 0);
    assert_true(u == UINT64_MAX);
    u = 7;
    assert_int_equal(fixed_round(max_ok + 1, &u), -1);   /* rounds up past 2^64-1 */
    assert_true(u == 7);
    assert_int_equal(fixed_round(PSF_U128_MAX, &u), -1);
}

static void fixed_format__micro_and_u128__shortest_exact_text(void **state)
{
    char buf[48];
    (void)state;
    fixed_format_micro(0, buf, sizeof buf);
    assert_string_equal(buf, "0");
    fixed_format_micro(250000, buf, sizeof buf);
    assert_string_equal(buf, "0.25");
    fixed_format_micro(12000001, buf, sizeof buf);
    assert_string_equal(buf, "12.000001");
    fixed_format_micro(3000000, buf, sizeof buf);
    assert_string_equal(buf, "3");
    fixed_format_micro(PSF_U128_MAX, buf, sizeof buf);
    assert_string_equal(buf, "340282366920938463463374607431768.211455");
    fixed_format_u128(PSF_U128_MAX, buf, sizeof buf);
    assert_string_equal(buf, "340282366920938463463374607431768211455");
}

static void fixed_share_permille__ratios__rounded_half_up(void **state)
{
    (void)state;
    assert_int_equal(fixed_share_permille(1, 3), 333);
    assert_int_equal(fixed_share_permille(2, 3), 667);
    assert_int_equal(fixed_share_permille(1, 2000), 1);     /* 0.05% -> 0.1% */
    assert_int_equal(fixed_share_permille(1, 2001), 0);
    assert_int_equal(fixed_share_permille(5, 5), 1000);
    assert_int_equal(fixed_share_permille(0, 0), 0);
    assert_int_equal(fixed_share_permille(PSF_U128_MAX / 2, PSF_U128_MAX), 500);
    assert_int_equal(fixed_share_permille(PSF_U128_MAX, PSF_U128_MAX), 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_parse_price__integers_and_fractions__exact_micro_units),
        cmocka_unit_test(fixed_parse_price__zeros_past_six_places__accepted),
        cmocka_unit_test(fixed_parse_price__seven_significant_places__rejected),
        cmocka_unit_test(fixed_parse_price__negative_nan_exponent_sign__rejected),
        cmocka_unit_test(fixed_parse_price__malformed__rejected),
        cmocka_unit_test(fixed_parse_price__magnitude__capped_at_one_billion),
        cmocka_unit_test(fixed_parse_u64__range__exact),
        cmocka_unit_test(fixed_mul_add__sums__exact),
        cmocka_unit_test(fixed_mul_add__overflow__fails_and_keeps_sum),
        cmocka_unit_test(fixed_round__half__goes_up),
        cmocka_unit_test(fixed_round__above_uint64__overflow),
        cmocka_unit_test(fixed_format__micro_and_u128__shortest_exact_text),
        cmocka_unit_test(fixed_share_permille__ratios__rounded_half_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
