/*
 * test_scorer_cli.c - the psf-score command line (scorer/cli.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

#define ARGV(...) (char *[]){ "psf-score", __VA_ARGS__, NULL }
#define ARGC(...) ((int)(sizeof((char *[]){ "psf-score", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, e, ...) options_parse((o), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (e))

static void options_parse__score_flags__set(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--costs", "t.xml", "--json", "--explain", "--top=3",
                           "--with-overhead", "--unit", "cycles", "p.xml"), 0);
    assert_int_equal(o.mode, MODE_SCORE);
    assert_string_equal(o.costs, "t.xml");
    assert_int_equal(o.format, FMT_JSON);
    assert_true(o.explain && o.with_overhead);
    assert_int_equal(o.top, 3);
    assert_string_equal(o.unit, "cycles");
    assert_int_equal(o.n_args, 1);
    assert_string_equal(o.args[0], "p.xml");
    options_free(&o);
}

static void options_parse__defaults__builtin_table_top_10(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "p.xml"), 0);
    assert_null(o.costs);
    assert_int_equal(o.top, 10);
    assert_int_equal(o.format, FMT_TEXT);
    assert_string_equal(o.costs_sha256, "");
    options_free(&o);
}

static void options_parse__sha256__lowercased_and_checked(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--costs", "t", "--costs-sha256",
                           "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", "p"), 0);
    assert_string_equal(o.costs_sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--costs", "t", "--costs-sha256", "abc", "p"), -1);
    assert_int_equal(e.status, ST_USAGE);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--costs-sha256",
                           "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "p"), -1);
    assert_non_null(strstr(e.msg, "needs --costs"));
    options_free(&o);
}

static void options_parse__usage_errors__rejected_with_json_flag_kept(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--json", "--bogus", "p"), -1);
    assert_int_equal(e.status, ST_USAGE);
    assert_non_null(strstr(e.msg, "--bogus"));
    assert_int_equal(o.format, FMT_JSON);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "a.xml", "b.xml"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--json"), -1);
    assert_non_null(strstr(e.msg, "no PROFILE"));
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--score-only", "--explain", "p"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--top", "x", "p"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--format", "csv", "p"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--costs"), -1);
    options_free(&o);
}

static void options_parse__rank__labels_checked(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--rank", "--format", "csv", "a b=x.xml", "c=d=e.xml"), 0);
    assert_int_equal(o.mode, MODE_RANK);
    assert_int_equal(o.format, FMT_CSV);
    assert_int_equal(o.n_args, 2);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "noequals"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "=p.xml"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "a="), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "a=1.xml", "a=2.xml"), -1);
    assert_non_null(strstr(e.msg, "given twice"));
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "--explain", "a=1.xml"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "--json", "a=1.xml"), 0);
    assert_int_equal(o.format, FMT_JSON);
    options_free(&o);
}

static void options_parse__status_json__takes_next_two_verbatim(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--status-json", "timeout", "--not-an-option"), 0);
    assert_int_equal(o.mode, MODE_STATUS_JSON);
    assert_string_equal(o.status_word, "timeout");
    assert_string_equal(o.status_message, "--not-an-option");
    assert_int_equal(o.format, FMT_JSON);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--status-json", "bad_input"), -1);
    options_free(&o);
}

static void options_parse__html_leaderboard__links_and_failures(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--rank", "--format", "html", "--report-links", "r/", "a=p.xml",
                           "--failed", "b=timeout:took: long"), 0);
    assert_int_equal(o.format, FMT_HTML);
    assert_string_equal(o.report_links, "r/");
    assert_int_equal(o.n_failed, 1);
    assert_string_equal(o.failed[0], "b=timeout:took: long");
    options_free(&o);
    /* a failed label counts against duplicates; --failed needs STATUS:MESSAGE */
    assert_int_equal(PARSE(&o, &e, "--rank", "a=p.xml", "--failed", "a=timeout:x"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "a=p.xml", "--failed", "b=timeout"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--report-links", "r/", "p.xml"), -1);
    options_free(&o);
}

static void options_parse__junit_budgets__parsed_and_checked(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--junit", "j.xml", "--max-ratio", "1.25", "--compare", "ref.xml", "p.xml"), 0);
    assert_string_equal(o.junit, "j.xml");
    assert_true(o.has_max_ratio);
    assert_int_equal(o.max_ratio_micro, 1250000);
    assert_string_equal(o.compare, "ref.xml");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--junit", "j.xml", "--max-score", "77", "p.xml"), 0);
    assert_true(o.has_max_score);
    assert_int_equal(o.max_score, 77);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--junit", "j.xml", "--max-ratio", "1.5", "p.xml"), -1);   /* no --compare */
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--junit", "j", "--max-ratio", "0", "--compare", "r", "p"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--junit", "j", "--max-score", "1", "--max-ratio", "2", "--compare", "r", "p"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--max-score", "1", "p"), -1);   /* a budget needs --junit */
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "--junit", "j", "a=p"), -1);
    options_free(&o);
}

