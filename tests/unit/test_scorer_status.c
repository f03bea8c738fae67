/*
 * test_scorer_status.c - status words and exit codes (scorer/status.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "status.h"

static void status_exit_code__every_word__documented_code(void **state)
{
    static const struct { const char *word; int code; } want[] = {
        { "ok", 0 }, { "usage", 2 }, { "bad_options", 2 }, { "class_not_loaded", 3 },
        { "class_not_found", 3 }, { "method_not_found", 4 }, { "ambiguous_method", 4 },
        { "not_invoked", 5 }, { "incomplete", 6 }, { "bad_input", 7 }, { "program_failed", 8 },
        { "exception", 9 }, { "stack_overflow", 10 }, { "out_of_memory", 11 },
        { "exit_in_method", 12 }, { "halt_in_method", 13 }, { "timeout", 14 }, { "deadlock", 15 },
        { "crashed", 16 }, { "bytecode_limit", 17 }, { "thread_limit", 18 }, { "output_limit", 19 },
        { "unstable", 20 }, { "sandbox_unavailable", 21 }, { "no_main", 22 }, { "bad_class_file", 23 },
        { "jdk_not_found", 24 }, { "hidden_threads", 25 }, { "unverified", 26 },
        { "virtual_threads", 27 }, { "jdk_not_verified", 28 }, { "unschedulable", 29 },
        { "fallback", 30 }, { "hidden_work", 31 }, { "wrong_output", 32 }, { "tests_failed", 33 }, { "not_judged", 34 }, { "gc_dependent", 35 },
        { "agent_error", 70 }, { "internal_error", 70 },
    };
    (void)state;
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        psf_status st = status_from_word(want[i].word);
        assert_int_not_equal(st, ST_UNKNOWN);
        assert_string_equal(status_word(st), want[i].word);
        assert_int_equal(status_exit_code(st), want[i].code);
    }
}

/* Outcomes of a submission that a grading server must tell apart get codes of their own. */
static void status_exit_code__program_outcomes__distinct(void **state)
{
    static const char *const words[] = {"not_invoked", "incomplete", "program_failed", "exception",
        "stack_overflow", "out_of_memory", "exit_in_method", "halt_in_method", "timeout", "deadlock",
        "crashed", "bytecode_limit", "thread_limit", "output_limit", "unstable", "no_main", "bad_class_file", "hidden_threads",
        "virtual_threads", "unschedulable", "hidden_work", "wrong_output", "tests_failed", "gc_dependent"};
    (void)state;
    unsigned n = sizeof words / sizeof words[0];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            assert_int_not_equal(status_exit_code(status_from_word(words[i])),
                                 status_exit_code(status_from_word(words[j])));
}

static void status_from_word__unknown__maps_to_70(void **state)
{
    (void)state;
    assert_int_equal(status_from_word("timeout_maybe_later"), ST_UNKNOWN);
    assert_int_equal(status_from_word(""), ST_UNKNOWN);
    assert_int_equal(status_from_word(NULL), ST_UNKNOWN);
    assert_int_equal(status_from_word("OK"), ST_UNKNOWN);
    assert_int_equal(status_exit_code(ST_UNKNOWN), 70);
    assert_string_equal(status_word(ST_UNKNOWN), "unknown");
}

static void status_in_profile__agent_words_only(void **state)
{
    (void)state;
    assert_true(status_in_profile(ST_OK));
    assert_true(status_in_profile(ST_AMBIGUOUS_METHOD));
    assert_true(status_in_profile(ST_AGENT_ERROR));
    assert_true(status_in_profile(ST_STACK_OVERFLOW));
    assert_true(status_in_profile(ST_THREAD_LIMIT));
    assert_false(status_in_profile(ST_BAD_INPUT));
    assert_false(status_in_profile(ST_USAGE));
    assert_false(status_in_profile(ST_PROGRAM_FAILED));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_exit_code__every_word__documented_code),
        cmocka_unit_test(status_exit_code__program_outcomes__distinct),
        cmocka_unit_test(status_from_word__unknown__maps_to_70),
        cmocka_unit_test(status_in_profile__agent_words_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
