/*
 * test_calibrate_outpath.c - calibrate/outpath.c: which --out and --report
 * paths psf-calibrate accepts before its run, on real files in a temporary
 * directory: a regular file or a new name in a writable directory, and
 * /dev/null (discard); never a link, directory, FIFO or device, whose
 * rename would replace it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "outpath.h"

static char dir[64];
static char msg[512];

static const char *in_dir(const char *name)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s", "/tmp/psf-outpath.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = { "table.xml", "link.xml", "sub", "fifo", "ro/x.xml", "ro" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (remove(in_dir(names[i])) != 0 && rmdir(in_dir(names[i])) != 0) {
            /* not made by this test */
        }
    return rmdir(dir);
}

static void accepts_a_regular_file_a_new_name_and_dev_null(void **state)
{
    (void)state;
    FILE *f = fopen(in_dir("table.xml"), "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(outpath_check("--out", in_dir("table.xml"), msg, sizeof msg), 0);
    assert_int_equal(outpath_check("--out", in_dir("new.xml"), msg, sizeof msg), 0);
    assert_int_equal(outpath_check("--report", "/dev/null", msg, sizeof msg), 0);
    assert_true(replace_discards("/dev/null"));
    assert_false(replace_discards("/dev//null"));
    assert_false(replace_refused(in_dir("table.xml")));
    assert_false(replace_refused(in_dir("new.xml")));
}

static void refuses_what_a_rename_would_replace(void **state)
{
    (void)state;
    assert_int_equal(symlink("/dev/null", in_dir("link.xml")), 0);
    assert_int_equal(outpath_check("--out", in_dir("link.xml"), msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "is a symbolic link"));
    assert_non_null(strstr(msg, "--out"));
    assert_true(replace_refused(in_dir("link.xml")));

    assert_int_equal(mkdir(in_dir("sub"), 0755), 0);
    assert_int_equal(outpath_check("--report", in_dir("sub"), msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "is a directory"));
    assert_non_null(strstr(msg, "--report"));

    assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
    assert_int_equal(outpath_check("--out", in_dir("fifo"), msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not a regular file"));

    /* /dev/null spelled otherwise is the device itself, never discarded nor replaced */
    assert_int_equal(outpath_check("--out", "/dev//null", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not a regular file"));
    assert_true(replace_refused("/dev//null"));

    assert_int_equal(outpath_check("--out", "", msg, sizeof msg), -1);
    assert_int_equal(outpath_check("--out", in_dir("sub/"), msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "names a directory"));
}

static void refuses_a_missing_or_unwritable_directory(void **state)
{
    (void)state;
    assert_int_equal(outpath_check("--out", in_dir("none/table.xml"), msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "does not exist"));
    if (geteuid() != 0) { /* root writes anywhere: the mode is no refusal for it */
        assert_int_equal(mkdir(in_dir("ro"), 0555), 0);
        assert_int_equal(outpath_check("--out", in_dir("ro/x.xml"), msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "is not writable"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_a_regular_file_a_new_name_and_dev_null),
        cmocka_unit_test(refuses_what_a_rename_would_replace),
        cmocka_unit_test(refuses_a_missing_or_unwritable_directory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