static void options_parse__check_table__needs_costs_or_compare_and_no_profile(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--check-table", "--costs", "t.xml"), 0);
    assert_int_equal(o.mode, MODE_CHECK_TABLE);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--check-table"), -1);
    assert_string_equal(e.msg, "--check-table needs --costs FILE or --compare PROFILE");
    options_free(&o);
    /* the reference alone, checked with the built-in table */
    assert_int_equal(PARSE(&o, &e, "--check-table", "--compare", "ref.xml"), 0);
    assert_int_equal(o.mode, MODE_CHECK_TABLE);
    assert_string_equal(o.compare, "ref.xml");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--check-table", "--compare", "ref.xml", "p.xml"), -1);
    assert_string_equal(e.msg, "--check-table takes no PROFILE");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--check-table", "--costs", "t.xml", "p.xml"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--profile-name", "kept.xml", "p.xml"), 0);
    assert_string_equal(o.profile_name, "kept.xml");
    options_free(&o);
}

static void options_parse__tsc__measure_mode_and_given_rate(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--measure-tsc"), 0);
    assert_int_equal(o.mode, MODE_MEASURE_TSC);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--measure-tsc", "p.xml"), -1);
    assert_string_equal(e.msg, "--measure-tsc takes no FILE");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--json", "--tsc-hz", "2596129127", "p.xml"), 0);
    assert_int_equal(o.mode, MODE_SCORE);
    assert_true(o.tsc_hz == 2596129127ULL);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "p.xml"), 0);
    assert_true(o.tsc_hz == 0); /* measured while scoring */
    options_free(&o);
    static const char *const bad[] = { "0", "999999", "100000000001", "2.5e9", "" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_int_equal(PARSE(&o, &e, "--tsc-hz", (char *)bad[k], "p.xml"), -1);
        assert_int_equal(e.status, ST_USAGE);
        assert_string_equal(e.msg, "--tsc-hz needs a rate in Hz from 1000000 to 100000000000");
        options_free(&o);
    }
    assert_int_equal(PARSE(&o, &e, "--tsc-hz", "2596129127", "--rank", "a=p.xml"), -1);
    assert_string_equal(e.msg, "--tsc-hz applies to scoring one PROFILE and to --rank --format html");
    options_free(&o);
    /* the HTML leaderboard compares the table with this machine too */
    assert_int_equal(PARSE(&o, &e, "--tsc-hz", "2596129127", "--rank", "--format", "html", "a=p.xml"), 0);
    assert_true(o.tsc_hz == 2596129127ULL);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--measure-tsc", "--init-key"), -1);
    options_free(&o);
}

static void options_parse__signed_copy__scoring_with_submission(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--json", "--key-file", "k", "--submission", "main_sha256=ab",
                           "--signed-copy", "p.xml.signed", "p.xml"), 0);
    assert_int_equal(o.mode, MODE_SCORE);
    assert_string_equal(o.signed_copy, "p.xml.signed");
    assert_string_equal(o.submission, "main_sha256=ab");
    assert_int_equal(o.n_args, 1);
    assert_string_equal(o.args[0], "p.xml");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission=x=1", "--signed-copy=c.xml", "p.xml"), 0);
    assert_string_equal(o.signed_copy, "c.xml");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--signed-copy", "c.xml", "p.xml"), -1);
    assert_int_equal(e.status, ST_USAGE);
    assert_string_equal(e.msg, "--signed-copy needs --submission FIELDS");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission", "x=1", "--signed-copy", "", "p.xml"), -1);
    assert_string_equal(e.msg, "--signed-copy needs a FILE");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission", "x=1", "--signed-copy", "c.xml", "--rank", "a=p.xml"), -1);
    assert_string_equal(e.msg, "--signed-copy applies to scoring one PROFILE");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission", "x=1", "--signed-copy", "c.xml", "--sign", "p.xml"), -1);
    assert_string_equal(e.msg, "--signed-copy applies to scoring one PROFILE");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission", "x=1", "p.xml"), -1);
    assert_string_equal(e.msg, "--submission applies to --sign, --signed-copy and --status-json");
    options_free(&o);
}

