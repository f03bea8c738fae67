/*
 * test_scorer_sources.c - finding and reading a submission's .java files
 * (scorer/sources.c): the file of a class, and its lines.
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

#include "sources.h"

static void expect_rel(const char *method, const char *want)
{
    char *rel = sources_rel_path(method);
    if (want == NULL) {
        assert_null(rel);
        return;
    }
    assert_non_null(rel);
    assert_string_equal(rel, want);
    free(rel);
}

static void sources_rel_path__classes__top_level_file_in_package_dir(void **state)
{
    (void)state;
    expect_rel("Loops.sum(I)I", "Loops.java");
    expect_rel("edu.bob.Sorter.sort([I)V", "edu/bob/Sorter.java");
    expect_rel("a.Outer$Inner.f()V", "a/Outer.java");
    expect_rel("a.Outer$1.run()V", "a/Outer.java");
    expect_rel("a.b$c.Top.<init>()V", "a/b$c/Top.java");     /* a '$' in a package name */
    expect_rel("nomethod", NULL);
}

static void sources_rel_path__dot_dot__never_leaves_the_dir(void **state)
{
    char *rel;
    (void)state;
    rel = sources_rel_path("...x.f()V");
    assert_true(rel == NULL || strstr(rel, "..") == NULL);
    free(rel);
}

static void sources_read__file__lines_without_ends(void **state)
{
    char dir[] = "/tmp/psf-sources-XXXXXX", path[64];
    src_file f;
    FILE *fp;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/A.java", dir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("class A {\r\n  int x;\n\n}", fp);
    fclose(fp);
    assert_int_equal(sources_read(dir, "pkg/A.java", &f), 0);   /* not in pkg/: found by its name */
    assert_string_equal(f.rel, "pkg/A.java");
    assert_int_equal(f.n_lines, 4);
    assert_string_equal(f.lines[0], "class A {");
    assert_string_equal(f.lines[1], "  int x;");
    assert_string_equal(f.lines[2], "");
    assert_string_equal(f.lines[3], "}");
    src_file_free(&f);
    assert_int_equal(sources_read(dir, "B.java", &f), -1);
    assert_null(f.lines);
    assert_int_equal(sources_read(dir, "", &f), -1);
    /* a directory named like a source is not read */
    snprintf(path, sizeof path, "%s/C.java", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(sources_read(dir, "C.java", &f), -1);
    rmdir(path);
    snprintf(path, sizeof path, "%s/A.java", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sources_rel_path__classes__top_level_file_in_package_dir),
        cmocka_unit_test(sources_rel_path__dot_dot__never_leaves_the_dir),
        cmocka_unit_test(sources_read__file__lines_without_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
