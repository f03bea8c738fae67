/*
 * test_scorer_outfile.c - whole-file writes of reports (scorer/outfile.c):
 * a regular file is replaced in one rename, and nothing that is not a
 * regular file (a FIFO, a directory, a symbolic link) is ever replaced.
 * ("/dev/null" discards; it is not tried here, since a broken writer run as
 * root would replace the machine's device.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "outfile.h"

/* A fresh temporary directory under /tmp; its path in dir. */
static void make_dir(char dir[64])
{
    snprintf(dir, 64, "/tmp/psf-outfile.XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* The number of entries in dir besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    assert_non_null(d);
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_all(const char *dir, const char *const *names, size_t n)
{
    char p[128];
    for (size_t i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (unlink(p) != 0)
            rmdir(p);
    }
    assert_int_equal(rmdir(dir), 0);
}

static void outfile_write__regular_file__replaced_whole(void **state)
{
    char dir[64], path[128], buf[32] = "";
    psf_err e;
    FILE *f;
    (void)state;
    make_dir(dir);
    snprintf(path, sizeof path, "%s/r.html", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("old contents, longer than the new", f);
    fclose(f);

    assert_int_equal(outfile_write(path, "new", 3, "report", &e), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 3);
    fclose(f);
    assert_string_equal(buf, "new");
    assert_int_equal(entries(dir), 1);
    remove_all(dir, (const char *const[]){ "r.html" }, 1);
}

static void outfile_write__fifo__left_alone_with_error(void **state)
{
    char dir[64], path[128];
    struct stat st;
    psf_err e;
    (void)state;
    make_dir(dir);
    snprintf(path, sizeof path, "%s/j.xml", dir);
    assert_int_equal(mkfifo(path, 0600), 0);

    assert_int_equal(outfile_write(path, "x", 1, "JUnit report", &e), -1);
    assert_non_null(strstr(e.msg, "not a regular file"));
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(entries(dir), 1); /* no temporary file left */
    remove_all(dir, (const char *const[]){ "j.xml" }, 1);
}

static void outfile_write__directory_or_link__left_alone_with_error(void **state)
{
    char dir[64], sub[128], link[128], target[128];
    struct stat st;
    psf_err e;
    FILE *f;
    (void)state;
    make_dir(dir);
    snprintf(sub, sizeof sub, "%s/d", dir);
    snprintf(link, sizeof link, "%s/l", dir);
    snprintf(target, sizeof target, "%s/t", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    f = fopen(target, "w");
    assert_non_null(f);
    fputs("target", f);
    fclose(f);
    assert_int_equal(symlink(target, link), 0);

    assert_int_equal(outfile_write(sub, "x", 1, "report", &e), -1);
    assert_int_equal(lstat(sub, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(outfile_write(link, "x", 1, "report", &e), -1);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 6); /* the link's target untouched */
    assert_int_equal(entries(dir), 3);
    remove_all(dir, (const char *const[]){ "l", "t", "d" }, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outfile_write__regular_file__replaced_whole),
        cmocka_unit_test(outfile_write__fifo__left_alone_with_error),
        cmocka_unit_test(outfile_write__directory_or_link__left_alone_with_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
