/*
 * test_scorer_batch.c - psf-score --batch (scorer/batch.c): the requests
 * read from the command line, each run in a child of its own with its
 * stdout and, as asked, its stderr caught, and the answers written in the
 * order asked, "EXIT\nOUTPUT\0" each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "batch.h"

/* The request the children run: each argument is an action.
 *   out:TEXT  TEXT on stdout        err:TEXT  TEXT on stderr
 *   nul       a NUL byte on stdout  sleep     60 ms of sleeping
 *   exit:N    exit code N (else 0)  kill      ended by SIGTERM
 *   in        what stdin holds (up to 63 bytes) on stdout */
static int fake_request(int argc, char **argv)
{
    int code = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "out:", 4) == 0) {
            fputs(a + 4, stdout);
            fflush(stdout);
        } else if (strncmp(a, "err:", 4) == 0) {
            fputs(a + 4, stderr);
        } else if (strcmp(a, "nul") == 0) {
            fputc('\0', stdout);
            fflush(stdout);
        } else if (strcmp(a, "sleep") == 0) {
            struct timespec ts = { 0, 60 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        } else if (strncmp(a, "exit:", 5) == 0) {
            code = atoi(a + 5);
        } else if (strcmp(a, "in") == 0) {
            char in[64];
            ssize_t got = read(STDIN_FILENO, in, sizeof in - 1);
            if (got > 0)
                fwrite(in, 1, (size_t)got, stdout);
            fflush(stdout);
        } else if (strcmp(a, "kill") == 0) {
            fflush(NULL);
            raise(SIGTERM);
        }
    }
    return code;
}

/* What batch_run wrote for the arguments args (after --batch), read back
 * from a temporary file, in buf (len bytes); returns batch_run's result. */
static int run_batch_flags(int nargs, char **args, char *buf, size_t cap, size_t *len, int flags)
{
    batch_req *reqs;
    psf_err err;
    FILE *f = tmpfile();
    int n, rc;

    assert_non_null(f);
    n = batch_parse("psf-score", nargs, args, &reqs, &err);
    assert_true(n >= 0);
    rc = batch_run(reqs, n, fake_request, fileno(f), flags);
    batch_free(reqs, n);
    rewind(f);
    *len = fread(buf, 1, cap, f);
    fclose(f);
    return rc;
}

static int run_batch(int nargs, char **args, char *buf, size_t cap, size_t *len)
{
    return run_batch_flags(nargs, args, buf, cap, len, 0);
}

/* the count and the array of the arguments given */
#define ARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), ((char *[]){ __VA_ARGS__ })

static void batch__parse__counts_modes_and_argv(void **state)
{
    batch_req *reqs;
    psf_err err;
    (void)state;
    int n = batch_parse("psf-score", ARGS("3", "merge", "--init-key", "--key-file", "k", "1", "drop",
                                          "--measure-tsc", "2", "pass", "--", "3"), &reqs, &err);
    assert_int_equal(n, 3);
    assert_int_equal(reqs[0].argc, 4);
    assert_int_equal(reqs[0].err, BATCH_ERR_MERGE);
    assert_string_equal(reqs[0].argv[0], "psf-score");
    assert_string_equal(reqs[0].argv[1], "--init-key");
    assert_string_equal(reqs[0].argv[3], "k");
    assert_null(reqs[0].argv[4]);
    assert_int_equal(reqs[1].argc, 2);
    assert_int_equal(reqs[1].err, BATCH_ERR_DROP);
    assert_string_equal(reqs[1].argv[1], "--measure-tsc");
    assert_null(reqs[1].argv[2]);
    /* a count's arguments are taken as they are, whatever they look like */
    assert_int_equal(reqs[2].argc, 3);
    assert_int_equal(reqs[2].err, BATCH_ERR_PASS);
    assert_string_equal(reqs[2].argv[1], "--");
    assert_string_equal(reqs[2].argv[2], "3");
    batch_free(reqs, n);
    /* no request at all is no error */
    assert_int_equal(batch_parse("psf-score", 0, NULL, &reqs, &err), 0);
    batch_free(reqs, 0);
}

