/* Unit tests for agent/core/options.c: the agent's "key=value,..." option string. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

static void options_parse__method_and_out__fills_struct(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, "method=pkg.C.m(I)I,out=/tmp/p.xml", err, sizeof err), 0);
    assert_string_equal(o.method, "pkg.C.m(I)I");
    assert_string_equal(o.out, "/tmp/p.xml");
    assert_int_equal(o.max_bytecodes, 0);
    assert_int_equal(o.verbose, 0);
    assert_string_equal(err, "");
    agent_options_free(&o);
}

static void options_parse__progress__a_file_once(void **state)
{
    agent_options o;
    char err[256];
    (void)state;
    assert_int_equal(agent_options_parse(&o, "method=A.f,out=p.xml,progress=/w/.psf-progress", err, sizeof err), 0);
    assert_string_equal(o.progress, "/w/.psf-progress");
    agent_options_free(&o);
    assert_int_equal(agent_options_parse(&o, "method=A.f,out=p.xml,progress=a,progress=b", err, sizeof err), -1);
    assert_non_null(strstr(err, "option 'progress' given twice"));
    agent_options_free(&o);
}

static void options_parse__all_keys__parsed(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, "out=x,max_bytecodes=18446744073709551615,verbose=1,method=A.b", err, sizeof err), 0);
    assert_true(o.max_bytecodes == UINT64_MAX);
    assert_int_equal(o.verbose, 1);
    agent_options_free(&o);
}

static void options_parse__result_channel__fds_and_clock(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, "method=A.b,result_fd=4,key_fd=3,clock=virtual,max_threads=8,processes=deny", err, sizeof err), 0);
    assert_null(o.out);
    assert_int_equal(o.result_fd, 4);
    assert_int_equal(o.key_fd, 3);
    assert_int_equal(o.virtual_clock, 1);
    assert_true(o.max_threads == 8);
    assert_int_equal(o.deny_processes, 1);
    agent_options_free(&o);
    const char *bad[] = {"method=A.b,result_fd=4", "method=A.b,out=x,result_fd=4,key_fd=3",
                         "method=A.b,result_fd=70000,key_fd=3", "method=A.b,out=x,clock=fast",
                         "method=A.b,out=x,processes=maybe"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(agent_options_parse(&o, bad[i], err, sizeof err), -1);
        agent_options_free(&o);
    }
}

static void options_parse__engine__step_by_default_fast_when_asked(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, "method=A.b,out=x", err, sizeof err), 0);
    assert_int_equal(o.engine, AGENT_ENGINE_STEP);
    agent_options_free(&o);
    assert_int_equal(agent_options_parse(&o, "method=A.b,out=x,engine=fast", err, sizeof err), 0);
    assert_int_equal(o.engine, AGENT_ENGINE_FAST);
    agent_options_free(&o);
    assert_int_equal(agent_options_parse(&o, "engine=step,method=A.b,out=x", err, sizeof err), 0);
    assert_int_equal(o.engine, AGENT_ENGINE_STEP);
    agent_options_free(&o);
    assert_int_equal(agent_options_parse(&o, "method=A.b,out=x,engine=jit", err, sizeof err), -1);
    assert_non_null(strstr(err, "option 'engine' takes step or fast, not 'jit'"));
    agent_options_free(&o);
    assert_int_equal(agent_options_parse(&o, "method=A.b,out=x,engine=fast,engine=step", err, sizeof err), -1);
    assert_non_null(strstr(err, "option 'engine' given twice"));
    agent_options_free(&o);
}

static void options_parse__unknown_key__error_names_it(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, "method=A.b,out=x,methd=C.d", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown option 'methd'"));
    assert_non_null(strstr(err, "known keys"));
    agent_options_free(&o);
}

static void options_parse__bad_number__error_names_value(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    const char *bad[] = {"max_bytecodes=-1", "max_bytecodes=12x", "max_bytecodes=99999999999999999999", "max_bytecodes= 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "method=A.b,out=x,%s", bad[i]);
        assert_int_equal(agent_options_parse(&o, text, err, sizeof err), -1);
        assert_non_null(strstr(err, "max_bytecodes"));
        agent_options_free(&o);
    }
}

static void options_parse__missing_required__both_reported(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    assert_int_equal(agent_options_parse(&o, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "'method' is required"));
    assert_non_null(strstr(err, "'out' is required"));
    agent_options_free(&o);
}

static void options_parse__malformed_items__rejected(void **state)
{
    (void)state;
    agent_options o;
    char err[512];
    const char *bad[] = {"method=A.b,out=x,", ",method=A.b,out=x", "method=A.b,,out=x", "method=A.b,out",
                         "method=,out=x", "method=A.b,method=C.d,out=x", "method=A.b,out=x,verbose=2",
                         "method=A.b,out=x,verbose=1,verbose=0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(agent_options_parse(&o, bad[i], err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        agent_options_free(&o);
    }
}

static void options_parse__tiny_error_buffer__no_overflow(void **state)
{
    (void)state;
    agent_options o;
    char err[8];
    assert_int_equal(agent_options_parse(&o, "nope=1,other=2", err, sizeof err), -1);
    assert_true(strlen(err) < sizeof err);
    agent_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options_parse__method_and_out__fills_struct),
        cmocka_unit_test(options_parse__all_keys__parsed),
        cmocka_unit_test(options_parse__progress__a_file_once),
        cmocka_unit_test(options_parse__result_channel__fds_and_clock),
        cmocka_unit_test(options_parse__engine__step_by_default_fast_when_asked),
        cmocka_unit_test(options_parse__unknown_key__error_names_it),
        cmocka_unit_test(options_parse__bad_number__error_names_value),
        cmocka_unit_test(options_parse__missing_required__both_reported),
        cmocka_unit_test(options_parse__malformed_items__rejected),
        cmocka_unit_test(options_parse__tiny_error_buffer__no_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
