/*
 * test_calibrate_proc.c - calibrate/proc.c's child processes: a child whose
 * output cannot be read is stopped and reaped, not left running.
 *
 * Linked with -Wl,--wrap=fdopen: fdopen fails (ENOMEM) when fail_fdopen is
 * set, as it would when the calibrator runs out of memory.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "proc.h"

static int fail_fdopen;

FILE *__real_fdopen(int fd, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode)
{
    if (fail_fdopen) {
        errno = ENOMEM;
        return NULL;
    }
    return __real_fdopen(fd, mode);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The stream read: the child's output, its exit code 0. */
static void proc_open_read__reads_the_child(void **state)
{
    (void)state;
    argvec a = {0};
    pid_t pid = 0;
    char line[64] = "";
    argv_push(&a, "sh");
    argv_push(&a, "-c");
    argv_push(&a, "echo 42");
    fail_fdopen = 0;
    FILE *f = proc_open_read(&a, NULL, &pid);
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "42\n");
    assert_int_equal(proc_close(f, pid), 0);
    argv_free(&a);
}

/* fdopen fails: NULL with fdopen's errno, and the child (a long sleep) is
 * gone at once, reaped: no child of this process is left. */
static void proc_open_read__no_stream__child_stopped_and_reaped(void **state)
{
    (void)state;
    argvec a = {0};
    pid_t pid = 0;
    argv_push(&a, "sleep");
    argv_push(&a, "30");
    fail_fdopen = 1;
    double t0 = now();
    errno = 0;
    FILE *f = proc_open_read(&a, NULL, &pid);
    fail_fdopen = 0;
    assert_null(f);
    assert_int_equal(errno, ENOMEM);
    assert_true(now() - t0 < 10.0);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
    argv_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(proc_open_read__reads_the_child),
        cmocka_unit_test(proc_open_read__no_stream__child_stopped_and_reaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
