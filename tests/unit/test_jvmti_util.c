/*
 * test_jvmti_util.c - the agent's failure log (agent/core/jvmti_util.c):
 * the first failure is kept for the profile, and a failure repeated in a
 * loop is logged only the first 20 times, then once said to go on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent.h"
#include "jvmti_util.h"

/* Runs n failures with stderr in a file; returns what stderr received. */
static char *log_of_failures(agent *a, int n)
{
    static char buf[1 << 16];
    FILE *f = tmpfile();
    int saved;
    size_t len;
    assert_non_null(f);
    fflush(stderr);
    saved = dup(2);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fileno(f), 2), 2);
    for (int i = 0; i < n; i++)
        agent_fail(a, "JVMTI GetObjectMonitorUsage failed: pass %d", i);
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    rewind(f);
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void agent_fail__repeated__first_20_logged_then_one_line(void **state)
{
    agent *a = calloc(1, sizeof *a);
    char *log;
    (void)state;
    assert_non_null(a);
    log = log_of_failures(a, 1000);
    assert_int_equal(lines(log), 21);
    assert_non_null(strstr(log, "psf-agent: JVMTI GetObjectMonitorUsage failed: pass 0\n"));
    assert_non_null(strstr(log, "psf-agent: JVMTI GetObjectMonitorUsage failed: pass 19\n"));
    assert_null(strstr(log, "pass 20\n"));
    assert_non_null(strstr(log, "psf-agent: more failures than 20; the rest are not logged (the first is the "
                                "profile's message)\n"));
    /* the profile's message: the first failure */
    assert_string_equal(a->error, "JVMTI GetObjectMonitorUsage failed: pass 0");
    free(a);
}

static void agent_fail__few__each_logged(void **state)
{
    agent *a = calloc(1, sizeof *a);
    char *log;
    (void)state;
    assert_non_null(a);
    log = log_of_failures(a, 3);
    assert_int_equal(lines(log), 3);
    assert_non_null(strstr(log, "pass 2\n"));
    assert_null(strstr(log, "more failures"));
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(agent_fail__repeated__first_20_logged_then_one_line),
        cmocka_unit_test(agent_fail__few__each_logged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
