/*
 * test_scorer_sign.c - signed profiles and statements (scorer/sign.c): what
 * verifies, what does not, and the key file's rules.
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

#include "sign.h"

static const char BODY[] = "<?xml version=\"1.0\"?>\n<psf-profile version=\"5\" status=\"ok\"/>\n";
static const char FIELDS[] = "classpath_sha256=ab12 method_sha256=cd34 costs_sha256=none";

static void key_of(sign_key *k, uint8_t fill)
{
    memset(k, 0, sizeof *k);
    memset(k->bytes, fill, sizeof k->bytes);
    snprintf(k->id, sizeof k->id, "%016x", fill);
}

static void signed_body(const sign_key *k, unsigned char **out, size_t *len)
{
    psf_err e;
    assert_int_equal(sign_profile(k, (const unsigned char *)BODY, strlen(BODY), FIELDS, out, len, &e), 0);
}

static void sign_check_profile__signed__valid_with_fields(void **state)
{
    sign_key k;
    sign_info info;
    unsigned char *s;
    size_t n;
    (void)state;
    key_of(&k, 7);
    signed_body(&k, &s, &n);
    sign_check_profile(&k, s, n, &info);
    assert_int_equal(info.state, SIGN_VALID);
    assert_string_equal(info.fields, FIELDS);
    assert_int_equal(info.body_len, strlen(BODY));
    assert_memory_equal(s, BODY, strlen(BODY));
    sign_check_profile(NULL, s, n, &info);
    assert_int_equal(info.state, SIGN_UNCHECKED);
    free(s);
}

static void sign_check_profile__any_byte_changed__invalid(void **state)
{
    sign_key k;
    sign_info info;
    unsigned char *s;
    size_t n;
    (void)state;
    key_of(&k, 7);
    signed_body(&k, &s, &n);
    for (size_t i = 0; i < n - 1; i++) {
        s[i] ^= 1;
        sign_check_profile(&k, s, n, &info);
        assert_int_not_equal(info.state, SIGN_VALID);
        s[i] ^= 1;
    }
    free(s);
}

static void sign_check_profile__other_key_or_none__told_apart(void **state)
{
    sign_key k, other;
    sign_info info;
    unsigned char *s;
    size_t n;
    (void)state;
    key_of(&k, 7);
    key_of(&other, 8);
    signed_body(&k, &s, &n);
    sign_check_profile(&other, s, n, &info);
    assert_int_equal(info.state, SIGN_OTHER_KEY);
    sign_check_profile(&k, (const unsigned char *)BODY, strlen(BODY), &info);
    assert_int_equal(info.state, SIGN_UNSIGNED);
    /* a key id that claims to be k's, with another key's MAC */
    memcpy(other.id, k.id, sizeof k.id);
    free(s);
    signed_body(&other, &s, &n);
    sign_check_profile(&k, s, n, &info);
    assert_int_equal(info.state, SIGN_INVALID);
    free(s);
}

static void sign_profile__already_signed__refused(void **state)
{
    sign_key k;
    unsigned char *s, *s2;
    size_t n, n2;
    psf_err e;
    (void)state;
    key_of(&k, 7);
    signed_body(&k, &s, &n);
    assert_int_equal(sign_profile(&k, s, n, FIELDS, &s2, &n2, &e), -1);
    free(s);
}

static void sign_fields_check__bad_tokens__refused(void **state)
{
    psf_err e;
    (void)state;
    assert_int_equal(sign_fields_check("a=1 b_2=x.y+z~w-v", &e), 0);
    assert_int_equal(sign_fields_check("", &e), -1);
    assert_int_equal(sign_fields_check("a=1--2", &e), -1);
    assert_int_equal(sign_fields_check("a=1 ", &e), -1);
    assert_int_equal(sign_fields_check("a=", &e), -1);
    assert_int_equal(sign_fields_check("A=1", &e), -1);
    assert_int_equal(sign_fields_check("a=x>y", &e), -1);
    assert_int_equal(sign_fields_check("hmac_sha256=00", &e), -1);
    assert_int_equal(sign_fields_check("key=00", &e), -1);
}

static void sign_field__lookup__exact_name(void **state)
{
    char v[16];
    (void)state;
    assert_int_equal(sign_field("ab=1 a=2", "a", v, sizeof v), 0);
    assert_string_equal(v, "2");
    assert_int_equal(sign_field("ab=1 a=2", "b", v, sizeof v), -1);
    assert_int_equal(sign_field("a=0123456789abcdef0", "a", v, sizeof v), -1);
}

static void sign_statement__differs_by_key_and_text(void **state)
{
    sign_key k, other;
    char a[65], b[65], c[65];
    (void)state;
    key_of(&k, 1);
    key_of(&other, 2);
    assert_int_equal(sign_statement(&k, "status=ok score=1", a), 0);
    assert_int_equal(sign_statement(&other, "status=ok score=1", b), 0);
    assert_int_equal(sign_statement(&k, "status=ok score=2", c), 0);
    assert_int_equal(strlen(a), 64);
    assert_string_not_equal(a, b);
    assert_string_not_equal(a, c);
}

static void sign_key_load__created_0600_and_open_mode_refused(void **state)
{
    char dir[] = "/tmp/psf-sign-test.XXXXXX", path[64];
    sign_key k, again;
    psf_err e;
    struct stat st;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/key", dir);
    assert_int_equal(sign_key_load(&k, path, 0, &e), -1);
    assert_int_equal(sign_key_load(&k, path, 1, &e), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(sign_key_load(&again, path, 1, &e), 0);
    assert_memory_equal(k.bytes, again.bytes, SIGN_KEY_BYTES);
    assert_string_equal(k.id, again.id);
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(sign_key_load(&again, path, 0, &e), -1);
    assert_int_equal(e.status, ST_USAGE);
    assert_non_null(strstr(e.msg, "chmod 600"));
    assert_int_equal(unlink(path), 0);
    assert_int_equal(sign_key_load(&again, dir, 0, &e), -1);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sign_check_profile__signed__valid_with_fields),
        cmocka_unit_test(sign_check_profile__any_byte_changed__invalid),
        cmocka_unit_test(sign_check_profile__other_key_or_none__told_apart),
        cmocka_unit_test(sign_profile__already_signed__refused),
        cmocka_unit_test(sign_fields_check__bad_tokens__refused),
        cmocka_unit_test(sign_field__lookup__exact_name),
        cmocka_unit_test(sign_statement__differs_by_key_and_text),
        cmocka_unit_test(sign_key_load__created_0600_and_open_mode_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
