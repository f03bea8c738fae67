/*
 * test_scorer_sha256.c - SHA-256 against the FIPS 180-4 example vectors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "sha256.h"

static void check(const char *msg, size_t len, const char *want)
{
    char hex[65];
    sha256_hex(msg, len, hex);
    assert_string_equal(hex, want);
}

static void sha256_hex__standard_vectors__match(void **state)
{
    (void)state;
    check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    check("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
          112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void sha256_hex__million_a__matches(void **state)
{
    char *m = malloc(1000000);
    (void)state;
    memset(m, 'a', 1000000);
    check(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(m);
}

/* A file read to its end, in several reads: the same digest as its bytes. */
static void sha256_fd_hex__file__read_to_its_end(void **state)
{
    char hex[65];
    FILE *f = tmpfile();
    (void)state;
    assert_non_null(f);
    for (int i = 0; i < 1000000; i++)
        fputc('a', f);
    assert_int_equal(fflush(f), 0);
    assert_int_equal(lseek(fileno(f), 0, SEEK_SET), 0);
    assert_int_equal(sha256_fd_hex(fileno(f), hex), 0);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* at its end: the digest of nothing */
    assert_int_equal(sha256_fd_hex(fileno(f), hex), 0);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    fclose(f);
}

/* A descriptor that cannot be read (a directory): -1, no digest. */
static void sha256_fd_hex__unreadable__fails(void **state)
{
    char hex[65] = "x";
    int fd = open("/", O_RDONLY);
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(sha256_fd_hex(fd, hex), -1);
    assert_string_equal(hex, "");
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_hex__standard_vectors__match),
        cmocka_unit_test(sha256_hex__million_a__matches),
        cmocka_unit_test(sha256_fd_hex__file__read_to_its_end),
        cmocka_unit_test(sha256_fd_hex__unreadable__fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
