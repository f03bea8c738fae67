/*
 * test_scorer_rank.c - leaderboard order and competition ranks (scorer/rank.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rank.h"

#define E(lbl, sc, s) { .label = (lbl), .scored = (sc), .score = (s) }

static void number(rank_entry *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i].index = i;
}

static void rank_order__ties__share_rank_and_skip(void **state)
{
    rank_entry v[] = { E("d", 1, 40), E("c", 1, 20), E("b", 1, 20), E("a", 1, 10) };
    (void)state;
    number(v, 4);
    rank_order(v, 4);
    assert_string_equal(v[0].label, "a"); assert_int_equal(v[0].rank, 1);
    assert_string_equal(v[1].label, "b"); assert_int_equal(v[1].rank, 2);
    assert_string_equal(v[2].label, "c"); assert_int_equal(v[2].rank, 2);
    assert_string_equal(v[3].label, "d"); assert_int_equal(v[3].rank, 4);
}

static void rank_order__unscored__after_ranked_by_label(void **state)
{
    rank_entry v[] = { E("zed", 0, 0), E("amy", 0, 0), E("bob", 1, 5), E("cat", 1, 3) };
    (void)state;
    number(v, 4);
    rank_order(v, 4);
    assert_string_equal(v[0].label, "cat"); assert_int_equal(v[0].rank, 1);
    assert_string_equal(v[1].label, "bob"); assert_int_equal(v[1].rank, 2);
    assert_string_equal(v[2].label, "amy"); assert_int_equal(v[2].rank, 0);
    assert_string_equal(v[3].label, "zed"); assert_int_equal(v[3].rank, 0);
}

static void rank_order__all_equal__all_first(void **state)
{
    rank_entry v[] = { E("x", 1, 7), E("y", 1, 7), E("w", 1, 7) };
    (void)state;
    number(v, 3);
    rank_order(v, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(v[i].rank, 1);
    assert_string_equal(v[0].label, "w");
}

static void rank_order__argument_order__does_not_matter(void **state)
{
    rank_entry a[] = { E("p", 1, 3), E("q", 1, 1), E("r", 0, 0), E("s", 1, 3), E("t", 1, UINT64_MAX) };
    rank_entry b[] = { E("t", 1, UINT64_MAX), E("s", 1, 3), E("r", 0, 0), E("q", 1, 1), E("p", 1, 3) };
    (void)state;
    number(a, 5);
    number(b, 5);
    rank_order(a, 5);
    rank_order(b, 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(a[i].label, b[i].label);
        assert_int_equal(a[i].rank, b[i].rank);
    }
    assert_int_equal(a[0].rank, 1);
    assert_int_equal(a[1].rank, 2);
    assert_int_equal(a[2].rank, 2);
    assert_int_equal(a[3].rank, 4);
    assert_string_equal(a[3].label, "t");
    assert_int_equal(a[4].rank, 0);
}

static void rank_order__empty_and_single__fine(void **state)
{
    rank_entry v[] = { E("only", 1, 0) };
    (void)state;
    rank_order(v, 0);
    number(v, 1);
    rank_order(v, 1);
    assert_int_equal(v[0].rank, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rank_order__ties__share_rank_and_skip),
        cmocka_unit_test(rank_order__unscored__after_ranked_by_label),
        cmocka_unit_test(rank_order__all_equal__all_first),
        cmocka_unit_test(rank_order__argument_order__does_not_matter),
        cmocka_unit_test(rank_order__empty_and_single__fine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