static void batch__parse__bad_requests__usage(void **state)
{
    batch_req *reqs;
    psf_err err;
    (void)state;
    /* more arguments counted than there are */
    assert_int_equal(batch_parse("p", ARGS("3", "merge", "--init-key", "--key-file"), &reqs, &err), -1);
    assert_int_equal(err.status, ST_USAGE);
    assert_string_equal(err.msg, "--batch: request 1: '3' is not a count of the arguments that follow its stderr word");
    /* a count of 0, one that is not a number, one with a sign, none */
    assert_int_equal(batch_parse("p", ARGS("0", "merge", "--help"), &reqs, &err), -1);
    assert_int_equal(batch_parse("p", ARGS("x", "merge", "--help"), &reqs, &err), -1);
    assert_int_equal(batch_parse("p", ARGS("+1", "merge", "--help"), &reqs, &err), -1);
    assert_int_equal(batch_parse("p", ARGS("", "merge", "--help"), &reqs, &err), -1);
    assert_int_equal(batch_parse("p", ARGS("99999999999999999999", "merge", "--help"), &reqs, &err), -1);
    /* a second request that is cut short, after a good one */
    assert_int_equal(batch_parse("p", ARGS("1", "merge", "--help", "1"), &reqs, &err), -1);
    assert_string_equal(err.msg, "--batch: request 2: '1' is not a count of the arguments that follow its stderr word");
    /* a stderr word that is none of the three */
    assert_int_equal(batch_parse("p", ARGS("1", "keep", "--help"), &reqs, &err), -1);
    assert_string_equal(err.msg, "--batch: request 1: stderr 'keep' is not merge, pass, drop or files");
    /* files without its two paths and an argument */
    assert_int_equal(batch_parse("p", ARGS("1", "files", "out", "--help"), &reqs, &err), -1);
    assert_string_equal(err.msg, "--batch: request 1: '1' is not a count of the arguments that follow its stderr word");
    /* no batch inside a batch */
    assert_int_equal(batch_parse("p", ARGS("1", "merge", "--batch"), &reqs, &err), -1);
    assert_string_equal(err.msg, "--batch: request 1 is a --batch itself");
}

static void batch__run__answers_in_order_with_exit_codes(void **state)
{
    char buf[512];
    size_t len;
    (void)state;
    /* the first request takes longest: its answer still comes first */
    assert_int_equal(run_batch(ARGS("3", "merge", "sleep", "out:slow\n", "exit:7",
                                    "2", "merge", "out:a\nb\n\n", "err:oops\n",
                                    "1", "drop", "kill"), buf, sizeof buf, &len), 0);
    static const char want[] = "7\nslow\n\0" "0\na\nb\n\noops\n\0" "143\n\0";
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(buf, want, len);
}

static void batch__run__stderr_dropped_or_passed(void **state)
{
    char buf[256], errbuf[64];
    size_t len;
    FILE *errs = tmpfile();
    int saved = dup(STDERR_FILENO);
    (void)state;
    assert_non_null(errs);
    assert_true(saved >= 0);
    /* the test's own stderr is a file while the batch runs: what "pass" passes lands there */
    fflush(stderr);
    assert_int_equal(dup2(fileno(errs), STDERR_FILENO), STDERR_FILENO);
    int rc = run_batch(ARGS("2", "drop", "out:x", "err:dropped\n", "2", "pass", "err:passed\n", "exit:3"),
                       buf, sizeof buf, &len);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    assert_int_equal(rc, 0);
    static const char want[] = "0\nx\0" "3\n\0";
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(buf, want, len);
    rewind(errs);
    size_t elen = fread(errbuf, 1, sizeof errbuf - 1, errs);
    errbuf[elen] = '\0';
    fclose(errs);
    assert_string_equal(errbuf, "passed\n");
}

static void batch__run__nul_bytes_left_out(void **state)
{
    char buf[128];
    size_t len;
    (void)state;
    assert_int_equal(run_batch(ARGS("3", "merge", "out:a", "nul", "out:b"), buf, sizeof buf, &len), 0);
    static const char want[] = "0\nab\0";
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(buf, want, len);
}


static void batch__parse__files_paths(void **state)
{
    batch_req *reqs;
    psf_err err;
    (void)state;
    int n = batch_parse("psf-score", ARGS("2", "files", "o.txt", "e.txt", "--json", "p.xml", "1", "merge", "x"),
                        &reqs, &err);
    assert_int_equal(n, 2);
    assert_int_equal(reqs[0].err, BATCH_ERR_FILES);
    assert_string_equal(reqs[0].out_path, "o.txt");
    assert_string_equal(reqs[0].err_path, "e.txt");
    assert_int_equal(reqs[0].argc, 3);
    assert_string_equal(reqs[0].argv[1], "--json");
    assert_string_equal(reqs[0].argv[2], "p.xml");
    assert_null(reqs[0].argv[3]);
    assert_int_equal(reqs[1].err, BATCH_ERR_MERGE);
    assert_null(reqs[1].out_path);
    assert_string_equal(reqs[1].argv[1], "x");
    batch_free(reqs, n);
}

