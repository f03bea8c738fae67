/*
 * test_scorer_junit.c - when a JUnit test case passes (scorer/junit.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "junit.h"

static void junit_passed__not_scored__fails(void **state)
{
    junit_case c = { .status_word = "exception" };
    (void)state;
    assert_false(junit_passed(&c));
}

static void junit_passed__no_budget__passes_when_scored(void **state)
{
    score_result r = { .score = 123456789 };
    junit_case c = { .status_word = "ok", .res = &r };
    (void)state;
    assert_true(junit_passed(&c));
}

static void junit_passed__max_score__inclusive(void **state)
{
    score_result r = { .score = 500 };
    junit_case c = { .status_word = "ok", .res = &r, .has_max_score = 1, .max_score = 500 };
    (void)state;
    assert_true(junit_passed(&c));
    c.max_score = 499;
    assert_false(junit_passed(&c));
}

static void junit_passed__ratio__exact_in_integers(void **state)
{
    /* 150 <= 1.5 x 100, 151 > 1.5 x 100 */
    score_result r = { .score = 150 };
    junit_case c = { .status_word = "ok", .res = &r, .has_max_ratio = 1, .ratio_micro = 1500000, .ref_score = 100 };
    (void)state;
    assert_true(junit_passed(&c));
    r.score = 151;
    assert_false(junit_passed(&c));
    /* huge scores do not overflow: 2^64-1 x 10^6 needs 128 bits */
    r.score = UINT64_MAX;
    c.ref_score = UINT64_MAX;
    c.ratio_micro = 1000000;
    assert_true(junit_passed(&c));
    c.ratio_micro = 999999;
    assert_false(junit_passed(&c));
}

static void junit_passed__zero_reference__only_zero_passes(void **state)
{
    score_result r = { .score = 0 };
    junit_case c = { .status_word = "ok", .res = &r, .has_max_ratio = 1, .ratio_micro = 2000000, .ref_score = 0 };
    (void)state;
    assert_true(junit_passed(&c));
    r.score = 1;
    assert_false(junit_passed(&c));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(junit_passed__not_scored__fails),
        cmocka_unit_test(junit_passed__no_budget__passes_when_scored),
        cmocka_unit_test(junit_passed__max_score__inclusive),
        cmocka_unit_test(junit_passed__ratio__exact_in_integers),
        cmocka_unit_test(junit_passed__zero_reference__only_zero_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
