/* Unit tests for common/mac.c: authenticated result records. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dlfcn.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mac.h"

static uint8_t key[MAC_KEY_BYTES];

/*
 * A seam for counting the receiver's work: mac.c computes every HMAC with
 * libcrypto's EVP_Q_mac, and this definition, linked into the test binary,
 * takes the call, counts it and the bytes it hashes, and hands it to the real
 * one. The tests then assert the work, not the time it takes.
 */
static size_t hmac_calls, hmac_bytes;

unsigned char *EVP_Q_mac(OSSL_LIB_CTX *libctx, const char *name, const char *propq, const char *subalg,
                         const OSSL_PARAM *params, const void *k, size_t keylen, const unsigned char *data,
                         size_t datalen, unsigned char *out, size_t outsize, size_t *outlen)
{
    typedef unsigned char *q_mac_fn(OSSL_LIB_CTX *, const char *, const char *, const char *, const OSSL_PARAM *,
                                    const void *, size_t, const unsigned char *, size_t, unsigned char *, size_t,
                                    size_t *);
    static q_mac_fn *real;
    if (real == NULL) {
        void *sym = dlsym(RTLD_NEXT, "EVP_Q_mac");
        if (sym == NULL)
            abort();
        memcpy(&real, &sym, sizeof real);
    }
    hmac_calls++;
    hmac_bytes += datalen;
    return real(libctx, name, propq, subalg, params, k, keylen, data, datalen, out, outsize, outlen);
}

static void count_reset(void)
{
    hmac_calls = 0;
    hmac_bytes = 0;
}

static int setup(void **state)
{
    (void)state;
    for (int i = 0; i < MAC_KEY_BYTES; i++)
        key[i] = (uint8_t)i;
    return 0;
}

/* Known answer from an independent implementation (Python's hmac module). */
static void mac_compute__known_vector__matches(void **state)
{
    (void)state;
    uint8_t out[MAC_BYTES];
    assert_int_equal(mac_compute(key, "<psf-profile/>", 14, out), 0);
    char hex[65];
    for (int i = 0; i < MAC_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", out[i]);
    assert_string_equal(hex, "3a29a2d3c801e8d9a0648017f2621aaa8d547ea36fa930946161011fd486a56f");
}

static size_t make_record(char *buf, const char *body)
{
    int n = mac_header(key, body, strlen(body), buf);
    assert_true(n > 0);
    memcpy(buf + n, body, strlen(body));
    return (size_t)n + strlen(body);
}

static void mac_find_record__amid_garbage__found(void **state)
{
    (void)state;
    char stream[1024];
    size_t n = (size_t)sprintf(stream, "PSF-RESULT 1 5 %064d\nfake!{\"score\":1}", 0);
    n += make_record(stream + n, "<psf-profile status=\"ok\"/>");
    n += (size_t)sprintf(stream + n, "trailing PSF-RESULT 1 9");
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), 0);
    assert_int_equal(len, 26);
    assert_memory_equal(body, "<psf-profile status=\"ok\"/>", 26);
}

static void mac_find_record__tampered_body__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<psf-profile work=\"100\"/>");
    stream[n - 6] = '9'; /* 100 -> 900 */
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -1);
}

static void mac_find_record__wrong_key__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<x/>");
    uint8_t other[MAC_KEY_BYTES];
    memcpy(other, key, sizeof other);
    other[0] ^= 1;
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(other, (const uint8_t *)stream, n, &body, &len), -1);
}

static void mac_find_record__two_records__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<a/>");
    n += make_record(stream + n, "<b/>");
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -2);
}

static void mac_find_record__every_truncation__never_found(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<psf-profile/>");
    const uint8_t *body;
    size_t len;
    for (size_t cut = 0; cut < n; cut++)
        assert_int_equal(mac_find_record(key, (const uint8_t *)stream, cut, &body, &len), -1);
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), 0);
}

static void mac_find_record__huge_length__rejected(void **state)
{
    (void)state;
    char stream[256];
    size_t n = (size_t)sprintf(stream, "PSF-RESULT 1 99999999999999999999999 %064d\n<x/>", 0);
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -1);
}

/* A forged header (all-zero MAC) claiming a body that runs to the end of a
 * stream of total bytes, written at s + pos; the length is zero-padded so
 * every forged header is FORGED_HEADER bytes. Returns its length. */
#define FORGED_HEADER (sizeof "PSF-RESULT 1 0000000000 " - 1 + 2 * MAC_BYTES + 1)
static size_t forge_header(char *s, size_t pos, size_t total)
{
    int n = sprintf(s + pos, "PSF-RESULT 1 %010zu %064d\n", total - pos - FORGED_HEADER, 0);
    assert_int_equal(n, FORGED_HEADER);
    return (size_t)n;
}

/* `forged` forged headers, each claiming the rest of the stream, then the
 * genuine record, then a line of program noise. Returns the stream's length;
 * *s is malloc'd. */
static const char GENUINE[] = "<psf-profile status=\"ok\"><summary work=\"42\"/></psf-profile>";
static const char NOISE[] = "Exception in thread \"main\" PSF-RESULT 1 12 not a header\n";
static size_t forged_then_genuine(size_t forged, char **s)
{
    char rec[MAC_HEADER_MAX + sizeof GENUINE];
    size_t rl = make_record(rec, GENUINE);
    size_t total = forged * FORGED_HEADER + rl + strlen(NOISE);
    *s = malloc(total + 1);
    assert_non_null(*s);
    size_t n = 0;
    for (size_t i = 0; i < forged; i++)
        n += forge_header(*s, n, total);
    memcpy(*s + n, rec, rl);
    n += rl;
    memcpy(*s + n, NOISE, strlen(NOISE));
    n += strlen(NOISE);
    assert_int_equal(n, total);
    return n;
}