static void options_parse__submission_digests__all_four_and_the_arguments(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--submission-digests", "--classpath", "/a:/b.jar", "--main", "M",
                           "--method", "M.m", "--jdk", "/j/bin/java", "--", "x", "--json", ""), 0);
    assert_int_equal(o.mode, MODE_SUBMISSION_DIGESTS);
    assert_string_equal(o.classpath, "/a:/b.jar");
    assert_string_equal(o.main_class, "M");
    assert_string_equal(o.method, "M.m");
    assert_string_equal(o.jdk, "/j/bin/java");
    assert_int_equal(o.n_args, 3); /* after --, every argument is the program's */
    assert_string_equal(o.args[1], "--json");
    assert_string_equal(o.args[2], "");
    assert_int_equal(o.format, FMT_TEXT);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission-digests", "--classpath", "/a", "--main", "M", "--method", "M.m"), -1);
    assert_string_equal(e.msg, "--submission-digests needs --classpath, --main, --method and --jdk");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--classpath", "/a", "p.xml"), -1);
    assert_string_equal(e.msg, "--classpath, --main and --jdk apply to --submission-digests");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission-digests", "--main", "", "--classpath", "/a", "--method", "m", "--jdk", "j"), -1);
    assert_string_equal(e.msg, "--main needs a CLASS");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--submission-digests", "--init-key"), -1);
    options_free(&o);
}

/* Judging output: --compare-output takes two files, --ignore-trailing-space
 * only with it; --judged-by names a judge; --require-checked is --rank's. */
static void options_parse__judged_output__options_checked(void **state)
{
    options o;
    psf_err e;
    (void)state;
    assert_int_equal(PARSE(&o, &e, "--compare-output", "--ignore-trailing-space", "want", "got"), 0);
    assert_int_equal(o.mode, MODE_COMPARE_OUTPUT);
    assert_int_equal(o.ignore_trailing_space, 1);
    assert_int_equal(o.n_args, 2);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--compare-output", "want"), -1);
    assert_string_equal(e.msg, "--compare-output takes EXPECTED and ACTUAL");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--ignore-trailing-space", "p.xml"), -1);
    assert_string_equal(e.msg, "--ignore-trailing-space applies to --compare-output");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--compare-output", "--rank", "a=b", "c"), -1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--judged-by", "check", "p.xml"), 0);
    assert_string_equal(o.judged_by, "check");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--judged-by=junit", "--status-json", "timeout", "slow"), 0);
    assert_string_equal(o.judged_by, "junit");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--judged-by", "yes", "p.xml"), -1);
    assert_string_equal(e.msg, "--judged-by needs expect_output, check, junit or none");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--judged-by", "check", "--rank", "a=p.xml"), -1);
    assert_string_equal(e.msg, "--judged-by applies to scoring one PROFILE and to --status-json");
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--rank", "--require-checked", "a=p.xml"), 0);
    assert_int_equal(o.require_checked, 1);
    options_free(&o);
    assert_int_equal(PARSE(&o, &e, "--require-checked", "p.xml"), -1);
    assert_string_equal(e.msg, "--require-checked applies to --rank");
    options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options_parse__score_flags__set),
        cmocka_unit_test(options_parse__defaults__builtin_table_top_10),
        cmocka_unit_test(options_parse__sha256__lowercased_and_checked),
        cmocka_unit_test(options_parse__usage_errors__rejected_with_json_flag_kept),
        cmocka_unit_test(options_parse__rank__labels_checked),
        cmocka_unit_test(options_parse__status_json__takes_next_two_verbatim),
        cmocka_unit_test(options_parse__html_leaderboard__links_and_failures),
        cmocka_unit_test(options_parse__junit_budgets__parsed_and_checked),
        cmocka_unit_test(options_parse__check_table__needs_costs_or_compare_and_no_profile),
        cmocka_unit_test(options_parse__tsc__measure_mode_and_given_rate),
        cmocka_unit_test(options_parse__signed_copy__scoring_with_submission),
        cmocka_unit_test(options_parse__submission_digests__all_four_and_the_arguments),
        cmocka_unit_test(options_parse__judged_output__options_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
