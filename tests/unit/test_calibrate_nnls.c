/*
 * test_calibrate_nnls.c - the Lawson-Hanson solver on systems with known
 * solutions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "nnls.h"

static void nnls_solve__square_positive_system__exact_solution(void **state)
{
    /* 2x + y = 5, x + 3y = 10  ->  x = 1, y = 3 */
    const double a[] = { 2, 1, 1, 3 };
    const double b[] = { 5, 10 };
    double x[2];
    (void)state;
    assert_int_equal(nnls_solve(a, b, 2, 2, x, 20), 0);
    assert_true(fabs(x[0] - 1) < 1e-9);
    assert_true(fabs(x[1] - 3) < 1e-9);
}

static void nnls_solve__negative_unconstrained_optimum__clamped_to_zero(void **state)
{
    /* Unconstrained: x = 2, y = -1. With y >= 0 the optimum is y = 0 and
     * x = argmin |[1;1;1] x - b| over the columns' first entries. */
    const double a[] = { 1, 1, 1, 2, 1, 0 };
    const double b[] = { 1, 0, 2 };
    double x[2];
    (void)state;
    assert_int_equal(nnls_solve(a, b, 3, 2, x, 20), 0);
    assert_true(x[1] == 0);
    assert_true(fabs(x[0] - 1) < 1e-9);     /* mean of 1, 0, 2 */
}

static void nnls_solve__overdetermined_consistent__recovers_costs(void **state)
{
    /* 6 kernels, 3 costs (2, 0.5, 7): like a calibration without noise */
    const double truth[] = { 2, 0.5, 7 };
    const double a[] = { 1, 0, 0,  0, 4, 0,  1, 1, 1,  3, 2, 0,  0, 0, 2,  5, 10, 1 };
    double b[6], x[3];
    (void)state;
    for (int i = 0; i < 6; i++)
        b[i] = a[3 * i] * truth[0] + a[3 * i + 1] * truth[1] + a[3 * i + 2] * truth[2];
    assert_int_equal(nnls_solve(a, b, 6, 3, x, 30), 0);
    for (int j = 0; j < 3; j++)
        assert_true(fabs(x[j] - truth[j]) < 1e-9);
}

static void nnls_solve__zero_column__gets_zero(void **state)
{
    const double a[] = { 1, 0, 2, 0 };
    const double b[] = { 3, 6 };
    double x[2];
    (void)state;
    assert_int_equal(nnls_solve(a, b, 2, 2, x, 20), 0);
    assert_true(fabs(x[0] - 3) < 1e-9);
    assert_true(x[1] == 0);
}

static void nnls_solve__duplicate_columns__finite_nonnegative_fit(void **state)
{
    /* two identical columns: only their sum is determined */
    const double a[] = { 1, 1, 2, 2, 3, 3 };
    const double b[] = { 2, 4, 6 };
    double x[2];
    (void)state;
    assert_true(nnls_solve(a, b, 3, 2, x, 20) >= -1);
    assert_true(x[0] >= 0 && x[1] >= 0);
    assert_true(fabs(x[0] + x[1] - 2) < 1e-9);
}

static void nnls_solve__all_negative_target__all_zero(void **state)
{
    const double a[] = { 1, 0, 0, 1 };
    const double b[] = { -1, -2 };
    double x[2] = { 5, 5 };
    (void)state;
    assert_int_equal(nnls_solve(a, b, 2, 2, x, 20), 0);
    assert_true(x[0] == 0 && x[1] == 0);
}

static void nnls_solve__bad_arguments__minus_two(void **state)
{
    double x[1];
    const double a[] = { 1 }, b[] = { 1 };
    (void)state;
    assert_int_equal(nnls_solve(a, b, 0, 1, x, 5), -2);
    assert_int_equal(nnls_solve(NULL, b, 1, 1, x, 5), -2);
}

static void nnls_lsq_subset__dependent_column__zero_coefficient(void **state)
{
    const double a[] = { 1, 2, 1,  2, 4, 0,  3, 6, 1 };   /* column 1 = 2 x column 0 */
    const double b[] = { 3, 2, 5 };    /* = column 0 + 2 x column 2 */
    const size_t cols[] = { 0, 1, 2 };
    double z[3];
    (void)state;
    assert_int_equal(nnls_lsq_subset(a, b, 3, 3, cols, 3, z), 0);
    assert_true(z[1] == 0);
    assert_true(fabs(z[0] - 1) < 1e-9);
    assert_true(fabs(z[2] - 2) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nnls_solve__square_positive_system__exact_solution),
        cmocka_unit_test(nnls_solve__negative_unconstrained_optimum__clamped_to_zero),
        cmocka_unit_test(nnls_solve__overdetermined_consistent__recovers_costs),
        cmocka_unit_test(nnls_solve__zero_column__gets_zero),
        cmocka_unit_test(nnls_solve__duplicate_columns__finite_nonnegative_fit),
        cmocka_unit_test(nnls_solve__all_negative_target__all_zero),
        cmocka_unit_test(nnls_solve__bad_arguments__minus_two),
        cmocka_unit_test(nnls_lsq_subset__dependent_column__zero_coefficient),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