/* F9: back-to-back forged headers, each claiming the rest of the stream, used
 * to cost an HMAC apiece over ever shorter tails: quadratic work (hours for a
 * 64 MiB stream). Now at most MAC_MAX_CANDIDATES headers are checked and the
 * stream, being tampered with, yields no record even though the genuine one
 * is at its end. */
static void mac_find_record__flood_of_forged_headers__bounded_work_no_record(void **state)
{
    (void)state;
    char *s;
    size_t n = forged_then_genuine(2000, &s);
    const uint8_t *body;
    size_t len;
    count_reset();
    int rc = mac_find_record(key, (const uint8_t *)s, n, &body, &len);
    assert_in_range(hmac_calls, 1, MAC_MAX_CANDIDATES);
    assert_in_range(hmac_bytes, 0, (size_t)MAC_MAX_CANDIDATES * n);
    assert_int_equal(rc, -1);
    free(s);
}

/* Fewer forged headers than the cap do not hide the genuine record, and all of
 * them were checked (so this sits right at the limit). */
static void mac_find_record__forged_headers_below_cap__found(void **state)
{
    (void)state;
    char *s;
    size_t n = forged_then_genuine(MAC_MAX_CANDIDATES - 1, &s);
    const uint8_t *body;
    size_t len;
    count_reset();
    assert_int_equal(mac_find_record(key, (const uint8_t *)s, n, &body, &len), 0);
    assert_int_equal(len, strlen(GENUINE));
    assert_memory_equal(body, GENUINE, len);
    assert_int_equal(hmac_calls, MAC_MAX_CANDIDATES);
    free(s);
}

/* One forged header more and the stream counts as tampered with: no record. */
static void mac_find_record__forged_headers_at_cap__rejected(void **state)
{
    (void)state;
    char *s;
    size_t n = forged_then_genuine(MAC_MAX_CANDIDATES, &s);
    const uint8_t *body;
    size_t len;
    count_reset();
    assert_int_equal(mac_find_record(key, (const uint8_t *)s, n, &body, &len), -1);
    assert_int_equal(hmac_calls, MAC_MAX_CANDIDATES);
    free(s);
}

/* Ordinary noise costs no HMAC, however much of it there is: text that merely
 * starts like a header, headers with a bad MAC field, and headers claiming
 * more than the stream holds are rejected before hashing, so thousands of
 * them around the record still leave it found with a single HMAC. */
static void mac_find_record__lots_of_cheap_junk__found_with_one_hmac(void **state)
{
    (void)state;
    enum { COPIES = 1000 };
    char rec[MAC_HEADER_MAX + sizeof GENUINE];
    size_t rl = make_record(rec, GENUINE);
    char junk[512];
    size_t jl = (size_t)sprintf(junk, "%sPSF-RESULT 1 5 %064d\nPSF-RESULT 1 9999999 %064d\n{\"score\":1}\n", NOISE, 0, 0);
    memset(junk + strlen(NOISE) + 15, 'z', 1); /* the first header's MAC is not hex */
    size_t total = 2 * COPIES * jl + rl;
    char *s = malloc(total);
    assert_non_null(s);
    size_t n = 0;
    for (int i = 0; i < COPIES; i++, n += jl)
        memcpy(s + n, junk, jl);
    memcpy(s + n, rec, rl);
    n += rl;
    for (int i = 0; i < COPIES; i++, n += jl)
        memcpy(s + n, junk, jl);
    assert_int_equal(n, total);
    const uint8_t *body;
    size_t len;
    count_reset();
    assert_int_equal(mac_find_record(key, (const uint8_t *)s, n, &body, &len), 0);
    assert_memory_equal(body, GENUINE, strlen(GENUINE));
    assert_int_equal(hmac_calls, 1);
    free(s);
}

static void mac_key_from_hex__forms__parsed_or_rejected(void **state)
{
    (void)state;
    uint8_t k[MAC_KEY_BYTES];
    const char *good = "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F\n";
    assert_int_equal(mac_key_from_hex(good, strlen(good), k), 0);
    assert_memory_equal(k, key, MAC_KEY_BYTES);
    assert_int_equal(mac_key_from_hex(good, 63, k), -1);
    assert_int_equal(mac_key_from_hex("zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", 64, k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mac_compute__known_vector__matches),
        cmocka_unit_test(mac_find_record__amid_garbage__found),
        cmocka_unit_test(mac_find_record__tampered_body__rejected),
        cmocka_unit_test(mac_find_record__wrong_key__rejected),
        cmocka_unit_test(mac_find_record__two_records__rejected),
        cmocka_unit_test(mac_find_record__every_truncation__never_found),
        cmocka_unit_test(mac_find_record__huge_length__rejected),
        cmocka_unit_test(mac_find_record__flood_of_forged_headers__bounded_work_no_record),
        cmocka_unit_test(mac_find_record__forged_headers_below_cap__found),
        cmocka_unit_test(mac_find_record__forged_headers_at_cap__rejected),
        cmocka_unit_test(mac_find_record__lots_of_cheap_junk__found_with_one_hmac),
        cmocka_unit_test(mac_key_from_hex__forms__parsed_or_rejected),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