/* the whole of file path, in buf */
static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static void batch__run__files_take_stdout_and_stderr(void **state)
{
    char dir[] = "/tmp/psf-batch-test.XXXXXX", out[64], err[64], nodir[80], buf[128], got[64];
    size_t len;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    snprintf(nodir, sizeof nodir, "%s/none/out", dir);
    /* what was in the files before is gone, as with >OUT 2>ERR */
    FILE *f = fopen(out, "w");
    assert_non_null(f);
    fputs("old text, longer than the new\n", f);
    fclose(f);
    assert_int_equal(run_batch(ARGS("3", "files", out, err, "out:new\n", "err:said\n", "exit:5",
                                    "1", "files", nodir, err, "out:never",
                                    "1", "merge", "out:after"), buf, sizeof buf, &len), 0);
    /* files: an answer with its exit code and no output; a file that cannot
     * be made: no answer, the request not run; the next one as ever */
    static const char want[] = "5\n\0" "\0" "0\nafter\0";
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(buf, want, len);
    slurp(out, got, sizeof got);
    assert_string_equal(got, "new\n");
    slurp(err, got, sizeof got);
    assert_string_equal(got, "said\n");
    assert_int_equal(access(nodir, F_OK), -1);
    unlink(out);
    unlink(err);
    rmdir(dir);
}

static void batch__run__stdin_null(void **state)
{
    char buf[128];
    size_t len;
    int p[2], saved = dup(STDIN_FILENO);
    (void)state;
    assert_true(saved >= 0);
    /* the batch's stdin holds "secret": a child reads it, unless BATCH_STDIN_NULL */
    for (int flags = 0; flags <= BATCH_STDIN_NULL; flags += BATCH_STDIN_NULL) {
        assert_int_equal(pipe(p), 0);
        assert_int_equal(write(p[1], "secret", 6), 6);
        close(p[1]);
        assert_int_equal(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
        close(p[0]);
        int rc = run_batch_flags(ARGS("1", "merge", "in"), buf, sizeof buf, &len, flags);
        dup2(saved, STDIN_FILENO);
        assert_int_equal(rc, 0);
        if (flags) {
            assert_int_equal(len, 3);
            assert_memory_equal(buf, "0\n\0", 3);
        } else {
            assert_int_equal(len, 9);
            assert_memory_equal(buf, "0\nsecret\0", 9);
        }
    }
    close(saved);
}

/* batch_read_words of the len bytes in, into *words */
static int read_words(const char *in, size_t len, size_t max, char ***words)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], in, len), (ssize_t)len);
    close(p[1]);
    int n = batch_read_words(p[0], max, words);
    close(p[0]);
    return n;
}

static void batch__read_words__up_to_an_empty_word(void **state)
{
    char **w;
    (void)state;
    /* the words up to the empty one; what follows it is not read as words */
    static const char two[] = "1\0merge\0--help\0\0" "9\0x\0";
    assert_int_equal(read_words(two, sizeof two - 1, 1024, &w), 3);
    assert_string_equal(w[0], "1");
    assert_string_equal(w[1], "merge");
    assert_string_equal(w[2], "--help");
    assert_null(w[3]);
    free(w);
    /* the end of the input ends them too */
    assert_int_equal(read_words("a\0b\0", 4, 1024, &w), 2);
    assert_string_equal(w[1], "b");
    free(w);
    /* nothing, or an empty word first: no words */
    assert_int_equal(read_words("", 0, 1024, &w), 0);
    free(w);
    assert_int_equal(read_words("\0a\0", 3, 1024, &w), 0);
    free(w);
    /* a word cut short by the end, more than max bytes: refused */
    assert_int_equal(read_words("a\0bc", 4, 1024, &w), -1);
    assert_null(w);
    assert_int_equal(read_words("abc\0def\0\0", 9, 7, &w), -1);
    assert_null(w);
    assert_int_equal(read_words("abc\0def\0\0", 9, 8, &w), 2);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch__parse__counts_modes_and_argv),
        cmocka_unit_test(batch__parse__bad_requests__usage),
        cmocka_unit_test(batch__run__answers_in_order_with_exit_codes),
        cmocka_unit_test(batch__run__stderr_dropped_or_passed),
        cmocka_unit_test(batch__run__nul_bytes_left_out),
        cmocka_unit_test(batch__parse__files_paths),
        cmocka_unit_test(batch__run__files_take_stdout_and_stderr),
        cmocka_unit_test(batch__run__stdin_null),
        cmocka_unit_test(batch__read_words__up_to_an_empty_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
