/*
 * test_branchpred.c - unit tests for common/branchpred.h, the simulated
 * branch predictor. Every expected count below is derived by hand in the
 * comment above it from the model in branchpred.h: gshare, two-bit
 * counters starting at 0 (strongly not taken), 12 outcomes of history.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "branchpred.h"

static branchpred *fresh(void)
{
    branchpred *p = malloc(sizeof *p);
    assert_non_null(p);
    bp_init(p);
    return p;
}

static int run(branchpred *p, uint32_t site, const char *outcomes)
{
    int misses = 0;
    for (const char *c = outcomes; *c; c++)
        misses += bp_branch(p, site, *c == 'T');
    return misses;
}

/* Counters start strongly not taken and the history stays 0: never wrong. */
static void never_taken__no_miss(void **state)
{
    (void)state;
    branchpred *p = fresh();
    for (int i = 0; i < 1000; i++)
        assert_int_equal(bp_branch(p, 77, 0), 0);
    free(p);
}

/* A loop of 20 iterations: 20 times not taken, then taken once. The exit
 * is the only miss: it moves the counter for history 0 to 1. The next run
 * of the loop is back at history 0 after 12 not-taken outcomes (the others
 * meet fresh counters and are right), moves that counter back to 0 and
 * misses its exit again: a predictor with 12 outcomes of history cannot
 * learn a trip count above 12, so every exit misses. */
static void loop_exit__one_miss_per_exit(void **state)
{
    (void)state;
    branchpred *p = fresh();
    assert_int_equal(run(p, 5, "NNNNNNNNNNNNNNNNNNNNT"), 1);
    assert_int_equal(run(p, 5, "NNNNNNNNNNNNNNNNNNNNT"), 1);
    assert_int_equal(run(p, 5, "NNNNNNNNNNNNNNNNNNNNT"), 1);
    free(p);
}

/* Always taken: the history takes 12 outcomes to fill (0, 1, 3, ... 0x7ff,
 * twelve distinct fresh counters: 12 misses), then the counter for 0xfff
 * starts at 0 and needs two taken outcomes to predict taken: 14 misses in
 * all, whatever the length after that. */
static void always_taken__fourteen_misses(void **state)
{
    (void)state;
    branchpred *p = fresh();
    int misses = 0;
    for (int i = 0; i < 200; i++)
        misses += bp_branch(p, 123456, 1);
    assert_int_equal(misses, 14);
    free(p);
}

/* T, N, T, N, ...: every N meets a fresh counter (an odd history) and is
 * predicted right. The T outcomes see the histories 0, 0b10, 0b1010, ...,
 * 0xaaa: seven fresh counters (7 misses), then 0xaaa once more at counter 1
 * (the 8th miss); from then on 0xaaa predicts taken. */
static void alternating__learned_after_eight_misses(void **state)
{
    (void)state;
    branchpred *p = fresh();
    int misses = 0;
    for (int i = 0; i < 100; i++)
        misses += bp_branch(p, 99, i % 2 == 0);
    assert_int_equal(misses, 8);
    free(p);
}

/* Two sites share the history: a site's outcome is predicted from the
 * other's. Site A always taken, site B always not taken, interleaved
 * A B A B: A sees the histories 0, 0b10, 0b1010, ... like the T of the
 * alternating case, and B the odd ones, so again 8 misses. */
static void shared_history__two_sites(void **state)
{
    (void)state;
    branchpred *p = fresh();
    int misses = 0;
    for (int i = 0; i < 50; i++) {
        misses += bp_branch(p, 1000, 1);
        misses += bp_branch(p, 2000, 0);
    }
    assert_int_equal(misses, 8);
    free(p);
}

/* A trip count of 4 fits in 12 outcomes of history: once the history
 * before each branch repeats from run to run (after 3 runs), every counter
 * is trained and the exit is predicted, as real predictors predict short
 * fixed loops. (Property test: no misses after 10 runs.) */
static void short_loop__exit_learned(void **state)
{
    (void)state;
    branchpred *p = fresh();
    for (int r = 0; r < 10; r++)
        run(p, 5, "NNNNT");
    assert_int_equal(run(p, 5, "NNNNTNNNNTNNNNTNNNNT"), 0);
    free(p);
}

/* Seeds are FNV-1a (32 bit), whose published test values these are. */
static void seed__fnv1a(void **state)
{
    (void)state;
    assert_int_equal(bp_seed(""), 0x811c9dc5u);
    assert_int_equal(bp_seed("a"), 0xe40c292cu);
    assert_int_equal(bp_seed("foobar"), 0xbf9cf968u);
}

static void conditional__opcodes(void **state)
{
    (void)state;
    int n = 0;
    for (int op = 0; op < 256; op++)
        n += bp_is_conditional((uint8_t)op);
    assert_int_equal(n, 16);           /* 6 if<cond>, 6 if_icmp<cond>, 2 if_acmp<cond>, ifnull, ifnonnull */
    assert_true(bp_is_conditional(0x99));   /* ifeq */
    assert_true(bp_is_conditional(0xa6));   /* if_acmpne */
    assert_true(bp_is_conditional(0xc7));   /* ifnonnull */
    assert_false(bp_is_conditional(0xa7));  /* goto */
    assert_false(bp_is_conditional(0xaa));  /* tableswitch */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_taken__no_miss),
        cmocka_unit_test(loop_exit__one_miss_per_exit),
        cmocka_unit_test(always_taken__fourteen_misses),
        cmocka_unit_test(alternating__learned_after_eight_misses),
        cmocka_unit_test(short_loop__exit_learned),
        cmocka_unit_test(shared_history__two_sites),
        cmocka_unit_test(seed__fnv1a),
        cmocka_unit_test(conditional__opcodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
