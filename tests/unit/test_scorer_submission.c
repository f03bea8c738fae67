/*
 * test_scorer_submission.c - the submission's digests (scorer/submission.c):
 * the class path's listing, byte for byte the text get_score.sh hashed with
 * find, sort and sha256sum, and the five signed fields.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
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

#include "submission.h"

static char root[64];
static char cwd[4096];

static void put(const char *path, const char *bytes)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, strlen(bytes), f), strlen(bytes));
    assert_int_equal(fclose(f), 0);
}

/* root/j.jar and root/dir, as the reference listing below was taken of:
 * files with a backslash and a newline in their names (escaped as sha256sum
 * escapes them), an empty file, a subdirectory, an empty directory, a FIFO
 * (neither file nor link), and two links, one with newlines in its name and
 * target (cut into lines and sorted as sort sorts them). */
static int make_tree(void **state)
{
    (void)state;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(root, sizeof root, "/tmp/psf-test-submission.XXXXXX");
    assert_non_null(mkdtemp(root));
    assert_int_equal(chdir(root), 0);
    assert_int_equal(mkdir("dir", 0755), 0);
    assert_int_equal(mkdir("dir/sub", 0755), 0);
    assert_int_equal(mkdir("dir/sub2", 0755), 0);
    assert_int_equal(mkdir("j", 0755), 0);
    assert_int_equal(mkdir("j/bin", 0755), 0);
    put("dir/a.class", "A");
    put("dir/empty.class", "");
    put("dir/sub/b", "x");
    put("dir/back\\slash", "x");
    put("dir/new\nline", "x");
    assert_int_equal(symlink("a.class", "dir/link1"), 0);
    assert_int_equal(symlink("t\nu", "dir/li\nnk"), 0);
    assert_int_equal(mkfifo("dir/fifo", 0644), 0);
    put("j.jar", "jar");
    put("j/release", "JAVA_VERSION=\"17.0.15\"\n");
    return 0;
}

static int remove_tree(void **state)
{
    char cmd[128];
    (void)state;
    assert_int_equal(chdir(cwd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static const char LISTING[] =
    "file 0163f1eea7894350060624d315234d40c508ab251ba121714e234503045faadd\n"
    "dir\n"
    "559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd  ./a.class\n"
    "\\2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881  ./back\\\\slash\n"
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  ./empty.class\n"
    "\\2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881  ./new\\nline\n"
    "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881  ./sub/b\n"
    "link ./li\n"
    "link ./link1 -> a.class\n"
    "nk -> t\n"
    "u\n";

static void listing__jar_and_directory__find_sort_sha256sum_text(void **state)
{
    char *text;
    size_t len;
    psf_err err;
    (void)state;
    assert_int_equal(submission_classpath_listing("j.jar:dir", &text, &len, stderr, &err), 0);
    assert_string_equal(text, LISTING);
    assert_int_equal(len, strlen(LISTING));
    free(text);
    /* empty entries are no entries */
    assert_int_equal(submission_classpath_listing(":j.jar::dir:", &text, &len, stderr, &err), 0);
    assert_string_equal(text, LISTING);
    free(text);
}

static void listing__missing_entry__dir_alone_and_said(void **state)
{
    char *text, *msgs = NULL;
    size_t len, mlen = 0;
    psf_err err;
    FILE *errs = open_memstream(&msgs, &mlen);
    (void)state;
    assert_non_null(errs);
    /* (get_score.sh resolves every entry first; one that went away since
     * lists as a directory that cannot be entered, as cd failed on it) */
    assert_int_equal(submission_classpath_listing("gone", &text, &len, errs, &err), 0);
    assert_int_equal(fclose(errs), 0);
    assert_string_equal(text, "dir\n");
    assert_string_equal(msgs, "psf-score: gone: No such file or directory\n");
    free(text);
    free(msgs);
}

static void digests__five_fields__sha256_of_each_input(void **state)
{
    char out[SUBMISSION_DIGESTS_LEN];
    char *args[] = { "a", "-b c" };
    submission s = { .classpath = "j.jar:dir", .main_class = "Main", .method = "Main.run",
                     .jdk = "j/bin/java", .args = args, .n_args = 2 };
    psf_err err;
    (void)state;
    assert_int_equal(submission_digests(&s, out, sizeof out, stderr, &err), 0);
    assert_string_equal(out,
        "classpath_sha256=47447d87ba48d0998590ac77b5c1129f75ae0d4fed5122b2c9fffbb987f3b262"
        " main_sha256=eb814be3ca3b78c0734c560518be2a03e8d8f6e7e26447224cc7c7b105e1193e"
        " method_sha256=623f88c3679bb857e668de399c0d8970a21ae3044cc8931edbe3b16687599b3e"
        " args_sha256=07bc0d7e4636311d0974b202a21430f9bc05f883eec300552c996297afa67527"
        " jdk_sha256=773e3c10329b50b900d2eac60c1610c3bcc96ed59409743992717391e2940e94");
    /* no arguments: the digest of nothing; no release file: the path alone */
    s.n_args = 0;
    s.jdk = "/nonexistent-psf/bin/java";
    assert_int_equal(submission_digests(&s, out, sizeof out, stderr, &err), 0);
    assert_non_null(strstr(out, " args_sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 "));
    assert_non_null(strstr(out, " jdk_sha256=55a558e5666b66fb2686672e17573158a9ba7350fd236d1ee9f91f27fbc6a1d6"));
}

static void digests__small_buffer__fails(void **state)
{
    char out[100];
    submission s = { .classpath = "dir", .main_class = "M", .method = "M.m", .jdk = "/j", .args = NULL, .n_args = 0 };
    psf_err err;
    (void)state;
    assert_int_equal(submission_digests(&s, out, sizeof out, stderr, &err), -1);
    assert_int_equal(err.status, ST_INTERNAL_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(listing__jar_and_directory__find_sort_sha256sum_text),
        cmocka_unit_test(listing__missing_entry__dir_alone_and_said),
        cmocka_unit_test(digests__five_fields__sha256_of_each_input),
        cmocka_unit_test(digests__small_buffer__fails),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
