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
        { "ok", 0 }, { "usage", 2 }, { "class_not_loaded", 3 }, { "method_not_found", 4 },
        { "ambiguous_method", 4 }, { "not_invoked", 5 }, { "incomplete", 6 },
        { "exit_in_method", 6 }, { "halt_in_method", 6 },
        { "bad_input", 7 }, { "class_not_found", 3 }, { "program_failed", 8 },
        { "exception", 9 }, { "stack_overflow", 9 }, { "out_of_memory", 9 },
        { "bytecode_limit", 10 }, { "thread_limit", 10 },
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
        cmocka_unit_test(status_from_word__unknown__maps_to_70),
        cmocka_unit_test(status_in_profile__agent_words_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
